//! Rules belong to a product declared in the same module.
#[absinthe::domain]
mod value {
    use absinthe::lattice::Interval;

    #[absinthe::transfer(literal)]
    pub fn literal(c: i64) -> Interval {
        Interval::constant(c)
    }
}

fn main() {}
