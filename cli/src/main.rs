//! The `absinthe` command line.

fn main() {}
