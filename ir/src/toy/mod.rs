//! The toy instruction language of the graph-free data-flow article (`.toy` files): numbered
//! instructions with assignments, `@goto N` and `COND && @goto N`.
//!
//! This module holds the built-in sample [`PROG0`] and the parsers; `program` the program type,
//! its printer and its lowering to a core IR function with a [`PcMap`] from instruction numbers
//! to places; `syntax` the grammar's tree walk.

mod program;
mod syntax;

pub use program::{Instr, PcMap, ToyExpr, ToyProgram};

use crate::error::ParseError;

/// The sample program of the article: `x` counts to 10, `r` is `y + z` or `z + y`.
pub const PROG0: &str = "\
x = 1            # I0
y = 2            # I1
z = 3            # I2
@goto 8          # I3
r = y + z        # I4
x <= z && @goto 7   # I5
r = z + y        # I6
x = x + 1        # I7
x < 10 && @goto 4   # I8
";

/// Parses toy text, reporting every error found. `file` only appears in error positions.
pub fn parse_toy_all(file: &str, text: &str) -> Result<ToyProgram, Vec<ParseError>> {
    syntax::parse_all(file, text)
}

/// Parses toy text, reporting the first error.
pub fn parse_toy(file: &str, text: &str) -> Result<ToyProgram, ParseError> {
    parse_toy_all(file, text).map_err(|errors| {
        errors
            .into_iter()
            .next()
            .expect("a failed parse reports at least one error")
    })
}

/// The parsed [`PROG0`].
pub fn prog0() -> ToyProgram {
    parse_toy("prog0.toy", PROG0)
        .unwrap_or_else(|e| unreachable!("the built-in sample does not parse: {e}"))
}
