//! Settings the declared engine does not read: the escape engine keeps heap states of its own
//! (no `state`) and has no bound on sets of constants (no `immediates`).
#[absinthe::analysis(
    domain = absinthe::lattice::Interval,
    engine = "escape",
    state = "sparse",
    immediates = 4
)]
pub struct Escape;

fn main() {}
