//! A rule for every operation reads which one it is first.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }

    #[absinthe::transfer(binary)]
    pub fn any(a: &Value, b: &Value, c: &Value) -> Interval {
        let _ = (b, c);
        a.interval
    }
}

fn main() {}
