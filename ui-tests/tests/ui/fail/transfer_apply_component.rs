//! An application's rule sees the operator and the result as the whole product.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(apply)]
    pub fn call(operator: &Value, result: &Interval) -> Interval {
        let _ = operator;
        *result
    }
}

fn main() {}
