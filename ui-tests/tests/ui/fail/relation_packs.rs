//! A relational component's packs hold between 1 and 64 names.
#[absinthe::domain]
mod value {
    use absinthe::lattice::Interval;
    use absinthe::relational::{Bounds, Octagon};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        #[lattice(value_domain)]
        pub range: Interval,
        #[lattice(relation(packs = 0))]
        pub octagon: Bounds<Octagon>,
    }
}

fn main() {}
