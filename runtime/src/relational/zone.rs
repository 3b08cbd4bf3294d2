//! Zones: conjunctions of `x - y ≤ c` and `±x ≤ c` over the program's 64-bit integers, as a
//! difference-bound matrix over the variables and a node for zero, kept closed (shortest paths)
//! and met with the box of 64-bit values, so that equality, order and join are entry by entry.
//! One added constraint re-closes the matrix in quadratic time. Cheaper than an octagon (a node
//! per variable, not two), and blind to sums `x + y`.
//!
//! Node 0 is zero and node `k + 1` is variable `k`; entry `(i, j)` bounds `v_j - v_i`.

use super::bound::{INF, add, below, entrywise, normal, threshold_above, threshold_below};
use super::domain::{Constraint, Relational, bound_constraints, implied_bounds};
use super::paths::shortest_paths;
use crate::lattice::{Interval, Lattice, Thresholds, Top};
use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

/// The greatest `v_j - v_i` over 64-bit values (zero for node 0).
fn trivial(i: usize, j: usize) -> i128 {
    let most = |node: usize| if node == 0 { 0 } else { (1i128 << 63) - 1 };
    let least_neg = |node: usize| if node == 0 { 0 } else { 1i128 << 63 };
    if i == j { 0 } else { most(j) + least_neg(i) }
}

/// What a difference or bound does to the matrix.
#[derive(Clone, Copy, Debug)]
enum Edge {
    /// Adds `v_b - v_a ≤ c`.
    Add(usize, usize, i128),
    /// Nothing (`x - x ≤ c` with `c ≥ 0`).
    Holds,
    /// Empties it (`x - x ≤ c` with `c < 0`).
    Empty,
}

/// The variables a difference or bound needs the matrix to hold, and what it does there;
/// `None` for a sum.
fn edge_of(c: Constraint) -> Option<(usize, Edge)> {
    Some(match c {
        Constraint::Difference(x, y, c) if x == y => {
            (x + 1, if c < 0 { Edge::Empty } else { Edge::Holds })
        }
        Constraint::Difference(x, y, c) => (x.max(y) + 1, Edge::Add(y + 1, x + 1, c)),
        Constraint::Upper(x, c) => (x + 1, Edge::Add(0, x + 1, c)),
        Constraint::Lower(x, c) => (x + 1, Edge::Add(x + 1, 0, c.saturating_neg())),
        Constraint::Sum(..) | Constraint::NegSum(..) => return None,
    })
}

/// A conjunction of difference constraints over variables `0, 1, …`, or bottom.
#[derive(Clone, Debug)]
pub struct Zone {
    /// Variables the matrix holds (every later one is unconstrained).
    n: usize,
    /// The `(n + 1) × (n + 1)` matrix, row-major; `None` for bottom. No entry is above what
    /// 64-bit values allow ([`trivial`]), so none is `+∞`: the closures add entries without
    /// checking.
    m: Option<Vec<i128>>,
    /// Whether the matrix is closed (every operation but the widening leaves it so).
    closed: bool,
}

impl Zone {
    /// No constraint on any variable.
    pub fn top() -> Zone {
        Zone {
            n: 0,
            m: Some(vec![0]),
            closed: true,
        }
    }

    /// How many variables the matrix holds (later ones are unconstrained).
    pub fn dim(&self) -> usize {
        self.n
    }

    fn at(&self, i: usize, j: usize) -> i128 {
        match &self.m {
            Some(m) => m[i * (self.n + 1) + j],
            None => unreachable!("entries of a bottom zone are never read"),
        }
    }

    /// Sets entry `(i, j)`, at most what 64-bit values allow.
    fn set(&mut self, i: usize, j: usize, c: i128) {
        let w = self.n + 1;
        let c = if i == j { c } else { c.min(trivial(i, j)) };
        match &mut self.m {
            Some(m) => m[i * w + j] = c,
            None => unreachable!("entries of a bottom zone are never written"),
        }
    }

    /// Grows the matrix to hold variables `0..n` (new ones with their 64-bit bounds only).
    fn grow(&mut self, n: usize) {
        if n <= self.n {
            return;
        }
        let Some(old) = &self.m else {
            self.n = n;
            return;
        };
        let (w0, w) = (self.n + 1, n + 1);
        let mut m = Vec::with_capacity(w * w);
        for i in 0..w {
            let kept = if i < w0 {
                m.extend_from_slice(&old[i * w0..(i + 1) * w0]);
                w0
            } else {
                0
            };
            m.extend((kept..w).map(|j| trivial(i, j)));
        }
        self.n = n;
        self.m = Some(m);
        if self.closed {
            self.through_zero();
        }
    }

