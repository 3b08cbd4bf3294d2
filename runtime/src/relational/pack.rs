//! Variable packing: a relational domain kept per group of related variables, so that a
//! function with thousands of names costs what its groups cost (the packs of Astrée and of
//! IKOS's `var-pack-dbm`).
//!
//! The groups are a [`Partition`] of a function's names fixed before the analysis runs: two
//! names are in one pack when the program relates them — a copy or an addition of a constant
//! (`x = y`, `x = y + 3`, `x = 5 - y`, a φ's move), or a comparison of the two — transitively,
//! up to a greatest pack size. Guards and assignments create relations only there, so without
//! the size limit they and meets keep what one relational value over all names keeps. Joins
//! lose: the hull of `{x = 0, y = 0}` and `{x = 1, y = 1}` has `x = y`, born of the bounds
//! alone, which one value over both names finds and packs apart cannot (the join of packs keeps
//! the same bounds and holds the single join). Each pack's value is shared (`Arc`) between the
//! states that did not change it, so copying a state copies no matrix.

use super::chunks::Chunks;
use super::domain::{Constraint, Relational, implied_bounds};
use crate::disjoint_sets::DisjointSets;
use crate::lattice::{Interval, Lattice, Thresholds, Top};
use crate::program::{Cond, Op, Operand, Program, Rhs, Stmt, Terminator};
use std::fmt;
use std::sync::Arc;

/// Groups of names, each with the names it holds: name `x` is variable `place(x).1` of pack
/// `place(x).0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    packs: Vec<Vec<usize>>,
    place: Vec<(u32, u32)>,
    /// Relations the size limit kept apart (pairs of names whose packs were not merged).
    refused: usize,
}

impl Partition {
    /// The names `0..names` grouped by the pairs `related` (in order: a pair whose packs
    /// together would exceed `max_pack` names is refused and counted).
    pub fn new(
        names: usize,
        related: impl IntoIterator<Item = (usize, usize)>,
        max_pack: usize,
    ) -> Partition {
        let mut sets = DisjointSets::new(names);
        let mut size = vec![1usize; names];
        let mut refused = 0;
        for (a, b) in related {
            assert!(
                a < names && b < names,
                "related names {a} and {b} are among the {names} names partitioned"
            );
            let (ra, rb) = (sets.find(a), sets.find(b));
            if ra == rb {
                continue;
            }
            if size[ra] + size[rb] > max_pack.max(1) {
                refused += 1;
                continue;
            }
            sets.union(ra, rb);
            let root = sets.find(ra);
            size[root] = size[ra] + size[rb];
        }
        let packs = sets.classes(|_| true);
        let mut place = vec![(0, 0); names];
        for (p, pack) in packs.iter().enumerate() {
            for (k, &x) in pack.iter().enumerate() {
                place[x] = (to_u32(p), to_u32(k));
            }
        }
        Partition {
            packs,
            place,
            refused,
        }
    }

    /// The names of `program` grouped by the relations its statements, φs and conditions
    /// create (see the module's documentation), packs at most `max_pack` names.
    pub fn of_program<P: Program + ?Sized>(program: &P, max_pack: usize) -> Partition {
        Partition::new(program.name_count(), related_names(program), max_pack)
    }

    /// [`Partition::of_program`] with each of `apart` in a pack of its own.
    pub fn of_program_apart<P: Program + ?Sized>(
        program: &P,
        max_pack: usize,
        apart: &[usize],
    ) -> Partition {
        let pairs = related_names(program)
            .into_iter()
            .filter(|(a, b)| !apart.contains(a) && !apart.contains(b));
        Partition::new(program.name_count(), pairs, max_pack)
    }

    /// The packs, each its names in increasing order; every name is in exactly one.
    pub fn packs(&self) -> &[Vec<usize>] {
        &self.packs
    }

    /// How many names are partitioned.
    pub fn names(&self) -> usize {
        self.place.len()
    }

    /// How many relations the size limit refused.
    pub fn refused(&self) -> usize {
        self.refused
    }

    /// The pack of `x` and its index there.
    ///
    /// # Panics
    ///
    /// If `x` is not one of the names partitioned.
    pub fn place(&self, x: usize) -> (usize, usize) {
        let Some(&(pack, k)) = self.place.get(x) else {
            panic!(
                "name {x} is not among the {} names the partition holds",
                self.place.len()
            )
        };
        (pack as usize, k as usize)
    }
}

fn to_u32(i: usize) -> u32 {
    u32::try_from(i).expect("a partition holds fewer than 2³² names")
}

