//! Two elements with two minimal upper bounds: not a lattice.
use absinthe::lattice;

#[lattice(order = "Bot < A < C < Top, Bot < B < D < Top, A < D, B < C")]
#[derive(Clone)]
enum Diamond {
    Bot,
    A,
    B,
    C,
    D,
    Top,
}

fn main() {}
