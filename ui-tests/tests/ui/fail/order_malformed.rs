//! The order is a list of chains `A < B < C`.
use absinthe::lattice;

#[lattice(order = "Low < Mid <")]
#[derive(Clone)]
enum Level {
    Low,
    Mid,
    High,
}

fn main() {}
