//! [`Places`]: a persistent set of program places, and [`Escapes`], where an object of a heap
//! has escaped, kept in three of them.
//!
//! An object the function keeps for long (an input's, the unknown objects) escapes at more and
//! more places as the function grows, and every heap on every path holds its own version of the
//! set. Kept in ordered sets, copying an object, joining two heaps and comparing them cost the
//! size of the set, so one long function took time quadratic in its length. `Places` is a
//! big-endian Patricia tree over 64-place chunks (a bitmap per chunk) whose nodes are shared
//! (`Arc`): copying is a pointer copy, adding a place copies one path, and union, inclusion,
//! equality and order skip every subtree the two sets share, so they cost what differs. It
//! iterates and orders exactly as a `BTreeSet<Place>` does.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use std::ops::Deref;
use std::sync::OnceLock;

use super::place::{Escape, Place};
use absinthe::program::BlockId;

/// A node: never empty.
enum Node {
    /// The places `chunk * 64 + i` for every bit `i` set in `bits` (never zero).
    Leaf { chunk: u64, bits: u64 },
    /// The chunks that agree with `prefix` above `bit`; those with `bit` clear are on the left.
    Branch {
        prefix: u64,
        bit: u64,
        left: Tree,
        right: Tree,
    },
}

type Tree = Arc<Node>;

/// A place as a number: ordered as places are (by block, then position).
fn key(place: Place) -> u64 {
    (u64::from(place.block.0) << 32) | u64::from(place.index)
}

fn place(key: u64) -> Place {
    Place {
        block: BlockId((key >> 32) as u32),
        index: key as u32,
    }
}

/// The bits of `chunk` strictly above `bit`.
fn mask(chunk: u64, bit: u64) -> u64 {
    chunk & !(bit | (bit - 1))
}

fn matches(chunk: u64, prefix: u64, bit: u64) -> bool {
    mask(chunk, bit) == prefix
}

fn goes_left(chunk: u64, bit: u64) -> bool {
    chunk & bit == 0
}

/// The highest bit on which `a` and `b` differ (they must differ).
fn branching_bit(a: u64, b: u64) -> u64 {
    1 << (63 - (a ^ b).leading_zeros())
}

impl Node {
    /// The chunk of a leaf, the prefix of a branch.
    fn key(&self) -> u64 {
        match self {
            Node::Leaf { chunk, .. } => *chunk,
            Node::Branch { prefix, .. } => *prefix,
        }
    }

    /// The bit a branch splits on; 0 for a leaf (one chunk).
    fn level(&self) -> u64 {
        match self {
            Node::Leaf { .. } => 0,
            Node::Branch { bit, .. } => *bit,
        }
    }
}

/// Where `inner` lies in the branch `(prefix, bit)`: `Some(true)` on its left, `Some(false)` on
/// its right, `None` when not inside it.
fn side(prefix: u64, bit: u64, inner: &Node) -> Option<bool> {
    (inner.level() < bit && matches(inner.key(), prefix, bit)).then(|| goes_left(inner.key(), bit))
}

fn leaf(chunk: u64, bits: u64) -> Tree {
    Arc::new(Node::Leaf { chunk, bits })
}

fn branch(prefix: u64, bit: u64, left: Tree, right: Tree) -> Tree {
    Arc::new(Node::Branch {
        prefix,
        bit,
        left,
        right,
    })
}

/// Joins two trees whose chunks lie apart (neither lies inside the other).
fn link(t0: Tree, t1: Tree) -> Tree {
    let (k0, k1) = (t0.key(), t1.key());
    let bit = branching_bit(k0, k1);
    if goes_left(k0, bit) {
        branch(mask(k0, bit), bit, t0, t1)
    } else {
        branch(mask(k0, bit), bit, t1, t0)
    }
}

