//! A kind of naked number the typing environment does not know.
#[absinthe::analysis(
    domain = absinthe::lattice::Interval,
    engine = "typing_env",
    numbers = "float 4, double 8"
)]
pub struct Typing;

fn main() {}
