//! An operation rule reads the kinds of both operands or of none.
#[absinthe::domain]
mod value {
    use absinthe::terms::ArgKind;
    use absinthe::lattice::{Flat, Interval};
    use absinthe::program::Op;

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(binary)]
    pub fn any(op: Op, a: &Value, b: &Value, ka: ArgKind) -> Interval {
        let _ = (op, b, ka);
        a.interval
    }
}

fn main() {}
