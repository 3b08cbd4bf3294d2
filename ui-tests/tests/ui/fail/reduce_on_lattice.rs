//! `reduce` is an option of a product.
use absinthe::lattice;
use absinthe::lattice::{Flat, Interval};

#[lattice(reduce = "once")]
#[derive(Clone)]
struct Value {
    constant: Flat<i64>,
    interval: Interval,
}

fn main() {}
