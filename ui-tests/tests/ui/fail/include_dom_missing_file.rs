//! A `.dom` file that does not exist.
absinthe::include_dom!("tests/ui/dom/nowhere.dom");

fn main() {}
