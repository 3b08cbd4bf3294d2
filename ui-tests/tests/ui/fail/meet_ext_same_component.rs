//! A reduction refines one component with another, not with itself.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::meet_ext]
    pub fn interval_from_interval(i: &Interval, j: &Interval) -> Interval {
        let _ = j;
        *i
    }
}

fn main() {}
