//! The order names a variant that does not exist.
use absinthe::lattice;

#[lattice(order = "Bot < Mid < Tpo")]
#[derive(Clone)]
enum Chain {
    Bot,
    Mid,
    Top,
}

fn main() {}
