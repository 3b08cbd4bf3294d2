//! A parameter rule takes the parameter first, then the value it is bound to.
#[absinthe::domain]
mod value {
    use absinthe::terms::ParamId;
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(param)]
    pub fn bound_value(bound: &Value, x: ParamId) -> Interval {
        let _ = x;
        bound.interval
    }
}

fn main() {}
