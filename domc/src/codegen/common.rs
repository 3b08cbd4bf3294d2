//! What the generator's files share: the path generated code reaches the runtime through, the
//! provenance doc of an impl, nested tuples for proptest strategies, and the lookup of a
//! product's rules and reductions (used both to generate its transfer dispatch and to name the
//! rules behind a value).

use crate::model::{ProductDecl, Reduction, Rule, RuleKind};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// The path generated code reaches the runtime through.
pub(super) fn rt() -> TokenStream {
    quote!(::absinthe::__private)
}

/// `#[doc = "…"]` naming the declaration an impl came from.
pub(super) fn provenance(what: &str, origin: &crate::model::Origin) -> TokenStream {
    let text = format!(" {what}, generated from {}.", origin.describe);
    quote!(#[doc = #text])
}

/// Builds `(s1, (s2, (… , Just(()))))` and the matching pattern `(x1, (x2, (…, ())))`, so that
/// any number of strategies combine without proptest's tuple-size limit.
pub(super) fn nested_tuple(
    strategies: &[TokenStream],
    names: &[Ident],
) -> (TokenStream, TokenStream) {
    let rt = rt();
    let mut strategy = quote!(#rt::laws::Just(()));
    let mut pattern = quote!(());
    for (s, name) in strategies.iter().zip(names).rev() {
        strategy = quote!((#s, #strategy));
        pattern = quote!((#name, #pattern));
    }
    (strategy, pattern)
}

/// The value reduction `r` computes for its target member `tm` from its source member `sm` of
/// `receiver` (`self`, or a local): `f(&t, &s)`, or for an in-place reduction `f` applied to a
/// copy of the target.
pub(super) fn reduction_call(
    r: &Reduction,
    tm: &syn::Member,
    sm: &syn::Member,
    receiver: &TokenStream,
) -> TokenStream {
    let rt = rt();
    let f = &r.function;
    if r.in_place {
        quote!({
            let mut target = #rt::Clone::clone(&#receiver.#tm);
            #f(&mut target, &#receiver.#sm);
            target
        })
    } else {
        quote!(#f(&#receiver.#tm, &#receiver.#sm))
    }
}

/// The rules of component `i` for operations: each per-operation rule (`Binary` or `Assume`,
/// as `per_op` selects) with its operation, and the catch-all rule of kind `any`.
pub(super) fn op_rules<'a>(
    decl: &'a ProductDecl,
    i: usize,
    per_op: fn(&RuleKind) -> Option<&Ident>,
    any: &RuleKind,
) -> (Vec<(&'a Ident, &'a Rule)>, Option<&'a Rule>) {
    let mine = || decl.rules.iter().filter(move |r| r.component == i);
    let arms = mine()
        .filter_map(|r| per_op(&r.kind).map(|op| (op, r)))
        .collect();
    (arms, mine().find(|r| r.kind == *any))
}

/// The operation of a per-operation binary rule.
pub(super) fn binary_op(kind: &RuleKind) -> Option<&Ident> {
    match kind {
        RuleKind::Binary(op) => Some(op),
        _ => None,
    }
}

/// The operation of a per-operation assumption rule.
pub(super) fn assume_op(kind: &RuleKind) -> Option<&Ident> {
    match kind {
        RuleKind::Assume(op) => Some(op),
        _ => None,
    }
}
