//! An enum lattice needs variants.
use absinthe::lattice;

#[lattice]
#[derive(Clone)]
enum Nothing {}

fn main() {}
