//! A module with several products: a rule says which one it belongs to.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Small {
        pub interval: Interval,
    }

    #[absinthe::transfer(literal)]
    pub fn literal(c: i64) -> Interval {
        Interval::constant(c)
    }
}

fn main() {}
