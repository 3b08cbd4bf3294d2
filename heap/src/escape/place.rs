//! Places in a function ([`Place`]) and where an object has escaped to, as sets of them
//! ([`Escape`]).

use std::collections::BTreeSet;
use std::fmt;

use absinthe::program::BlockId;

/// A program point: statement `index` of `block` (the statement count for the terminator).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    /// The block.
    pub block: BlockId,
    /// The position in the block.
    pub index: u32,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bb{}:{}", self.block.index(), self.index)
    }
}

/// Where an object has escaped (the seed's `EscapeInfo` escape sets): returned, thrown, or
/// handed to code or memory the function does not see (an unknown call, caller memory). The
/// facts say it of allocations; a heap keeps it of each object as [`Escapes`](super::Escapes), which reads as
/// one.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Escape {
    /// Where it may be returned (reachable from the returned value).
    pub returned: BTreeSet<Place>,
    /// Where it may be thrown.
    pub thrown: BTreeSet<Place>,
    /// Where it may have become reachable by code or memory the function does not see.
    pub global: BTreeSet<Place>,
}

impl Escape {
    /// Whether it escapes nowhere.
    pub fn is_none(&self) -> bool {
        self.returned.is_empty() && self.thrown.is_empty() && self.global.is_empty()
    }

    /// Where either escapes.
    pub fn join_with(&mut self, other: &Escape) {
        self.returned.extend(other.returned.iter().copied());
        self.thrown.extend(other.thrown.iter().copied());
        self.global.extend(other.global.iter().copied());
    }
}

impl fmt::Display for Escape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return f.write_str("no escape");
        }
        let mut parts = Vec::new();
        for (word, places) in [
            ("returned", &self.returned),
            ("thrown", &self.thrown),
            ("global", &self.global),
        ] {
            if !places.is_empty() {
                let at: Vec<String> = places.iter().map(|p| p.to_string()).collect();
                parts.push(format!("{word} at {}", at.join(" ")));
            }
        }
        f.write_str(&parts.join("; "))
    }
}
