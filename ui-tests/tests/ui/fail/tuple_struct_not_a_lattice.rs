//! A tuple struct's field that is not a lattice is reported at its type.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice(no_top)]
#[derive(Clone)]
struct Tagged(Interval, Vec<u8>);

fn main() {}
