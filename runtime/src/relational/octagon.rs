//! Octagons (Miné, "The octagon abstract domain", 2006) over the program's 64-bit integers:
//! conjunctions of `±x ± y ≤ c` and `±x ≤ c`, kept tightly closed (Bagnara, Hill and
//! Zaffanella's integer closure) so that equality, order and join are entry by entry, with the
//! incremental closure of Chawdhary, Robbins and King (2014) after one added constraint
//! (quadratic in the number of variables).
//!
//! Each variable `x_k` is two nodes of a difference-bound matrix, `2k` for `+x_k` and `2k + 1`
//! for `-x_k`; entry `(i, j)` bounds `v_j - v_i`. Bounds are `i128`, so that the doubled unary
//! bounds and sums of bounds of 64-bit values never overflow. Every variable is a 64-bit
//! value, so no entry is ever above the greatest `v_j - v_i` such values allow ([`trivial`]):
//! the matrix is the octagon met with the box of 64-bit values, and its tight closure is the
//! canonical form of the 64-bit states, compared entry by entry.
//!
//! The number of variables grows on demand: a variable past the matrix is unconstrained, so
//! `Lattice::bottom()` and `Top::top()` need no dimension (the empty top, and bottom).

use crate::lattice::{Interval, Lattice, Thresholds, Top};
use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

use super::bound::{
    INF, add, below, entrywise, normal, threshold_above, threshold_below, with_scratch,
};
use super::domain::{Constraint, Relational, bound_constraints};
use super::paths::{Closure, coherent_shortest_paths, tight_coherent_closure};

/// `⌊c / 2⌋` of a bound.
fn half(c: i128) -> i128 {
    if c == INF { INF } else { c.div_euclid(2) }
}

/// The greatest `v_j - v_i` over 64-bit values: a bound at least this says nothing.
fn trivial(i: usize, j: usize) -> i128 {
    // The greatest `v` of a node: `x ≤ 2⁶³ - 1` for `2k`, `-x ≤ 2⁶³` for `2k + 1`. The greatest
    // `-v_i` is the greatest `v` of `ī`.
    let most = |node: usize| (1i128 << 63) - 1 + (node & 1) as i128;
    if i == j { 0 } else { most(bar(i)) + most(j) }
}

/// The other node of the same variable.
fn bar(i: usize) -> usize {
    i ^ 1
}

/// What a constraint does to the matrix.
#[derive(Clone, Copy, Debug)]
enum Edge {
    /// Adds `v_b - v_a ≤ c` (and its twin).
    Add(usize, usize, i128),
    /// Nothing (`x - x ≤ c` with `c ≥ 0`).
    Holds,
    /// Empties it (`x - x ≤ c` with `c < 0`).
    Empty,
}

/// The variables a constraint needs the matrix to hold, and what it does there.
fn edge_of(c: Constraint) -> (usize, Edge) {
    match c {
        Constraint::Difference(x, y, c) if x == y => {
            (x + 1, if c < 0 { Edge::Empty } else { Edge::Holds })
        }
        Constraint::Difference(x, y, c) => (x.max(y) + 1, Edge::Add(2 * y, 2 * x, c)),
        Constraint::Sum(x, y, c) => (x.max(y) + 1, Edge::Add(2 * y + 1, 2 * x, c)),
        Constraint::NegSum(x, y, c) => (x.max(y) + 1, Edge::Add(2 * y, 2 * x + 1, c)),
        Constraint::Upper(x, c) => (x + 1, Edge::Add(2 * x + 1, 2 * x, c.saturating_mul(2))),
        Constraint::Lower(x, c) => (
            x + 1,
            Edge::Add(2 * x, 2 * x + 1, c.saturating_neg().saturating_mul(2)),
        ),
    }
}

/// A conjunction of octagonal constraints over variables `0, 1, …`, or bottom.
#[derive(Clone, Debug)]
pub struct Octagon {
    /// Variables the matrix holds (every later one is unconstrained).
    n: usize,
    /// The `2n × 2n` matrix, row-major; `None` for bottom. No entry is above what 64-bit values
    /// allow ([`trivial`]), so none is `+∞`: the closures add entries without checking.
    m: Option<Vec<i128>>,
    /// Whether the matrix is tightly closed (every operation but the widening leaves it so).
    closed: bool,
}

