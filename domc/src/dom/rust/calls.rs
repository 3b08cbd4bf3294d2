//! Calls and operators: the binary operators, the lattice operations every lattice has, the
//! built-in functions (`min`, `eval`, `overflows`, …), `fn`s and `extern fn`s, and the
//! functions of the runtime's lattices (`Interval::…`, `Names::…`, `Steps::…`, a
//! `FiniteSum`'s). Each takes the Rust of its operands, already generated.

use super::names::{ident, rt};
use crate::dom::tree::{BinaryOp, Program, Shape, Ty};
use proc_macro2::TokenStream;
use quote::quote;

/// `a op b`.
pub(super) fn binary(op: BinaryOp, a: &TokenStream, b: &TokenStream) -> TokenStream {
    let rt = rt();
    match op {
        BinaryOp::Or => quote!((#a) || (#b)),
        BinaryOp::And => quote!((#a) && (#b)),
        BinaryOp::Eq => quote!((#a) == (#b)),
        BinaryOp::Ne => quote!((#a) != (#b)),
        BinaryOp::Lt => quote!((#a) < (#b)),
        BinaryOp::Le => quote!((#a) <= (#b)),
        BinaryOp::Gt => quote!((#a) > (#b)),
        BinaryOp::Ge => quote!((#a) >= (#b)),
        BinaryOp::Add => quote!((#a).checked_add(#b)?),
        BinaryOp::Sub => quote!((#a).checked_sub(#b)?),
        BinaryOp::Mul => quote!((#a).checked_mul(#b)?),
        BinaryOp::Div => quote!((#a).checked_div(#b)?),
        BinaryOp::Rem => quote!((#a).checked_rem(#b)?),
        BinaryOp::WrapAdd => quote!((#a).wrapping_add(#b)),
        BinaryOp::WrapSub => quote!((#a).wrapping_sub(#b)),
        BinaryOp::WrapMul => quote!((#a).wrapping_mul(#b)),
        BinaryOp::BitAnd => quote!((#a) & (#b)),
        BinaryOp::BitOr => quote!((#a) | (#b)),
        BinaryOp::BitXor => quote!((#a) ^ (#b)),
        BinaryOp::Shl => quote!(#rt::checked_shl(#a, #b)?),
        BinaryOp::Shr => quote!(#rt::checked_shr(#a, #b)?),
        BinaryOp::LShr => quote!(#rt::checked_lshr(#a, #b)?),
        BinaryOp::WrapShl => quote!(#rt::wrapping_shl(#a, #b)),
        BinaryOp::WrapShr => quote!(#rt::wrapping_shr(#a, #b)),
        BinaryOp::WrapLShr => quote!(#rt::wrapping_lshr(#a, #b)),
    }
}

/// The lattice operation `op` on values of the lattice spelt `rust`.
pub(super) fn lattice_op(rust: &TokenStream, op: &str, args: &[TokenStream]) -> TokenStream {
    let rt = rt();
    match (op, args) {
        ("leq", [a, b]) => quote!(<#rust as #rt::Lattice>::leq(&(#a), &(#b))),
        ("is_bottom", [a]) => quote!(<#rust as #rt::Lattice>::is_bottom(&(#a))),
        ("is_top", [a]) => quote!(<#rust as #rt::Top>::is_top(&(#a))),
        // Only in site functions, which test a value against the concrete one a rule lost.
        ("contains", [a, v]) => quote!(<#rust as #rt::Concrete>::contains(&(#a), #v)),
        ("join" | "meet" | "widen" | "narrow", [a, b]) => {
            let f = ident(op);
            quote!(<#rust as #rt::Lattice>::#f(&(#a), &(#b)))
        }
        _ => unreachable!(
            "the checker knows the lattice operations `join`, `meet`, `widen`, `narrow`, `leq`, \
             `is_bottom` and `is_top` and their arities, not `{op}` of {} arguments",
            args.len()
        ),
    }
}

/// `&(code)` for a lattice argument passed by reference, the value otherwise.
fn pass(ty: &Ty, code: TokenStream) -> TokenStream {
    match ty {
        Ty::Lat(_) => quote!(&(#code)),
        _ => code,
    }
}

/// A built-in function (`eval` evaluating its operation; the caller names an operation already
/// evaluated).
pub(super) fn builtin(name: &str, args: &[TokenStream]) -> TokenStream {
    let rt = rt();
    match (name, args) {
        ("min" | "max", [a, b]) => {
            let f = ident(name);
            quote!(::core::cmp::Ord::#f(#a, #b))
        }
        ("eval", [o, a, b]) => quote!((#o).eval(#a, #b).unwrap_or(0)),
        ("traps", [o, a, b]) => quote!((#o).eval(#a, #b).is_none()),
        ("overflows", [o, a, b]) => quote!(#rt::overflows(#o, #a, #b)),
        ("is_comparison", [o]) => quote!((#o).is_comparison()),
        ("Thresholds::at_least", [t, x, otherwise]) => {
            quote!((#t).at_least(#x).unwrap_or(#otherwise))
        }
        ("Thresholds::at_most", [t, x, otherwise]) => {
            quote!((#t).at_most(#x).unwrap_or(#otherwise))
        }
        _ => unreachable!(
            "the checker knows the built-in functions and their arities, not `{name}` of {} \
                 arguments",
            args.len()
        ),
    }
}

/// A call of a `fn` (whose failure is the caller's: `?`) or an `extern fn` (a method of the
/// `Externs` trait on `Host`).
pub(super) fn call(program: &Program, name: &str, args: Vec<TokenStream>) -> TokenStream {
    let f = ident(name);
    if let Some(function) = program.functions.get(name) {
        let passed = function
            .params
            .iter()
            .zip(args)
            .map(|((_, t), a)| pass(t, a));
        return quote!(#f(#(#passed),*)?);
    }
    let Some(external) = program.externs.iter().find(|e| e.name == name) else {
        unreachable!("the checker calls `fn`s and `extern fn`s of the program, not `{name}`")
    };
    let passed = external
        .params
        .iter()
        .zip(args)
        .map(|((_, t), a)| pass(t, a));
    quote!(<Host as Externs>::#f(#(#passed),*))
}

/// The function that runs the body of `fn name`, declared `recursion N`, with the calls to
/// itself it may still make as its last argument.
pub(super) fn within_ident(name: &str) -> proc_macro2::Ident {
    quote::format_ident!("__absinthe_{}_within", name)
}

/// A call of `fn name`, declared `recursion N`, from its own body: one call fewer may follow,
/// and the call fails when none may.
pub(super) fn self_call(program: &Program, name: &str, args: Vec<TokenStream>) -> TokenStream {
    let Some(function) = program.functions.get(name) else {
        unreachable!("a `fn` calls itself, and `{name}` is not one")
    };
    let f = within_ident(name);
    let passed = (function.params.iter().zip(args)).map(|((_, t), a)| pass(t, a));
    quote!(#f(#(#passed,)* __absinthe_depth.checked_sub(1)?)?)
}

/// A function of a runtime lattice: `Interval::new`, `Names::one`, `Constant::binary`, a
/// `FiniteSum`'s `single`, …
pub(super) fn type_fn(program: &Program, t: &Ty, name: &str, args: &[TokenStream]) -> TokenStream {
    let rt = rt();
    let types = &program.types;
    let rust = types.rust(t);
    let Ty::Lat(id) = t else {
        unreachable!(
            "the checker calls functions of lattices only, not of `{}`",
            types.name(t)
        )
    };
    match (types.shape(*id), name, args) {
        (Shape::Interval, "new", [a, b]) => quote!(#rt::Interval::new(#a, #b)),
        (Shape::Interval, "constant", [a]) => quote!(#rt::Interval::constant(#a)),
        (Shape::Interval, "lo", [a]) => quote!((#a).lo().unwrap_or(i64::MAX)),
        (Shape::Interval, "hi", [a]) => quote!((#a).hi().unwrap_or(i64::MIN)),
        (Shape::Interval, "is_constant", [a]) => quote!((#a).as_constant().is_some()),
        (Shape::Interval | Shape::Address, "contains", [a, v]) => quote!((#a).contains(#v)),
        (Shape::Interval, "binary", [o, a, b]) => {
            quote!(<#rt::Interval as #rt::ValueDomain>::binary(#o, &(#a), &(#b)))
        }
        (Shape::Interval, "assume", [o, a, b]) => {
            quote!(<#rt::Interval as #rt::ValueDomain>::assume(#o, &(#a), &(#b)))
        }
        // A symbol outside `u32` is no symbol: top.
        (Shape::Address, "at", [s, o]) => quote!(
            match <u32 as ::core::convert::TryFrom<i64>>::try_from(#s) {
                ::core::result::Result::Ok(s) => #rt::Address::at(#rt::SymbolId(s), #o),
                ::core::result::Result::Err(_) => <#rt::Address as #rt::Top>::top(),
            }
        ),
        (Shape::Address, "moved", [a, k]) => quote!((#a).moved(#k)),
        (Shape::Address, "is_known", [a]) => quote!((#a).known().is_some()),
        (Shape::Address, "symbol", [a]) => {
            quote!((#a).known().map_or(-1, |(s, _)| i64::from(s.0)))
        }
        (Shape::Address, "offset", [a]) => quote!((#a).known().map_or(0, |(_, o)| o)),
        // `Names::contains(x, p)` reads the set by reference.
        (Shape::Names, "contains", [x, p]) => quote!(#rust::contains(&(#x), #p)),
        (Shape::Names, "none" | "all" | "one", _) | (Shape::Steps, "constant" | "offset", _) => {
            let f = ident(name);
            quote!(#rust::#f(#(#args),*))
        }
        (Shape::Constant | Shape::Numeric(_), "binary", [o, a, b]) => {
            quote!(<#rust as #rt::ValueDomain>::binary(#o, &(#a), &(#b)))
        }
        (Shape::Numeric(_), "assume", [o, a, b]) => {
            quote!(<#rust as #rt::ValueDomain>::assume(#o, &(#a), &(#b)))
        }
        (Shape::Numeric(_), "contains", [a, v]) => quote!((#a).contains(#v)),
        (Shape::Numeric(_), "of", [c]) => quote!(#rust::of(#c)),
        // `m·ℤ` is `(-m)·ℤ`: the modulus is `m`'s magnitude.
        (Shape::Numeric(_), "new", [m, r]) => quote!(#rust::new((#m).unsigned_abs(), #r)),
        (Shape::Numeric(_), "constant", [c]) => quote!(#rust::constant(#c)),
        (Shape::Numeric(_), "is_constant", [a]) => quote!((#a).as_constant().is_some()),
        // As `int`s: a modulus or residue of 2⁶³ or more reads as its two's complement.
        (Shape::Numeric(_), "modulus", [a]) => quote!((#a).class().map_or(0, |(m, _)| m as i64)),
        (Shape::Numeric(_), "residue", [a]) => {
            quote!((#a).class().map_or(0, |(_, r)| r as i64))
        }
        (Shape::Relation(_), "bounds", [a]) => quote!((#a).bounds()),
        (Shape::Relation(_), "within", [i]) => quote!(<#rust>::within(#i)),
        (Shape::FiniteSum { inner, .. }, _, _) => {
            let inner = types.rust(inner);
            finite_sum_fn(&rust, &inner, name, args)
        }
        _ => unreachable!(
            "the checker knows the functions of `{}` and their arities, not `{name}` of {} \
                 arguments",
            types.name(t),
            args.len()
        ),
    }
}

/// A function of the `FiniteSum` spelt `rust`, whose disjuncts are spelt `inner`.
fn finite_sum_fn(
    rust: &TokenStream,
    inner: &TokenStream,
    name: &str,
    args: &[TokenStream],
) -> TokenStream {
    let rt = rt();
    match (name, args) {
        ("single", [a]) => quote!(<#rust>::single(#a)),
        ("hull", [a]) => quote!((#a).hull()),
        // The operands are bound first, under names no `.dom` name can take (a user's `x` or
        // `a` in an operand is not captured), in the order the interpreter evaluates them.
        ("meet_each", [a, x]) => quote!({
            let (__absinthe_sum, __absinthe_x): (#rust, #inner) = (#a, #x);
            <#rust>::from_values(
                __absinthe_sum
                    .values()
                    .iter()
                    .map(|v| <#inner as #rt::Lattice>::meet(v, &__absinthe_x)),
            )
        }),
        // The runtime's `FiniteSum` value domain, which `uses builtin` runs.
        ("binary", [o, a, b]) => quote!(<#rust as #rt::ValueDomain>::binary(#o, &(#a), &(#b))),
        ("assume", [o, a, b]) => quote!(<#rust as #rt::ValueDomain>::assume(#o, &(#a), &(#b))),
        _ => unreachable!(
            "the checker knows the functions of a `FiniteSum` and their arities, not `{name}` of \
             {} arguments",
            args.len()
        ),
    }
}