/// The branch `t` with children `left` and `right`: `t` itself when they are its own.
fn rebuild(t: &Tree, left: Tree, right: Tree) -> Tree {
    match &**t {
        Node::Branch {
            prefix,
            bit,
            left: l,
            right: r,
        } => {
            if Arc::ptr_eq(l, &left) && Arc::ptr_eq(r, &right) {
                t.clone()
            } else {
                branch(*prefix, *bit, left, right)
            }
        }
        Node::Leaf { .. } => unreachable!("rebuild is called on branches"),
    }
}

/// `t` with the places of `bits` in `chunk` added; `t` itself when it had them all.
fn insert(t: &Tree, chunk: u64, bits: u64) -> Tree {
    match &**t {
        Node::Leaf { chunk: c, bits: b } if *c == chunk => {
            if b | bits == *b {
                t.clone()
            } else {
                leaf(chunk, b | bits)
            }
        }
        Node::Branch {
            prefix,
            bit,
            left,
            right,
        } if matches(chunk, *prefix, *bit) => {
            if goes_left(chunk, *bit) {
                rebuild(t, insert(left, chunk, bits), right.clone())
            } else {
                rebuild(t, left.clone(), insert(right, chunk, bits))
            }
        }
        _ => link(leaf(chunk, bits), t.clone()),
    }
}

/// The union of `a` and `b`, reusing either (or their subtrees) where the union equals it.
fn union(a: &Tree, b: &Tree) -> Tree {
    if Arc::ptr_eq(a, b) {
        return a.clone();
    }
    match (&**a, &**b) {
        (Node::Leaf { chunk: ca, bits: x }, Node::Leaf { chunk: cb, bits: y }) if ca == cb => {
            match x | y {
                z if z == *x => a.clone(),
                z if z == *y => b.clone(),
                z => leaf(*ca, z),
            }
        }
        (
            Node::Branch {
                prefix: pa,
                bit: ma,
                left: la,
                right: ra,
            },
            Node::Branch {
                prefix: pb,
                bit: mb,
                left: lb,
                right: rb,
            },
        ) if pa == pb && ma == mb => {
            let (left, right) = (union(la, lb), union(ra, rb));
            if Arc::ptr_eq(&left, lb) && Arc::ptr_eq(&right, rb) {
                b.clone()
            } else {
                rebuild(a, left, right)
            }
        }
        _ => {
            if let Node::Branch {
                prefix,
                bit,
                left,
                right,
            } = &**a
            {
                match side(*prefix, *bit, b) {
                    Some(true) => return rebuild(a, union(left, b), right.clone()),
                    Some(false) => return rebuild(a, left.clone(), union(right, b)),
                    None => {}
                }
            }
            if let Node::Branch {
                prefix,
                bit,
                left,
                right,
            } = &**b
            {
                match side(*prefix, *bit, a) {
                    Some(true) => return rebuild(b, union(a, left), right.clone()),
                    Some(false) => return rebuild(b, left.clone(), union(a, right)),
                    None => {}
                }
            }
            link(a.clone(), b.clone())
        }
    }
}

/// Whether every place of `a` is in `b`.
fn subset(a: &Tree, b: &Tree) -> bool {
    if Arc::ptr_eq(a, b) {
        return true;
    }
    match (&**a, &**b) {
        (Node::Leaf { chunk: ca, bits: x }, Node::Leaf { chunk: cb, bits: y }) => {
            ca == cb && x & !y == 0
        }
        (
            Node::Branch {
                prefix: pa,
                bit: ma,
                left: la,
                right: ra,
            },
            Node::Branch {
                prefix: pb,
                bit: mb,
                left: lb,
                right: rb,
            },
        ) if pa == pb && ma == mb => subset(la, lb) && subset(ra, rb),
        (
            _,
            Node::Branch {
                prefix,
                bit,
                left,
                right,
            },
        ) => match side(*prefix, *bit, a) {
            Some(true) => subset(a, left),
            Some(false) => subset(a, right),
            None => false,
        },
        // A branch has places on both sides of its bit; a leaf holds one chunk.
        (Node::Branch { .. }, Node::Leaf { .. }) => false,
    }
}

