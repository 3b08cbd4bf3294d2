//! A lattice has one bottom.
use absinthe::lattice;

#[lattice]
#[derive(Clone)]
enum Const {
    #[lattice(bottom)]
    Nothing,
    #[lattice(bottom)]
    Empty,
    Value(i64),
    Top,
}

fn main() {}
