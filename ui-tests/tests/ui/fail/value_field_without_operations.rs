//! A plain-value field: the struct's operations cannot be derived, so they are written out.
use absinthe::lattice;

#[lattice(join = Range::hull)]
#[derive(Clone)]
struct Range {
    #[lattice(value)]
    low: i64,
    #[lattice(value)]
    high: i64,
}

impl Range {
    fn hull(&self, other: &Range) -> Range {
        Range {
            low: self.low.min(other.low),
            high: self.high.max(other.high),
        }
    }
}

fn main() {}
