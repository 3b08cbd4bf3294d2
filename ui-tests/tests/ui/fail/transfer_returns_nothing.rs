//! A rule returns the component it computes.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(op = "+")]
    pub fn add(a: &Value, b: &Value) {
        let _ = (a, b);
    }
}

fn main() {}
