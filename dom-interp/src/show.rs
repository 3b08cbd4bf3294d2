//! What the interpreter's values stand for and how they print: `Concrete::contains`,
//! `as_constant` and `as_address` of every lattice shape, and `Display`.

use super::Interp;
use super::val::{BOTTOM, FLAT_TOP, FLAT_VALUE, Val, summand};
use absinthe::program::SymbolId;
use absinthe::value::Concrete;
use absinthe_domc::dom::tree::{Shape, Ty};
use std::fmt::{self, Write as _};

impl Interp {
    /// `Concrete::contains`.
    pub fn contains(&self, t: &Ty, v: &Val, x: i64) -> bool {
        match (self.shape(t), v) {
            (Shape::Interval, Val::Interval(i)) => i.contains(x),
            (Shape::Address, Val::Address(a)) => a.contains(x),
            (Shape::Numeric(_), Val::Num(n)) => n.contains(x),
            (Shape::Constant, Val::Constant(c)) => c.contains(x),
            (Shape::Names, Val::Names(n)) => Concrete::contains(&**n, x),
            (Shape::Steps, Val::Steps(s)) => Concrete::contains(&**s, x),
            (Shape::FiniteSum { inner, .. }, _) => {
                self.values_of(v).iter().any(|d| self.contains(inner, d, x))
            }
            (
                Shape::Flat { .. }
                | Shape::Finite { .. }
                | Shape::Sum { .. }
                | Shape::Struct { .. },
                _,
            ) => {
                if let Some(f) = self.contains_fn(t) {
                    return self.call(f, &[v.clone(), Val::Int(x)]).bool();
                }
                match (self.shape(t), v) {
                    (Shape::Flat { payload: Ty::Int }, Val::Enum(i, p)) => match (*i, p.get()) {
                        (BOTTOM, None) => false,
                        (FLAT_VALUE, Some(p)) => p.int() == x,
                        (FLAT_TOP, None) => true,
                        _ => self.mismatch("contains", t, v),
                    },
                    // The generated `Concrete` of a lattice without a written-out `contains`:
                    // every value but bottom may be any integer.
                    _ => !self.is_bottom(t, v),
                }
            }
            (Shape::Product { .. } | Shape::Direct, _) => self
                .part_types(t)
                .iter()
                .enumerate()
                .all(|(i, pt)| self.contains(pt, self.part_at(t, v, i), x)),
            _ => self.mismatch("contains", t, v),
        }
    }

    /// `Concrete::as_address`: an `Address`, or the first component of a product that is one.
    pub fn as_address(&self, t: &Ty, v: &Val) -> Option<(SymbolId, i64)> {
        match (self.shape(t), v) {
            (Shape::Address, Val::Address(a)) => a.known(),
            (Shape::Address, _) => self.mismatch("as_address", t, v),
            (Shape::Product { .. } | Shape::Direct, _) => self
                .part_types(t)
                .iter()
                .enumerate()
                .find_map(|(i, pt)| self.as_address(pt, self.part_at(t, v, i))),
            // `Concrete::as_address`'s default, which every other lattice keeps: no address.
            _ => None,
        }
    }

    /// `Concrete::as_constant`.
    pub fn as_constant(&self, t: &Ty, v: &Val) -> Option<i64> {
        match (self.shape(t), v) {
            (Shape::Interval, Val::Interval(i)) => i.as_constant(),
            (Shape::Constant, Val::Constant(c)) => Concrete::as_constant(c),
            (Shape::Numeric(_), Val::Num(n)) => n.as_constant(),
            (Shape::Names, Val::Names(n)) => Concrete::as_constant(&**n),
            (Shape::Steps, Val::Steps(s)) => Concrete::as_constant(&**s),
            (Shape::FiniteSum { inner, .. }, _) => match self.values_of(v).as_slice() {
                [only] => self.as_constant(inner, only),
                _ => None,
            },
            (Shape::Flat { payload: Ty::Int }, Val::Enum(FLAT_VALUE, p))
                if self.contains_fn(t).is_none() =>
            {
                match p.get() {
                    Some(x) => Some(x.int()),
                    None => unreachable!("a flat lattice's `Value` carries its payload"),
                }
            }
            (Shape::Product { .. } | Shape::Direct, _) => self
                .part_types(t)
                .iter()
                .enumerate()
                .find_map(|(i, pt)| self.as_constant(pt, self.part_at(t, v, i))),
            // `Concrete::as_constant`'s default, which every other lattice and element keeps:
            // no single integer.
            _ => None,
        }
    }

