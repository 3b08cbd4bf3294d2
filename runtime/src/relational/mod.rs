//! Relational numeric domains: constraints between variables, not only on each one.
//! [`Zone`] keeps `x - y ≤ c`, [`Octagon`] also `x + y ≤ c` and `-x - y ≤ c`; both keep each
//! variable's bounds and meet every state with the box of 64-bit values. [`Relational`] is what
//! they offer alike, and [`Packed`] keeps one of them per group of related names
//! ([`Partition`]), so that unrelated names cost nothing.

mod analysis;
mod bound;
mod chunks;
mod dispatch;
mod domain;
mod explain;
mod kind;
mod octagon;
mod pack;
mod paths;
mod view;
mod zone;

pub use analysis::{BoundsReduction, DomainBounds, IntervalBounds, RelState, WithRelation};
pub use dispatch::ForRelation;
pub use domain::{Constraint, Relational, implied_bounds};
pub use explain::{Derivation, combine, explain};
pub use kind::{Relation, RelationKind};
pub use octagon::Octagon;
pub use pack::{Packed, Partition, copy_within, linear};
pub use view::{Bounds, RelationView, RelationalComponent};
pub use zone::Zone;
