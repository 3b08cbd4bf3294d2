//! An option `#[transfer]` does not have: the error suggests the closest one.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(opp = "+")]
    pub fn add(a: &Value, b: &Value) -> Interval {
        let _ = b;
        a.interval
    }
}

fn main() {}
