//! A summand carries one lattice.
use absinthe::lattice;
use absinthe::lattice::{Interval, Parity};

#[lattice(sum)]
#[derive(Clone)]
enum Tagged {
    Bottom,
    Int(Interval, Parity),
    Top,
}

fn main() {}
