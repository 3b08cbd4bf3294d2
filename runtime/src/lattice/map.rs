//! A persistent map lattice over small integer keys, built on a big-endian Patricia tree.
//!
//! [`MapLattice`] is the environment of most analyses (variable → value). Maps share structure:
//! `insert` copies only one path, and `join`, `meet`, `leq` and `widen` skip every subtree the two
//! operands share (`Arc::ptr_eq`) and return an operand's subtree unchanged when the result
//! equals it, so a fixpoint iteration that changes few variables does little work.

use std::fmt::{self, Debug, Display};
use std::hash::Hash;
use std::sync::Arc;

use super::{Changed, Lattice, Thresholds, replace_if_changed};

mod tree;

use tree::{Node, Tree, get, included, intersection, leaf, remove, union, update};

/// A key of a [`MapLattice`]: a value that converts losslessly to and from a `u32`.
///
/// # Contract
///
/// `K::from_bits(k.to_bits()) == k`, and `to_bits` is injective. Maps iterate in ascending order
/// of `to_bits`. Implement it for your `u32` id newtypes. It is implemented for `u32`, `u16`
/// and `u8`.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Interval, MapKey, MapLattice};
///
/// #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
/// struct Var(u32);
///
/// impl MapKey for Var {
///     fn to_bits(self) -> u32 {
///         self.0
///     }
///     fn from_bits(bits: u32) -> Self {
///         Var(bits)
///     }
/// }
///
/// let env: MapLattice<Var, Interval> =
///     [(Var(2), Interval::constant(0)), (Var(1), Interval::new(0, 9))].into_iter().collect();
/// let keys: Vec<Var> = env.iter().map(|(k, _)| k).collect();
/// assert_eq!(keys, [Var(1), Var(2)]);
/// ```
pub trait MapKey: Copy + Eq + Hash + Debug {
    /// The key as a `u32`.
    fn to_bits(self) -> u32;
    /// The key back from [`MapKey::to_bits`].
    fn from_bits(bits: u32) -> Self;
}

impl MapKey for u32 {
    fn to_bits(self) -> u32 {
        self
    }
    fn from_bits(bits: u32) -> Self {
        bits
    }
}

impl MapKey for u16 {
    fn to_bits(self) -> u32 {
        u32::from(self)
    }
    fn from_bits(bits: u32) -> Self {
        bits as u16
    }
}

impl MapKey for u8 {
    fn to_bits(self) -> u32 {
        u32::from(self)
    }
    fn from_bits(bits: u32) -> Self {
        bits as u8
    }
}

