//! The integers an approximation knows past a small set of immediates: a value of a declared
//! value domain (any [`ValueDomain`]: the product an analysis names with `domain …;`), kept
//! behind one type so that approximations and environments stay free of a type parameter.
//!
//! A set of immediates is exact and carries an extension per case; when arithmetic or a join
//! would make it larger than the analysis keeps, or an operand is not a known set, the value
//! falls back to the declared domain: `x = n % 10` is `[-9, 9]` with intervals, not `⊤`, and a
//! branch on `x < 20` is then decided.

use absinthe::program::Op;
use absinthe::value::ValueDomain;
use std::any::Any;
use std::fmt;
use std::rc::Rc;

/// An abstract integer of some declared value domain.
#[derive(Clone)]
pub struct Ints(Rc<dyn Erased>);

/// What [`Ints`] needs of a value domain, with the domain's type erased. Operations between two
/// values of different domains (which one environment never mixes) answer soundly: `⊤` for a
/// join or an operation, the first operand for a meet.
trait Erased {
    fn any(&self) -> &dyn Any;
    fn same(&self, other: &dyn Erased) -> bool;
    fn join(&self, other: &dyn Erased) -> Ints;
    fn meet(&self, other: &dyn Erased) -> Ints;
    fn binary(&self, op: Op, other: &dyn Erased) -> Ints;
    fn assume(&self, op: Op, other: &dyn Erased) -> (Ints, Ints);
    fn constant(&self, c: i64) -> Ints;
    fn top(&self) -> Ints;
    fn contains(&self, v: i64) -> bool;
    fn as_constant(&self) -> Option<i64>;
    fn is_top(&self) -> bool;
    fn is_bottom(&self) -> bool;
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    fn domain(&self) -> &'static str;
}

impl<D: ValueDomain> Erased for D {
    fn any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn Erased) -> bool {
        other.any().downcast_ref::<D>() == Some(self)
    }
    fn join(&self, other: &dyn Erased) -> Ints {
        match other.any().downcast_ref::<D>() {
            Some(o) => Ints::of(self.join(o)),
            None => Ints::of(D::top()),
        }
    }
    fn meet(&self, other: &dyn Erased) -> Ints {
        match other.any().downcast_ref::<D>() {
            Some(o) => Ints::of(self.meet(o)),
            None => Ints::of(self.clone()),
        }
    }
    fn binary(&self, op: Op, other: &dyn Erased) -> Ints {
        match other.any().downcast_ref::<D>() {
            Some(o) => Ints::of(D::binary(op, self, o)),
            None => Ints::of(D::top()),
        }
    }
    fn assume(&self, op: Op, other: &dyn Erased) -> (Ints, Ints) {
        match other.any().downcast_ref::<D>() {
            Some(o) => {
                let (a, b) = D::assume(op, self, o);
                (Ints::of(a), Ints::of(b))
            }
            None => (Ints::of(self.clone()), Ints::of(D::top())),
        }
    }
    fn constant(&self, c: i64) -> Ints {
        Ints::of(D::constant(c))
    }
    fn top(&self) -> Ints {
        Ints::of(D::top())
    }
    fn contains(&self, v: i64) -> bool {
        absinthe::value::Concrete::contains(self, v)
    }
    fn as_constant(&self) -> Option<i64> {
        absinthe::value::Concrete::as_constant(self)
    }
    fn is_top(&self) -> bool {
        *self == D::top()
    }
    fn is_bottom(&self) -> bool {
        absinthe::lattice::Lattice::is_bottom(self)
    }
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
    fn domain(&self) -> &'static str {
        std::any::type_name::<D>()
    }
}

impl Ints {
    /// `value`, with its domain's type erased.
    pub fn of<D: ValueDomain>(value: D) -> Ints {
        Ints(Rc::new(value))
    }

    /// The top of domain `D`: what an analysis hands the environment to say which domain its
    /// integers fall back to.
    pub fn top_of<D: ValueDomain>() -> Ints {
        Ints::of(D::top())
    }

    /// The value, if its domain is `D`.
    pub fn downcast<D: ValueDomain>(&self) -> Option<&D> {
        self.0.any().downcast_ref::<D>()
    }

    /// The least upper bound.
    pub fn join(&self, other: &Ints) -> Ints {
        self.0.join(&*other.0)
    }

    /// The greatest lower bound.
    pub fn meet(&self, other: &Ints) -> Ints {
        self.0.meet(&*other.0)
    }

    /// The domain's abstract `op`.
    pub fn binary(&self, op: Op, other: &Ints) -> Ints {
        self.0.binary(op, &*other.0)
    }

    /// Both operands refined, knowing that `self op other` holds.
    pub fn assume(&self, op: Op, other: &Ints) -> (Ints, Ints) {
        self.0.assume(op, &*other.0)
    }

    /// The abstraction of `c`, in this value's domain.
    pub fn constant(&self, c: i64) -> Ints {
        self.0.constant(c)
    }

    /// The top of this value's domain.
    pub fn top(&self) -> Ints {
        self.0.top()
    }

    /// Whether the concrete `v` is described.
    pub fn contains(&self, v: i64) -> bool {
        self.0.contains(v)
    }

    /// The single value described, when the domain can tell.
    pub fn as_constant(&self) -> Option<i64> {
        self.0.as_constant()
    }

    /// Whether this is the domain's top.
    pub fn is_top(&self) -> bool {
        self.0.is_top()
    }

    /// Whether this describes no integer.
    pub fn is_bottom(&self) -> bool {
        self.0.is_bottom()
    }

    /// The name of the domain's type.
    pub fn domain(&self) -> &'static str {
        self.0.domain()
    }
}

impl PartialEq for Ints {
    fn eq(&self, other: &Ints) -> bool {
        self.0.same(&*other.0)
    }
}

impl Eq for Ints {}

impl fmt::Display for Ints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.show(f)
    }
}

impl fmt::Debug for Ints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ints({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use absinthe::lattice::Interval;

    #[test]
    fn an_erased_interval_behaves_as_the_interval() {
        let a = Ints::of(Interval::new(0, 9));
        let b = Ints::of(Interval::new(5, 20));
        assert_eq!(a.join(&b), Ints::of(Interval::new(0, 20)));
        assert_eq!(a.meet(&b), Ints::of(Interval::new(5, 9)));
        assert_eq!(a.binary(Op::Add, &b), Ints::of(Interval::new(5, 29)));
        assert!(a.contains(9) && !a.contains(10));
        assert_eq!(a.constant(4).as_constant(), Some(4));
        assert!(a.top().is_top() && !a.is_top());
        assert_eq!(a.to_string(), Interval::new(0, 9).to_string());
        let (x, _) = a.assume(Op::Lt, &a.constant(3));
        assert_eq!(x, Ints::of(Interval::new(0, 2)));
    }

    #[test]
    fn values_of_different_domains_are_never_equal() {
        let a = Ints::of(Interval::new(0, 0));
        let b = Ints::of(absinthe::lattice::Flat::Value(0i64));
        assert_ne!(a, b);
        assert!(a.join(&b).is_top());
    }
}
