//! A function's value as a term depends on nothing: its rule takes no parameter.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(function)]
    pub fn closure(v: &Value) -> Interval {
        v.interval
    }
}

fn main() {}
