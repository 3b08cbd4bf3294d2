//! An analysis says which value domain it runs.
#[absinthe::analysis(state = "sparse")]
pub struct Intervals;

fn main() {}