impl Octagon {
    /// No constraint on any variable.
    pub fn top() -> Octagon {
        Octagon {
            n: 0,
            m: Some(Vec::new()),
            closed: true,
        }
    }

    /// How many variables the matrix holds (later ones are unconstrained).
    pub fn dim(&self) -> usize {
        self.n
    }

    fn at(&self, i: usize, j: usize) -> i128 {
        match &self.m {
            Some(m) => m[i * 2 * self.n + j],
            None => unreachable!("entries of a bottom octagon are never read"),
        }
    }

    /// Sets entry `(i, j)`, at most what 64-bit values allow.
    fn set(&mut self, i: usize, j: usize, c: i128) {
        let w = 2 * self.n;
        let c = if i == j { c } else { c.min(trivial(i, j)) };
        match &mut self.m {
            Some(m) => m[i * w + j] = c,
            None => unreachable!("entries of a bottom octagon are never written"),
        }
    }

    /// Grows the matrix to hold variables `0..n` (new ones unconstrained).
    fn grow(&mut self, n: usize) {
        if n <= self.n {
            return;
        }
        let Some(old) = &self.m else {
            self.n = n;
            return;
        };
        let (w0, w) = (2 * self.n, 2 * n);
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
        // The new variables' only constraints are the 64-bit bounds: strengthening through the
        // unary bounds closes the matrix again.
        if self.closed {
            self.tighten_and_strengthen();
        }
    }

    /// Tight closure from scratch: shortest paths, then the integer tightening of unary bounds
    /// and the strengthening through them; bottom when a cycle is negative. On `i32`s or `i64`s
    /// when the entries allow it ([`tight_coherent_closure`]), which gives the same matrix.
    fn close(&mut self) {
        if self.closed {
            return;
        }
        self.closed = true;
        let w = 2 * self.n;
        let Some(m) = &mut self.m else {
            return;
        };
        debug_assert!(
            (0..w * w).all(|k| m[k] <= trivial(k / w, k % w)),
            "no entry is above what 64-bit values allow"
        );
        debug_assert!(
            (0..w * w).all(|k| m[k] == m[bar(k % w) * w + bar(k / w)]),
            "the matrix is coherent"
        );
        match tight_coherent_closure(m, w) {
            Closure::Closed => {}
            Closure::Empty => self.m = None,
            Closure::Paths => self.tighten_and_strengthen(),
            Closure::Wide => {
                if !coherent_shortest_paths(m, w) {
                    self.m = None;
                    return;
                }
                self.tighten_and_strengthen();
            }
        }
    }

    /// The integer steps of the closure, on a matrix closed for paths: unary bounds rounded
    /// down to even (`2x ≤ c` means `x ≤ ⌊c/2⌋`), then every entry strengthened through the
    /// unary bounds of its ends; bottom when some node's cycle is negative.
    ///
    /// One pass: entry `(i, j)` becomes the least of itself and `⌊m[i][ī]/2⌋ + ⌊m[j̄][j]/2⌋`,
    /// which is also the tightening when `j = ī` (strengthening leaves unary bounds alone).
    fn tighten_and_strengthen(&mut self) {
        let w = 2 * self.n;
        self.closed = true;
        let Some(m) = self.m.as_mut().filter(|_| w > 0) else {
            return;
        };
        // A negative cycle, or a bound no two 64-bit values meet (`v_j - v_i` is at least
        // `-trivial(j, i)`), leaves nothing. Every other bound is at least `1 - 2⁶⁴`: a row
        // whose least entry is is checked no further.
        const LEAST_OFF_DIAGONAL: i128 = 1 - (1 << 64);
        let empty = with_scratch(w, |into: &mut [i128]| {
            // `into[j]`: half the unary bound into node `j`, `⌊m[j̄][j]/2⌋`.
            for (j, h) in into.iter_mut().enumerate() {
                *h = half(m[bar(j) * w + j]);
            }
            for (i, row) in m.chunks_exact_mut(w).enumerate() {
                let out = into[bar(i)];
                let mut least = i128::MAX;
                for (e, &h) in row.iter_mut().zip(into.iter()) {
                    *e = (*e).min(out + h);
                    least = least.min(*e);
                }
                if (least < LEAST_OFF_DIAGONAL || row[i] < 0)
                    && (0..w).any(|j| row[j] < -trivial(j, i))
                {
                    return true;
                }
            }
            false
        });
        if empty {
            self.m = None;
            return;
        }
        for i in 0..w {
            m[i * w + i] = 0;
        }
    }

