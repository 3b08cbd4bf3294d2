//! A summand carries a lattice.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice(sum)]
#[derive(Clone)]
enum Tagged {
    Bottom,
    Int(Interval),
    Name(String),
    Top,
}

fn main() {}
