//! A product is declared for concrete components.
#[absinthe::domain]
mod value {
    use absinthe::lattice::Flat;

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value<T> {
        pub constant: Flat<i64>,
        pub other: T,
    }
}

fn main() {}
