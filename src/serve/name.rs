//! A bot's name as an author may choose it, checked at the edge: letters, digits, `-`, `_`
//! and `.`, 1 to [`MAX_NAME_CHARS`] characters, not starting with `.` (so no `..`, `/`,
//! HTML or control characters ever reach the store, a path or a page).

use std::fmt;

/// Longest bot name, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// [`BotName`]'s rules as a regular expression (the OpenAPI document's pattern of `{name}`).
pub const NAME_PATTERN: &str = "^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,39}$";

/// A checked bot name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BotName(String);

impl BotName {
    /// Checks `text`. Errors: a one-line reason naming the rule.
    pub fn parse(text: &str) -> Result<BotName, String> {
        let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
        if text.is_empty() || text.len() > MAX_NAME_CHARS {
            return Err(format!("a bot name has 1 to {MAX_NAME_CHARS} characters"));
        }
        if !text.chars().all(ok) || text.starts_with('.') {
            return Err("a bot name uses letters, digits, `-`, `_` and `.` (not first), e.g. my-bot_2".into());
        }
        Ok(BotName(text.to_string()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for BotName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        for good in ["alice", "my-bot_2", "v1.2", "A"] {
            assert_eq!(BotName::parse(good).unwrap().as_str(), good);
        }
        for bad in ["", "../x", "a/b", "<b>x</b>", ".hidden", "a b", "alice#2", "é", &"x".repeat(41)] {
            assert!(BotName::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_documented_pattern_has_the_names_length() {
        let rest = MAX_NAME_CHARS - 1; // the first character has its own class
        assert_eq!(NAME_PATTERN, format!("^[A-Za-z0-9_-][A-Za-z0-9_.-]{{0,{rest}}}$"));
    }
}
