//! A literal rule takes the literal as an `i64`.
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
    pub fn literal(v: &Value) -> Interval {
        v.interval
    }
}

fn main() {}
