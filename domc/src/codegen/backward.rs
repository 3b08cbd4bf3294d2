//! The `ValueDomain` methods of a product with backward rules (`on backward "+"`,
//! `on backward any`, `on backward copy`, `on backward observe`): each component's rule, else
//! its type's own backward method (`uses builtin`), else top, then the product's reductions.

use super::common::{op_rules, rt};
use crate::model::{ProductDecl, RuleKind};
use proc_macro2::{Ident, TokenStream};
use quote::{quote, quote_spanned};

/// The operation of a per-operation backward rule.
fn demand_op(kind: &RuleKind) -> Option<&Ident> {
    match kind {
        RuleKind::Demand(op) => Some(op),
        _ => None,
    }
}

/// For a product with backward rules: the private helpers computing each demand component by
/// component (taking the reduction policy, so that the direct product shares them). `None` for
/// every other product, whose backward methods are `ValueDomain`'s defaults (top).
pub(super) fn backward_helpers(decl: &ProductDecl) -> Option<TokenStream> {
    if !decl.rules.iter().any(|r| r.kind.is_backward()) {
        return None;
    }
    let rt = rt();
    let name = &decl.name;
    let rule_of = |i: usize, kind: &RuleKind| {
        decl.rules
            .iter()
            .find(|r| r.component == i && r.kind == *kind)
    };
    let mut binary = Vec::new();
    let mut copy = Vec::new();
    let mut observed = Vec::new();
    for (i, c) in decl.components.iter().enumerate() {
        let (m, ty) = (&c.member, &c.ty);
        let (per_op, any) = op_rules(decl, i, demand_op, &RuleKind::AnyDemand);
        let arms = per_op.iter().map(|(op, r)| {
            let f = &r.function;
            quote_spanned!(r.origin.span=> #rt::Op::#op => #f(__d))
        });
        let fallback = match any {
            Some(r) => {
                let f = &r.function;
                quote_spanned!(r.origin.span=> _ => #f(__op, __d))
            }
            None if c.value_domain => {
                quote!(_ => <#ty as #rt::ValueDomain>::demand_binary(__op, &__d.#m))
            }
            None => quote!(_ => <#ty as #rt::Top>::top()),
        };
        binary.push(quote!(#m: match __op { #(#arms,)* #fallback }));
        let value = match rule_of(i, &RuleKind::DemandCopy) {
            Some(r) => {
                let f = &r.function;
                quote_spanned!(r.origin.span=> #f(__d))
            }
            None if c.value_domain => quote!(<#ty as #rt::ValueDomain>::demand_copy(&__d.#m)),
            None => quote!(<#ty as #rt::Top>::top()),
        };
        copy.push(quote!(#m: #value));
        let value = match rule_of(i, &RuleKind::Observe) {
            Some(r) => {
                let f = &r.function;
                quote_spanned!(r.origin.span=> #f())
            }
            None if c.value_domain => quote!(<#ty as #rt::ValueDomain>::observed()),
            None => quote!(<#ty as #rt::Top>::top()),
        };
        observed.push(quote!(#m: #value));
    }
    Some(quote! {
        impl #name {
            #[inline]
            // The parameters' names start with `__` so that no rule's name is shadowed.
            fn __absinthe_demand_binary(
                __op: #rt::Op,
                __d: &Self,
                __policy: #rt::ReducePolicy,
            ) -> Self {
                // `__op` and `__d` are unused when no component has a backward operation rule.
                let _ = (__op, __d);
                Self::__absinthe_reduced(#name { #(#binary),* }, __policy)
            }

            #[inline]
            fn __absinthe_demand_copy(__d: &Self, __policy: #rt::ReducePolicy) -> Self {
                let _ = __d;
                Self::__absinthe_reduced(#name { #(#copy),* }, __policy)
            }

            #[inline]
            fn __absinthe_observed(__policy: #rt::ReducePolicy) -> Self {
                Self::__absinthe_reduced(#name { #(#observed),* }, __policy)
            }
        }
    })
}

/// The backward `ValueDomain` methods calling the helpers of [`backward_helpers`] on `inner`
/// (the product, or the direct product's inner value `.0`), results wrapped with `wrap`.
pub(super) fn backward_methods(
    inner: &TokenStream,
    wrap: &TokenStream,
    policy: &TokenStream,
) -> TokenStream {
    let rt = rt();
    let direct = inner.to_string() != "Self";
    let d = if direct {
        quote!(&dest.0)
    } else {
        quote!(dest)
    };
    let call = |body: TokenStream| if direct { quote!(#wrap(#body)) } else { body };
    let binary = call(quote!(#inner::__absinthe_demand_binary(op, #d, #policy)));
    let copy = call(quote!(#inner::__absinthe_demand_copy(#d, #policy)));
    let observed = call(quote!(#inner::__absinthe_observed(#policy)));
    quote! {
        #[inline]
        fn demand_binary(op: #rt::Op, dest: &Self) -> Self {
            #binary
        }

        #[inline]
        fn demand_copy(dest: &Self) -> Self {
            #copy
        }

        #[inline]
        fn observed() -> Self {
            #observed
        }
    }
}
