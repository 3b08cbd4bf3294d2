//! The big-endian Patricia tree under [`super::MapLattice`]: nodes shared through `Arc`, lookup,
//! update and removal that copy one path, and the pointwise union, intersection and inclusion
//! that skip every subtree the two trees share and return an operand's subtree unchanged when
//! the result equals it.

use std::sync::Arc;

use crate::lattice::Lattice;

/// A node of the Patricia tree. Branch children are never empty.
#[derive(Debug, Hash, PartialEq, Eq)]
pub(super) enum Node<V> {
    Leaf {
        key: u32,
        value: V,
    },
    Branch {
        /// The bits of every key above `bit`.
        prefix: u32,
        /// The single bit on which the children differ: keys with it clear go left.
        bit: u32,
        len: usize,
        left: Arc<Node<V>>,
        right: Arc<Node<V>>,
    },
}

pub(super) type Tree<V> = Arc<Node<V>>;

/// The bits of `key` strictly above `bit`.
fn mask(key: u32, bit: u32) -> u32 {
    key & !((bit << 1).wrapping_sub(1))
}

fn matches_prefix(key: u32, prefix: u32, bit: u32) -> bool {
    mask(key, bit) == prefix
}

fn goes_left(key: u32, bit: u32) -> bool {
    key & bit == 0
}

/// The highest bit on which `a` and `b` differ (they must differ).
fn branching_bit(a: u32, b: u32) -> u32 {
    1 << (31 - (a ^ b).leading_zeros())
}

impl<V> Node<V> {
    pub(super) fn len(&self) -> usize {
        match self {
            Node::Leaf { .. } => 1,
            Node::Branch { len, .. } => *len,
        }
    }
}

pub(super) fn leaf<V>(key: u32, value: V) -> Tree<V> {
    Arc::new(Node::Leaf { key, value })
}

fn branch<V>(prefix: u32, bit: u32, left: Tree<V>, right: Tree<V>) -> Tree<V> {
    let len = left.len() + right.len();
    Arc::new(Node::Branch {
        prefix,
        bit,
        len,
        left,
        right,
    })
}

/// Rebuilds a branch from possibly-empty children, reusing `original` when nothing changed.
fn rebuild<V>(
    original: &Tree<V>,
    (prefix, bit): (u32, u32),
    left: Option<Tree<V>>,
    right: Option<Tree<V>>,
) -> Option<Tree<V>> {
    match (left, right) {
        (None, None) => None,
        (Some(t), None) | (None, Some(t)) => Some(t),
        (Some(l), Some(r)) => {
            if let Node::Branch {
                left: ol,
                right: or,
                ..
            } = &**original
            {
                if Arc::ptr_eq(ol, &l) && Arc::ptr_eq(or, &r) {
                    return Some(original.clone());
                }
            }
            Some(branch(prefix, bit, l, r))
        }
    }
}

/// Joins two trees with disjoint prefixes `p0` (of `t0`) and `p1` (of `t1`).
fn link<V>(p0: u32, t0: Tree<V>, p1: u32, t1: Tree<V>) -> Tree<V> {
    let bit = branching_bit(p0, p1);
    if goes_left(p0, bit) {
        branch(mask(p0, bit), bit, t0, t1)
    } else {
        branch(mask(p0, bit), bit, t1, t0)
    }
}

pub(super) fn get<V>(mut t: &Tree<V>, k: u32) -> Option<&V> {
    loop {
        match &**t {
            Node::Leaf { key, value } => return (*key == k).then_some(value),
            Node::Branch {
                prefix,
                bit,
                left,
                right,
                ..
            } => {
                if !matches_prefix(k, *prefix, *bit) {
                    return None;
                }
                t = if goes_left(k, *bit) { left } else { right };
            }
        }
    }
}

/// Sets `k` to `f(old value)`; `f` returning `None` keeps the tree unchanged (same `Arc`).
pub(super) fn update<V>(
    t: &Tree<V>,
    k: u32,
    f: &mut impl FnMut(Option<&V>) -> Option<V>,
) -> Tree<V> {
    match &**t {
        Node::Leaf { key, value } => {
            if *key == k {
                match f(Some(value)) {
                    Some(v) => leaf(k, v),
                    None => t.clone(),
                }
            } else {
                match f(None) {
                    Some(v) => link(k, leaf(k, v), *key, t.clone()),
                    None => t.clone(),
                }
            }
        }
        Node::Branch {
            prefix,
            bit,
            left,
            right,
            ..
        } => {
            if !matches_prefix(k, *prefix, *bit) {
                return match f(None) {
                    Some(v) => link(k, leaf(k, v), *prefix, t.clone()),
                    None => t.clone(),
                };
            }
            let (l, r) = if goes_left(k, *bit) {
                (update(left, k, f), right.clone())
            } else {
                (left.clone(), update(right, k, f))
            };
            rebuild(t, (*prefix, *bit), Some(l), Some(r)).expect("children are not empty")
        }
    }
}

pub(super) fn remove<V>(t: &Tree<V>, k: u32) -> Option<Tree<V>> {
    match &**t {
        Node::Leaf { key, .. } => (*key != k).then(|| t.clone()),
        Node::Branch {
            prefix,
            bit,
            left,
            right,
            ..
        } => {
            if !matches_prefix(k, *prefix, *bit) {
                return Some(t.clone());
            }
            let (l, r) = if goes_left(k, *bit) {
                (remove(left, k), Some(right.clone()))
            } else {
                (Some(left.clone()), remove(right, k))
            };
            rebuild(t, (*prefix, *bit), l, r)
        }
    }
}

