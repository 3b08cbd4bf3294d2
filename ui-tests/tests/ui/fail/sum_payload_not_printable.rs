//! The payloads of a sum are printed with the sum.
use absinthe::lattice;

/// A lattice that prints itself only with `Debug`.
#[lattice(no_display)]
#[derive(Clone)]
struct Quiet {
    range: absinthe::lattice::Interval,
}

#[lattice(sum)]
#[derive(Clone)]
enum Tagged {
    Bottom,
    Int(Quiet),
    Top,
}

fn main() {}
