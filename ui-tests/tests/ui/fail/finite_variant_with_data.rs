//! The variants of a finite lattice carry no data.
use absinthe::lattice;

#[lattice(order = "Low < High")]
#[derive(Clone)]
enum Level {
    Low,
    High(u8),
}

fn main() {}