/// The pairs of names `program` relates, in program order: copies and additions of a constant
/// (the linear assignments relational domains keep exactly), wraps that are copies within the
/// bounds of their type ([`copy_within`]), φ moves, comparisons of two names.
fn related_names<P: Program + ?Sized>(program: &P) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for b in 0..program.block_count() {
        let block = crate::program::BlockId::new(b);
        for phi in program.phis(block) {
            for &(_, operand) in &phi.incoming {
                if let Operand::Name(y) = operand {
                    pairs.push((phi.dest.index(), y.index()));
                }
            }
        }
        for stmt in program.stmts(block) {
            if let Stmt::Assign { dest, rhs } = stmt
                && let Some(y) = linear(rhs)
                    .map(|(y, _, _)| y)
                    .or_else(|| copy_within(rhs).map(|(y, _)| y))
            {
                pairs.push((dest.index(), y));
            }
        }
        if let Terminator::Branch {
            cond: Cond::Compare(_, Operand::Name(a), Operand::Name(b)),
            ..
        } = program.terminator(block)
        {
            pairs.push((a.index(), b.index()));
        }
    }
    pairs
}

/// `rhs` as `±y + c` when it is one: the name `y`, whether it is negated, and `c`.
pub fn linear(rhs: &Rhs) -> Option<(usize, bool, i64)> {
    match *rhs {
        Rhs::Use(Operand::Name(y)) => Some((y.index(), false, 0)),
        Rhs::Binary(Op::Add, Operand::Name(y), Operand::Int(c))
        | Rhs::Binary(Op::Add, Operand::Int(c), Operand::Name(y)) => Some((y.index(), false, c)),
        Rhs::Binary(Op::Sub, Operand::Name(y), Operand::Int(c)) => {
            // `y - c` is `y + (-c)`, which wraps exactly as the subtraction does.
            Some((y.index(), false, c.wrapping_neg()))
        }
        Rhs::Binary(Op::Sub, Operand::Int(c), Operand::Name(y)) => Some((y.index(), true, c)),
        _ => None,
    }
}

/// `rhs` as a copy of a name `y` when `y` lies within the interval returned: `trunc y N` (the
/// wrap to `N` bits, `1 < N < 64`) is `y` when `y` is a signed `N`-bit value, and `y & m` with
/// `m = 2ᵏ - 1` (the zero-extension of a `k`-bit value) is `y` when `0 ≤ y ≤ m`. Outside that
/// interval the result is another value, so the copy is exact only where the bounds of `y` say
/// it cannot wrap (what fixed-width arithmetic lowered to 64 bits relies on: an `i32` addition
/// without `nsw` is a 64-bit addition wrapped by `trunc 32`).
pub fn copy_within(rhs: &Rhs) -> Option<(usize, Interval)> {
    match *rhs {
        Rhs::Binary(Op::Trunc, Operand::Name(y), Operand::Int(bits)) if (2..64).contains(&bits) => {
            let half = 1i64 << (bits - 1);
            Some((y.index(), Interval::new(-half, half - 1)))
        }
        Rhs::Binary(Op::And, Operand::Name(y), Operand::Int(m))
        | Rhs::Binary(Op::And, Operand::Int(m), Operand::Name(y))
            if m > 0 && (m & m.wrapping_add(1)) == 0 =>
        {
            Some((y.index(), Interval::new(0, m)))
        }
        _ => None,
    }
}

/// A relational value of `R` per pack of a [`Partition`], or bottom.
///
/// [`Lattice::bottom`] and [`Top::top`] know no partition; every other value is made over one
/// ([`Packed::top_over`]), and two values over different partitions are never combined.
#[derive(Clone, Debug)]
pub struct Packed<R> {
    partition: Option<Arc<Partition>>,
    /// One value per pack, in the partition's order (none for the top without a partition);
    /// `None` for bottom.
    packs: Option<Chunks<R>>,
    /// After a widening: the packs as it left them, before closing them into `packs`. The next
    /// widening widens these, not `packs` — a widening's left operand must be the previous
    /// widening's own result for the chain to stabilise (closing it can bring back a bound
    /// the widening dropped) — while every other operation reads `packs`, closed once rather
    /// than at each use. Any change to a pack drops it.
    widened: Option<Chunks<R>>,
}

impl<R: Relational + Clone> Packed<R> {
    /// No constraint on any name of `partition`.
    pub fn top_over(partition: Arc<Partition>) -> Packed<R> {
        let packs = Chunks::filled(partition.packs().len(), &Arc::new(R::top()));
        Packed {
            partition: Some(partition),
            packs: Some(packs),
            widened: None,
        }
    }

    /// The partition, `None` for the values made without one.
    pub fn partition(&self) -> Option<&Arc<Partition>> {
        self.partition.as_ref()
    }

    /// The value of pack `p` (`None` for bottom).
    pub fn pack(&self, p: usize) -> Option<&R> {
        self.packs
            .as_ref()
            .and_then(|packs| packs.get(p))
            .map(|r| &**r)
    }

