//! `smash` is a struct option.
use absinthe::lattice;

#[lattice(smash)]
#[derive(Clone)]
enum Const {
    Bottom,
    Value(i64),
    Top,
}

fn main() {}
