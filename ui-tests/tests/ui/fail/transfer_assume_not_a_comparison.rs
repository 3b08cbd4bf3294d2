//! A branch assumes a comparison.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(assume = "+")]
    pub fn plus(a: &Value, b: &Value) -> (Interval, Interval) {
        (a.interval, b.interval)
    }
}

fn main() {}
