//! A rule is for one kernel-term hook.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(cond, apply)]
    pub fn either(a: &Value, b: &Value) -> Interval {
        let _ = b;
        a.interval
    }
}

fn main() {}