fn equal(a: &Tree, b: &Tree) -> bool {
    // The tree of a set is unique: equal sets have equal shapes.
    Arc::ptr_eq(a, b)
        || match (&**a, &**b) {
            (Node::Leaf { chunk: ca, bits: x }, Node::Leaf { chunk: cb, bits: y }) => {
                ca == cb && x == y
            }
            (
                Node::Branch {
                    prefix: pa,
                    bit: ma,
                    left: la,
                    right: ra,
                },
                Node::Branch {
                    prefix: pb,
                    bit: mb,
                    left: lb,
                    right: rb,
                },
            ) => pa == pb && ma == mb && equal(la, lb) && equal(ra, rb),
            _ => false,
        }
}

/// How two ascending sequences compare lexicographically, telling a proper prefix apart, so
/// that the comparisons of consecutive parts combine.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lex {
    Equal,
    /// They differ first at a place, the left one's smaller.
    Less,
    /// They differ first at a place, the right one's smaller.
    Greater,
    /// The left one is a proper prefix of the right one.
    Shorter,
    /// The right one is a proper prefix of the left one.
    Longer,
}

impl Lex {
    /// The comparison of `a ++ a_rest` with `b ++ b_rest`, `self` comparing `a` with `b`, where
    /// every place of the rests is above every place of `a` and `b`. `rest` compares the rests
    /// (called only when `a` and `b` are equal); `a_rest` and `b_rest` say whether they are
    /// nonempty.
    fn then(self, a_rest: bool, b_rest: bool, rest: impl FnOnce() -> Lex) -> Lex {
        match self {
            Lex::Equal => rest(),
            Lex::Less | Lex::Greater => self,
            // `a` ended where `b` goes on: the next place of `a`, from its rest, is above.
            Lex::Shorter if a_rest => Lex::Greater,
            Lex::Longer if b_rest => Lex::Less,
            Lex::Shorter | Lex::Longer => self,
        }
    }

    fn ordering(self) -> Ordering {
        match self {
            Lex::Equal => Ordering::Equal,
            Lex::Less | Lex::Shorter => Ordering::Less,
            Lex::Greater | Lex::Longer => Ordering::Greater,
        }
    }
}

/// The lexicographic comparison of two chunks' places, as ascending sequences.
fn compare_bits(x: u64, y: u64) -> Lex {
    if x == y {
        return Lex::Equal;
    }
    // The lowest place in one and not the other; below it they agree.
    let first = (x ^ y) & (x ^ y).wrapping_neg();
    let above = |bits: u64| bits & !(first | (first - 1)) != 0;
    if x & first != 0 {
        // `y` goes on past the common places with a greater one, or ends there.
        if above(y) { Lex::Less } else { Lex::Longer }
    } else if above(x) {
        Lex::Greater
    } else {
        Lex::Shorter
    }
}

/// The lexicographic comparison of `a` and `b` as ascending sequences of places.
fn compare(a: &Tree, b: &Tree) -> Lex {
    if Arc::ptr_eq(a, b) {
        return Lex::Equal;
    }
    match (&**a, &**b) {
        (Node::Leaf { chunk: ca, bits: x }, Node::Leaf { chunk: cb, bits: y }) if ca == cb => {
            compare_bits(*x, *y)
        }
        (
            Node::Branch {
                prefix: pa,
                bit: ma,
                left: la,
                right: ra,
            },
            Node::Branch {
                prefix: pb,
                bit: mb,
                left: lb,
                right: rb,
            },
        ) if pa == pb && ma == mb => compare(la, lb).then(true, true, || compare(ra, rb)),
        _ => {
            if let Node::Branch {
                prefix, bit, left, ..
            } = &**a
            {
                match side(*prefix, *bit, b) {
                    // `a` is its left, then more; `b` is all inside that left.
                    Some(true) => return compare(left, b).then(true, false, || Lex::Longer),
                    // `a`'s first places are below all of `b`.
                    Some(false) => return Lex::Less,
                    None => {}
                }
            }
            if let Node::Branch {
                prefix, bit, left, ..
            } = &**b
            {
                match side(*prefix, *bit, a) {
                    Some(true) => return compare(a, left).then(false, true, || Lex::Shorter),
                    Some(false) => return Lex::Greater,
                    None => {}
                }
            }
            // Apart: the one whose chunks are lower is below.
            let bit = branching_bit(a.key(), b.key());
            if goes_left(a.key(), bit) {
                Lex::Less
            } else {
                Lex::Greater
            }
        }
    }
}

