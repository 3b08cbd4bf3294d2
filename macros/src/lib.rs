//! absinthe's procedural macros: a thin shell that will parse `#[lattice]` items into the shared
//! model and call the shared generator. The macros themselves arrive with the macros issue; the
//! crate exists so the workspace has its final shape.
