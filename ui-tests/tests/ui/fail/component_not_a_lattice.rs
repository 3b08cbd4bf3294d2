//! A component of a product is a lattice.
#[absinthe::domain]
mod value {
    use absinthe::lattice::Flat;

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        pub count: u32,
    }
}

fn main() {}
