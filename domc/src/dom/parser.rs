//! The `.dom` grammar (`grammar.pest`) as pest's parser and its `Rule`s, shared by the parsing
//! (`syntax.rs`) and the words its syntax errors use (`syntax_errors.rs`); neither leaves the
//! front end.

/// The parser pest derives from `grammar.pest`.
#[derive(pest_derive::Parser)]
#[grammar = "dom/grammar.pest"]
pub(super) struct DomParser;

/// How deeply a file may nest: every rule entered counts one level, and so does every operator
/// of a chain (`a + b + c` is two levels deep in the syntax tree) and every prefix operator.
/// Every later phase recurses over the tree; the limit bounds the stack they need
/// (see `STACK` in `dom/mod.rs`).
pub const MAX_NESTING: usize = 1000;