/// A persistent set of places; see the [module](self) documentation.
#[derive(Clone, Default)]
pub struct Places {
    root: Option<Tree>,
}

impl Places {
    /// The empty set.
    pub fn new() -> Places {
        Places::default()
    }

    /// Whether it holds no place.
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// How many places it holds (counted: linear in the set's size).
    pub fn len(&self) -> usize {
        let mut n = 0;
        let mut stack: Vec<&Node> = self.root.as_deref().into_iter().collect();
        while let Some(node) = stack.pop() {
            match node {
                Node::Leaf { bits, .. } => n += bits.count_ones() as usize,
                Node::Branch { left, right, .. } => {
                    stack.push(right);
                    stack.push(left);
                }
            }
        }
        n
    }

    /// Whether it holds `p`.
    pub fn contains(&self, p: &Place) -> bool {
        let k = key(*p);
        let (chunk, bit) = (k >> 6, 1u64 << (k & 63));
        let mut t = match &self.root {
            Some(t) => t,
            None => return false,
        };
        loop {
            match &**t {
                Node::Leaf { chunk: c, bits } => return *c == chunk && bits & bit != 0,
                Node::Branch {
                    prefix,
                    bit: m,
                    left,
                    right,
                } => {
                    if !matches(chunk, *prefix, *m) {
                        return false;
                    }
                    t = if goes_left(chunk, *m) { left } else { right };
                }
            }
        }
    }

    /// Adds `p`; whether it was not there.
    pub fn insert(&mut self, p: Place) -> bool {
        let k = key(p);
        let (chunk, bits) = (k >> 6, 1u64 << (k & 63));
        match &self.root {
            None => {
                self.root = Some(leaf(chunk, bits));
                true
            }
            Some(t) => {
                let new = insert(t, chunk, bits);
                let added = !Arc::ptr_eq(t, &new);
                self.root = Some(new);
                added
            }
        }
    }

    /// Adds every place of `other`.
    pub fn union_with(&mut self, other: &Places) {
        self.root = match (&self.root, &other.root) {
            (Some(a), Some(b)) => Some(union(a, b)),
            (None, b) => b.clone(),
            (a, None) => a.clone(),
        };
    }

    /// Whether every place of `self` is in `other`.
    pub fn is_subset(&self, other: &Places) -> bool {
        match (&self.root, &other.root) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => subset(a, b),
        }
    }

    /// Whether the two share their whole tree: then they are equal (it may be false for equal
    /// sets built apart).
    pub fn is_shared_with(&self, other: &Places) -> bool {
        match (&self.root, &other.root) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// The places in ascending order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            stack: self.root.as_deref().into_iter().collect(),
            chunk: 0,
            bits: 0,
        }
    }
}

/// The places of a [`Places`] in ascending order.
pub struct Iter<'a> {
    stack: Vec<&'a Node>,
    chunk: u64,
    bits: u64,
}

impl fmt::Debug for Iter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Iter").finish_non_exhaustive()
    }
}

impl Iterator for Iter<'_> {
    type Item = Place;

    fn next(&mut self) -> Option<Place> {
        while self.bits == 0 {
            match self.stack.pop()? {
                Node::Leaf { chunk, bits } => {
                    self.chunk = *chunk;
                    self.bits = *bits;
                }
                Node::Branch { left, right, .. } => {
                    self.stack.push(right);
                    self.stack.push(left);
                }
            }
        }
        let i = u64::from(self.bits.trailing_zeros());
        self.bits &= self.bits - 1;
        Some(place((self.chunk << 6) | i))
    }
}