/// A map from keys to lattice values, ordered pointwise; an absent key is bottom.
///
/// # Laws
///
/// `m ⊑ n` iff `m[k] ⊑ n[k]` for every key; join, meet and widening are pointwise, so exactness
/// ([`Lattice::EXACT`]) is that of `V`. Bottom values are never stored: inserting one removes
/// the key, and so `Eq` is pointwise equality. The key universe is finite (2^32 keys), so ascending
/// chains are finite exactly when they are in `V` ([`Lattice::FINITE_HEIGHT`] is `V`'s).
/// The widening takes `x ∇ ⊥ = ⊥ ∇ x = x` for keys bound on one side only and skips shared
/// subtrees, so it assumes `x ∇ x = x` (true of every standard lattice).
///
/// # Sharing
///
/// The map is persistent: updates return a new map sharing all untouched nodes. Binary
/// operations never descend into subtrees shared by both operands (`Arc::ptr_eq`) and return
/// an operand's node whenever the result equals it.
///
/// There is no [`Top`](super::Top): no map binds all 2^32 keys.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Changed, Interval, Lattice, MapLattice};
///
/// let a: MapLattice<u32, Interval> =
///     [(1, Interval::new(0, 1)), (2, Interval::constant(5))].into_iter().collect();
/// let b: MapLattice<u32, Interval> =
///     [(2, Interval::constant(7)), (3, Interval::constant(0))].into_iter().collect();
///
/// // Join and meet are pointwise; an absent key is bottom.
/// let j = a.join(&b);
/// assert_eq!(j.get(2), Some(&Interval::new(5, 7)));
/// assert_eq!(j.len(), 3);
/// assert!(a.leq(&j) && b.leq(&j) && !j.leq(&a));
/// // [5, 5] ⊓ [7, 7] is empty, so key 2 is dropped; keys 1 and 3 are on one side only.
/// assert!(a.meet(&b).is_bottom());
/// assert_eq!(a.meet(&j), a);
///
/// // Widening is pointwise too; a key bound on one side keeps its value.
/// let w = a.widen(&j);
/// assert_eq!(w.get(2), Some(&Interval::new(5, i64::MAX)));
/// assert_eq!(w.get(3), Some(&Interval::constant(0)));
///
/// let mut acc = a.clone();
/// assert_eq!(acc.join_with(&b), Changed::Yes);
/// assert_eq!(acc, j);
/// assert_eq!(acc.to_string(), "{1 ↦ [0, 1], 2 ↦ [5, 7], 3 ↦ [0, 0]}");
/// ```
pub struct MapLattice<K, V> {
    root: Option<Tree<V>>,
    keys: std::marker::PhantomData<fn() -> K>,
}

impl<K, V> Clone for MapLattice<K, V> {
    fn clone(&self) -> Self {
        MapLattice {
            root: self.root.clone(),
            keys: std::marker::PhantomData,
        }
    }
}

impl<K, V: PartialEq> PartialEq for MapLattice<K, V> {
    fn eq(&self, other: &Self) -> bool {
        match (&self.root, &other.root) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
            _ => false,
        }
    }
}

impl<K, V: Eq> Eq for MapLattice<K, V> {}

impl<K, V: Hash> Hash for MapLattice<K, V> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.root.hash(state);
    }
}

impl<K: MapKey, V: Lattice> Default for MapLattice<K, V> {
    fn default() -> Self {
        MapLattice::new()
    }
}

impl<K: MapKey, V: Lattice> MapLattice<K, V> {
    fn from_root(root: Option<Tree<V>>) -> Self {
        MapLattice {
            root,
            keys: std::marker::PhantomData,
        }
    }

    /// The empty map (every key bottom): the bottom of the lattice, and `MapLattice::default()`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Flat, Lattice, MapLattice};
    ///
    /// let m = MapLattice::<u32, Flat<i64>>::new();
    /// assert!(m.is_empty() && m.is_bottom());
    /// assert_eq!(m.get(0), None);
    /// assert_eq!(m.to_string(), "⊥");
    /// ```
    pub fn new() -> Self {
        MapLattice::from_root(None)
    }

    /// The value bound to `k`, or `None` when it is bottom (the map never stores a bottom
    /// value, so `Some` is never bottom).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Flat, MapLattice};
    ///
    /// let m = MapLattice::<u8, Flat<i64>>::new().insert(4, Flat::Value(1));
    /// assert_eq!(m.get(4), Some(&Flat::Value(1)));
    /// assert_eq!(m.get(5), None);
    /// ```
    pub fn get(&self, k: K) -> Option<&V> {
        get(self.root.as_ref()?, k.to_bits())
    }

    /// The value of `k`, bottom when absent (a clone of the stored value otherwise).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Interval, MapLattice};
    ///
    /// let m = MapLattice::<u32, Interval>::new().insert(1, Interval::new(2, 3));
    /// assert_eq!(m.get_or_bottom(1), Interval::new(2, 3));
    /// assert_eq!(m.get_or_bottom(2), Interval::empty());
    /// ```
    pub fn get_or_bottom(&self, k: K) -> V {
        self.get(k).cloned().unwrap_or_else(V::bottom)
    }