    /// Paths through node 0: closes a closed matrix whose new or forgotten variables have
    /// only their 64-bit bounds (edges to and from zero).
    fn through_zero(&mut self) {
        let w = self.n + 1;
        let Some(m) = &mut self.m else {
            unreachable!("paths of a bottom zone are never taken");
        };
        // The step of Floyd–Warshall through node 0, which leaves row 0 and column 0 alone.
        let (zero, rest) = m.split_at_mut(w);
        for row in rest.chunks_exact_mut(w) {
            let to_zero = row[0];
            for (e, &from_zero) in row.iter_mut().zip(zero.iter()) {
                *e = (*e).min(to_zero + from_zero);
            }
        }
    }

    /// Closure from scratch (shortest paths); bottom when a cycle is negative.
    fn close(&mut self) {
        if self.closed {
            return;
        }
        self.closed = true;
        let w = self.n + 1;
        let Some(m) = &mut self.m else {
            return;
        };
        debug_assert!(
            (0..w * w).all(|k| m[k] <= trivial(k / w, k % w)),
            "no entry is above what 64-bit values allow"
        );
        if !shortest_paths(m, w) {
            self.m = None;
        }
    }

    /// Adds `v_b - v_a ≤ c` to a closed matrix and closes it again in quadratic time.
    fn add_edge(&mut self, a: usize, b: usize, c: i128) {
        self.close();
        let w = self.n + 1;
        let Some(m) = &mut self.m else {
            return;
        };
        let c = normal(c);
        if c >= m[a * w + b] {
            return;
        }
        // A negative cycle `a → b ⇝ a` leaves nothing. Otherwise `c` is at least `-m[b][a]`, and
        // no sum below can overflow.
        if c + m[b * w + a] < 0 {
            self.m = None;
            return;
        }
        // Every `i ⇝ a → b ⇝ j`, in place: a row the loop already changed holds shorter paths of
        // the new graph, so the rows after it come out the same.
        let cells = Cell::from_mut(m.as_mut_slice()).as_slice_of_cells();
        let out_b = &cells[b * w..][..w];
        for row in cells.chunks_exact(w) {
            let x = row[a].get() + c;
            for (e, p) in row.iter().zip(out_b) {
                e.set(e.get().min(x + p.get()));
            }
        }
    }

    /// `x - y ≤ c`.
    pub fn add_difference(&mut self, x: usize, y: usize, c: i64) {
        self.grow(x.max(y) + 1);
        self.add_edge(y + 1, x + 1, i128::from(c));
    }

    /// `x ≤ c`.
    pub fn add_upper(&mut self, x: usize, c: i64) {
        self.grow(x + 1);
        self.add_edge(0, x + 1, i128::from(c));
    }

    /// `x ≥ c`.
    pub fn add_lower(&mut self, x: usize, c: i64) {
        self.grow(x + 1);
        self.add_edge(x + 1, 0, -i128::from(c));
    }

    /// `x` within `i` (bottom for an empty `i`).
    pub fn add_interval(&mut self, x: usize, i: &Interval) {
        match i.bounds() {
            None => self.m = None,
            Some((lo, hi)) => {
                self.add_lower(x, lo);
                self.add_upper(x, hi);
            }
        }
    }

    /// Adds every constraint of `cs`: the value adding them one at a time
    /// ([`Relational::add_constraint`]) gives, closed once from scratch (cubic) instead of
    /// after each one (quadratic each) when they are many for the matrix. A sum, which the zone
    /// keeps as the bounds it implies, is added alone, once the differences before it are.
    pub fn add_constraints(&mut self, cs: &[Constraint]) {
        for run in cs.split_inclusive(|&c| edge_of(c).is_none()) {
            let (last, differences) = match run.split_last() {
                Some((&last, rest)) if edge_of(last).is_none() => (Some(last), rest),
                _ => (None, run),
            };
            self.add_differences(differences);
            if let Some(sum) = last {
                self.add_constraint(sum);
            }
        }
    }

