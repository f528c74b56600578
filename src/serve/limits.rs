//! Limits on every request: rate limits per IP address and per token (a token bucket each,
//! refilled evenly over a minute; over it: 429 with `Retry-After`, answered by
//! [`super::router`]'s middleware), and the strict
//! security headers every response carries (no scripts, styles, frames or referrers unless
//! a page says otherwise; the pages' own CSP comes with them).

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

/// The headers set on every response (the Content-Security-Policy is the pages' own,
/// [`mjai_sim_pages::site::CSP`], on every answer, JSON included).
pub fn security_headers() -> Vec<(HeaderName, HeaderValue)> {
    let h = |name: &'static str, value: &'static str| (HeaderName::from_static(name), HeaderValue::from_static(value));
    vec![
        h("content-security-policy", mjai_sim_pages::site::CSP),
        h("x-content-type-options", "nosniff"),
        h("x-frame-options", "DENY"),
        h("referrer-policy", "no-referrer"),
        h("cross-origin-opener-policy", "same-origin"),
        h("cross-origin-resource-policy", "same-origin"),
        h("cache-control", "no-store"),
    ]
}
