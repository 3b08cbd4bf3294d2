//! A reduction in place refines its `&mut` target and returns nothing.
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
    pub fn interval_from_constant(i: &mut Interval, c: &Flat<i64>) -> Interval {
        let _ = c;
        *i
    }
}

fn main() {}
