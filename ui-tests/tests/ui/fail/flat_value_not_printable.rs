//! The values of a flat lattice are compared and printed.
use absinthe::lattice;

#[derive(Clone, PartialEq, Eq, Debug)]
struct Opaque(u8);

#[lattice]
#[derive(Clone)]
enum Const {
    Bottom,
    Value(Opaque),
    Top,
}

fn main() {}
