//! Limits on every request: rate limits per IP address and per token (a token bucket each,
//! refilled evenly over a minute; over it: 429 with `Retry-After`, answered by
//! [`super::router`]'s middleware), and the strict
//! security headers every response carries (no scripts, styles, frames or referrers unless
//! a page says otherwise; the pages' own CSP comes with them), and the `Cache-Control` of
//! every response ([`cache_control`]: `no-store`, but for a response marked [`Cacheable`]:
//! the icon).

use std::net::IpAddr;
use std::num::NonZeroU32;

use axum::http::{HeaderName, HeaderValue};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::token::token_hash;

/// Keys kept by each limiter before idle ones are dropped.
const MAX_KEYS: usize = 10_000;

/// The two rate limiters.
pub struct RateLimits {
    per_ip: DefaultKeyedRateLimiter<IpAddr>,
    per_token: DefaultKeyedRateLimiter<String>,
}

impl RateLimits {
    /// Limiters allowing `per_ip` and `per_token` requests a minute (bursts up to that).
    pub fn new(per_ip: u32, per_token: u32) -> RateLimits {
        let quota = |n: u32| Quota::per_minute(NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN));
        RateLimits { per_ip: RateLimiter::keyed(quota(per_ip)), per_token: RateLimiter::keyed(quota(per_token)) }
    }

    /// Counts a request from `ip` with `token` (`None`: none) against both limits.
    /// Errors: the seconds to wait (rounded up) when either limit is spent.
    pub fn admit(&self, ip: IpAddr, token: Option<&str>) -> Result<(), u64> {
        if self.per_ip.len() > MAX_KEYS {
            self.per_ip.retain_recent();
        }
        if self.per_token.len() > MAX_KEYS {
            self.per_token.retain_recent();
        }
        let clock = governor::clock::DefaultClock::default();
        let wait = |e: governor::NotUntil<_>| {
            use governor::clock::Clock;
            e.wait_time_from(clock.now()).as_secs() + 1
        };
        self.per_ip.check_key(&ip).map_err(wait)?;
        if let Some(t) = token {
            self.per_token.check_key(&token_hash(t)).map_err(wait)?;
        }
        Ok(())
    }
}

/// A response browsers may keep, with its `Cache-Control` (a response extension set by its
/// handler: the icon's).
#[derive(Debug, Clone)]
pub struct Cacheable(pub HeaderValue);

/// The `Cache-Control` of `response`, replacing any a handler set: `no-store` (pages and
/// answers change with every game and differ by who asks; a live stream's `no-cache`
/// included), or the value of a response marked [`Cacheable`].
pub fn cache_control<B>(response: &axum::http::Response<B>) -> Option<HeaderValue> {
    let marked = response.extensions().get::<Cacheable>().map(|c| c.0.clone());
    Some(marked.unwrap_or(HeaderValue::from_static("no-store")))
}

/// The headers set on every response, replacing a handler's own (the
/// Content-Security-Policy is the pages' own, [`mjai_sim_pages::site::CSP`], on every
/// answer, JSON included). `Cache-Control` is not among them: [`cache_control`].
pub fn security_headers() -> Vec<(HeaderName, HeaderValue)> {
    let h = |name: &'static str, value: &'static str| (HeaderName::from_static(name), HeaderValue::from_static(value));
    vec![
        h("content-security-policy", mjai_sim_pages::site::CSP),
        h("x-content-type-options", "nosniff"),
        h("x-frame-options", "DENY"),
        h("referrer-policy", "no-referrer"),
        h("cross-origin-opener-policy", "same-origin"),
        h("cross-origin-resource-policy", "same-origin"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_answer_is_no_store_but_a_cacheable_one() {
        let plain = axum::http::Response::new(());
        assert_eq!(cache_control(&plain).unwrap(), "no-store");
        // a handler's own header (a live stream's `no-cache`) is replaced
        let mut stream = axum::http::Response::new(());
        stream.headers_mut().insert("cache-control", HeaderValue::from_static("no-cache"));
        assert_eq!(cache_control(&stream).unwrap(), "no-store");
        let mut icon = axum::http::Response::new(());
        icon.extensions_mut().insert(Cacheable(HeaderValue::from_static("public, max-age=86400")));
        assert_eq!(cache_control(&icon).unwrap(), "public, max-age=86400");
    }
}
