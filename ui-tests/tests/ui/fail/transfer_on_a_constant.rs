//! `#[transfer]` marks a function.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(literal)]
    pub const ZERO: i64 = 0;
}

fn main() {}
