//! absinthe's procedural macros: a thin shell over the shared model and generator of
//! `absinthe-domc`.
//!
//! - `#[lattice]` on a struct or an enum: [`lattice`] parses it into the model and generates the
//!   lattice impls.
//! - `#[absinthe::domain]` on an inline module: [`domain`] reads the reduced products, the
//!   `#[meet_ext]` reductions and the `#[transfer]` rules declared in it, checks them together,
//!   and generates the products.
//! - `include_dom!("dom/x.dom")`: [`include_dom`] compiles a `.dom` file with `absinthe-domc`
//!   and expands to the generated module, reporting the file's diagnostics as compile errors.
//! - `#[meet_ext]` and `#[transfer]` only mark functions inside such a module; on their own they
//!   report where they belong.
//!
//! Each macro goes syn → model → check → expand; on an error it still emits the item (and a
//! stub implementation) so the user sees the one error that matters.

mod analysis;
mod args;
mod bounds;
mod domain;
mod errors;
mod include_dom;
mod lattice;
mod rule_kind;

use proc_macro::TokenStream;

/// Declares a lattice on a struct (the pointwise product of its fields) or an enum (flat, finite
/// or a sum of lattices). See the book's chapter "Declaring domains".
#[proc_macro_attribute]
pub fn lattice(args: TokenStream, item: TokenStream) -> TokenStream {
    lattice::expand(args.into(), item.into()).into()
}

/// Reads the reduced products, reductions and transfer rules of an inline module and generates
/// the products.
#[proc_macro_attribute]
pub fn domain(args: TokenStream, item: TokenStream) -> TokenStream {
    domain::expand(args.into(), item.into()).into()
}

/// Declares an analysis on a unit struct: its value domain, whether conditions are evaluated,
/// and how states are stored (`state = "dense" | "sparse" | "sparse-temporal" | "ssa"`).
#[proc_macro_attribute]
pub fn analysis(args: TokenStream, item: TokenStream) -> TokenStream {
    analysis::expand(args.into(), item.into()).into()
}

/// Marks a reduction `fn(&Target, &Source) -> Target` inside a `#[absinthe::domain]` module.
#[proc_macro_attribute]
pub fn meet_ext(args: TokenStream, item: TokenStream) -> TokenStream {
    errors::misplaced("meet_ext", args.into(), item.into()).into()
}

/// Marks a transfer rule inside a `#[absinthe::domain]` module.
#[proc_macro_attribute]
pub fn transfer(args: TokenStream, item: TokenStream) -> TokenStream {
    errors::misplaced("transfer", args.into(), item.into()).into()
}

/// Compiles a `.dom` file, whose path is relative to the invoking crate's `Cargo.toml`, and
/// expands to the module it generates: `absinthe::include_dom!("dom/interval.dom");` defines
/// `mod interval`. Cargo rebuilds the crate when the file or one it imports changes. A test
/// harness that builds in a crate of its own (trybuild) sets `CARGO_MANIFEST_DIR_OVERRIDE` to
/// the directory the paths are relative to.
#[proc_macro]
pub fn include_dom(input: TokenStream) -> TokenStream {
    include_dom::expand(input.into()).into()
}