    /// [`Zone::add_constraints`] of differences and bounds only.
    fn add_differences(&mut self, cs: &[Constraint]) {
        let edges: Vec<(usize, Edge)> = cs.iter().filter_map(|&c| edge_of(c)).collect();
        let n = edges.iter().map(|&(n, _)| n).fold(self.n, usize::max);
        let added = edges
            .iter()
            .filter(|(_, e)| matches!(e, Edge::Add(..)))
            .count();
        // One closure from scratch costs about as much as half the matrix's width in
        // incremental ones (the matrix is `n + 1` wide).
        let at_once = 2 * added > n;
        if at_once && added > 0 && self.m.is_some() {
            // The closure from scratch below closes the grown matrix too: the new variables
            // need not be closed through zero first.
            self.closed = false;
        }
        self.grow(n);
        let w = self.n + 1;
        for (_, edge) in edges {
            match edge {
                Edge::Add(a, b, c) if at_once => {
                    // The edge, at most what 64-bit values allow, as `add_edge` leaves it before
                    // the paths through it.
                    self.closed = false;
                    if let Some(m) = &mut self.m {
                        m[a * w + b] = m[a * w + b].min(normal(c).min(trivial(a, b)));
                    }
                }
                Edge::Add(a, b, c) => self.add_edge(a, b, c),
                Edge::Holds => {}
                Edge::Empty => self.m = None,
            }
        }
        if at_once && added > 0 {
            self.close();
        }
    }

    /// The bounds of `x` (the empty interval for bottom).
    pub fn bounds(&self, x: usize) -> Interval {
        let z = self.as_closed();
        if z.m.is_none() {
            return Interval::empty();
        }
        if x >= z.n {
            return Interval::top();
        }
        let hi = i64::try_from(z.at(0, x + 1)).unwrap_or(i64::MAX);
        let lo = i64::try_from(-z.at(x + 1, 0)).unwrap_or(i64::MIN);
        Interval::new(lo, hi)
    }

    /// The least and greatest `x - y` the zone allows, `None` on a side only 64-bit bounds
    /// give (both `None` for bottom).
    pub fn difference(&self, x: usize, y: usize) -> (Option<i128>, Option<i128>) {
        let z = self.as_closed();
        if z.m.is_none() || x >= z.n || y >= z.n {
            return (None, None);
        }
        let (x, y) = (x + 1, y + 1);
        let known = |i: usize, j: usize| (z.at(i, j) < trivial(i, j)).then(|| z.at(i, j));
        (known(x, y).map(|c| -c), known(y, x))
    }

    /// Forgets every constraint on `x` but its 64-bit bounds.
    pub fn forget(&mut self, x: usize) {
        if x >= self.n || self.m.is_none() {
            return;
        }
        self.close();
        if self.m.is_none() {
            return;
        }
        let w = self.n + 1;
        for j in 0..w {
            if j != x + 1 {
                self.set(x + 1, j, INF);
                self.set(j, x + 1, INF);
            }
        }
        self.through_zero();
    }

    /// `x := y + c`: exact when it cannot wrap over the bounds `y` has, otherwise `x` takes the
    /// wrapped result's interval.
    pub fn assign_var(&mut self, x: usize, y: usize, c: i64) {
        self.grow(x.max(y) + 1);
        let from = self.bounds(y);
        let Some((lo, hi)) = from.bounds() else {
            return;
        };
        let fits = |v: i64| v.checked_add(c).is_some();
        if !(fits(lo) && fits(hi)) {
            let wrapped = <Interval as crate::value::ValueDomain>::binary(
                crate::program::Op::Add,
                &from,
                &Interval::constant(c),
            );
            self.assign_interval(x, &wrapped);
            return;
        }
        if x == y {
            // Every bound on `x` moves by `c`: `x - v ≤ d` becomes `x - v ≤ d + c`.
            let w = self.n + 1;
            let c = i128::from(c);
            for k in 0..w {
                if k != x + 1 {
                    let (into, out) = (self.at(k, x + 1), self.at(x + 1, k));
                    self.set(k, x + 1, add(into, c));
                    self.set(x + 1, k, add(out, -c));
                }
            }
            return;
        }
        self.forget(x);
        let c = i128::from(c);
        self.add_edge(y + 1, x + 1, c);
        self.add_edge(x + 1, y + 1, -c);
    }

    /// `x :=` a value within `i`: every relation of `x` forgotten, its bounds those of `i`.
    pub fn assign_interval(&mut self, x: usize, i: &Interval) {
        self.grow(x + 1);
        self.forget(x);
        self.add_interval(x, i);
    }