    /// Adds `v_b - v_a ≤ c` (and its coherent twin) to a tightly closed matrix and closes it
    /// again in quadratic time: every entry through the new edge, then the integer steps.
    fn add_edge(&mut self, a: usize, b: usize, c: i128) {
        self.close();
        let w = 2 * self.n;
        let Some(m) = &mut self.m else {
            return;
        };
        let c = normal(c);
        if c >= m[a * w + b] {
            return;
        }
        let (ta, tb) = (bar(a), bar(b));
        let at = |i: usize, j: usize| m[i * w + j];
        // A negative cycle through the edge (`a → b ⇝ a`), its twin (`b̄ → ā ⇝ b̄`) or both
        // (`a → b ⇝ b̄ → ā ⇝ a`) leaves nothing. Otherwise `c` is at least `-at(b, a)`, and no
        // sum below can overflow.
        if c + at(b, a) < 0 || c + at(ta, tb) < 0 || 2 * c + at(b, tb) + at(ta, a) < 0 {
            self.m = None;
            return;
        }
        // Paths through the edge, through its coherent twin `ā → b̄`… read `b̄ → ā`, or
        // through both: `i ⇝ a → b ⇝ j`, `i ⇝ b̄ → ā ⇝ j`, `i ⇝ a → b ⇝ b̄ → ā ⇝ j` and
        // `i ⇝ b̄ → ā ⇝ a → b ⇝ j`. Grouped by their last step: `x + m[b][j]` and
        // `y + m[ā][j]`, with `x` and `y` the best ways from `i` to `b` and to `ā`.
        let (b_tb, ta_a) = (c + at(b, tb), c + at(ta, a));
        // In place: a row the loop already changed holds shorter paths of the new graph, so the
        // rows after it come out the same (every entry is a path, none shorter than the
        // closure's).
        let cells = Cell::from_mut(m.as_mut_slice()).as_slice_of_cells();
        let (out_b, out_ta) = (&cells[b * w..][..w], &cells[ta * w..][..w]);
        for row in cells.chunks_exact(w) {
            let (to_b, to_ta) = (row[a].get() + c, row[tb].get() + c);
            let (x, y) = (to_b.min(to_ta + ta_a), to_ta.min(to_b + b_tb));
            for ((e, p), q) in row.iter().zip(out_b).zip(out_ta) {
                e.set(e.get().min(x + p.get()).min(y + q.get()));
            }
        }
        self.tighten_and_strengthen();
    }

    /// `x - y ≤ c`.
    pub fn add_difference(&mut self, x: usize, y: usize, c: i64) {
        self.difference_at_most(x, y, i128::from(c));
    }

    fn difference_at_most(&mut self, x: usize, y: usize, c: i128) {
        self.grow(x.max(y) + 1);
        if x == y {
            if c < 0 {
                self.m = None;
            }
            return;
        }
        self.add_edge(2 * y, 2 * x, c);
    }

    /// `x + y ≤ c`.
    pub fn add_sum(&mut self, x: usize, y: usize, c: i64) {
        self.sum_at_most(x, y, i128::from(c));
    }

    fn sum_at_most(&mut self, x: usize, y: usize, c: i128) {
        self.grow(x.max(y) + 1);
        self.add_edge(2 * y + 1, 2 * x, c);
    }

