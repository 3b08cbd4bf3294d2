//! Finite sets ordered by inclusion: the may-analysis domain (reaching definitions, live
//! variables, points-to targets).
//!
//! [`Powerset`] has no top because its universe is unbounded. It has no special widening
//! either: the join is a valid widening only when the analysis draws elements from a finite
//! universe (variables, program points, allocation sites), which the user must ensure.

use std::collections::BTreeSet;
use std::fmt::{self, Debug, Display};

use super::{Changed, Lattice};

/// A finite set of `T`, ordered by inclusion.
///
/// # Laws
///
/// Join is union and meet intersection, both exact; the empty set is the bottom.
/// Over an unbounded universe the chain `{0} ⊑ {0,1} ⊑ …` never ends, so
/// [`Lattice::FINITE_HEIGHT`] is `false`; yet the widening is the join, which terminates exactly
/// when the elements come from a finite universe. An analysis over an unbounded universe must
/// bound it itself (for example by abstracting elements first).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Powerset<T: Ord> {
    elements: BTreeSet<T>,
}

impl<T: Ord + Clone + Debug> Powerset<T> {
    /// The empty set.
    pub fn new() -> Powerset<T> {
        Powerset {
            elements: BTreeSet::new(),
        }
    }

    /// The set `{x}`.
    pub fn singleton(x: T) -> Powerset<T> {
        Powerset {
            elements: BTreeSet::from([x]),
        }
    }

    /// Adds `x`, reporting whether it was new.
    pub fn insert(&mut self, x: T) -> bool {
        self.elements.insert(x)
    }

    /// Removes `x`, reporting whether it was a member.
    pub fn remove(&mut self, x: &T) -> bool {
        self.elements.remove(x)
    }

    /// Whether `x` is a member.
    pub fn contains(&self, x: &T) -> bool {
        self.elements.contains(x)
    }

    /// The members in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.elements.iter()
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// Whether there are no members (the bottom).
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// The underlying set.
    pub fn as_set(&self) -> &BTreeSet<T> {
        &self.elements
    }
}

impl<T: Ord> Default for Powerset<T> {
    fn default() -> Powerset<T> {
        Powerset {
            elements: BTreeSet::new(),
        }
    }
}

impl<T: Ord> FromIterator<T> for Powerset<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Powerset<T> {
        Powerset {
            elements: iter.into_iter().collect(),
        }
    }
}

impl<T: Ord + Clone + Debug> Lattice for Powerset<T> {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Self {
        Powerset::new()
    }

    fn is_bottom(&self) -> bool {
        self.elements.is_empty()
    }

    fn leq(&self, other: &Self) -> bool {
        self.elements.is_subset(&other.elements)
    }

    fn join(&self, other: &Self) -> Self {
        Powerset {
            elements: self.elements.union(&other.elements).cloned().collect(),
        }
    }

    fn meet(&self, other: &Self) -> Self {
        Powerset {
            elements: self
                .elements
                .intersection(&other.elements)
                .cloned()
                .collect(),
        }
    }

    fn join_with(&mut self, other: &Self) -> Changed {
        let before = self.elements.len();
        self.elements.extend(other.elements.iter().cloned());
        Changed::from_bool(self.elements.len() != before)
    }
}

impl<T: Ord + Display> Display for Powerset<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.elements.is_empty() {
            return f.write_str("⊥");
        }
        f.write_str("{")?;
        for (i, x) in self.elements.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            Display::fmt(x, f)?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_and_intersection() {
        let a: Powerset<u8> = [1, 2].into_iter().collect();
        let b: Powerset<u8> = [2, 3].into_iter().collect();
        assert_eq!(a.join(&b), [1, 2, 3].into_iter().collect());
        assert_eq!(a.meet(&b), Powerset::singleton(2));
        assert!(a.meet(&b).leq(&a));
        assert_eq!(a.to_string(), "{1, 2}");
        assert_eq!(Powerset::<u8>::new().to_string(), "⊥");
    }
}