/// Pointwise union of two trees: keys on one side only keep their value, keys on both sides get
/// `f(a, b)`, which must not be bottom. A result equal to an operand (by `Arc` identity below, or
/// by `f` returning a value equal to an operand's at a leaf) is that operand's `Arc`; shared
/// subtrees are returned without calling `f`.
pub(super) fn union<V: Lattice>(a: &Tree<V>, b: &Tree<V>, f: &impl Fn(&V, &V) -> V) -> Tree<V> {
    if Arc::ptr_eq(a, b) {
        return a.clone();
    }
    match (&**a, &**b) {
        (Node::Leaf { key: ka, value: va }, Node::Leaf { key: kb, value: vb }) if ka == kb => {
            let v = f(va, vb);
            if v == *vb {
                b.clone()
            } else if v == *va {
                a.clone()
            } else {
                leaf(*ka, v)
            }
        }
        (Node::Leaf { key, value }, _) => update(b, *key, &mut |old: Option<&V>| match old {
            None => Some(value.clone()),
            Some(old) => {
                let v = f(value, old);
                (v != *old).then_some(v)
            }
        }),
        (_, Node::Leaf { key, value }) => update(a, *key, &mut |old: Option<&V>| match old {
            None => Some(value.clone()),
            Some(old) => {
                let v = f(old, value);
                (v != *old).then_some(v)
            }
        }),
        (
            Node::Branch {
                prefix: p,
                bit: m,
                left: l0,
                right: r0,
                ..
            },
            Node::Branch {
                prefix: q,
                bit: n,
                left: l1,
                right: r1,
                ..
            },
        ) => {
            if m == n && p == q {
                let l = union(l0, l1, f);
                let r = union(r0, r1, f);
                if Arc::ptr_eq(&l, l1) && Arc::ptr_eq(&r, r1) {
                    return b.clone();
                }
                rebuild(a, (*p, *m), Some(l), Some(r)).expect("children are not empty")
            } else if m > n && matches_prefix(*q, *p, *m) {
                // `b` lies inside one half of `a`.
                let (l, r) = if goes_left(*q, *m) {
                    (union(l0, b, f), r0.clone())
                } else {
                    (l0.clone(), union(r0, b, f))
                };
                rebuild(a, (*p, *m), Some(l), Some(r)).expect("children are not empty")
            } else if m < n && matches_prefix(*p, *q, *n) {
                // `a` lies inside one half of `b`.
                let (l, r) = if goes_left(*p, *n) {
                    (union(a, l1, f), r1.clone())
                } else {
                    (l1.clone(), union(a, r1, f))
                };
                rebuild(b, (*q, *n), Some(l), Some(r)).expect("children are not empty")
            } else {
                link(*p, a.clone(), *q, b.clone())
            }
        }
    }
}

/// Pointwise meet: keys on both sides get `a.meet(b)`, dropped when bottom.
pub(super) fn intersection<V: Lattice>(a: &Tree<V>, b: &Tree<V>) -> Option<Tree<V>> {
    if Arc::ptr_eq(a, b) {
        return Some(a.clone());
    }
    match (&**a, &**b) {
        (Node::Leaf { key, value }, _) => {
            let other = get(b, *key)?;
            meet_leaf(a, *key, value, other)
        }
        (_, Node::Leaf { key, value }) => {
            let other = get(a, *key)?;
            meet_leaf(b, *key, value, other)
        }
        (
            Node::Branch {
                prefix: p,
                bit: m,
                left: l0,
                right: r0,
                ..
            },
            Node::Branch {
                prefix: q,
                bit: n,
                left: l1,
                right: r1,
                ..
            },
        ) => {
            if m == n && p == q {
                let l = intersection(l0, l1);
                let r = intersection(r0, r1);
                if let (Some(l), Some(r)) = (&l, &r) {
                    if Arc::ptr_eq(l, l1) && Arc::ptr_eq(r, r1) {
                        return Some(b.clone());
                    }
                }
                rebuild(a, (*p, *m), l, r)
            } else if m > n && matches_prefix(*q, *p, *m) {
                intersection(if goes_left(*q, *m) { l0 } else { r0 }, b)
            } else if m < n && matches_prefix(*p, *q, *n) {
                intersection(a, if goes_left(*p, *n) { l1 } else { r1 })
            } else {
                None
            }
        }
    }
}

/// The meet of a leaf of `t` with `other`, reusing `t` when the value does not change.
fn meet_leaf<V: Lattice>(t: &Tree<V>, key: u32, value: &V, other: &V) -> Option<Tree<V>> {
    let v = value.meet(other);
    if v.is_bottom() {
        None
    } else if v == *value {
        Some(t.clone())
    } else {
        Some(leaf(key, v))
    }
}

/// Whether every binding of `a` is below the binding of the same key in `b`.
pub(super) fn included<V: Lattice>(a: &Tree<V>, b: &Tree<V>) -> bool {
    if Arc::ptr_eq(a, b) {
        return true;
    }
    if a.len() > b.len() {
        return false;
    }
    match (&**a, &**b) {
        (Node::Leaf { key, value }, _) => get(b, *key).is_some_and(|w| value.leq(w)),
        (Node::Branch { .. }, Node::Leaf { .. }) => false,
        (
            Node::Branch {
                prefix: p,
                bit: m,
                left: l0,
                right: r0,
                ..
            },
            Node::Branch {
                prefix: q,
                bit: n,
                left: l1,
                right: r1,
                ..
            },
        ) => {
            if m == n && p == q {
                included(l0, l1) && included(r0, r1)
            } else if m < n && matches_prefix(*p, *q, *n) {
                included(a, if goes_left(*p, *n) { l1 } else { r1 })
            } else {
                false
            }
        }
    }
}
