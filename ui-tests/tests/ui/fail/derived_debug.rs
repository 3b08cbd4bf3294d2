//! `Debug` prints ⊥ and ⊤, so `#[lattice]` writes it.
use absinthe::lattice;

#[lattice]
#[derive(Clone, Debug)]
enum Const {
    Bottom,
    Value(i64),
    Top,
}

fn main() {}
