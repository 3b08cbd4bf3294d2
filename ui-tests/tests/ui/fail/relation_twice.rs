//! A product has at most one relational component.
#[absinthe::domain]
mod value {
    use absinthe::relational::{Bounds, Octagon, Zone};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        #[lattice(relation(packs = 8))]
        pub octagon: Bounds<Octagon>,
        #[lattice(relation(packs = 4))]
        pub zone: Bounds<Zone>,
    }
}

fn main() {}
