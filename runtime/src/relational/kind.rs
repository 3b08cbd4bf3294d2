//! Which relational domain a value domain's relational component keeps, and how large its
//! packs may grow: what [`crate::value::ValueDomain::relation`] tells the engines.

use std::fmt;

/// A relational domain the engines can keep beside the names' values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RelationKind {
    /// [`super::Octagon`]: `±x ± y ≤ c`.
    Octagon,
    /// [`super::Zone`]: `x - y ≤ c`.
    Zone,
}

impl fmt::Display for RelationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RelationKind::Octagon => "Octagon",
            RelationKind::Zone => "Zone",
        })
    }
}

/// A value domain's relational component: the domain kept over a function's names, in packs of
/// at most `packs` names ([`super::Partition`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Relation {
    /// The relational domain.
    pub kind: RelationKind,
    /// The most names one pack holds.
    pub packs: usize,
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (packs of at most {} names)", self.kind, self.packs)
    }
}
