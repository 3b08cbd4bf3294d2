//! A branch rule returns both refined operands.
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
    pub fn less(a: &Value, b: &Value) -> Interval {
        let _ = b;
        a.interval
    }
}

fn main() {}
