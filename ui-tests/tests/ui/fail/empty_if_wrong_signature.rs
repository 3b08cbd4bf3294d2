//! `empty_if` names `fn(&Self) -> bool`.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice(empty_if = is_empty)]
#[derive(Clone)]
struct Range {
    range: Interval,
}

fn is_empty(r: Range) -> bool {
    let _ = r;
    false
}

fn main() {}
