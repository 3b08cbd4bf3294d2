//! `include_dom!` takes the path of a `.dom` file as a string literal.
absinthe::include_dom!(tests/ui/dom/parity.dom);

fn main() {}