    /// `-x - y ≤ c`.
    pub fn add_neg_sum(&mut self, x: usize, y: usize, c: i64) {
        self.neg_sum_at_most(x, y, i128::from(c));
    }

    fn neg_sum_at_most(&mut self, x: usize, y: usize, c: i128) {
        self.grow(x.max(y) + 1);
        self.add_edge(2 * y, 2 * x + 1, c);
    }

    /// `x ≤ c`.
    pub fn add_upper(&mut self, x: usize, c: i64) {
        self.grow(x + 1);
        self.add_edge(2 * x + 1, 2 * x, 2 * i128::from(c));
    }

    /// `x ≥ c`.
    pub fn add_lower(&mut self, x: usize, c: i64) {
        self.grow(x + 1);
        self.add_edge(2 * x, 2 * x + 1, -2 * i128::from(c));
    }

    /// `x` within `i` (nothing for an unbounded side; bottom for an empty `i`).
    pub fn add_interval(&mut self, x: usize, i: &Interval) {
        match i.bounds() {
            None => self.m = None,
            Some((lo, hi)) => {
                if lo != i64::MIN {
                    self.add_lower(x, lo);
                }
                if hi != i64::MAX {
                    self.add_upper(x, hi);
                }
            }
        }
    }

    /// Adds every constraint of `cs`: the value adding them one at a time
    /// ([`Relational::add_constraint`]) gives, closed once from scratch (cubic) instead of
    /// after each one (quadratic each) when they are many for the matrix.
    pub fn add_constraints(&mut self, cs: &[Constraint]) {
        let edges: Vec<(usize, Edge)> = cs.iter().map(|&c| edge_of(c)).collect();
        let n = edges.iter().map(|&(n, _)| n).fold(self.n, usize::max);
        let added = edges
            .iter()
            .filter(|(_, e)| matches!(e, Edge::Add(..)))
            .count();
        // One closure from scratch costs about as much as a quarter of the matrix's width in
        // incremental ones.
        let at_once = 4 * added >= 2 * n;
        if at_once && added > 0 && self.m.is_some() {
            // The closure from scratch below closes the grown matrix too: the new variables
            // need not be strengthened through their bounds first.
            self.closed = false;
        }
        self.grow(n);
        let w = 2 * self.n;
        for (_, edge) in edges {
            match edge {
                Edge::Add(a, b, c) if at_once => {
                    // The edge and its coherent twin, at most what 64-bit values allow, as
                    // `add_edge` leaves them before the paths through them.
                    self.closed = false;
                    let Some(m) = &mut self.m else {
                        continue;
                    };
                    let c = normal(c);
                    for (i, j) in [(a, b), (bar(b), bar(a))] {
                        m[i * w + j] = m[i * w + j].min(c.min(trivial(i, j)));
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
        let o = self.as_closed();
        if o.m.is_none() {
            return Interval::empty();
        }
        if x >= o.n {
            return Interval::top();
        }
        // The unary entries of the tight closure, at most the 64-bit extremes.
        let hi = i64::try_from(half(o.at(2 * x + 1, 2 * x))).unwrap_or(i64::MAX);
        let lo = i64::try_from(-half(o.at(2 * x, 2 * x + 1))).unwrap_or(i64::MIN);
        Interval::new(lo, hi)
    }

    /// The least and greatest `x - y` the octagon allows, `None` on a side it leaves open
    /// (`None` for both when bottom).
    pub fn difference(&self, x: usize, y: usize) -> (Option<i128>, Option<i128>) {
        let o = self.as_closed();
        if o.m.is_none() || x >= o.n || y >= o.n {
            return (None, None);
        }
        let known = |i: usize, j: usize| (o.at(i, j) < trivial(i, j)).then(|| o.at(i, j));
        (known(2 * x, 2 * y).map(|c| -c), known(2 * y, 2 * x))
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
        let w = 2 * self.n;
        for node in [2 * x, 2 * x + 1] {
            for j in 0..w {
                self.set(node, j, INF);
                self.set(j, node, INF);
            }
            self.set(node, node, 0);
        }
        // `x` is left with its 64-bit bounds: strengthening through them closes the matrix.
        self.tighten_and_strengthen();
    }

    /// `x := sign·y + c` where `sign` is `1` or `-1`: exact when the result cannot wrap over the
    /// bounds `y` has, otherwise `x` takes the wrapped result's interval.
    pub fn assign_var(&mut self, x: usize, negated: bool, y: usize, c: i64) {
        // The bounds of `y` are empty exactly when the octagon is bottom: nothing to assign.
        let from = self.bounds(y);
        let Some((lo, hi)) = from.bounds() else {
            return;
        };
        let (lo, hi) = if negated {
            (-i128::from(hi), -i128::from(lo))
        } else {
            (i128::from(lo), i128::from(hi))
        };
        let fits = |v: i128| i64::try_from(v + i128::from(c)).is_ok();
        if !(fits(lo) && fits(hi)) {
            // The program's arithmetic wraps: only the interval of the result is known.
            let op = if negated {
                crate::program::Op::Sub
            } else {
                crate::program::Op::Add
            };
            let (a, b) = if negated {
                (Interval::constant(c), from)
            } else {
                (from, Interval::constant(c))
            };
            let result = <Interval as crate::value::ValueDomain>::binary(op, &a, &b);
            self.assign_interval(x, &result);
            return;
        }
        if x == y {
            // Through a fresh variable: `t := ±x + c; x := t`.
            let t = self.n.max(x + 1);
            self.assign_var(t, negated, x, c);
            self.forget(x);
            self.difference_at_most(x, t, 0);
            self.difference_at_most(t, x, 0);
            self.forget(t);
            self.shrink_to(t);
            return;
        }
        self.forget(x);
        let c = i128::from(c);
        if negated {
            self.sum_at_most(x, y, c);
            self.neg_sum_at_most(x, y, -c);
        } else {
            self.difference_at_most(x, y, c);
            self.difference_at_most(y, x, -c);
        }
    }

    /// `x :=` a value within `i`: every relation of `x` forgotten, its bounds those of `i`.
    pub fn assign_interval(&mut self, x: usize, i: &Interval) {
        self.forget(x);
        self.add_interval(x, i);
    }

    /// Drops the variables from `n` on (all unconstrained).
    fn shrink_to(&mut self, n: usize) {
        if n >= self.n {
            return;
        }
        if let Some(old) = &self.m {
            let (w0, w) = (2 * self.n, 2 * n);
            let mut m = Vec::with_capacity(w * w);
            for i in 0..w {
                m.extend_from_slice(&old[i * w0..i * w0 + w]);
            }
            self.m = Some(m);
        }
        self.n = n;
    }

    /// Whether the concrete values `point` (of variables `0, 1, …`; later ones anything)
    /// satisfy every constraint.
    pub fn contains_point(&self, point: &[i64]) -> bool {
        let Some(m) = &self.m else {
            return false;
        };
        let w = 2 * self.n;
        let value = |node: usize| -> Option<i128> {
            let v = i128::from(*point.get(node / 2)?);
            Some(if node % 2 == 0 { v } else { -v })
        };
        (0..w).all(|i| {
            (0..w).all(|j| {
                let c = m[i * w + j];
                match (c == INF, value(i), value(j)) {
                    (true, _, _) => true,
                    (false, Some(vi), Some(vj)) => vj - vi <= c,
                    // A constraint on a variable the point does not give may hold.
                    _ => true,
                }
            })
        })
    }

    /// `self` closed: borrowed when it already is.
    fn as_closed(&self) -> Cow<'_, Octagon> {
        if self.closed {
            return Cow::Borrowed(self);
        }
        let mut c = self.clone();
        c.close();
        Cow::Owned(c)
    }

    /// Both octagons closed, over as many variables: borrowed where they already are.
    fn aligned<'a>(&'a self, other: &'a Octagon) -> (Cow<'a, Octagon>, Cow<'a, Octagon>) {
        let n = self.n.max(other.n);
        let ready = |o: &'a Octagon| -> Cow<'a, Octagon> {
            if o.closed && (o.n == n || o.m.is_none()) {
                return Cow::Borrowed(o);
            }
            let mut o = o.clone();
            o.grow(n);
            o.close();
            Cow::Owned(o)
        };
        (ready(self), ready(other))
    }

    /// Entry by entry `f` of two octagons over the same variables, neither bottom.
    fn pointwise(a: &Octagon, b: &Octagon, f: impl Fn(i128, i128) -> i128) -> Octagon {
        let (Some(x), Some(y)) = (&a.m, &b.m) else {
            unreachable!("pointwise operations are given two octagons that are not bottom")
        };
        Octagon {
            n: a.n,
            m: Some(entrywise(x, y, f)),
            closed: false,
        }
    }
}

impl PartialEq for Octagon {
    /// The same concrete states: equal closed forms over as many variables.
    fn eq(&self, other: &Octagon) -> bool {
        let (a, b) = self.aligned(other);
        a.m == b.m
    }
}

impl Eq for Octagon {}

impl Lattice for Octagon {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Octagon {
        Octagon {
            n: 0,
            m: None,
            closed: true,
        }
    }

    fn is_bottom(&self) -> bool {
        if self.closed {
            return self.m.is_none();
        }
        let o = self.as_closed();
        o.m.is_none()
    }

    fn leq(&self, other: &Octagon) -> bool {
        let (a, b) = self.aligned(other);
        match (&a.m, &b.m) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(x), Some(y)) => below(x, y),
        }
    }