    /// Whether the concrete values `point` (of variables `0, 1, …`) satisfy every constraint.
    pub fn contains_point(&self, point: &[i64]) -> bool {
        let Some(m) = &self.m else {
            return false;
        };
        let w = self.n + 1;
        let value = |node: usize| -> Option<i128> {
            if node == 0 {
                Some(0)
            } else {
                point.get(node - 1).map(|&v| i128::from(v))
            }
        };
        (0..w).all(|i| {
            (0..w).all(|j| match (value(i), value(j)) {
                (Some(vi), Some(vj)) => vj - vi <= m[i * w + j],
                _ => true,
            })
        })
    }

    /// `self` closed: borrowed when it already is.
    fn as_closed(&self) -> Cow<'_, Zone> {
        if self.closed {
            return Cow::Borrowed(self);
        }
        let mut c = self.clone();
        c.close();
        Cow::Owned(c)
    }

    /// Both zones closed, over as many variables: borrowed where they already are.
    fn aligned<'a>(&'a self, other: &'a Zone) -> (Cow<'a, Zone>, Cow<'a, Zone>) {
        let n = self.n.max(other.n);
        let ready = |z: &'a Zone| -> Cow<'a, Zone> {
            if z.closed && (z.n == n || z.m.is_none()) {
                return Cow::Borrowed(z);
            }
            let mut z = z.clone();
            z.close();
            z.grow(n);
            Cow::Owned(z)
        };
        (ready(self), ready(other))
    }
}

impl PartialEq for Zone {
    /// The same concrete states: equal closed matrices over as many variables.
    fn eq(&self, other: &Zone) -> bool {
        let (a, b) = self.aligned(other);
        a.m == b.m
    }
}

impl Eq for Zone {}

impl Lattice for Zone {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Zone {
        Zone {
            n: 0,
            m: None,
            closed: true,
        }
    }

    fn is_bottom(&self) -> bool {
        let z = self.as_closed();
        z.m.is_none()
    }

    fn leq(&self, other: &Zone) -> bool {
        let (a, b) = self.aligned(other);
        match (&a.m, &b.m) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(x), Some(y)) => below(x, y),
        }
    }

    /// The entry-wise maximum of two closed matrices, which is closed.
    fn join(&self, other: &Zone) -> Zone {
        let (a, b) = self.aligned(other);
        match (&a.m, &b.m) {
            (None, _) => b.into_owned(),
            (_, None) => a.into_owned(),
            (Some(x), Some(y)) => Zone {
                n: a.n,
                m: Some(entrywise(x, y, i128::max)),
                closed: true,
            },
        }
    }

    fn meet(&self, other: &Zone) -> Zone {
        let (a, b) = self.aligned(other);
        match (&a.m, &b.m) {
            (None, _) | (_, None) => Zone::bottom(),
            (Some(x), Some(y)) => {
                let mut met = Zone {
                    n: a.n,
                    m: Some(entrywise(x, y, i128::min)),
                    closed: false,
                };
                met.close();
                met
            }
        }
    }

    fn widen(&self, newer: &Zone) -> Zone {
        self.widen_with_thresholds(newer, &Thresholds::none())
    }

    /// A bound that grew moves to the next threshold (a lower bound to the threshold below),
    /// or to what 64-bit values allow; the result is left unclosed so that chains stabilise.
    fn widen_with_thresholds(&self, newer: &Zone, thresholds: &Thresholds) -> Zone {
        let n = self.n.max(newer.n);
        let (mut old, mut new) = (self.clone(), newer.clone());
        old.grow(n);
        new.close();
        new.grow(n);
        if old.is_bottom() {
            return new;
        }
        if new.m.is_none() {
            return old;
        }
        let w = n + 1;
        let mut out = old.clone();
        for i in 0..w {
            for j in 0..w {
                let (o, c) = (old.at(i, j), new.at(i, j));
                if c > o {
                    let stop = match (i, j) {
                        (_, 0) => threshold_below(c, thresholds),
                        _ => threshold_above(c, thresholds),
                    };
                    out.set(i, j, stop);
                }
            }
        }
        out.closed = false;
        out
    }

    /// Only the bounds the older value leaves at the 64-bit extremes are taken from the newer.
    fn narrow(&self, newer: &Zone) -> Zone {
        let (a, b) = self.aligned(newer);
        if a.m.is_none() || b.m.is_none() {
            return Zone::bottom();
        }
        let mut out = a.clone().into_owned();
        for i in 0..=a.n {
            for j in 0..=a.n {
                if i != j && a.at(i, j) >= trivial(i, j) {
                    out.set(i, j, b.at(i, j));
                }
            }
        }
        out.closed = false;
        out.close();
        out
    }
}