    fn partition_or_panic(&self) -> &Arc<Partition> {
        match &self.partition {
            Some(p) => p,
            None => unreachable!(
                "a packed value is made over its partition (Packed::top_over) before it is \
                 constrained"
            ),
        }
    }

    /// Runs `f` on the pack of `x` with `x`'s index there; bottom when the pack becomes
    /// bottom.
    fn in_pack_of(&mut self, x: usize, f: impl FnOnce(&mut R, usize)) {
        let (p, k) = self.partition_or_panic().place(x);
        self.in_pack(p, |r| f(r, k));
    }

    /// Runs `f` on pack `p`; bottom when it becomes bottom.
    fn in_pack(&mut self, p: usize, f: impl FnOnce(&mut R)) {
        self.widened = None;
        let Some(packs) = &mut self.packs else {
            return;
        };
        let r = packs.make_mut(p);
        f(r);
        if r.is_bottom() {
            self.packs = None;
        }
    }

    /// The places of `x` and `y` when they share a pack.
    fn together(&self, x: usize, y: usize) -> Option<(usize, usize, usize)> {
        let partition = self.partition_or_panic();
        let ((px, kx), (py, ky)) = (partition.place(x), partition.place(y));
        (px == py).then_some((px, kx, ky))
    }

    /// The partition of two values combined (they never have different ones).
    fn common_partition(a: &Packed<R>, b: &Packed<R>) -> Option<Arc<Partition>> {
        match (&a.partition, &b.partition) {
            (Some(p), Some(q)) => {
                assert!(
                    Arc::ptr_eq(p, q) || p == q,
                    "packed values over different partitions are never combined"
                );
                Some(p.clone())
            }
            (Some(p), None) | (None, Some(p)) => Some(p.clone()),
            (None, None) => None,
        }
    }

    /// Whether `pred` holds of every pair of packs (a value's missing packs are top), packs
    /// both share skipped; `None` when either is bottom.
    fn all_packs(
        a: &Packed<R>,
        b: &Packed<R>,
        pred: impl FnMut(&Arc<R>, &Arc<R>) -> bool,
    ) -> Option<bool> {
        let (Some(pa), Some(pb)) = (&a.packs, &b.packs) else {
            return None;
        };
        Some(Chunks::all_pairs(pa, pb, &Arc::new(R::top()), pred))
    }

    /// Pack by pack `f`, sharing a pack both sides share; bottom when a pack is (asked only
    /// when `may_empty`: a join or a widening of two values that are not bottom is not).
    fn combine(&self, other: &Packed<R>, may_empty: bool, f: impl Fn(&R, &R) -> R) -> Packed<R> {
        let (Some(pa), Some(pb)) = (&self.packs, &other.packs) else {
            unreachable!("combine is given two values that are not bottom")
        };
        let partition = Self::common_partition(self, other);
        let packs = Chunks::zip_with(pa, pb, &Arc::new(R::top()), |a, b| {
            let r = f(a, b);
            if may_empty && r.is_bottom() {
                Err(())
            } else {
                Ok(Arc::new(r))
            }
        });
        match packs {
            Ok(packs) => Packed {
                partition,
                packs: Some(packs),
                widened: None,
            },
            Err(()) => Packed::bottom(),
        }
    }
}

impl<R: Relational + Clone> Relational for Packed<R> {
    /// A constraint between two packs keeps what it implies on each name's bounds.
    fn add_constraint(&mut self, c: Constraint) {
        let (x, y) = match c {
            Constraint::Difference(x, y, _)
            | Constraint::Sum(x, y, _)
            | Constraint::NegSum(x, y, _) => (x, y),
            Constraint::Upper(x, _) | Constraint::Lower(x, _) => (x, x),
        };
        match self.together(x, y) {
            Some((p, kx, ky)) => {
                let local = c.renamed(|v| if v == x { kx } else { ky });
                self.in_pack(p, |r| r.add_constraint(local));
            }
            None => {
                for (v, bounds) in implied_bounds(c, |v| self.bounds(v)) {
                    self.add_interval(v, &bounds);
                }
            }
        }
    }

    fn add_interval(&mut self, x: usize, i: &Interval) {
        self.in_pack_of(x, |r, k| r.add_interval(k, i));
    }

    fn bounds(&self, x: usize) -> Interval {
        let Some(packs) = &self.packs else {
            return Interval::empty();
        };
        let Some(partition) = &self.partition else {
            return Interval::top();
        };
        let (p, k) = partition.place(x);
        match packs.get(p) {
            Some(r) => r.bounds(k),
            None => Interval::top(),
        }
    }

    fn forget(&mut self, x: usize) {
        self.in_pack_of(x, |r, k| r.forget(k));
    }