    fn join(&self, other: &Octagon) -> Octagon {
        let (a, b) = self.aligned(other);
        match (&a.m, &b.m) {
            (None, _) => b.into_owned(),
            (_, None) => a.into_owned(),
            // The entry-wise maximum of two closed matrices is closed.
            _ => {
                let mut j = Octagon::pointwise(&a, &b, i128::max);
                j.closed = true;
                j
            }
        }
    }

    fn meet(&self, other: &Octagon) -> Octagon {
        let (a, b) = self.aligned(other);
        if a.m.is_none() || b.m.is_none() {
            return Octagon::bottom();
        }
        let mut m = Octagon::pointwise(&a, &b, i128::min);
        m.close();
        m
    }

    /// Miné's widening: a bound of the newer value that grew past the older one is dropped;
    /// the result is left unclosed (closing it could keep a chain from stabilising).
    fn widen(&self, newer: &Octagon) -> Octagon {
        self.widen_with_thresholds(newer, &Thresholds::none())
    }

    /// As [`Octagon::widen`], but a bound that grew stops at the next threshold above it (a
    /// unary bound `2c` at `2t`).
    fn widen_with_thresholds(&self, newer: &Octagon, thresholds: &Thresholds) -> Octagon {
        let n = self.n.max(newer.n);
        let mut old = self.clone();
        old.grow(n);
        let mut new = newer.clone();
        new.grow(n);
        new.close();
        if old.is_bottom() {
            return new;
        }
        if new.m.is_none() {
            return old;
        }
        let w = 2 * n;
        let mut out = old.clone();
        for i in 0..w {
            for j in 0..w {
                let (o, c) = (old.at(i, j), new.at(i, j));
                if c > o {
                    // A unary bound `2x ≤ c` stops at `2t` for the next threshold `t ≥ c/2`,
                    // `-2x ≤ c` at `-2t` for the next `t ≤ -c/2`; a relation at the next
                    // threshold above it.
                    let stop = if j == bar(i) && j % 2 == 0 {
                        threshold_above(half(c), thresholds).saturating_mul(2)
                    } else if j == bar(i) {
                        threshold_below(half(c + 1), thresholds).saturating_mul(2)
                    } else {
                        threshold_above(c, thresholds)
                    };
                    out.set(i, j, stop);
                }
            }
        }
        out.closed = false;
        out
    }

