//! A union is neither a product of lattices nor a choice between them.
use absinthe::lattice;

#[lattice]
#[derive(Clone, Copy)]
union Bits {
    int: i64,
    float: f64,
}

fn main() {}
