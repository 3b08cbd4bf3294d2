//! In a finite lattice the order decides the bottom.
use absinthe::lattice;

#[lattice(order = "Low < High")]
#[derive(Clone)]
enum Level {
    #[lattice(bottom)]
    Low,
    High,
}

fn main() {}
