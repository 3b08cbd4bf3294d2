//! The library behind the `absinthe` command: the registry of analyses, the drivers that run
//! them on toy programs and core-IR modules, the text and JSON renderers, and the `.dom` tools
//! (`dom check`, and `dom build`'s standalone crate).
//!
//! `main.rs` only parses arguments and prints; everything a test needs is here.

pub mod analyses;
pub mod dom;
pub mod driver;
pub mod render;
pub mod verify;