impl Top for Zone {
    fn top() -> Zone {
        Zone::top()
    }

    fn is_top(&self) -> bool {
        let z = self.as_closed();
        let w = z.n + 1;
        match &z.m {
            None => false,
            Some(m) => (0..w).all(|i| (0..w).all(|j| i == j || m[i * w + j] >= trivial(i, j))),
        }
    }
}

impl Relational for Zone {
    /// Sums `x + y ≤ c` and `-x - y ≤ c` are not differences: the zone keeps the bounds they
    /// imply.
    fn add_constraint(&mut self, c: Constraint) {
        let Some((n, edge)) = edge_of(c) else {
            for (x, bounds) in implied_bounds(c, |x| self.bounds(x)) {
                self.add_interval(x, &bounds);
            }
            return;
        };
        self.grow(n);
        match edge {
            Edge::Add(a, b, c) => self.add_edge(a, b, c),
            Edge::Holds => {}
            Edge::Empty => self.m = None,
        }
    }

    fn add_interval(&mut self, x: usize, i: &Interval) {
        Zone::add_interval(self, x, i);
    }

    fn bounds(&self, x: usize) -> Interval {
        Zone::bounds(self, x)
    }

    fn forget(&mut self, x: usize) {
        Zone::forget(self, x);
    }

    /// `x := -y + c` is no difference: `x` takes its interval.
    fn assign_var(&mut self, x: usize, negated: bool, y: usize, c: i64) {
        if negated {
            let value = <Interval as crate::value::ValueDomain>::binary(
                crate::program::Op::Sub,
                &Interval::constant(c),
                &self.bounds(y),
            );
            self.assign_interval(x, &value);
        } else {
            Zone::assign_var(self, x, y, c);
        }
    }

    fn assign_interval(&mut self, x: usize, i: &Interval) {
        Zone::assign_interval(self, x, i);
    }

    /// Each variable's bounds, then the differences tighter than the bounds give.
    fn constraints(&self) -> Vec<Constraint> {
        let z = self.as_closed();
        if z.m.is_none() {
            return Vec::new();
        }
        let mut out = bound_constraints(z.n, |x| z.bounds(x));
        for i in 1..=z.n {
            for j in 1..=z.n {
                if i != j && z.at(i, j) < add(z.at(i, 0), z.at(0, j)) {
                    out.push(Constraint::Difference(j - 1, i - 1, z.at(i, j)));
                }
            }
        }
        out
    }
}

impl fmt::Display for Zone {
    /// Each variable's bounds (`x0 ∈ [0, 5]`), then the differences tighter than the bounds
    /// give (`x1 - x0 ≤ 1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text_with(&|x| format!("x{x}")))
    }
}

#[cfg(test)]
mod tests {
    use proptest::collection::vec;
    use proptest::prelude::*;

    use super::*;

    fn constraint() -> impl Strategy<Value = Constraint> {
        // Far past the 64-bit range, but not at the ends of `i128`, which the bounds a sum
        // implies (`implied_bounds`) do not take.
        let c = prop_oneof![
            8 => -8i128..8,
            1 => prop_oneof![Just(-(1i128 << 100)), Just(1i128 << 100), Just(-(1i128 << 64))],
        ];
        (0u8..6, 0usize..6, 0usize..6, c).prop_map(|(kind, x, y, c)| match kind {
            0 | 1 => Constraint::Difference(x, y, c),
            2 => Constraint::Sum(x, y, c),
            3 => Constraint::NegSum(x, y, c),
            4 => Constraint::Upper(x, c),
            _ => Constraint::Lower(x, c),
        })
    }

    proptest! {
        /// Constraints added at once give the matrix, dimension and closedness that adding
        /// them one at a time gives, from a closed state or a widening's unclosed one.
        #[test]
        fn constraints_at_once_are_constraints_one_at_a_time(
            start in vec(constraint(), 0..6),
            newer in vec(constraint(), 0..6),
            cs in vec(constraint(), 0..24),
        ) {
            let mut closed = Zone::top();
            closed.add_constraints(&start);
            let mut grown = closed.clone();
            grown.add_constraints(&newer);
            for state in [closed.clone(), closed.widen(&grown)] {
                let mut at_once = state.clone();
                at_once.add_constraints(&cs);
                let mut one_by_one = state;
                for &c in &cs {
                    one_by_one.add_constraint(c);
                }
                prop_assert_eq!(format!("{at_once:?}"), format!("{one_by_one:?}"));
            }
        }
    }
}
