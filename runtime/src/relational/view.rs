//! [`Bounds`]: a product's relational component, as each name's value holds it — the bounds
//! the state's relational value gives the name. The engines that keep a relational value
//! beside the names' values ([`super::WithRelation`]) write these bounds into each value after
//! every step and read them back after the product's reductions, so that a reduction between a
//! component and `Bounds` is a reduction between that component and the relation.
//!
//! On its own (an engine that keeps no relation, or a product's operation before the relation
//! has been consulted) a `Bounds` computes as an interval does, which is sound.

use super::domain::Relational;
use super::kind::RelationKind;
use super::{Octagon, Zone};
use crate::lattice::{Interval, Lattice, Thresholds, Top};
use crate::program::Op;
use crate::value::{Concrete, ValueDomain};
use std::fmt;
use std::marker::PhantomData;

/// A relational domain a product can hold as a component: which one it is.
pub trait RelationalComponent: Relational + Clone {
    /// The kind the engines are told.
    const KIND: RelationKind;
}

impl RelationalComponent for Octagon {
    const KIND: RelationKind = RelationKind::Octagon;
}

impl RelationalComponent for Zone {
    const KIND: RelationKind = RelationKind::Zone;
}

/// A product's relational component type: which relational domain it stands for, and the
/// bounds it holds.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a relational component",
    label = "a `relation` component's type is `Bounds<Octagon>` or `Bounds<Zone>`",
    note = "`absinthe::relational::Bounds<R>` holds the bounds the relational value of `R` gives each name"
)]
pub trait RelationView: ValueDomain + Copy {
    /// The relational domain.
    const KIND: RelationKind;
    /// The bounds held.
    fn bounds(&self) -> Interval;
    /// The component holding `bounds`.
    fn within(bounds: Interval) -> Self;
}

impl<R: RelationalComponent> RelationView for Bounds<R> {
    const KIND: RelationKind = R::KIND;

    fn bounds(&self) -> Interval {
        self.interval
    }

    fn within(bounds: Interval) -> Self {
        Bounds::within(bounds)
    }
}

/// The bounds a relational value of `R` gives one name.
pub struct Bounds<R> {
    interval: Interval,
    relation: PhantomData<fn() -> R>,
}

impl<R> Bounds<R> {
    /// The bounds `interval`.
    pub fn within(interval: Interval) -> Bounds<R> {
        Bounds {
            interval,
            relation: PhantomData,
        }
    }

    /// The bounds as an interval.
    pub fn bounds(&self) -> Interval {
        self.interval
    }
}

impl<R> Clone for Bounds<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Bounds<R> {}

impl<R> PartialEq for Bounds<R> {
    fn eq(&self, other: &Self) -> bool {
        self.interval == other.interval
    }
}

impl<R> Eq for Bounds<R> {}

impl<R> std::hash::Hash for Bounds<R> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.interval.hash(state);
    }
}

impl<R> fmt::Debug for Bounds<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bounds({:?})", self.interval)
    }
}

impl<R> fmt::Display for Bounds<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.interval, f)
    }
}

impl<R: 'static> Lattice for Bounds<R> {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Self {
        Bounds::within(Interval::bottom())
    }

    fn is_bottom(&self) -> bool {
        self.interval.is_bottom()
    }

    fn leq(&self, other: &Self) -> bool {
        self.interval.leq(&other.interval)
    }

    fn join(&self, other: &Self) -> Self {
        Bounds::within(self.interval.join(&other.interval))
    }

    fn meet(&self, other: &Self) -> Self {
        Bounds::within(self.interval.meet(&other.interval))
    }

    fn widen(&self, newer: &Self) -> Self {
        Bounds::within(self.interval.widen(&newer.interval))
    }

    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        Bounds::within(
            self.interval
                .widen_with_thresholds(&newer.interval, thresholds),
        )
    }

    fn narrow(&self, newer: &Self) -> Self {
        Bounds::within(self.interval.narrow(&newer.interval))
    }
}

impl<R: 'static> Top for Bounds<R> {
    fn top() -> Self {
        Bounds::within(Interval::top())
    }

    fn is_top(&self) -> bool {
        self.interval.is_top()
    }
}

impl<R: 'static> Concrete for Bounds<R> {
    fn contains(&self, v: i64) -> bool {
        self.interval.contains(v)
    }

    fn as_constant(&self) -> Option<i64> {
        self.interval.as_constant()
    }
}

impl<R: 'static> ValueDomain for Bounds<R> {
    fn constant(c: i64) -> Self {
        Bounds::within(Interval::constant(c))
    }

    fn binary(op: Op, a: &Self, b: &Self) -> Self {
        Bounds::within(Interval::binary(op, &a.interval, &b.interval))
    }

    fn assume(op: Op, a: &Self, b: &Self) -> (Self, Self) {
        let (x, y) = Interval::assume(op, &a.interval, &b.interval);
        (Bounds::within(x), Bounds::within(y))
    }
}