impl<'a> IntoIterator for &'a Places {
    type Item = Place;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl FromIterator<Place> for Places {
    fn from_iter<I: IntoIterator<Item = Place>>(iter: I) -> Places {
        let mut out = Places::new();
        out.extend(iter);
        out
    }
}

impl Extend<Place> for Places {
    fn extend<I: IntoIterator<Item = Place>>(&mut self, iter: I) {
        for p in iter {
            self.insert(p);
        }
    }
}

impl PartialEq for Places {
    fn eq(&self, other: &Places) -> bool {
        match (&self.root, &other.root) {
            (None, None) => true,
            (Some(a), Some(b)) => equal(a, b),
            _ => false,
        }
    }
}

impl Eq for Places {}

/// Ordered as a `BTreeSet<Place>` is: lexicographically, as ascending sequences.
impl Ord for Places {
    fn cmp(&self, other: &Places) -> Ordering {
        match (&self.root, &other.root) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (Some(a), Some(b)) => compare(a, b).ordering(),
        }
    }
}

impl PartialOrd for Places {
    fn partial_cmp(&self, other: &Places) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Hash for Places {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for p in self {
            p.hash(state);
        }
    }
}

/// Printed as a set of places, as a `BTreeSet<Place>` is.
impl fmt::Debug for Places {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// One of the three ways an object escapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EscapeKind {
    /// It may be returned.
    Returned,
    /// It may be thrown.
    Thrown,
    /// It may become reachable by code or memory the function does not see.
    Global,
}

/// Where an object of a heap has escaped: the three sets of an [`Escape`] as [`Places`], which
/// heaps share until one adds a place to them. It reads as an [`Escape`] (through `Deref`,
/// built on the first read and kept until the next change), for the code that prints and
/// checks heaps.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Escapes {
    returned: Places,
    thrown: Places,
    global: Places,
    shown: Shown,
}

impl Escapes {
    /// The places it escaped at in the way `kind` says.
    pub fn places(&self, kind: EscapeKind) -> &Places {
        match kind {
            EscapeKind::Returned => &self.returned,
            EscapeKind::Thrown => &self.thrown,
            EscapeKind::Global => &self.global,
        }
    }

    /// Where it may be returned.
    pub fn returned(&self) -> &Places {
        &self.returned
    }

    /// Where it may be thrown.
    pub fn thrown(&self) -> &Places {
        &self.thrown
    }

    /// Where it may have become reachable by code or memory the function does not see.
    pub fn global(&self) -> &Places {
        &self.global
    }

    /// Whether it escapes nowhere.
    pub fn is_none(&self) -> bool {
        self.returned.is_empty() && self.thrown.is_empty() && self.global.is_empty()
    }

    /// Notes that it escapes at `place` in the way `kind` says; whether it had not yet.
    pub fn note(&mut self, kind: EscapeKind, place: Place) -> bool {
        self.shown = Shown::default();
        match kind {
            EscapeKind::Returned => self.returned.insert(place),
            EscapeKind::Thrown => self.thrown.insert(place),
            EscapeKind::Global => self.global.insert(place),
        }
    }

    /// Where either escapes.
    pub fn join_with(&mut self, other: &Escapes) {
        self.shown = Shown::default();
        self.returned.union_with(&other.returned);
        self.thrown.union_with(&other.thrown);
        self.global.union_with(&other.global);
    }

    /// Whether `self` escapes only where `other` does.
    pub fn leq(&self, other: &Escapes) -> bool {
        self.returned.is_subset(&other.returned)
            && self.thrown.is_subset(&other.thrown)
            && self.global.is_subset(&other.global)
    }

    /// The same places in ordered sets.
    pub fn to_escape(&self) -> Escape {
        Escape {
            returned: self.returned.iter().collect(),
            thrown: self.thrown.iter().collect(),
            global: self.global.iter().collect(),
        }
    }
}

impl Deref for Escapes {
    type Target = Escape;

    fn deref(&self) -> &Escape {
        self.shown.0.get_or_init(|| Box::new(self.to_escape()))
    }
}

/// Printed as the [`Escape`] it reads as.
impl fmt::Debug for Escapes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_escape(), f)
    }
}

