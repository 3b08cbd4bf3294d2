//! `#[lattice]` declares a type.
use absinthe::lattice;

#[lattice]
fn join() {}

fn main() {}
