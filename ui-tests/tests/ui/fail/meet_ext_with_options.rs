//! `#[meet_ext]` takes no options: the parameter types say what it refines.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::meet_ext(target = interval)]
    pub fn interval_from_constant(i: &Interval, c: &Flat<i64>) -> Interval {
        let _ = c;
        *i
    }
}

fn main() {}
