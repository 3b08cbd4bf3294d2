//! `product = …` names a product of the module.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(literal, product = Valeu)]
    pub fn literal(c: i64) -> Interval {
        Interval::constant(c)
    }
}

fn main() {}
