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
///
/// There is no [`Top`](super::Top): the set of every `T` is not finite.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Changed, Lattice, Powerset};
///
/// let a: Powerset<&str> = ["x", "y"].into_iter().collect();
/// let b: Powerset<&str> = ["y", "z"].into_iter().collect();
/// assert_eq!(a.join(&b), ["x", "y", "z"].into_iter().collect());
/// assert_eq!(a.meet(&b), Powerset::singleton("y"));
/// assert!(a.meet(&b).leq(&a) && !a.leq(&b));
/// assert!(Powerset::bottom().leq(&a));
/// // The widening is the join.
/// assert_eq!(a.widen(&b), a.join(&b));
///
/// let mut acc = a.clone();
/// assert_eq!(acc.join_with(&b), Changed::Yes);
/// assert_eq!(acc.join_with(&b), Changed::No);
/// assert_eq!(acc.to_string(), "{x, y, z}");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Powerset<T: Ord> {
    elements: BTreeSet<T>,
}

impl<T: Ord + Clone + Debug> Powerset<T> {
    /// The empty set (the bottom); the same as `Powerset::default()`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Lattice, Powerset};
    ///
    /// let s = Powerset::<u32>::new();
    /// assert!(s.is_empty() && s.is_bottom());
    /// assert_eq!(s.to_string(), "⊥");
    /// ```
    pub fn new() -> Powerset<T> {
        Powerset {
            elements: BTreeSet::new(),
        }
    }

    /// The set `{x}`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Powerset;
    ///
    /// let s = Powerset::singleton(7);
    /// assert_eq!(s.len(), 1);
    /// assert!(s.contains(&7) && !s.contains(&8));
    /// ```
    pub fn singleton(x: T) -> Powerset<T> {
        Powerset {
            elements: BTreeSet::from([x]),
        }
    }

    /// Adds `x`, reporting whether it was new (`false` leaves the set unchanged).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Powerset;
    ///
    /// let mut s = Powerset::new();
    /// assert!(s.insert(3));
    /// assert!(!s.insert(3));
    /// assert_eq!(s, Powerset::singleton(3));
    /// ```
    pub fn insert(&mut self, x: T) -> bool {
        self.elements.insert(x)
    }

    /// Removes `x`, reporting whether it was a member (`false` leaves the set unchanged).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Powerset;
    ///
    /// let mut s: Powerset<u8> = [1, 2].into_iter().collect();
    /// assert!(s.remove(&1));
    /// assert!(!s.remove(&1));
    /// assert_eq!(s, Powerset::singleton(2));
    /// ```
    pub fn remove(&mut self, x: &T) -> bool {
        self.elements.remove(x)
    }

    /// Whether `x` is a member.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Powerset;
    ///
    /// let s: Powerset<char> = "abc".chars().collect();
    /// assert!(s.contains(&'b') && !s.contains(&'d'));
    /// ```
    pub fn contains(&self, x: &T) -> bool {
        self.elements.contains(x)
    }

    /// The members in ascending order (of `T`'s `Ord`), each once.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Powerset;
    ///
    /// let s: Powerset<i32> = [3, -1, 3, 2].into_iter().collect();
    /// assert_eq!(s.iter().copied().collect::<Vec<_>>(), [-1, 2, 3]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.elements.iter()
    }

    /// The number of members (duplicates count once).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Powerset;
    ///
    /// let s: Powerset<u8> = [5, 5, 6].into_iter().collect();
    /// assert_eq!(s.len(), 2);
    /// assert_eq!(Powerset::<u8>::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// Whether there are no members (the bottom); the same as [`Lattice::is_bottom`].
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Powerset;
    ///
    /// assert!(Powerset::<u8>::new().is_empty());
    /// assert!(!Powerset::singleton(0u8).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// The underlying set, for the operations of [`BTreeSet`] this type does not repeat.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Powerset;
    ///
    /// let s: Powerset<u8> = [1, 4, 9].into_iter().collect();
    /// assert_eq!(s.as_set().range(2..).count(), 2);
    /// assert_eq!(s.as_set().first(), Some(&1));
    /// ```
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
