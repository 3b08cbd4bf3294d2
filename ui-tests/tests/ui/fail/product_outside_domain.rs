//! A product is declared with its rules, inside a `#[absinthe::domain]` module.
use absinthe::lattice::{Flat, Interval};

#[absinthe::lattice(product)]
#[derive(Clone)]
struct Value {
    constant: Flat<i64>,
    interval: Interval,
}

fn main() {}
