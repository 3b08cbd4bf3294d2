//! An order with a cycle is not an order.
use absinthe::lattice;

#[lattice(order = "Low < Mid < High < Mid")]
#[derive(Clone)]
enum Level {
    Low,
    Mid,
    High,
}

fn main() {}