    /// A map equal to `self` except that `k` is bound to `v` (removed when `v` is bottom);
    /// it shares every node not on the path to `k`. `self` is not modified. Inserting the value
    /// `k` already has returns a map with the same root (see [`MapLattice::shares_root_with`]).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Flat, MapLattice};
    ///
    /// let m = MapLattice::<u32, Flat<i64>>::new().insert(1, Flat::Value(10));
    /// let n = m.insert(2, Flat::Top);
    /// assert_eq!((m.len(), n.len()), (1, 2));
    /// // Binding bottom removes the key.
    /// assert_eq!(n.insert(2, Flat::Bottom), m);
    /// // Binding the same value again changes nothing.
    /// assert!(n.insert(1, Flat::Value(10)).shares_root_with(&n));
    /// ```
    pub fn insert(&self, k: K, v: V) -> Self {
        if v.is_bottom() {
            return self.remove(k);
        }
        let bits = k.to_bits();
        let root = match &self.root {
            None => leaf(bits, v),
            Some(t) => update(t, bits, &mut |old: Option<&V>| match old {
                Some(old) if *old == v => None,
                _ => Some(v.clone()),
            }),
        };
        MapLattice::from_root(Some(root))
    }

    /// A map equal to `self` except that `k` is bottom; `self` is not modified. Removing an
    /// absent key gives a map equal to `self`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Flat, MapLattice};
    ///
    /// let m: MapLattice<u32, Flat<i64>> =
    ///     [(1, Flat::Top), (2, Flat::Value(0))].into_iter().collect();
    /// let r = m.remove(1);
    /// assert_eq!(r.get(1), None);
    /// assert_eq!(r.len(), 1);
    /// assert_eq!(m.len(), 2);
    /// assert_eq!(m.remove(9), m);
    /// ```
    pub fn remove(&self, k: K) -> Self {
        let root = self.root.as_ref().and_then(|t| remove(t, k.to_bits()));
        MapLattice::from_root(root)
    }

    /// The number of keys bound to a non-bottom value.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{MapLattice, Sign};
    ///
    /// let m: MapLattice<u32, Sign> =
    ///     [(1, Sign::Pos), (2, Sign::Bottom), (3, Sign::Zero)].into_iter().collect();
    /// assert_eq!(m.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.root.as_ref().map_or(0, |t| t.len())
    }

    /// Whether every key is bottom (the map is the bottom of the lattice).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{MapLattice, Sign};
    ///
    /// let m = MapLattice::<u32, Sign>::new().insert(0, Sign::Neg);
    /// assert!(!m.is_empty());
    /// assert!(m.remove(0).is_empty());
    /// assert!(m.insert(0, Sign::Bottom).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// The bindings in ascending key order (of [`MapKey::to_bits`]); bottom values never
    /// appear.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{MapLattice, Parity};
    ///
    /// let m: MapLattice<u32, Parity> =
    ///     [(9, Parity::Odd), (0, Parity::Even), (u32::MAX, Parity::Top)].into_iter().collect();
    /// let v: Vec<(u32, Parity)> = m.iter().map(|(k, v)| (k, *v)).collect();
    /// assert_eq!(v, [(0, Parity::Even), (9, Parity::Odd), (u32::MAX, Parity::Top)]);
    /// ```
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter {
            stack: self.root.iter().map(|t| &**t).collect(),
            keys: std::marker::PhantomData,
        }
    }

    /// Whether the two maps are the same node in memory (and hence equal); a cheap test of
    /// structure sharing. Two empty maps share their (absent) root. `false` does not mean the
    /// maps differ: equal maps built separately have distinct roots.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Flat, Lattice, MapLattice};
    ///
    /// let m = MapLattice::<u32, Flat<i64>>::new().insert(1, Flat::Value(1));
    /// let same = MapLattice::<u32, Flat<i64>>::new().insert(1, Flat::Value(1));
    /// assert!(m.shares_root_with(&m.clone()));
    /// assert!(m.join(&m).shares_root_with(&m));
    /// assert!(m == same && !m.shares_root_with(&same));
    /// ```
    pub fn shares_root_with(&self, other: &Self) -> bool {
        match (&self.root, &other.root) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    fn union_with(&self, other: &Self, f: &impl Fn(&V, &V) -> V) -> Self {
        match (&self.root, &other.root) {
            (None, _) => other.clone(),
            (_, None) => self.clone(),
            (Some(a), Some(b)) => MapLattice::from_root(Some(union(a, b, f))),
        }
    }
}

