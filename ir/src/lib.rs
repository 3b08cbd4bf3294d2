//! absinthe's program representations: the core IR with its text format, the toy instruction
//! language of the graph-free data-flow article, and concrete interpreters for both.
//!
//! Text goes through [`parse_module`] or [`parse_toy`] (or [`load_file`], which picks by file
//! extension) into a [`Module`] or a [`ToyProgram`]; [`interp`] runs them and [`generate`] makes
//! random and benchmark-shaped programs.
//!
//! ```
//! use absinthe_ir::interp::{run, Limits, NoObserver, Outcome, Value};
//!
//! let text = "fn main(n) {\nbb0:\n    m = n * 2\n    ret m\n}\n";
//! let module = absinthe_ir::parse_module("double.air", text)?;
//! let main = module.func_id("main").unwrap();
//! let result = run(&module, main, &[21], &Limits::default(), &mut NoObserver);
//! assert_eq!(result.outcome, Outcome::Returned(Some(Value::Int(42))));
//! assert_eq!(absinthe_ir::print_module(&module), text);
//! # Ok::<(), absinthe_ir::ParseError>(())
//! ```

pub mod air;
pub mod error;
pub mod escape_check;
pub mod escape_text;
pub mod function;
pub mod generate;
pub mod heap_check;
pub mod interp;
mod interproc;
pub mod kernel;
pub mod optimize;
pub mod shape_check;
pub mod ssa;
pub mod toy;

use std::path::Path;

pub use air::print::print_module;
pub use air::{parse_module, parse_module_all};
pub use error::ParseError;
pub use function::{Block, Function, Module};
pub use toy::{Instr, PROG0, PcMap, ToyExpr, ToyProgram, parse_toy, parse_toy_all};

/// A program read by [`load_file`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loaded {
    /// A `.toy` file.
    Toy(ToyProgram),
    /// Any other file, read as core IR.
    Air(Module),
}

/// Reads and parses `path`: the toy parser for a `.toy` extension, the core IR parser otherwise.
///
/// An unreadable file is reported as an error at 1:1.
pub fn load_file(path: impl AsRef<Path>) -> Result<Loaded, ParseError> {
    let path = path.as_ref();
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ParseError {
        file: file.clone(),
        line: 1,
        col: 1,
        message: format!("cannot read the file: {e}"),
        expected: None,
    })?;
    if path.extension().is_some_and(|e| e == "toy") {
        parse_toy(&file, &text).map(Loaded::Toy)
    } else {
        parse_module(&file, &text).map(Loaded::Air)
    }
}
