//! `(cond p a b)`'s rule takes the predicate and both branches.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval, Lattice};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(cond)]
    pub fn choose(a: &Value, b: &Value) -> Interval {
        a.interval.join(&b.interval)
    }
}

fn main() {}
