//! A `.dom` file with a syntax error: the error shows the place in the `.dom` file.
absinthe::include_dom!("tests/ui/dom/syntax_error.dom");

fn main() {}
