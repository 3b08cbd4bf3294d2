//! Analyses written with absinthe's declarative front ends.
//!
//! - [`seed`]: the Green Fairy's Interval and Const domains, their reduced product with a
//!   `meet_ext` reduction and the `+` transfer, and a finite disjunction of intervals.
//! - [`signs`]: signs × parities × intervals × constants, with the direct product of the same
//!   components for comparison.
//! - [`relational`]: intervals × congruences × an octagon, the octagon a relational component
//!   the engines keep over each function's names.
//!
//! - [`dom`]: the same kinds of analysis written as `.dom` files and compiled by `build.rs`, and
//!   the behavior-graph tasks of the Harvard suite (types, basic induction parameters, useless
//!   parameters, strictness).
//!
//! Every product here is a `ValueDomain`, so the runtime's non-relational analysis runs it over
//! toy programs and the core IR, and `absinthe analyze --analysis NAME` knows it.

pub mod disjunctive;
pub mod dom;
pub mod relational;
pub mod seed;
pub mod signs;
