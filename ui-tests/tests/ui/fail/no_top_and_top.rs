//! `no_top` and a written-out top contradict each other.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice(no_top, top = full)]
#[derive(Clone)]
struct Range {
    range: Interval,
}

fn full() -> Range {
    Range {
        range: Interval::top(),
    }
}

fn main() {}
