//! An operation rule reads its operands' kinds by value.
#[absinthe::domain]
mod value {
    use absinthe::terms::ArgKind;
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(op = "+")]
    pub fn add(a: &Value, b: &Value, ka: ArgKind, kb: &ArgKind) -> Interval {
        let _ = (b, ka, kb);
        a.interval
    }
}

fn main() {}
