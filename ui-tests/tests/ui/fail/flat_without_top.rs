//! A flat lattice needs a top variant.
use absinthe::lattice;

#[lattice]
#[derive(Clone)]
enum Const {
    Bottom,
    Value(i64),
}

fn main() {}
