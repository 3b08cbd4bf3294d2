//! An ignored field is created with `Default`, so its type has one.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[derive(Clone, Debug)]
struct Tag(&'static str);

#[lattice]
#[derive(Clone)]
struct Tagged {
    range: Interval,
    #[lattice(ignore)]
    tag: Tag,
}

fn main() {}