impl<K: MapKey, V: Lattice> FromIterator<(K, V)> for MapLattice<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        iter.into_iter()
            .fold(MapLattice::new(), |m, (k, v)| m.insert(k, v))
    }
}

/// An iterator over the bindings of a [`MapLattice`] in ascending key order, returned by
/// [`MapLattice::iter`] (and re-exported as `absinthe::lattice::MapIter`). It yields each key
/// with a reference to its value, and never a bottom value.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Interval, MapIter, MapLattice};
///
/// let m: MapLattice<u16, Interval> =
///     [(3, Interval::new(1, 2)), (1, Interval::constant(4))].into_iter().collect();
/// let mut it: MapIter<'_, u16, Interval> = m.iter();
/// assert_eq!(it.next(), Some((1, &Interval::constant(4))));
/// assert_eq!(it.next(), Some((3, &Interval::new(1, 2))));
/// assert_eq!(it.next(), None);
/// ```
pub struct Iter<'a, K, V> {
    stack: Vec<&'a Node<V>>,
    keys: std::marker::PhantomData<fn() -> K>,
}

impl<K, V> Debug for Iter<'_, K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Iter")
            .field("pending", &self.stack.len())
            .finish()
    }
}

impl<'a, K: MapKey, V> Iterator for Iter<'a, K, V> {
    type Item = (K, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.stack.pop()? {
                Node::Leaf { key, value } => return Some((K::from_bits(*key), value)),
                Node::Branch { left, right, .. } => {
                    self.stack.push(right);
                    self.stack.push(left);
                }
            }
        }
    }
}

impl<K: MapKey, V: Lattice> Lattice for MapLattice<K, V> {
    const FINITE_HEIGHT: bool = V::FINITE_HEIGHT;
    const EXACT: bool = V::EXACT;

    fn bottom() -> Self {
        MapLattice::new()
    }

    fn is_bottom(&self) -> bool {
        self.root.is_none()
    }

    fn leq(&self, other: &Self) -> bool {
        match (&self.root, &other.root) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => included(a, b),
        }
    }

    fn join(&self, other: &Self) -> Self {
        self.union_with(other, &|a: &V, b: &V| a.join(b))
    }

    fn meet(&self, other: &Self) -> Self {
        match (&self.root, &other.root) {
            (Some(a), Some(b)) => MapLattice::from_root(intersection(a, b)),
            _ => MapLattice::new(),
        }
    }

    fn join_with(&mut self, other: &Self) -> Changed {
        let joined = self.join(other);
        if joined.shares_root_with(self) {
            return Changed::No;
        }
        replace_if_changed(self, joined)
    }

    fn widen(&self, newer: &Self) -> Self {
        self.union_with(newer, &|a: &V, b: &V| a.widen(b))
    }

    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        self.union_with(newer, &|a: &V, b: &V| {
            a.widen_with_thresholds(b, thresholds)
        })
    }

    fn narrow(&self, newer: &Self) -> Self {
        // Pointwise over the keys of `self`; a key missing from `newer` narrows towards bottom.
        let mut result = self.clone();
        for (k, v) in self.iter() {
            let narrowed = match newer.get(k) {
                Some(w) => v.narrow(w),
                None => v.narrow(&V::bottom()),
            };
            if narrowed != *v {
                result = result.insert(k, narrowed);
            }
        }
        result
    }
}

