//! Plain integer fields ordered by written-out operations, as a `.dom` struct lattice with `int`
//! fields and a `with { … }` block: `#[lattice(value)]` on the fields, the operations on the
//! struct.
#![deny(warnings)]

use absinthe::lattice;
use absinthe::lattice::{Lattice, Top};

// ANCHOR: range
/// An interval of `i64` with its bounds as plain integers; every range whose low end exceeds its
/// high end stands for bottom.
#[lattice(
    empty_if = Range::is_empty,
    bottom = Range::empty,
    top = Range::full,
    join = Range::hull,
    meet = Range::intersection,
    leq = Range::within,
    widen = Range::extrapolate
)]
#[derive(Clone, Copy)]
struct Range {
    #[lattice(value)]
    low: i64,
    #[lattice(value)]
    high: i64,
}

impl Range {
    fn new(low: i64, high: i64) -> Range {
        Range { low, high }
    }
    fn is_empty(&self) -> bool {
        self.low > self.high
    }
    fn empty() -> Range {
        Range::new(1, 0)
    }
    fn full() -> Range {
        Range::new(i64::MIN, i64::MAX)
    }
    fn hull(&self, other: &Range) -> Range {
        Range::new(self.low.min(other.low), self.high.max(other.high))
    }
    fn intersection(&self, other: &Range) -> Range {
        Range::new(self.low.max(other.low), self.high.min(other.high))
    }
    fn within(&self, other: &Range) -> bool {
        other.low <= self.low && self.high <= other.high
    }
    /// A bound that grows goes to the end of `i64`.
    fn extrapolate(&self, newer: &Range) -> Range {
        Range::new(
            if newer.low < self.low { i64::MIN } else { self.low },
            if newer.high > self.high { i64::MAX } else { self.high },
        )
    }
}
// ANCHOR_END: range

/// A flag and an interval: a `bool` value needs no widening (its chains are short), the
/// interval is a lattice field as usual.
#[lattice(
    no_top,
    bottom = Guarded::nothing,
    join = Guarded::either,
    meet = Guarded::both,
    leq = Guarded::below
)]
#[derive(Clone)]
struct Guarded {
    #[lattice(value)]
    maybe_zero: bool,
    range: absinthe::lattice::Interval,
}

impl Guarded {
    fn nothing() -> Guarded {
        Guarded {
            maybe_zero: false,
            range: absinthe::lattice::Interval::empty(),
        }
    }
    fn either(&self, other: &Guarded) -> Guarded {
        Guarded {
            maybe_zero: self.maybe_zero || other.maybe_zero,
            range: self.range.join(&other.range),
        }
    }
    fn both(&self, other: &Guarded) -> Guarded {
        Guarded {
            maybe_zero: self.maybe_zero && other.maybe_zero,
            range: self.range.meet(&other.range),
        }
    }
    fn below(&self, other: &Guarded) -> bool {
        (!self.maybe_zero || other.maybe_zero) && self.range.leq(&other.range)
    }
}

fn main() {
    let a = Range::new(1, 3);
    let b = Range::new(5, 8);
    assert_eq!(a.join(&b), Range::new(1, 8));
    assert!(a.meet(&b).is_bottom(), "disjoint ranges meet in bottom");
    assert_eq!(a.meet(&b), Range::bottom(), "every empty range is the bottom");
    assert!(a.leq(&a.join(&b)));
    assert_eq!(a.widen(&Range::new(0, 3)), Range::new(i64::MIN, 3));
    assert!(Range::top().is_top());
    assert_eq!(format!("{a}"), "{low: 1, high: 3}");
    assert!(!<Range as Lattice>::FINITE_HEIGHT);

    let g = Guarded {
        maybe_zero: true,
        range: absinthe::lattice::Interval::constant(0),
    };
    assert!(Guarded::bottom().leq(&g));
    assert_eq!(g.join(&Guarded::bottom()), g);
}
