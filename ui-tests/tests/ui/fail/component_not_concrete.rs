//! A component says which integers it contains (`Concrete`), so the product can too.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice]
    #[derive(Clone)]
    pub struct Pair {
        pub interval: Interval,
    }

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub pair: Pair,
    }
}

fn main() {}
