//! Figures as the pages print them: fixed decimals, intervals in brackets, empty when
//! there is no figure (no games).

/// `2.413 [2.300, 2.530]` with `digits` decimals; the interval left out when unknown,
/// nothing at all without a value.
pub fn with_ci(value: Option<f64>, ci: Option<[f64; 2]>, digits: usize) -> String {
    let Some(v) = value else { return String::new() };
    match ci {
        Some([lo, hi]) => format!("{v:.digits$} [{lo:.digits$}, {hi:.digits$}]"),
        None => format!("{v:.digits$}"),
    }
}

/// The interval as a `data-ci` attribute holds it: `low high`, full precision.
pub fn ci_attr(ci: Option<[f64; 2]>) -> Option<String> {
    ci.map(|[lo, hi]| format!("{lo} {hi}"))
}

/// `27.31 ± 1.20`: a Weng-Lin rating μ ± σ.
pub fn mu_sigma(mu: f64, sigma: f64) -> String {
    format!("{mu:.2} ± {sigma:.2}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_print_with_their_interval_or_alone() {
        assert_eq!(with_ci(Some(2.4133), Some([2.3, 2.53]), 3), "2.413 [2.300, 2.530]");
        assert_eq!(with_ci(Some(-1.5), None, 2), "-1.50");
        assert_eq!(with_ci(None, Some([1.0, 2.0]), 2), "");
        assert_eq!(ci_attr(Some([1.85, 2.4])).as_deref(), Some("1.85 2.4"));
        assert_eq!(mu_sigma(27.314, 1.2), "27.31 ± 1.20");
    }
}
