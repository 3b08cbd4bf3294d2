//! A flat lattice needs a bottom variant.
use absinthe::lattice;

#[lattice]
#[derive(Clone)]
enum Const {
    Value(i64),
    Top,
}

fn main() {}
