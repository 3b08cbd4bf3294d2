//! Two components of one type: a rule says which one it computes.
#[absinthe::domain]
mod value {
    use absinthe::lattice::Interval;

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        pub signed: Interval,
        pub unsigned: Interval,
    }

    #[absinthe::transfer(literal)]
    pub fn literal(c: i64) -> Interval {
        Interval::constant(c)
    }
}

fn main() {}