    /// `Display`, into `out`.
    pub fn show(&self, t: &Ty, v: &Val, out: &mut String) {
        // Writing to a `String` does not fail.
        let _ = self.write(t, v, out);
    }

    fn write(&self, t: &Ty, v: &Val, out: &mut String) -> fmt::Result {
        match v {
            Val::Int(x) => return write!(out, "{x}"),
            Val::Bool(x) => return write!(out, "{x}"),
            _ => {}
        }
        match (self.shape(t), v) {
            (Shape::Interval, Val::Interval(x)) => write!(out, "{x}"),
            (Shape::Address, Val::Address(x)) => write!(out, "{x}"),
            (Shape::Numeric(_), Val::Num(x)) => write!(out, "{x}"),
            (Shape::Constant, Val::Constant(x)) => write!(out, "{x}"),
            (Shape::Names, Val::Names(x)) => write!(out, "{x}"),
            (Shape::Steps, Val::Steps(x)) => write!(out, "{x}"),
            (Shape::FiniteSum { inner, .. }, _) => {
                let values = self.values_of(v);
                if values.is_empty() {
                    return out.write_str("⊥");
                }
                for (i, x) in values.iter().enumerate() {
                    if i > 0 {
                        out.write_str(" ∨ ")?;
                    }
                    self.write(inner, x, out)?;
                }
                Ok(())
            }
            (Shape::Flat { payload }, Val::Enum(i, p)) => match (*i, p.get()) {
                (BOTTOM, None) => out.write_str("⊥"),
                (FLAT_VALUE, Some(p)) => self.write(payload, &p, out),
                (FLAT_TOP, None) => out.write_str("⊤"),
                _ => self.mismatch("Display", t, v),
            },
            (Shape::Finite { variants, order }, Val::Enum(i, _)) => {
                if *i == order.bottom {
                    out.write_str("⊥")
                } else if *i == order.top {
                    out.write_str("⊤")
                } else {
                    out.write_str(&variants[*i])
                }
            }
            (Shape::Sum { summands }, Val::Enum(i, p)) => {
                if self.is_bottom(t, v) {
                    return out.write_str("⊥");
                }
                match (summand(summands, *i), p.get()) {
                    (Some((name, Some(pt))), Some(p)) => {
                        write!(out, "{name}(")?;
                        self.write(pt, &p, out)?;
                        out.write_str(")")
                    }
                    (Some((name, None)), None) => out.write_str(name),
                    // Not bottom (written above): top.
                    (None, None) => out.write_str("⊤"),
                    _ => self.mismatch("Display", t, v),
                }
            }
            (Shape::Struct { fields, .. }, _) => {
                if self.is_bottom(t, v) {
                    return out.write_str("⊥");
                }
                if self.is_top(t, v) {
                    return out.write_str("⊤");
                }
                // A value prints as its normal form.
                match self.pointwise(t).normalize {
                    Some(f) => {
                        self.write_fields(t, fields, &self.call(f, std::slice::from_ref(v)), out)
                    }
                    None => self.write_fields(t, fields, v, out),
                }
            }
            (Shape::Product { .. } | Shape::Direct, _) => {
                if self.is_bottom(t, v) {
                    return out.write_str("⊥");
                }
                if self.is_top(t, v) {
                    return out.write_str("⊤");
                }
                let p = self.direct_product(t);
                let Shape::Product { components } = self.shape(&p) else {
                    unreachable!(
                        "the checker makes `{}` the companion of a product, not of `{}`",
                        self.type_name(t),
                        self.type_name(&p)
                    )
                };
                match components.as_slice() {
                    [(_, only)] => self.write(only, self.part_at(t, v, 0), out),
                    _ => self.write_fields(t, components, v, out),
                }
            }
            _ => self.mismatch("Display", t, v),
        }
    }

    /// `v`, a value of the struct lattice or product `t`, as its fields.
    fn write_fields(
        &self,
        t: &Ty,
        fields: &[(String, Ty)],
        v: &Val,
        out: &mut String,
    ) -> fmt::Result {
        out.write_str("{")?;
        for (i, (name, ft)) in fields.iter().enumerate() {
            if i > 0 {
                out.write_str(", ")?;
            }
            write!(out, "{name}: ")?;
            self.write(ft, self.part_at(t, v, i), out)?;
        }
        out.write_str("}")
    }
}