impl fmt::Display for Escapes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_escape(), f)
    }
}

/// The [`Escape`] an [`Escapes`] reads as, once read: not part of its value (equal, ordered and
/// hashed as nothing, and not copied).
#[derive(Default)]
struct Shown(OnceLock<Box<Escape>>);

impl Clone for Shown {
    fn clone(&self) -> Shown {
        Shown::default()
    }
}

impl PartialEq for Shown {
    fn eq(&self, _: &Shown) -> bool {
        true
    }
}

impl Eq for Shown {}

impl PartialOrd for Shown {
    fn partial_cmp(&self, other: &Shown) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Shown {
    fn cmp(&self, _: &Shown) -> Ordering {
        Ordering::Equal
    }
}

impl Hash for Shown {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// Places over a few blocks, with positions near chunk edges and far apart.
    fn a_place() -> impl Strategy<Value = Place> {
        (
            prop_oneof![0u32..4, Just(u32::MAX)],
            prop_oneof![0u32..130, Just(u32::MAX), 4_000u32..4_100],
        )
            .prop_map(|(b, index)| Place {
                block: BlockId(b),
                index,
            })
    }

    fn places() -> impl Strategy<Value = Vec<Place>> {
        prop::collection::vec(a_place(), 0..40)
    }

    /// `b`: `a` with `more` added, so that the two share part of their trees.
    fn related(a: &[Place], more: &[Place]) -> (Places, Places) {
        let pa: Places = a.iter().copied().collect();
        let mut pb = pa.clone();
        pb.extend(more.iter().copied());
        (pa, pb)
    }

    proptest! {
        #[test]
        fn behaves_as_an_ordered_set(a in places(), b in places(), more in places()) {
            let (sa, sb): (BTreeSet<Place>, BTreeSet<Place>) =
                (a.iter().copied().collect(), b.iter().copied().collect());
            let (pa, pb): (Places, Places) = (a.iter().copied().collect(), b.iter().copied().collect());
            let (qa, qb) = related(&a, &more);
            let sq: BTreeSet<Place> = sa.iter().chain(&more).copied().collect();
            for (x, y, sx, sy) in [
                (&pa, &pb, &sa, &sb),
                (&pb, &pa, &sb, &sa),
                (&qa, &qb, &sa, &sq),
                (&qb, &qa, &sq, &sa),
            ] {
                prop_assert_eq!(x.iter().collect::<Vec<_>>(), sx.iter().copied().collect::<Vec<_>>());
                prop_assert_eq!(x.len(), sx.len());
                prop_assert_eq!(x.is_empty(), sx.is_empty());
                prop_assert_eq!(x.cmp(y), sx.cmp(sy));
                prop_assert_eq!(x == y, sx == sy);
                prop_assert_eq!(x.is_subset(y), sx.is_subset(sy));
                let mut u = x.clone();
                u.union_with(y);
                prop_assert_eq!(u.iter().collect::<BTreeSet<_>>(), sx | sy);
                for p in sy {
                    prop_assert_eq!(x.contains(p), sx.contains(p));
                }
            }
        }

        #[test]
        fn union_and_insert_reuse_what_they_do_not_change(a in places(), more in places()) {
            let (qa, qb) = related(&a, &more);
            let mut u = qb.clone();
            u.union_with(&qa);
            prop_assert!(u.is_shared_with(&qb));
            let mut u = qa.clone();
            u.union_with(&qb);
            prop_assert!(u.is_shared_with(&qb));
            let mut again = qb.clone();
            for p in &a {
                prop_assert!(!again.insert(*p));
            }
            prop_assert!(again.is_shared_with(&qb));
        }
    }

    #[test]
    fn prints_as_a_set() {
        let p: Places = [
            Place {
                block: BlockId(1),
                index: 2,
            },
            Place {
                block: BlockId(0),
                index: 70,
            },
        ]
        .into_iter()
        .collect();
        let s: BTreeSet<Place> = p.iter().collect();
        assert_eq!(format!("{p:?}"), format!("{s:?}"));
    }
}
