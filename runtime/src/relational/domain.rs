//! What every relational domain offers the analyses and [`super::Packed`]: constraints in and
//! out, assignments, bounds of one variable. Variables are indices `0, 1, …`; a domain that
//! cannot express a constraint keeps what it implies on the variables' bounds.

use crate::lattice::{Interval, Lattice, Top};
use std::fmt;

/// One constraint of at most two variables, the bound `c` an `i128` (a sum of two 64-bit
/// values may need 65 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// `x - y ≤ c`.
    Difference(usize, usize, i128),
    /// `x + y ≤ c`.
    Sum(usize, usize, i128),
    /// `-x - y ≤ c`.
    NegSum(usize, usize, i128),
    /// `x ≤ c`.
    Upper(usize, i128),
    /// `x ≥ c`.
    Lower(usize, i128),
}

impl Constraint {
    /// Whether the values `value` gives satisfy the constraint; true when a variable has none
    /// (nothing is known to contradict it).
    pub fn holds(&self, value: &dyn Fn(usize) -> Option<i64>) -> bool {
        let v = |x: usize| value(x).map(i128::from);
        let check = |lhs: Option<i128>, c: i128| lhs.is_none_or(|lhs| lhs <= c);
        match *self {
            Constraint::Difference(x, y, c) => check(v(x).zip(v(y)).map(|(x, y)| x - y), c),
            Constraint::Sum(x, y, c) => check(v(x).zip(v(y)).map(|(x, y)| x + y), c),
            Constraint::NegSum(x, y, c) => check(v(x).zip(v(y)).map(|(x, y)| -x - y), c),
            Constraint::Upper(x, c) => check(v(x), c),
            Constraint::Lower(x, c) => check(v(x).map(|x| -x), -c),
        }
    }

    /// The constraint over other indices: `x` becomes `f(x)`.
    pub fn renamed(self, f: impl Fn(usize) -> usize) -> Constraint {
        match self {
            Constraint::Difference(x, y, c) => Constraint::Difference(f(x), f(y), c),
            Constraint::Sum(x, y, c) => Constraint::Sum(f(x), f(y), c),
            Constraint::NegSum(x, y, c) => Constraint::NegSum(f(x), f(y), c),
            Constraint::Upper(x, c) => Constraint::Upper(f(x), c),
            Constraint::Lower(x, c) => Constraint::Lower(f(x), c),
        }
    }

    /// The constraint as text, each variable written by `name`: `i - n ≤ -1`, `x ≥ 0`.
    pub fn text(&self, name: &dyn Fn(usize) -> String) -> String {
        match *self {
            Constraint::Difference(x, y, c) => format!("{} - {} ≤ {c}", name(x), name(y)),
            Constraint::Sum(x, y, c) => format!("{} + {} ≤ {c}", name(x), name(y)),
            Constraint::NegSum(x, y, c) => format!("-{} - {} ≤ {c}", name(x), name(y)),
            Constraint::Upper(x, c) => format!("{} ≤ {c}", name(x)),
            Constraint::Lower(x, c) => format!("{} ≥ {c}", name(x)),
        }
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(&|x| format!("x{x}")))
    }
}

/// A relational numeric domain over 64-bit variables `0, 1, …` (any variable past what a
/// value holds is unconstrained).
pub trait Relational: Lattice + Top + fmt::Debug + Send + Sync + 'static {
    /// Adds one constraint (what it implies on bounds, where the domain cannot express it).
    fn add_constraint(&mut self, c: Constraint);

    /// `x` within `i` (bottom for an empty `i`).
    fn add_interval(&mut self, x: usize, i: &Interval);

    /// The bounds of `x` (empty for bottom).
    fn bounds(&self, x: usize) -> Interval;

    /// Forgets every constraint on `x`.
    fn forget(&mut self, x: usize);

    /// `x := y + c`, or `x := -y + c` when `negated`, with the program's wrapping arithmetic.
    fn assign_var(&mut self, x: usize, negated: bool, y: usize, c: i64);

    /// `x :=` a value within `i`.
    fn assign_interval(&mut self, x: usize, i: &Interval);

    /// The constraints of the canonical form: each variable's bounds that say something, then
    /// the relations tighter than the bounds imply. Every state the value allows satisfies
    /// them, and the value allows every state (within its variables) that satisfies them all.
    fn constraints(&self) -> Vec<Constraint>;

    /// The first constraint of [`Relational::constraints`] the values `value` gives violate
    /// (`None` when they satisfy every one; bottom is violated by every state, with no
    /// constraint to name, and reported by [`Lattice::is_bottom`]).
    fn violated(&self, value: &dyn Fn(usize) -> Option<i64>) -> Option<Constraint> {
        self.constraints().into_iter().find(|c| !c.holds(value))
    }

    /// The value as text, each variable written by `name`: `⊥`, `⊤`, or the bounds of each
    /// bounded variable (`i ∈ [0, 9]`) then the relations of [`Relational::constraints`]
    /// (`i - n ≤ -1`), separated by commas.
    fn text_with(&self, name: &dyn Fn(usize) -> String) -> String {
        if self.is_bottom() {
            return "⊥".to_owned();
        }
        let constraints = self.constraints();
        let mut bounded: Vec<(usize, Interval)> = Vec::new();
        let mut relations = Vec::new();
        for c in &constraints {
            let (x, bound) = match *c {
                Constraint::Upper(x, c) => (x, within(None, Some(c))),
                Constraint::Lower(x, c) => (x, within(Some(c), None)),
                _ => {
                    relations.push(c.text(name));
                    continue;
                }
            };
            match bounded.iter_mut().find(|(y, _)| *y == x) {
                Some((_, b)) => *b = b.meet(&bound),
                None => bounded.push((x, bound)),
            }
        }
        let parts: Vec<String> = bounded
            .iter()
            .map(|(x, b)| format!("{} ∈ {b}", name(*x)))
            .chain(relations)
            .collect();
        if parts.is_empty() {
            "⊤".to_owned()
        } else {
            parts.join(", ")
        }
    }
}

