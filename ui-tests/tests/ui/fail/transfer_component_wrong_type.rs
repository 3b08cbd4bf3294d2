//! `component = …` names a component of the type the rule returns.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(literal, component = constant)]
    pub fn literal(c: i64) -> Interval {
        Interval::constant(c)
    }
}

fn main() {}
