//! A `#[lattice]` enum takes no generic parameters, and a struct takes type parameters only.
use absinthe::lattice;
use absinthe::lattice::Flat;

#[lattice]
#[derive(Clone)]
enum Maybe<T> {
    Bottom,
    Value(T),
    Top,
}

#[lattice]
#[derive(Clone)]
struct Borrowed<'a, const N: usize> {
    value: Flat<&'a str>,
}

fn main() {}
