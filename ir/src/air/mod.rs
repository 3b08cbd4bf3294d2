//! The core IR text format (`.air`): parsing in two phases (`syntax` then `sema`) and the
//! canonical printer ([`mod@print`]).
//!
//! [`parse_module`] strings the phases together; see the book's "Core IR" chapter for the format.

mod sema;
mod syntax;

pub mod print;

use crate::error::ParseError;
use crate::function::Module;

/// Parses `.air` text, reporting every error of the first phase that fails.
///
/// `file` is only used in error positions.
pub fn parse_module_all(file: &str, text: &str) -> Result<Module, Vec<ParseError>> {
    let funcs = syntax::parse(file, text).map_err(|e| vec![e])?;
    sema::resolve(file, text, &funcs)
}

/// Parses `.air` text, reporting the first error.
pub fn parse_module(file: &str, text: &str) -> Result<Module, ParseError> {
    parse_module_all(file, text).map_err(|errors| {
        errors.into_iter().next().unwrap_or_else(|| ParseError {
            file: file.to_string(),
            line: 1,
            col: 1,
            message: "invalid module".to_string(),
            expected: None,
        })
    })
}
