//! An analysis runs a value domain: a type that implements `ValueDomain`.
#[absinthe::analysis(domain = String)]
pub struct Names;

fn main() {}
