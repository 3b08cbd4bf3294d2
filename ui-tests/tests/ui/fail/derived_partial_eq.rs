//! Equality must agree with the order, so `#[lattice]` writes it.
use absinthe::lattice;
use absinthe::lattice::Parity;

#[lattice]
#[derive(Clone, PartialEq)]
struct P {
    parity: Parity,
}

fn main() {}
