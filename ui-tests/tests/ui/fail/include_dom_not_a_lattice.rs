//! A `.dom` lattice whose fields are not lattices: every diagnostic is reported, with its help.
absinthe::include_dom!("tests/ui/dom/not_a_lattice.dom");

fn main() {}