impl<K: MapKey, V: Debug> Debug for MapLattice<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut map = f.debug_map();
        let mut stack: Vec<&Node<V>> = self.root.iter().map(|t| &**t).collect();
        while let Some(node) = stack.pop() {
            match node {
                Node::Leaf { key, value } => {
                    map.entry(&K::from_bits(*key), value);
                }
                Node::Branch { left, right, .. } => {
                    stack.push(right);
                    stack.push(left);
                }
            }
        }
        map.finish()
    }
}

impl<K: MapKey + Display, V: Lattice + Display> Display for MapLattice<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("⊥");
        }
        f.write_str("{")?;
        for (i, (k, v)) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{k} ↦ {v}")?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;
    use crate::lattice::{Flat, Interval};

    thread_local! {
        static CALLS: Cell<usize> = const { Cell::new(0) };
    }

    /// A flat lattice over `i64` that counts calls to `join`, `meet` and `leq`.
    #[derive(Clone, PartialEq, Eq, Hash, Debug)]
    struct Counting(Flat<i64>);

    fn tick() {
        CALLS.with(|c| c.set(c.get() + 1));
    }

    fn calls() -> usize {
        CALLS.with(|c| c.replace(0))
    }

    impl Lattice for Counting {
        const FINITE_HEIGHT: bool = true;
        fn bottom() -> Self {
            Counting(Flat::Bottom)
        }
        fn is_bottom(&self) -> bool {
            self.0.is_bottom()
        }
        fn leq(&self, other: &Self) -> bool {
            tick();
            self.0.leq(&other.0)
        }
        fn join(&self, other: &Self) -> Self {
            tick();
            Counting(self.0.join(&other.0))
        }
        fn meet(&self, other: &Self) -> Self {
            tick();
            Counting(self.0.meet(&other.0))
        }
    }

    fn big() -> MapLattice<u32, Counting> {
        (0..1000u32)
            .map(|k| (k * 7, Counting(Flat::Value(i64::from(k)))))
            .collect()
    }

    #[test]
    fn basic_operations() {
        let m: MapLattice<u32, Flat<i64>> =
            [(5, Flat::Value(1)), (1, Flat::Value(2)), (9, Flat::Top)]
                .into_iter()
                .collect();
        assert_eq!(m.len(), 3);
        assert_eq!(m.get(5), Some(&Flat::Value(1)));
        assert_eq!(m.get(4), None);
        let keys: Vec<u32> = m.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, [1, 5, 9]);
        assert_eq!(m.remove(5).len(), 2);
        assert_eq!(m.insert(5, Flat::Bottom), m.remove(5));
        assert_eq!(m.to_string(), "{1 ↦ 2, 5 ↦ 1, 9 ↦ ⊤}");
        let extremes: MapLattice<u32, Flat<i64>> = [(u32::MAX, Flat::Top), (0, Flat::Top)]
            .into_iter()
            .collect();
        let keys: Vec<u32> = extremes.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, [0, u32::MAX]);
    }

    #[test]
    fn pointwise_lattice_operations() {
        let a: MapLattice<u32, Interval> = [(1, Interval::new(0, 1)), (2, Interval::new(5, 5))]
            .into_iter()
            .collect();
        let b: MapLattice<u32, Interval> = [(2, Interval::new(7, 7)), (3, Interval::new(0, 0))]
            .into_iter()
            .collect();
        let j = a.join(&b);
        assert_eq!(j.get(2), Some(&Interval::new(5, 7)));
        assert_eq!(j.len(), 3);
        assert_eq!(a.meet(&b), MapLattice::new());
        assert!(a.leq(&j) && b.leq(&j) && !j.leq(&a));
        let w = a.widen(&j);
        assert_eq!(w.get(2), Some(&Interval::new(5, i64::MAX)));
        assert_eq!(w.get(3), Some(&Interval::new(0, 0)));
    }

    #[test]
    fn insert_shares_structure_and_noop_insert_returns_the_same_root() {
        let m = big();
        let same = m.insert(14, Counting(Flat::Value(2)));
        assert!(same.shares_root_with(&m));
        let other = m.insert(14, Counting(Flat::Value(-1)));
        assert!(!other.shares_root_with(&m));
        assert_eq!(other.len(), m.len());
    }

    #[test]
    fn operations_short_circuit_on_shared_subtrees() {
        let m = big();
        let m2 = m.insert(14, Counting(Flat::Value(-1)));
        calls();

        // Identical operands: no value is touched and the result is the operand itself.
        assert!(m.join(&m).shares_root_with(&m));
        assert!(m.leq(&m));
        assert!(m.meet(&m).shares_root_with(&m));
        assert_eq!(calls(), 0);

        // Operands differing in one key: only the values on that path are compared.
        let j = m.join(&m2);
        assert_eq!(j.get(14), Some(&Counting(Flat::Top)));
        assert!(m.leq(&j));
        assert!(m2.leq(&j));
        let met = m.meet(&m2);
        assert_eq!(met.get(14), None);
        assert_eq!(met.len(), 999);
        assert!(calls() <= 6, "operations descended into shared subtrees");

        // A join whose result equals an operand returns that operand's root.
        let top = m.insert(14, Counting(Flat::Top));
        calls();
        assert!(m.join(&top).shares_root_with(&top));
        assert!(top.join(&m).shares_root_with(&top));
        assert!(calls() <= 2);
        let mut acc = top.clone();
        assert_eq!(acc.join_with(&m), Changed::No);
        assert!(acc.shares_root_with(&top));
    }

    /// Keys that exercise every bit position, including the top one.
    fn key() -> impl Strategy<Value = u32> {
        prop_oneof![
            0u32..16,
            Just(u32::MAX),
            Just(1 << 31),
            Just((1 << 31) | 5),
            any::<u32>()
        ]
    }

    fn model(ops: &[(u32, Option<i64>)]) -> (MapLattice<u32, Flat<i64>>, BTreeMap<u32, i64>) {
        let mut map = MapLattice::new();
        let mut reference = BTreeMap::new();
        for &(k, v) in ops {
            match v {
                Some(v) => {
                    map = map.insert(k, Flat::Value(v));
                    reference.insert(k, v);
                }
                None => {
                    map = map.remove(k);
                    reference.remove(&k);
                }
            }
        }
        (map, reference)
    }

    proptest! {
        #[test]
        fn agrees_with_a_btreemap(
            ops_a in proptest::collection::vec((key(), proptest::option::of(0i64..3)), 0..40),
            ops_b in proptest::collection::vec((key(), proptest::option::of(0i64..3)), 0..40),
        ) {
            let (a, ra) = model(&ops_a);
            let (b, rb) = model(&ops_b);
            prop_assert_eq!(a.len(), ra.len());
            let listed: Vec<(u32, i64)> = a.iter().map(|(k, v)| (k, *v.constant().unwrap())).collect();
            let expected: Vec<(u32, i64)> = ra.iter().map(|(k, v)| (*k, *v)).collect();
            prop_assert_eq!(listed, expected);
            for k in ra.keys().chain(rb.keys()) {
                let (x, y) = (a.get_or_bottom(*k), b.get_or_bottom(*k));
                prop_assert_eq!(a.join(&b).get_or_bottom(*k), x.join(&y));
                prop_assert_eq!(a.meet(&b).get_or_bottom(*k), x.meet(&y));
            }
            let pointwise = ra.keys().chain(rb.keys()).all(|k| a.get_or_bottom(*k).leq(&b.get_or_bottom(*k)));
            prop_assert_eq!(a.leq(&b), pointwise);
            prop_assert_eq!(a == b, ra == rb);
        }
    }
}
