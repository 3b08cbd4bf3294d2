//! `#[absinthe::domain]` takes no options: the products inside say everything.
#[absinthe::domain(reduce = "once")]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub interval: Interval,
    }
}

fn main() {}
