//! A reduction between domains that are not both components of a product.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval, Parity};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::meet_ext]
    pub fn interval_from_parity(i: &Interval, p: &Parity) -> Interval {
        let _ = p;
        *i
    }
}

fn main() {}
