//! A `meet_ext` naming a type that is not there: one error, at the type, with the component
//! type it most likely means.
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
    pub fn interval_from_constant(i: &Intervall, c: &Flat<i64>) -> Interval {
        match c {
            Flat::Value(v) => Interval::constant(*v),
            _ => *i,
        }
    }
}

fn main() {}
