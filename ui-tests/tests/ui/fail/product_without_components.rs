//! A product has components.
#[absinthe::domain]
mod value {
    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {}
}

fn main() {}