    /// Between packs, `x` takes the interval of `±y + c`.
    fn assign_var(&mut self, x: usize, negated: bool, y: usize, c: i64) {
        match self.together(x, y) {
            Some((p, kx, ky)) => self.in_pack(p, |r| r.assign_var(kx, negated, ky, c)),
            None => {
                let from = self.bounds(y);
                let (op, a, b) = if negated {
                    (Op::Sub, Interval::constant(c), from)
                } else {
                    (Op::Add, from, Interval::constant(c))
                };
                let value = <Interval as crate::value::ValueDomain>::binary(op, &a, &b);
                self.assign_interval(x, &value);
            }
        }
    }

    fn assign_interval(&mut self, x: usize, i: &Interval) {
        self.in_pack_of(x, |r, k| r.assign_interval(k, i));
    }

    /// Each pack's constraints over the names, packs in the partition's order.
    fn constraints(&self) -> Vec<Constraint> {
        let (Some(packs), Some(partition)) = (&self.packs, &self.partition) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (r, names) in packs.iter().zip(partition.packs()) {
            out.extend(r.constraints().into_iter().map(|c| c.renamed(|k| names[k])));
        }
        out
    }
}

impl<R: Relational + Clone> PartialEq for Packed<R> {
    fn eq(&self, other: &Packed<R>) -> bool {
        Self::all_packs(self, other, |a, b| a == b).unwrap_or(self.is_bottom() && other.is_bottom())
    }
}

impl<R: Relational + Clone> Eq for Packed<R> {}

impl<R: Relational + Clone> Lattice for Packed<R> {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Packed<R> {
        Packed {
            partition: None,
            packs: None,
            widened: None,
        }
    }

    /// Every operation that may empty a pack makes the whole value bottom, so a value with
    /// packs is not bottom (and no pack is asked: a pack a widening left unclosed would be
    /// closed to answer).
    fn is_bottom(&self) -> bool {
        self.packs.is_none()
    }

    fn leq(&self, other: &Packed<R>) -> bool {
        if self.is_bottom() {
            return true;
        }
        Self::all_packs(self, other, |a, b| a.leq(b)).unwrap_or(false)
    }

    fn join(&self, other: &Packed<R>) -> Packed<R> {
        if self.is_bottom() {
            return other.clone();
        }
        if other.is_bottom() {
            return self.clone();
        }
        self.combine(other, false, R::join)
    }

    fn meet(&self, other: &Packed<R>) -> Packed<R> {
        if self.is_bottom() || other.is_bottom() {
            return Packed::bottom();
        }
        self.combine(other, true, R::meet)
    }

    fn widen(&self, newer: &Packed<R>) -> Packed<R> {
        self.widen_with_thresholds(newer, &Thresholds::none())
    }

    fn widen_with_thresholds(&self, newer: &Packed<R>, thresholds: &Thresholds) -> Packed<R> {
        if self.is_bottom() {
            return newer.clone();
        }
        if newer.is_bottom() {
            return self.clone();
        }
        let left = match &self.widened {
            Some(raw) => Packed {
                partition: self.partition.clone(),
                packs: Some(raw.clone()),
                widened: None,
            },
            None => self.clone(),
        };
        let raw = left.combine(newer, false, |a, b| a.widen_with_thresholds(b, thresholds));
        let (Some(raw_packs), Some(newer_packs)) = (&raw.packs, &newer.packs) else {
            unreachable!("a widening of two values that are not bottom is not bottom")
        };
        // Each pack the widening changed, closed (a meet with top closes); a pack it kept is
        // the newer value's, closed already.
        let top = Arc::new(R::top());
        let closed = Chunks::zip_with(raw_packs, newer_packs, &top, |r, _| {
            Ok::<_, std::convert::Infallible>(Arc::new(r.meet(&top)))
        });
        let Ok(closed) = closed;
        Packed {
            partition: raw.partition.clone(),
            packs: Some(closed),
            widened: raw.packs,
        }
    }

    fn narrow(&self, newer: &Packed<R>) -> Packed<R> {
        if self.is_bottom() || newer.is_bottom() {
            return Packed::bottom();
        }
        self.combine(newer, true, R::narrow)
    }
}

impl<R: Relational + Clone> Top for Packed<R> {
    /// No constraint, over no partition yet.
    fn top() -> Packed<R> {
        Packed {
            partition: None,
            packs: Some(Chunks::filled(0, &Arc::new(R::top()))),
            widened: None,
        }
    }

    fn is_top(&self) -> bool {
        match &self.packs {
            None => false,
            Some(packs) => packs.iter().all(|r| r.is_top()),
        }
    }
}

impl<R: Relational + Clone> fmt::Display for Packed<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text_with(&|x| format!("x{x}")))
    }
}
