//! `relation(…)` marks a component whose type is `Bounds<Octagon>` or `Bounds<Zone>`.
#[absinthe::domain]
mod value {
    use absinthe::lattice::Interval;

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        #[lattice(relation(packs = 8))]
        pub range: Interval,
    }
}

fn main() {}
