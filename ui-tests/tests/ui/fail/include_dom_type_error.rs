//! A `.dom` file with a type error: the error shows the place in the `.dom` file.
absinthe::include_dom!("tests/ui/dom/mismatch.dom");

fn main() {}
