//! The leaves of compiled code, read without running a closure: a name in scope or a field of
//! one ([`Place`]), the operands of an operation ([`Operand`], [`Operands`]: read in place, or
//! computed), an `int` operand that is a literal, a slot, a place or computed ([`IntArg`]), and
//! how typed code gives its value ([`Give`]). `compile.rs` makes them; the closures it makes read
//! them.

use super::Interp;
use crate::code::Code;
use crate::resolved::Expr;
use crate::val::Val;

/// A name in scope, or a field (of a field…) of one: read where it is.
#[derive(Clone, Debug)]
pub(crate) struct Place {
    pub(crate) slot: usize,
    pub(crate) fields: Box<[usize]>,
}

impl Place {
    /// The place `expr` names, if it is one.
    pub(crate) fn of(expr: &Expr) -> Option<Place> {
        match expr {
            Expr::Var(slot) => Some(Place {
                slot: *slot,
                fields: Box::new([]),
            }),
            Expr::Field(record, i) => {
                let mut place = Place::of(record)?;
                let mut fields = place.fields.into_vec();
                fields.push(*i);
                place.fields = fields.into();
                Some(place)
            }
            _ => None,
        }
    }

    #[inline]
    pub(crate) fn read<'s>(&self, stack: &'s [Val], base: usize) -> &'s Val {
        let mut v = &stack[base + self.slot];
        for &i in &self.fields {
            v = v.part(i);
        }
        v
    }
}

/// An operand: read in place, or computed.
pub(crate) enum Operand {
    Place(Place),
    Code(Code<Interp>),
}

/// The operands of an operation, as many as it takes: one or two held in locals (the commonest),
/// more collected in a vector.
pub(crate) enum Operands {
    One(Operand),
    Two(Operand, Operand),
    Many(Vec<Operand>),
}

impl Operand {
    /// The operand's value, when it is computed (a place is read afterwards, when nothing
    /// computed can write the stack any more).
    #[inline]
    pub(crate) fn computed(
        &self,
        interp: &Interp,
        stack: &mut Vec<Val>,
        base: usize,
    ) -> Option<Option<Val>> {
        match self {
            Operand::Place(_) => Some(None),
            Operand::Code(c) => Some(Some(c.run(interp, stack, base)?)),
        }
    }

    /// The operand's value: `computed` if it was, else read in place.
    #[inline]
    pub(crate) fn value<'v>(
        &self,
        computed: &'v Option<Val>,
        stack: &'v [Val],
        base: usize,
    ) -> &'v Val {
        match (computed, self) {
            (Some(v), _) => v,
            (None, Operand::Place(p)) => p.read(stack, base),
            (None, Operand::Code(_)) => {
                unreachable!("a computed operand has its value before the places are read")
            }
        }
    }
}

impl Operands {
    /// Runs `f` on the operands' values; `None` when one fails.
    #[inline]
    pub(crate) fn with<R>(
        &self,
        interp: &Interp,
        stack: &mut Vec<Val>,
        base: usize,
        f: impl FnOnce(&[&Val]) -> R,
    ) -> Option<R> {
        match self {
            Operands::One(a) => {
                let x = a.computed(interp, stack, base)?;
                Some(f(&[a.value(&x, stack, base)]))
            }
            Operands::Two(a, b) => {
                let x = a.computed(interp, stack, base)?;
                let y = b.computed(interp, stack, base)?;
                Some(f(&[a.value(&x, stack, base), b.value(&y, stack, base)]))
            }
            Operands::Many(all) => {
                let mut computed = Vec::with_capacity(all.len());
                for o in all {
                    computed.push(o.computed(interp, stack, base)?);
                }
                let values: Vec<&Val> = (all.iter().zip(&computed))
                    .map(|(o, c)| o.value(c, stack, base))
                    .collect();
                Some(f(&values))
            }
        }
    }
}

/// An `int` operand: a literal, a name in scope, a field of one, or computed. Literals and names
/// are read without running a closure.
pub(crate) enum IntArg {
    Lit(i64),
    Slot(usize),
    Place(Place),
    Code(Code<Interp, i64>),
}

impl IntArg {
    /// The operand's value; `None` when computing it fails.
    #[inline(always)]
    pub(crate) fn get(&self, interp: &Interp, stack: &mut Vec<Val>, base: usize) -> Option<i64> {
        match self {
            IntArg::Lit(v) => Some(*v),
            IntArg::Slot(slot) => Some(stack[base + slot].int()),
            IntArg::Place(place) => Some(place.read(stack, base).int()),
            IntArg::Code(c) => c.run(interp, stack, base),
        }
    }
}

/// How the code of a typed expression gives its value: as itself ([`Plain`]), or as a [`Val`]
/// ([`AsVal`]) where a value is wanted, so that no closure runs only to wrap another's result.
pub(crate) trait Give<X>: 'static {
    type Out: 'static;
    fn give(x: X) -> Self::Out;
}

/// The value as it is.
pub(crate) struct Plain;

/// The value as a [`Val`].
pub(crate) struct AsVal;

impl<X: 'static> Give<X> for Plain {
    type Out = X;
    #[inline(always)]
    fn give(x: X) -> X {
        x
    }
}

impl Give<i64> for AsVal {
    type Out = Val;
    #[inline(always)]
    fn give(x: i64) -> Val {
        Val::Int(x)
    }
}

impl Give<bool> for AsVal {
    type Out = Val;
    #[inline(always)]
    fn give(x: bool) -> Val {
        Val::Bool(x)
    }
}

/// The code that runs `f` and gives its value as `G` says.
pub(crate) fn given<X, G: Give<X>>(
    f: impl Fn(&Interp, &mut Vec<Val>, usize) -> Option<X> + Send + Sync + 'static,
) -> Code<Interp, G::Out> {
    Code::new(move |i, stack, base| f(i, stack, base).map(G::give))
}
