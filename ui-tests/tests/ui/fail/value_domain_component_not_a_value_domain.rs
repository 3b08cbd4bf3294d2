//! `value_domain` falls back on the component type's own `ValueDomain`, so the type needs one.
#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Names};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub constant: Flat<i64>,
        #[lattice(value_domain)]
        pub names: Names,
    }
}

fn main() {}
