//! A branch rule refines both operands in the same component.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(assume = "<")]
    pub fn less(a: &Value, b: &Value) -> (Interval, Flat<i64>) {
        (a.interval, b.constant.clone())
    }
}

fn main() {}
