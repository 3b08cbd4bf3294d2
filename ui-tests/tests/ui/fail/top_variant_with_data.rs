//! The top of a flat lattice is a unit variant.
use absinthe::lattice;

#[lattice]
#[derive(Clone)]
enum Const {
    Bottom,
    Value(i64),
    Top(i64),
}

fn main() {}
