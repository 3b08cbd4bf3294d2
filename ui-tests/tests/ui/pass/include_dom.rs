//! `include_dom!` compiles a `.dom` file into a module: its lattices, product and analysis are
//! ordinary Rust items, without warnings, and the product is a value domain.
#![deny(warnings)]

use absinthe::lattice::Lattice;
use absinthe::value::{Concrete, ValueDomain};

absinthe::include_dom!("tests/ui/dom/parity.dom");

use parity::{Const, Parity, Value};

fn main() {
    let two = Value::constant(2);
    assert!(two.parity == Parity::Even);
    assert!(two.constant == Const::Value(2));
    assert!(two.contains(2) && !two.contains(3));
    let either = two.join(&Value::constant(3));
    assert!(either.parity == Parity::Top && either.contains(5));
}
