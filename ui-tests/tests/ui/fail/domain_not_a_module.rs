//! `#[absinthe::domain]` reads an inline module.
use absinthe::lattice::{Flat, Interval};

#[absinthe::domain]
pub struct Value {
    pub constant: Flat<i64>,
    pub interval: Interval,
}

fn main() {}
