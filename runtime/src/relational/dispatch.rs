//! The one place a [`RelationKind`] becomes a type: [`Relation::dispatch`] runs a
//! [`ForRelation`] with [`Octagon`] or [`Zone`], for every engine that keeps a relation (the
//! command line's flow driver and the LLVM front end's per-function analysis alike).

use super::domain::Relational;
use super::kind::{Relation, RelationKind};
use super::octagon::Octagon;
use super::zone::Zone;

/// Something to run with the relational domain a [`Relation`] names, as a type: what
/// [`Relation::dispatch`] calls. Every engine that keeps a relation picks [`Octagon`] or
/// [`Zone`] from [`RelationKind`] through it, so the choice is made in one place.
pub trait ForRelation {
    /// What the run gives back.
    type Output;

    /// Runs with `R`, the domain of `relation.kind` (`relation.packs` the largest pack).
    fn run<R: Relational + Clone>(self, relation: Relation) -> Self::Output;
}

impl Relation {
    /// Runs `f` with the relational domain this relation names.
    pub fn dispatch<F: ForRelation>(self, f: F) -> F::Output {
        match self.kind {
            RelationKind::Octagon => f.run::<Octagon>(self),
            RelationKind::Zone => f.run::<Zone>(self),
        }
    }
}
