//! absinthe's bench binary: prints throughput figures for the engines.

fn main() {}
