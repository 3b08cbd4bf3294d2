//! Sets of names: which parameters a value depends on, or (under [`Dual`](crate::lattice::Dual))
//! which it certainly demands — the lattices of the useless-parameter and strictness tasks.

use crate::lattice::{Lattice, Top};
use crate::terms::{ParamId, Terms};
use std::collections::BTreeSet;
use std::fmt;

/// A set of names, or every name. Ordered by inclusion.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Names {
    /// These names.
    Set(BTreeSet<ParamId>),
    /// Every name.
    All,
}

impl Names {
    /// No name.
    pub fn none() -> Names {
        Names::Set(BTreeSet::new())
    }

    /// One name.
    pub fn one(p: ParamId) -> Names {
        Names::Set(BTreeSet::from([p]))
    }

    /// Every name.
    pub fn all() -> Names {
        Names::All
    }

    /// Whether `p` is included.
    pub fn contains(&self, p: ParamId) -> bool {
        match self {
            Names::Set(set) => set.contains(&p),
            Names::All => true,
        }
    }

    /// The set with the names spelled from `terms`: `{x, y}`, or `all`.
    pub fn render(&self, terms: &Terms) -> String {
        match self {
            Names::All => "all".to_owned(),
            Names::Set(set) => {
                let names: Vec<&str> = set.iter().map(|&p| terms.param_name(p)).collect();
                format!("{{{}}}", names.join(", "))
            }
        }
    }
}

impl Lattice for Names {
    // A program has finitely many names.
    const FINITE_HEIGHT: bool = true;

    fn bottom() -> Names {
        Names::none()
    }

    fn is_bottom(&self) -> bool {
        matches!(self, Names::Set(s) if s.is_empty())
    }

    fn leq(&self, other: &Names) -> bool {
        match (self, other) {
            (_, Names::All) => true,
            (Names::All, Names::Set(_)) => false,
            (Names::Set(a), Names::Set(b)) => a.is_subset(b),
        }
    }

    fn join(&self, other: &Names) -> Names {
        match (self, other) {
            (Names::All, _) | (_, Names::All) => Names::All,
            (Names::Set(a), Names::Set(b)) => Names::Set(a.union(b).copied().collect()),
        }
    }

    fn meet(&self, other: &Names) -> Names {
        match (self, other) {
            (Names::All, x) | (x, Names::All) => x.clone(),
            (Names::Set(a), Names::Set(b)) => Names::Set(a.intersection(b).copied().collect()),
        }
    }
}

impl Top for Names {
    fn top() -> Names {
        Names::All
    }

    fn is_top(&self) -> bool {
        matches!(self, Names::All)
    }
}

impl fmt::Display for Names {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Names::All => f.write_str("all"),
            Names::Set(set) => {
                let names: Vec<String> = set.iter().map(|p| format!("p{}", p.0)).collect();
                write!(f, "{{{}}}", names.join(", "))
            }
        }
    }
}

/// Sets of names say nothing about integers: every set contains every value (bottom included:
/// the empty set is what a constant depends on, and constants have values).
impl crate::value::Concrete for Names {
    fn contains(&self, _: i64) -> bool {
        true
    }
}
