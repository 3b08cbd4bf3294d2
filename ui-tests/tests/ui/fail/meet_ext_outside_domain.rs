//! `#[meet_ext]` belongs inside a `#[absinthe::domain]` module.
use absinthe::lattice::{Flat, Interval};

#[absinthe::meet_ext]
fn interval_from_constant(i: &Interval, c: &Flat<i64>) -> Interval {
    let _ = c;
    *i
}

fn main() {}
