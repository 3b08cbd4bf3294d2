//! Every component of a product takes part in its order.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        #[lattice(ignore)]
        pub interval: Interval,
    }
}

fn main() {}
