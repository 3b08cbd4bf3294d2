//! `normalize` applies to structs only, and must be `fn(&Self) -> Self`: one error each.
use absinthe::lattice;

#[lattice(normalize = Two::same)]
#[derive(Clone, Copy)]
enum Two {
    #[lattice(below(Top))]
    Bottom,
    Top,
}

impl Two {
    fn same(&self) -> Two {
        *self
    }
}

#[lattice(normalize = Pair::first)]
#[derive(Clone, Copy)]
struct Pair {
    a: absinthe::lattice::Interval,
    b: absinthe::lattice::Interval,
}

impl Pair {
    fn first(&self) -> absinthe::lattice::Interval {
        self.a
    }
}

fn main() {}
