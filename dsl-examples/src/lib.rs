//! Analyses written with absinthe's declarative front ends (`#[lattice]` items and `.dom` files).
//! The examples arrive with the macros and `.dom` issues; the crate exists so the workspace has
//! its final shape.
