//! The library's enums as clap values: each by its name (`ALL`, `name()`), with a help
//! line. Clap's `ValueEnum` cannot be implemented here for them (they belong to other
//! crates of the workspace), so their flags take this value parser instead of `value_enum`.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// A parser accepting exactly the names of `all` (`--help` lists each with `help`), giving
/// the value so named.
pub fn one_of<T: Copy + Send + Sync + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
    help: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(all.iter().map(move |&v| PossibleValue::new(name(v)).help(help(v)))).try_map(
        move |given: String| {
            all.iter().copied().find(|&v| name(v) == given).ok_or_else(|| format!("not one of the values: {given}"))
        },
    )
}