/// What a constraint on two variables the domain cannot relate implies on each one's bounds,
/// given `bounds` of both: `x - y ≤ c` bounds `x` above by `c + hi(y)` and `y` below by
/// `lo(x) - c`. The pairs of (variable, interval it lies in). Computed on `i128`s, so that a
/// negated 64-bit bound (`-(-2⁶³)`) is not clamped into the 64-bit range before it is used;
/// the sums saturate (a bound past `i128` says no more about 64-bit values than `i128`'s end).
pub fn implied_bounds(c: Constraint, bounds: impl Fn(usize) -> Interval) -> Vec<(usize, Interval)> {
    let lo = |x: usize| bounds(x).bounds().map(|(lo, _)| i128::from(lo));
    let hi = |x: usize| bounds(x).bounds().map(|(_, hi)| i128::from(hi));
    let below = |bound: Option<i128>| within(None, bound);
    let above = |bound: Option<i128>| within(bound, None);
    match c {
        // `x ≤ c + y ≤ c + hi(y)` and `y ≥ x - c ≥ lo(x) - c`.
        Constraint::Difference(x, y, c) => vec![
            (x, below(hi(y).map(|h| c.saturating_add(h)))),
            (y, above(lo(x).map(|l| l.saturating_sub(c)))),
        ],
        // `x ≤ c - y ≤ c - lo(y)`, and the same for `y`.
        Constraint::Sum(x, y, c) => vec![
            (x, below(lo(y).map(|l| c.saturating_sub(l)))),
            (y, below(lo(x).map(|l| c.saturating_sub(l)))),
        ],
        // `x ≥ -c - y ≥ -c - hi(y)`, and the same for `y`.
        Constraint::NegSum(x, y, c) => vec![
            (
                x,
                above(hi(y).map(|h| c.saturating_neg().saturating_sub(h))),
            ),
            (
                y,
                above(hi(x).map(|h| c.saturating_neg().saturating_sub(h))),
            ),
        ],
        Constraint::Upper(x, c) => vec![(x, within(None, Some(c)))],
        Constraint::Lower(x, c) => vec![(x, within(Some(c), None))],
    }
}

/// The 64-bit values between `lo` and `hi` (each side open when `None`); empty when none is.
fn within(lo: Option<i128>, hi: Option<i128>) -> Interval {
    let lo = lo.map_or(i128::from(i64::MIN), |l| l.max(i128::from(i64::MIN)));
    let hi = hi.map_or(i128::from(i64::MAX), |h| h.min(i128::from(i64::MAX)));
    match (i64::try_from(lo), i64::try_from(hi)) {
        (Ok(lo), Ok(hi)) if lo <= hi => Interval::new(lo, hi),
        _ => Interval::empty(),
    }
}

/// The bounds of variables `0..n` that say something, as constraints (`x ≥ lo`, then
/// `x ≤ hi`, for each variable in turn): how relational domains list bounds first.
pub(super) fn bound_constraints(n: usize, bounds: impl Fn(usize) -> Interval) -> Vec<Constraint> {
    let mut out = Vec::new();
    for x in 0..n {
        if let Some((lo, hi)) = bounds(x).bounds() {
            if lo != i64::MIN {
                out.push(Constraint::Lower(x, i128::from(lo)));
            }
            if hi != i64::MAX {
                out.push(Constraint::Upper(x, i128::from(hi)));
            }
        }
    }
    out
}
