//! A variant is the bottom or the top, not both.
use absinthe::lattice;

#[lattice]
#[derive(Clone)]
enum Const {
    Bottom,
    Value(i64),
    #[lattice(bottom, top)]
    Both,
}

fn main() {}
