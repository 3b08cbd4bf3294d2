//! A `#[lattice]` enum takes no generic parameters (a struct does).
use absinthe::lattice;

#[lattice]
#[derive(Clone)]
enum Maybe<T> {
    Bottom,
    Value(T),
    Top,
}

fn main() {}
