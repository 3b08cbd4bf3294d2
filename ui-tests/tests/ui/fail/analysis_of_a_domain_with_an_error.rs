//! A mistake in the domain (two rules for one operation) is one error: the analysis declared
//! over the domain adds none of its own.
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
    pub fn add(a: &Value, b: &Value) -> Interval {
        let _ = b;
        a.interval
    }

    #[absinthe::transfer(op = "+")]
    pub fn add_again(a: &Value, b: &Value) -> Interval {
        let _ = a;
        b.interval
    }
}

#[absinthe::analysis(domain = value::Value)]
pub struct Values;

fn main() {}
