//! The library behind the `absinthe` command: the registry of analyses, the drivers that run
//! them on toy programs and core-IR modules, and the text and JSON renderers.
//!
//! `main.rs` only parses arguments and prints; everything a test needs is here.

pub mod analyses;
pub mod driver;
pub mod render;
pub mod verify;
