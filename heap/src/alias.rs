//! The alias heap of the Green Fairy's shape analysis, without fields: which variables point to
//! one object, by allocation site, and how many younger live objects of the same site there may
//! be (its [`Generation`]).
//!
//! An abstract object is an allocation site with the set of variables that point to it. In one
//! heap, two objects are told apart by their variables (a variable points to one object), so the
//! heap is a map from (site, variables) to the object's generation. `x = new` at site `s` makes
//! every live object of `s` one generation older (one more younger object of its site now
//! exists) and adds `s{x}` with generation 0; `x = y` adds `x` to the object `y` points to;
//! assigning anything else to `x` takes `x` off its object. An object no variable points to is
//! dead (without fields, nothing else can reach it) and leaves the heap.
//!
//! A disjunction of such heaps ([`FiniteSum`](absinthe::lattice::FiniteSum)) keeps apart heaps
//! that cannot hold together: after the seed's loop head, `x`, `y` and `z` are the three
//! youngest objects of the loop's site, or older ones, but not a mix that no run makes.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use absinthe::lattice::{Generation, Lattice, Thresholds};
use absinthe::program::{BlockId, NameId};

/// An allocation site: the statement `index` of `block`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Site {
    /// The block of the allocation.
    pub block: BlockId,
    /// Its position in the block.
    pub index: u32,
}

/// An abstract object: its allocation site and the variables that point to it.
pub type Object = (Site, BTreeSet<NameId>);

/// A heap of abstract objects with their generations, or bottom (no run reaches the point).
///
/// # Laws
///
/// Ordered by inclusion of objects, generations compared pointwise: `a ⊑ b` when every object
/// of `a` is in `b` with a generation at least as large. Join is the union (generations
/// joined), meet the intersection (generations met); bottom is below everything, the empty
/// heap (reachable, no object) is the least reachable heap. The height is unbounded only
/// through generations, and the widening widens them ([`Generation::widen`]).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AliasHeap {
    objects: Option<BTreeMap<Object, Generation>>,
}

impl AliasHeap {
    /// The heap of a point reached with no object allocated.
    pub fn empty() -> AliasHeap {
        AliasHeap {
            objects: Some(BTreeMap::new()),
        }
    }

    /// A heap of these objects (an object with no variable is dead and left out).
    pub fn of(objects: impl IntoIterator<Item = (Object, Generation)>) -> AliasHeap {
        let mut heap = AliasHeap::empty();
        if let Some(map) = &mut heap.objects {
            for (object, generation) in objects {
                if !object.1.is_empty() && !generation.is_bottom() {
                    let slot = map.entry(object).or_insert(Generation::Bottom);
                    *slot = slot.join(&generation);
                }
            }
        }
        heap
    }

    /// The objects and their generations (none for bottom).
    pub fn objects(&self) -> impl Iterator<Item = (&Object, &Generation)> {
        self.objects.iter().flatten()
    }

    /// The largest generation of site `site`'s objects (bottom when it has none).
    pub fn generation(&self, site: Site) -> Generation {
        self.objects()
            .filter(|((s, _), _)| *s == site)
            .fold(Generation::Bottom, |acc, (_, g)| acc.join(g))
    }

    /// The objects variable `x` may point to.
    pub fn points_to(&self, x: NameId) -> Vec<&Object> {
        self.objects()
            .filter(|((_, vars), _)| vars.contains(&x))
            .map(|(object, _)| object)
            .collect()
    }

    /// `x` no longer points to any object (it was assigned something else).
    pub fn kill(&mut self, x: NameId) {
        self.rebuild(|(site, mut vars), g| {
            vars.remove(&x);
            Some(((site, vars), g))
        });
    }

    /// `x = new` at `site`: every live object of `site` gets one younger sibling.
    pub fn allocate(&mut self, x: NameId, site: Site) {
        self.kill(x);
        self.rebuild(|(s, vars), g| Some(((s, vars), if s == site { g.bump() } else { g })));
        if let Some(map) = &mut self.objects {
            map.insert((site, BTreeSet::from([x])), Generation::AtMost(0));
        }
    }

    /// `x` points to an object of `site` that no other variable points to, without aging the
    /// site's other objects (a reference from where the model does not look, such as a load).
    pub fn point_to_other(&mut self, x: NameId, site: Site) {
        self.kill(x);
        if let Some(map) = &mut self.objects {
            map.insert((site, BTreeSet::from([x])), Generation::AtMost(0));
        }
    }

    /// `x = y`: `x` points to what `y` points to.
    pub fn copy(&mut self, x: NameId, y: NameId) {
        if x == y {
            return;
        }
        self.kill(x);
        self.rebuild(|(site, mut vars), g| {
            if vars.contains(&y) {
                vars.insert(x);
            }
            Some(((site, vars), g))
        });
    }

    /// The heap with every object mapped by `f` (`None` drops it), dead objects left out and
    /// objects that became equal joined.
    fn rebuild(&mut self, f: impl Fn(Object, Generation) -> Option<(Object, Generation)>) {
        if let Some(map) = self.objects.take() {
            *self = AliasHeap::of(map.into_iter().filter_map(|(o, g)| f(o, g)));
        }
    }

    fn zip(
        &self,
        other: &AliasHeap,
        both: impl Fn(&Generation, &Generation) -> Generation,
        union: bool,
    ) -> AliasHeap {
        let (Some(a), Some(b)) = (&self.objects, &other.objects) else {
            return if union {
                if self.is_bottom() {
                    other.clone()
                } else {
                    self.clone()
                }
            } else {
                AliasHeap::bottom()
            };
        };
        let keys: BTreeSet<&Object> = if union {
            a.keys().chain(b.keys()).collect()
        } else {
            a.keys().filter(|k| b.contains_key(*k)).collect()
        };
        AliasHeap::of(keys.into_iter().map(|k| {
            let g = match (a.get(k), b.get(k)) {
                (Some(x), Some(y)) => both(x, y),
                (Some(x), None) | (None, Some(x)) => *x,
                (None, None) => Generation::Bottom,
            };
            (k.clone(), g)
        }))
    }
}

impl Lattice for AliasHeap {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Self {
        AliasHeap { objects: None }
    }

    fn is_bottom(&self) -> bool {
        self.objects.is_none()
    }

    fn leq(&self, other: &Self) -> bool {
        match (&self.objects, &other.objects) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => a.iter().all(|(k, g)| b.get(k).is_some_and(|h| g.leq(h))),
        }
    }

    fn join(&self, other: &Self) -> Self {
        self.zip(other, Generation::join, true)
    }

    fn meet(&self, other: &Self) -> Self {
        self.zip(other, Generation::meet, false)
    }

    fn widen(&self, newer: &Self) -> Self {
        self.zip(newer, Generation::widen, true)
    }

    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        self.zip(newer, |a, b| a.widen_with_thresholds(b, thresholds), true)
    }
}

/// `bb2.3{x, y}:≤1, …`: each object's site, variables and generation; `⊥` for bottom.
impl fmt::Display for AliasHeap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(map) = &self.objects else {
            return f.write_str("⊥");
        };
        let parts: Vec<String> = map
            .iter()
            .map(|((site, vars), g)| {
                let vars: Vec<String> = vars.iter().map(|v| format!("%{}", v.0)).collect();
                format!(
                    "bb{}.{}{{{}}}:{g}",
                    site.block.0,
                    site.index,
                    vars.join(", ")
                )
            })
            .collect();
        write!(f, "{{{}}}", parts.join(", "))
    }
}
