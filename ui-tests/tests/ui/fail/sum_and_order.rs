//! A sum and an explicit order contradict each other.
use absinthe::lattice;

#[lattice(sum, order = "Bottom < Top")]
#[derive(Clone)]
enum Both {
    Bottom,
    Top,
}

fn main() {}
