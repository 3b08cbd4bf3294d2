//! An option a variant's `#[lattice(…)]` does not have.
use absinthe::lattice;

#[lattice]
#[derive(Clone)]
enum Const {
    #[lattice(bottm)]
    Nothing,
    Value(i64),
    Top,
}

fn main() {}
