//! A rule computes a component: its return type names one.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    use absinthe::lattice::Parity;

    #[absinthe::transfer(op = "+")]
    pub fn add(a: &Value, b: &Value) -> Parity {
        let _ = (a, b);
        Parity::Top
    }
}

fn main() {}
