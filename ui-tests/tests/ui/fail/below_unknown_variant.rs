//! `below(…)` names variants of the same enum.
use absinthe::lattice;

#[lattice]
#[derive(Clone)]
enum Level {
    #[lattice(below(Mdi))]
    Low,
    #[lattice(below(High))]
    Mid,
    High,
}

fn main() {}