    /// Miné's narrowing: only the bounds the older value leaves open are taken from the newer.
    fn narrow(&self, newer: &Octagon) -> Octagon {
        let (a, b) = self.aligned(newer);
        if a.m.is_none() || b.m.is_none() {
            return Octagon::bottom();
        }
        // Entries the older value leaves at the 64-bit extreme are the open ones.
        let mut out = a.clone().into_owned();
        for i in 0..2 * a.n {
            for j in 0..2 * a.n {
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

impl Top for Octagon {
    fn top() -> Octagon {
        Octagon::top()
    }

    fn is_top(&self) -> bool {
        let o = self.as_closed();
        match &o.m {
            None => false,
            Some(m) => {
                let w = 2 * o.n;
                (0..w).all(|i| (0..w).all(|j| i == j || m[i * w + j] >= trivial(i, j)))
            }
        }
    }
}

impl Relational for Octagon {
    fn add_constraint(&mut self, c: Constraint) {
        let (n, edge) = edge_of(c);
        self.grow(n);
        match edge {
            Edge::Add(a, b, c) => self.add_edge(a, b, c),
            Edge::Holds => {}
            Edge::Empty => self.m = None,
        }
    }

    fn add_interval(&mut self, x: usize, i: &Interval) {
        Octagon::add_interval(self, x, i);
    }

    fn bounds(&self, x: usize) -> Interval {
        Octagon::bounds(self, x)
    }

    fn forget(&mut self, x: usize) {
        Octagon::forget(self, x);
    }

    fn assign_var(&mut self, x: usize, negated: bool, y: usize, c: i64) {
        Octagon::assign_var(self, x, negated, y, c);
    }

    fn assign_interval(&mut self, x: usize, i: &Interval) {
        Octagon::assign_interval(self, x, i);
    }

    /// Each variable's bounds, then for each pair `x < y` the relations `x - y`, `y - x`,
    /// `x + y`, `-x - y` tighter than their bounds give.
    fn constraints(&self) -> Vec<Constraint> {
        let o = self.as_closed();
        if o.m.is_none() {
            return Vec::new();
        }
        let mut out = bound_constraints(o.n, |x| o.bounds(x));
        for x in 0..o.n {
            for y in x + 1..o.n {
                let forms = [
                    ((2 * y, 2 * x), Constraint::Difference(x, y, 0)),
                    ((2 * x, 2 * y), Constraint::Difference(y, x, 0)),
                    ((2 * y + 1, 2 * x), Constraint::Sum(x, y, 0)),
                    ((2 * y, 2 * x + 1), Constraint::NegSum(x, y, 0)),
                ];
                // Relations the variables' bounds already give are left out.
                for ((i, j), form) in forms {
                    let c = o.at(i, j);
                    if c < add(half(o.at(i, bar(i))), half(o.at(bar(j), j))) {
                        out.push(with_bound(form, c));
                    }
                }
            }
        }
        out
    }
}

/// `form` with its bound set to `c`.
fn with_bound(form: Constraint, c: i128) -> Constraint {
    match form {
        Constraint::Difference(x, y, _) => Constraint::Difference(x, y, c),
        Constraint::Sum(x, y, _) => Constraint::Sum(x, y, c),
        Constraint::NegSum(x, y, _) => Constraint::NegSum(x, y, c),
        Constraint::Upper(x, _) => Constraint::Upper(x, c),
        Constraint::Lower(x, _) => Constraint::Lower(x, c),
    }
}

impl fmt::Display for Octagon {
    /// The constraints of the closed form: each variable's bounds (`x0 ∈ [0, 5]`), then the
    /// relations tighter than the bounds give (`x1 - x0 ≤ 1`, `x0 + x1 ≤ 9`, …).
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
        let c = prop_oneof![
            8 => -8i128..8,
            1 => prop_oneof![Just(i128::MIN), Just(i128::MAX), Just(-(1i128 << 64))],
        ];
        (0u8..5, 0usize..6, 0usize..6, c).prop_map(|(kind, x, y, c)| match kind {
            0 => Constraint::Difference(x, y, c),
            1 => Constraint::Sum(x, y, c),
            2 => Constraint::NegSum(x, y, c),
            3 => Constraint::Upper(x, c),
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
            let mut closed = Octagon::top();
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
