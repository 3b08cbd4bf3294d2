//! The command line's integration tests: one module per file of this directory, all in one test
//! binary (`cargo test -p absinthe-cli --test all`; a module's alone: `--test all dom_cli::`)
//! but for `book` and `llvm`, whose outcome depends on the `llvm` feature (`tests/features.rs`).
//! One binary links once, and the analyses the files share are compiled once, where one binary
//! per file linked 28 times and compiled them again in each; see `cli/Cargo.toml`.

mod common;

mod backward;
mod blame_lines;
mod cli;
mod declared_spec;
mod declared_state;
mod dom_bounds;
mod dom_cli;
mod dom_examples;
mod dom_interp;
mod dom_run;
mod escape;
mod fixed_width;
mod heap;
mod hosted;
mod imports;
mod interproc;
mod kernel;
mod kernel_context;
mod liveness;
mod lsp;
mod new_crate;
mod optimize;
mod planted_bugs;
mod products;
mod prog0;
mod random_air;
mod random_toy;
mod relational;
mod shape;
mod sparse;
mod ssa;
mod tidy;
mod trace;
mod trace_heap;
mod trace_relational;
mod typing_env;
mod verify;
mod viewer;
