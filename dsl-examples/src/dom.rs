//! Analyses written as `.dom` files (`dsl-examples/dom/`), compiled by `build.rs` with
//! `absinthe_domc::Builder` and included here.

include!(concat!(env!("OUT_DIR"), "/const_prop.rs"));
include!(concat!(env!("OUT_DIR"), "/signs.rs"));
include!(concat!(env!("OUT_DIR"), "/disjunctive.rs"));
include!(concat!(env!("OUT_DIR"), "/seed.rs"));
include!(concat!(env!("OUT_DIR"), "/interval.rs"));
include!(concat!(env!("OUT_DIR"), "/bounds.rs"));
include!(concat!(env!("OUT_DIR"), "/sccp_ranges.rs"));
include!(concat!(env!("OUT_DIR"), "/types.rs"));
include!(concat!(env!("OUT_DIR"), "/induction.rs"));
include!(concat!(env!("OUT_DIR"), "/dependence.rs"));
include!(concat!(env!("OUT_DIR"), "/strictness.rs"));
include!(concat!(env!("OUT_DIR"), "/typing_env.rs"));
include!(concat!(env!("OUT_DIR"), "/escape.rs"));
include!(concat!(env!("OUT_DIR"), "/shape.rs"));
include!(concat!(env!("OUT_DIR"), "/congruence.rs"));
include!(concat!(env!("OUT_DIR"), "/octagon.rs"));
include!(concat!(env!("OUT_DIR"), "/liveness.rs"));
include!(concat!(env!("OUT_DIR"), "/needed.rs"));
