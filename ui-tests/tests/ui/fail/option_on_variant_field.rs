//! Options mark an enum's variants, not the data they carry.
use absinthe::lattice;

#[lattice]
#[derive(Clone)]
enum Const {
    Bottom,
    Value(#[lattice(ignore)] i64),
    Top,
}

fn main() {}
