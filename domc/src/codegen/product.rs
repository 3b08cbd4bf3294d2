//! Code for reduced products: the smashed pointwise lattice of the components, the `reduce`
//! loop over the declared reductions, the transfer dispatch (`ValueDomain`), concretization,
//! and optionally the direct product of the same components (no reductions) for comparison.
//! The methods naming rules (`blame_*`, `rules_*`) come from the `explain` module.

use super::backward::{backward_helpers, backward_methods};
use super::common::{assume_op, binary_op, nested_tuple, op_rules, provenance, reduction_call, rt};
use super::explain::{direct_rules, explain, located};
use super::laws::{law_origin, laws_impls, laws_impls_checking};
use crate::model::{Policy, ProductDecl, Rule, RuleKind};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};

/// Everything generated for one product; `direct` names the direct-product companion type to
/// generate as well, if any.
pub fn product(decl: &ProductDecl, direct: Option<&Ident>) -> TokenStream {
    let rt = rt();
    let name = &decl.name;
    let members: Vec<_> = decl.components.iter().map(|c| &c.member).collect();
    let types: Vec<_> = decl.components.iter().map(|c| &c.ty).collect();
    let doc = provenance("The reduced product", &decl.origin);
    let policy = match decl.policy {
        Policy::Never => quote!(#rt::ReducePolicy::Never),
        Policy::Once => quote!(#rt::ReducePolicy::Once),
        Policy::Fixpoint(k) => quote!(#rt::ReducePolicy::Fixpoint(#k)),
    };
    let reduction_count = decl.reductions.len();
    let exact = decl.reductions.is_empty() || decl.policy == Policy::Never;

    let fieldwise = |op: &str, extra: TokenStream| {
        let op = format_ident!("{op}");
        quote!(#name { #(#members: <#types as #rt::Lattice>::#op(&self.#members, &other.#members #extra)),* })
    };
    let join = fieldwise("join", TokenStream::new());
    let meet = fieldwise("meet", TokenStream::new());
    let widen = fieldwise("widen", TokenStream::new());
    let widen_t = fieldwise("widen_with_thresholds", quote!(, thresholds));
    let narrow = fieldwise("narrow", TokenStream::new());
    let bottom = quote!(#name { #(#members: <#types as #rt::Lattice>::bottom()),* });
    let top = quote!(#name { #(#members: <#types as #rt::Top>::top()),* });

    let steps = decl.reductions.iter().map(|r| {
        let target = &decl.components[r.target];
        let source = &decl.components[r.source];
        let (tm, tt) = (&target.member, &target.ty);
        let call = reduction_call(r, tm, &source.member, &quote!(self));
        let rule = located(&r.origin);
        let component = target.name();
        quote_spanned! {r.origin.span=>
            {
                let refined: #tt = #call;
                if #rt::recording_reductions() {
                    // For tracing: which reduction changed which component, and how.
                    let before = #rt::Clone::clone(&self.#tm);
                    let changed = <#tt as #rt::Lattice>::meet_with(&mut self.#tm, &refined);
                    if changed.changed() {
                        #rt::log_reduction(#rule, #component, &before, &self.#tm);
                    }
                    round |= changed;
                } else {
                    round |= <#tt as #rt::Lattice>::meet_with(&mut self.#tm, &refined);
                }
                if <#tt as #rt::Lattice>::is_bottom(&self.#tm) {
                    return self.__absinthe_collapse() | #rt::Changed::Yes;
                }
            }
        }
    });

    let rounds = if decl.reductions.is_empty() {
        quote! {
            let _ = policy;
            #rt::Changed::No
        }
    } else {
        quote! {
            let mut changed = #rt::Changed::No;
            for _ in 0..policy.max_rounds() {
                let mut round = #rt::Changed::No;
                #(#steps)*
                changed |= round;
                if !round.changed() {
                    break;
                }
            }
            changed
        }
    };
    let value_domain = value_domain(decl);
    let concrete_parts = quote!(true #(&& <#types as #rt::Concrete>::contains(&self.#members, v))*);
    let as_constant = quote! {
        #(if let #rt::Option::Some(c) = <#types as #rt::Concrete>::as_constant(&self.#members) {
            return #rt::Option::Some(c);
        })*
        #rt::Option::None
    };
    let as_address = quote! {
        #(if let #rt::Option::Some(a) = <#types as #rt::Concrete>::as_address(&self.#members) {
            return #rt::Option::Some(a);
        })*
        #rt::Option::None
    };
    let name_text = name.to_string();
    let debug_fields = decl.components.iter().map(|c| {
        let m = &c.member;
        let label = match m {
            syn::Member::Named(i) => i.to_string(),
            syn::Member::Unnamed(i) => i.index.to_string(),
        };
        quote!(.field(#label, &self.#m))
    });
    let display_parts = decl.components.iter().enumerate().map(|(i, c)| {
        let m = &c.member;
        let sep = if i == 0 { "" } else { ", " };
        let label = match m {
            syn::Member::Named(ident) => format!("{sep}{ident}: "),
            syn::Member::Unnamed(index) => format!("{sep}{}: ", index.index),
        };
        quote!(f.write_str(#label)?; #rt::fmt::Display::fmt(&self.#m, f)?;)
    });
    // A product of one component prints as that component.
    let display_body = match decl.components.as_slice() {
        [only] => {
            let m = &only.member;
            quote!(#rt::fmt::Display::fmt(&self.#m, f))
        }
        _ => quote! {
            f.write_str("{")?;
            #(#display_parts)*
            f.write_str("}")
        },
    };
    let names: Vec<Ident> = (0..types.len()).map(|i| format_ident!("c{i}")).collect();
    let strategies: Vec<TokenStream> = types
        .iter()
        .map(|ty| quote!(<#ty as #rt::laws::Arbitrary>::strategy()))
        .collect();
    let (strategy, pattern) = nested_tuple(&strategies, &names);
    // Each reduction's own laws, on its target and source drawn apart from the product.
    let reduction_laws = decl.reductions.iter().map(|r| {
        let (tt, st) = (&decl.components[r.target].ty, &decl.components[r.source].ty);
        let f = &r.function;
        let reduce = if r.in_place {
            quote!(|t: &#tt, s: &#st| {
                let mut target = #rt::Clone::clone(t);
                #f(&mut target, s);
                target
            })
        } else {
            quote!(|t: &#tt, s: &#st| #f(t, s))
        };
        let label = located(&r.origin);
        quote!(#rt::laws::check_reduction::<#tt, #st>(#label, #reduce);)
    });
    let laws = laws_impls_checking(
        name,
        true,
        quote!(#strategy.prop_map(|#pattern| {
            let mut value = #name { #(#members: #names),* };
            #rt::ReducedProduct::reduce(&mut value);
            value
        })),
        law_origin(&decl.origin, &[]),
        quote!(#(#reduction_laws)*),
    );
    let direct = direct.map(|d| direct_product(decl, d));

    // One component: the product is bottom exactly when its component is, so the component's
    // own operations already treat bottom right (the guards below are for canonical bottoms of
    // several components), and reducing is the identity (collapsing one component to bottom
    // when it is bottom changes nothing).
    let single = decl.components.len() == 1 && decl.reductions.is_empty();
    let reduced = if single {
        quote! {
            /// `value`: with one component and no reduction there is nothing to reduce.
            fn __absinthe_reduced(value: Self, policy: #rt::ReducePolicy) -> Self {
                let _ = policy;
                value
            }
        }
    } else {
        quote! {
            /// `value` reduced under `policy`.
            fn __absinthe_reduced(mut value: Self, policy: #rt::ReducePolicy) -> Self {
                #rt::ReducedProduct::reduce_with(&mut value, policy);
                value
            }
        }
    };
    let (eq_guard, leq_guard, join_guard) = if single {
        (quote!(), quote!(), quote!())
    } else {
        (
            quote! {
                let (a, b) = (#rt::Lattice::is_bottom(self), #rt::Lattice::is_bottom(other));
                if a || b { return a == b; }
            },
            quote! {
                if #rt::Lattice::is_bottom(self) { return true; }
                if #rt::Lattice::is_bottom(other) { return false; }
            },
            quote! {
                if #rt::Lattice::is_bottom(self) { return #rt::Clone::clone(other); }
                if #rt::Lattice::is_bottom(other) { return #rt::Clone::clone(self); }
            },
        )
    };

    quote! {
        impl #name {
            /// Makes every component bottom; reports whether anything changed.
            fn __absinthe_collapse(&mut self) -> #rt::Changed {
                let mut changed = #rt::Changed::No;
                #(changed |= #rt::replace_if_changed(
                    &mut self.#members,
                    <#types as #rt::Lattice>::bottom(),
                );)*
                changed
            }

            #reduced
        }

        #doc
        impl #rt::PartialEq for #name {
            fn eq(&self, other: &Self) -> bool {
                #eq_guard
                true #(&& self.#members == other.#members)*
            }
        }

        impl #rt::Eq for #name {}

        #doc
        impl #rt::Lattice for #name {
            const FINITE_HEIGHT: bool = true #(&& <#types as #rt::Lattice>::FINITE_HEIGHT)*;
            const EXACT: bool = #exact #(&& <#types as #rt::Lattice>::EXACT)*;

            fn bottom() -> Self { #bottom }

            fn is_bottom(&self) -> bool {
                false #(|| <#types as #rt::Lattice>::is_bottom(&self.#members))*
            }

            fn leq(&self, other: &Self) -> bool {
                #leq_guard
                true #(&& <#types as #rt::Lattice>::leq(&self.#members, &other.#members))*
            }

            // No reduction after a join: the component-wise join is already the least upper
            // bound in the product's order, and it stays idempotent on values a widening left
            // unreduced (reducing here made `a ⊔ a ≠ a` for them, so engines that join in
            // different places — dense and sparse states — could disagree).
            fn join(&self, other: &Self) -> Self {
                #join_guard
                #join
            }

            fn meet(&self, other: &Self) -> Self {
                Self::__absinthe_reduced(#meet, #policy)
            }

            // No reduction after widening: it could undo the jump that makes widening stop.
            fn widen(&self, other: &Self) -> Self {
                #join_guard
                #widen
            }

            fn widen_with_thresholds(&self, other: &Self, thresholds: &#rt::Thresholds) -> Self {
                #join_guard
                #widen_t
            }

            fn narrow(&self, other: &Self) -> Self {
                if #rt::Lattice::is_bottom(self) || #rt::Lattice::is_bottom(other) {
                    return <Self as #rt::Lattice>::bottom();
                }
                #narrow
            }
        }

        #doc
        impl #rt::Top for #name {
            fn top() -> Self { #top }
            fn is_top(&self) -> bool {
                true #(&& <#types as #rt::Top>::is_top(&self.#members))*
            }
        }

        #doc
        impl #rt::ReducedProduct for #name {
            const POLICY: #rt::ReducePolicy = #policy;
            const REDUCTIONS: usize = #reduction_count;

            fn reduce(&mut self) -> #rt::Changed {
                #rt::ReducedProduct::reduce_with(self, #policy)
            }

            fn reduce_with(&mut self, policy: #rt::ReducePolicy) -> #rt::Changed {
                if #rt::Lattice::is_bottom(self) {
                    return self.__absinthe_collapse();
                }
                #rounds
            }
        }

        #doc
        impl #rt::Concrete for #name {
            fn contains(&self, v: #rt::i64) -> bool { #concrete_parts }

            fn as_constant(&self) -> #rt::Option<#rt::i64> { #as_constant }

            fn as_address(&self) -> #rt::Option<(#rt::SymbolId, #rt::i64)> { #as_address }
        }

        #value_domain

        impl #rt::fmt::Debug for #name {
            fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                if #rt::Lattice::is_bottom(self) { return f.write_str("⊥"); }
                f.debug_struct(#name_text) #(#debug_fields)* .finish()
            }
        }

        impl #rt::fmt::Display for #name {
            fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                if #rt::Lattice::is_bottom(self) { return f.write_str("⊥"); }
                if #rt::Top::is_top(self) { return f.write_str("⊤"); }
                #display_body
            }
        }

        #laws
        #direct
    }
}

/// The `ValueDomain` impl: each operation dispatched to every component's rule, then reduced.
/// The private `__absinthe_*` helpers take the policy so the direct product can share them.
fn value_domain(decl: &ProductDecl) -> TokenStream {
    let rt = rt();
    let name = &decl.name;
    let doc = provenance("The transfer dispatch", &decl.origin);

    // `constant(c)` and `address(s)`: each component's rule, else its built-in abstraction,
    // else top.
    let literal = leaf_dispatch(
        decl,
        &RuleKind::Literal,
        &quote!(c),
        &|ty| quote!(<#ty as #rt::ValueDomain>::constant(c)),
    );
    let address = leaf_dispatch(
        decl,
        &RuleKind::Address,
        &quote!(#rt::i64::from(s.0)),
        &|ty| quote!(<#ty as #rt::ValueDomain>::address(s)),
    );

    let binary = binary_dispatch(decl, false);
    let assume: Vec<TokenStream> = decl
        .components
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (m, ty) = (&c.member, &c.ty);
            let (per_op, any) = op_rules(decl, i, assume_op, &RuleKind::AnyAssume);
            let arms = per_op.iter().map(|(op, r)| {
                let f = &r.function;
                quote_spanned!(r.origin.span=> #rt::Op::#op => #f(a, b))
            });
            let fallback = match any {
                Some(r) => {
                    let f = &r.function;
                    quote_spanned!(r.origin.span=> _ => #f(op, a, b))
                }
                None if c.value_domain => {
                    quote!(_ => <#ty as #rt::ValueDomain>::assume(op, &a.#m, &b.#m))
                }
                None => quote!(_ => (#rt::Clone::clone(&a.#m), #rt::Clone::clone(&b.#m))),
            };
            // A rule may only refine: its result is met with what was known.
            quote! {
                let (x, y): (#ty, #ty) = match op { #(#arms,)* #fallback };
                ra.#m = <#ty as #rt::Lattice>::meet(&a.#m, &x);
                rb.#m = <#ty as #rt::Lattice>::meet(&b.#m, &y);
            }
        })
        .collect();

    let (explain_methods, explain_helpers) = explain(decl, &binary, &literal, &assume);
    let relation_methods = relation_methods(decl);
    let (term_helpers, term_methods) = match kernel_hooks(decl) {
        Some(helpers) => {
            let policy = quote!(<Self as #rt::ReducedProduct>::POLICY);
            (helpers, term_methods(&quote!(Self), &quote!(Self), &policy))
        }
        None => (TokenStream::new(), TokenStream::new()),
    };
    let (backward_helpers, backward_methods) = match backward_helpers(decl) {
        Some(helpers) => {
            let policy = quote!(<Self as #rt::ReducedProduct>::POLICY);
            (
                helpers,
                backward_methods(&quote!(Self), &quote!(Self), &policy),
            )
        }
        None => (TokenStream::new(), TokenStream::new()),
    };
    quote! {
        #term_helpers

        #backward_helpers

        impl #name {
            #[inline]
            fn __absinthe_constant(c: #rt::i64, policy: #rt::ReducePolicy) -> Self {
                // `c` is unused when no component has a literal rule.
                let _ = c;
                Self::__absinthe_reduced(#name { #(#literal),* }, policy)
            }

            #[inline]
            fn __absinthe_address(s: #rt::SymbolId, policy: #rt::ReducePolicy) -> Self {
                // `s` is unused when no component knows addresses.
                let _ = s;
                Self::__absinthe_reduced(#name { #(#address),* }, policy)
            }

            #[inline]
            fn __absinthe_binary(
                op: #rt::Op,
                a: &Self,
                b: &Self,
                policy: #rt::ReducePolicy,
            ) -> Self {
                if #rt::Lattice::is_bottom(a) || #rt::Lattice::is_bottom(b) {
                    return <Self as #rt::Lattice>::bottom();
                }
                Self::__absinthe_reduced(#name { #(#binary),* }, policy)
            }

            #[inline]
            fn __absinthe_assume(
                op: #rt::Op,
                a: &Self,
                b: &Self,
                policy: #rt::ReducePolicy,
            ) -> (Self, Self) {
                let (mut ra, mut rb) = (#rt::Clone::clone(a), #rt::Clone::clone(b));
                #(#assume)*
                (
                    Self::__absinthe_reduced(ra, policy),
                    Self::__absinthe_reduced(rb, policy),
                )
            }
        }

        #doc
        impl #rt::ValueDomain for #name {
            #[inline]
            fn constant(c: #rt::i64) -> Self {
                Self::__absinthe_constant(c, <Self as #rt::ReducedProduct>::POLICY)
            }

            #[inline]
            fn address(s: #rt::SymbolId) -> Self {
                Self::__absinthe_address(s, <Self as #rt::ReducedProduct>::POLICY)
            }

            #[inline]
            fn binary(op: #rt::Op, a: &Self, b: &Self) -> Self {
                Self::__absinthe_binary(op, a, b, <Self as #rt::ReducedProduct>::POLICY)
            }

            #[inline]
            fn assume(op: #rt::Op, a: &Self, b: &Self) -> (Self, Self) {
                Self::__absinthe_assume(op, a, b, <Self as #rt::ReducedProduct>::POLICY)
            }

            #term_methods

            #backward_methods

            #relation_methods

            #explain_methods
        }

        #explain_helpers
    }
}

/// For a product with a relational component: the `ValueDomain` methods that tell the engines
/// which relation to keep beside the names' values and tie it to the component (its bounds
/// out, the relation's bounds in, then the product's reductions).
fn relation_methods(decl: &ProductDecl) -> TokenStream {
    let rt = rt();
    let Some((c, packs)) = decl
        .components
        .iter()
        .find_map(|c| c.relation.map(|packs| (c, packs)))
    else {
        return TokenStream::new();
    };
    let (m, ty) = (&c.member, &c.ty);
    quote! {
        fn relation() -> #rt::Option<#rt::Relation> {
            #rt::Option::Some(#rt::Relation {
                kind: <#ty as #rt::RelationView>::KIND,
                packs: #packs,
            })
        }

        fn relation_bounds(&self) -> #rt::Interval {
            <#ty as #rt::RelationView>::bounds(&self.#m)
        }

        fn with_relation_bounds(&self, bounds: &#rt::Interval) -> Self {
            let mut value = #rt::Clone::clone(self);
            value.#m = <#ty as #rt::Lattice>::meet(
                &value.#m,
                &<#ty as #rt::RelationView>::within(*bounds),
            );
            #rt::ReducedProduct::reduce(&mut value);
            value
        }
    }
}

/// Each component's value for a statement without operands (`constant(c)`, `address(s)`): its
/// rule of `kind` called with `argument`, else `builtin` of the component's type for a
/// component that uses its type's own rules, else top.
fn leaf_dispatch(
    decl: &ProductDecl,
    kind: &RuleKind,
    argument: &TokenStream,
    builtin: &dyn Fn(&syn::Type) -> TokenStream,
) -> Vec<TokenStream> {
    let rt = rt();
    decl.components
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (m, ty) = (&c.member, &c.ty);
            let rule = decl
                .rules
                .iter()
                .find(|r| r.component == i && r.kind == *kind);
            let value = match rule {
                Some(r) => {
                    let f = &r.function;
                    quote_spanned!(r.origin.span=> #f(#argument))
                }
                None if c.value_domain => builtin(ty),
                None => quote!(<#ty as #rt::Top>::top()),
            };
            quote!(#m: #value)
        })
        .collect()
}

/// Each component's value for an operation: its rule for `op`, else its catch-all rule, else
/// the component's built-in transfer function or top. A rule that reads argument kinds gets
/// `ka` and `kb` when `kinds_known` (kernel terms), `ArgKind::Other` otherwise.
fn binary_dispatch(decl: &ProductDecl, kinds_known: bool) -> Vec<TokenStream> {
    let rt = rt();
    let kinds = |r: &Rule| {
        if !r.with_kinds {
            TokenStream::new()
        } else if kinds_known {
            quote!(, ka, kb)
        } else {
            quote!(, #rt::ArgKind::Other, #rt::ArgKind::Other)
        }
    };
    decl.components
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (m, ty) = (&c.member, &c.ty);
            let (per_op, any) = op_rules(decl, i, binary_op, &RuleKind::AnyBinary);
            let arms = per_op.iter().map(|(op, r)| {
                let (f, k) = (&r.function, kinds(r));
                quote_spanned!(r.origin.span=> #rt::Op::#op => #f(a, b #k))
            });
            let fallback = match any {
                Some(r) => {
                    let (f, k) = (&r.function, kinds(r));
                    quote_spanned!(r.origin.span=> _ => #f(op, a, b #k))
                }
                None if c.value_domain => {
                    quote!(_ => <#ty as #rt::ValueDomain>::binary(op, &a.#m, &b.#m))
                }
                None => quote!(_ => <#ty as #rt::Top>::top()),
            };
            quote!(#m: match op { #(#arms,)* #fallback })
        })
        .collect()
}

/// For a product with rules about kernel terms (`on cond`, `on param`, `on apply`,
/// `on function`, or operation rules reading `ArgKind`s): the private helpers computing each
/// hook component by component — a component's own rule, else its built-in hook when it uses
/// built-in rules, else the behavior graph's default (the join of `cond`'s branches, the bound
/// value, the callees' result, bottom for a function). `None` for every other product, whose
/// hooks are `ValueDomain`'s defaults.
fn kernel_hooks(decl: &ProductDecl) -> Option<TokenStream> {
    if !decl
        .rules
        .iter()
        .any(|r| r.with_kinds || r.kind.is_kernel_hook())
    {
        return None;
    }
    let rt = rt();
    let name = &decl.name;
    let binary = binary_dispatch(decl, true);
    type Part<'a> = &'a dyn Fn(&syn::Member, &syn::Type) -> TokenStream;
    let hook = |kind: RuleKind, call: TokenStream, builtin: Part<'_>, default: Part<'_>| {
        decl.components
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let (m, ty) = (&c.member, &c.ty);
                let value = match decl
                    .rules
                    .iter()
                    .find(|r| r.component == i && r.kind == kind)
                {
                    Some(r) => {
                        let f = &r.function;
                        quote_spanned!(r.origin.span=> #f #call)
                    }
                    None if c.value_domain => builtin(m, ty),
                    None => default(m, ty),
                };
                quote!(#m: #value)
            })
            .collect::<Vec<_>>()
    };
    let cond = hook(
        RuleKind::Cond,
        quote!((p, a, b)),
        &|m, ty| quote!(<#ty as #rt::ValueDomain>::term_cond(&p.#m, &a.#m, &b.#m)),
        &|m, ty| quote!(<#ty as #rt::Lattice>::join(&a.#m, &b.#m)),
    );
    let param = hook(
        RuleKind::Param,
        quote!((param, bound)),
        &|m, ty| quote!(<#ty as #rt::ValueDomain>::term_param(param, &bound.#m)),
        &|m, _| quote!(#rt::Clone::clone(&bound.#m)),
    );
    let apply = hook(
        RuleKind::Apply,
        quote!((operator, result)),
        &|m, ty| quote!(<#ty as #rt::ValueDomain>::term_apply(&operator.#m, &result.#m)),
        &|m, _| quote!(#rt::Clone::clone(&result.#m)),
    );
    let function = hook(
        RuleKind::Function,
        quote!(()),
        &|_, ty| quote!(<#ty as #rt::ValueDomain>::term_function()),
        &|_, ty| quote!(<#ty as #rt::Lattice>::bottom()),
    );
    Some(quote! {
        impl #name {
            #[inline]
            fn __absinthe_term_binary(
                op: #rt::Op,
                a: &Self,
                b: &Self,
                ka: #rt::ArgKind,
                kb: #rt::ArgKind,
                policy: #rt::ReducePolicy,
            ) -> Self {
                let _ = (op, ka, kb);
                Self::__absinthe_reduced(#name { #(#binary),* }, policy)
            }

            #[inline]
            fn __absinthe_term_cond(p: &Self, a: &Self, b: &Self, policy: #rt::ReducePolicy) -> Self {
                let _ = (p, a, b);
                Self::__absinthe_reduced(#name { #(#cond),* }, policy)
            }

            #[inline]
            fn __absinthe_term_param(
                param: #rt::ParamId,
                bound: &Self,
                policy: #rt::ReducePolicy,
            ) -> Self {
                let _ = (param, bound);
                Self::__absinthe_reduced(#name { #(#param),* }, policy)
            }

            #[inline]
            fn __absinthe_term_apply(operator: &Self, result: &Self, policy: #rt::ReducePolicy) -> Self {
                let _ = (operator, result);
                Self::__absinthe_reduced(#name { #(#apply),* }, policy)
            }

            #[inline]
            fn __absinthe_term_function(policy: #rt::ReducePolicy) -> Self {
                Self::__absinthe_reduced(#name { #(#function),* }, policy)
            }
        }
    })
}

/// The `ValueDomain` methods about kernel terms of a product with kernel rules, calling the
/// helpers of [`kernel_hooks`] on `inner` (the product, or the direct product's inner value
/// `.0`) and wrapping results with `wrap`.
fn term_methods(inner: &TokenStream, wrap: &TokenStream, policy: &TokenStream) -> TokenStream {
    let rt = rt();
    let direct = inner.to_string() != "Self";
    let unwrap = |x: TokenStream| if direct { quote!(&(#x).0) } else { x };
    let (av, bv) = (unwrap(quote!(a.value)), unwrap(quote!(b.value)));
    let (p, a, b) = (unwrap(quote!(p)), unwrap(quote!(a)), unwrap(quote!(b)));
    let bound = unwrap(quote!(bound));
    let (operator, result) = (unwrap(quote!(operator)), unwrap(quote!(result)));
    let call = |body: TokenStream| if direct { quote!(#wrap(#body)) } else { body };
    let binary =
        call(quote!(#inner::__absinthe_term_binary(op, #av, #bv, a.kind, b.kind, #policy)));
    let cond = call(quote!(#inner::__absinthe_term_cond(#p, #a, #b, #policy)));
    let param = call(quote!(#inner::__absinthe_term_param(param, #bound, #policy)));
    let apply = call(quote!(#inner::__absinthe_term_apply(#operator, #result, #policy)));
    let function = call(quote!(#inner::__absinthe_term_function(#policy)));
    quote! {
        #[inline]
        fn term_binary(op: #rt::Op, a: &#rt::Arg<'_, Self>, b: &#rt::Arg<'_, Self>) -> Self {
            #binary
        }

        #[inline]
        fn term_cond(p: &Self, a: &Self, b: &Self) -> Self {
            #cond
        }

        #[inline]
        fn term_param(param: #rt::ParamId, bound: &Self) -> Self {
            #param
        }

        #[inline]
        fn term_apply(operator: &Self, result: &Self) -> Self {
            #apply
        }

        #[inline]
        fn term_function() -> Self {
            #function
        }
    }
}

/// The direct product of the same components: a newtype over the product whose operations
/// never reduce.
fn direct_product(decl: &ProductDecl, direct: &Ident) -> TokenStream {
    let rt = rt();
    let name = &decl.name;
    let members: Vec<_> = decl.components.iter().map(|c| &c.member).collect();
    let types: Vec<_> = decl.components.iter().map(|c| &c.ty).collect();
    let never = quote!(#rt::ReducePolicy::Never);
    let doc_text = format!(
        " The direct product of the components of [`{name}`]: the same transfer rules, no \
         reductions."
    );
    let doc = provenance("The direct product", &decl.origin);
    let fieldwise = |op: &str| {
        let op = format_ident!("{op}");
        quote!(#direct(#name { #(#members: <#types as #rt::Lattice>::#op(&self.0.#members, &other.0.#members)),* }))
    };
    let join = fieldwise("join");
    let meet = fieldwise("meet");
    let names: Vec<Ident> = (0..types.len()).map(|i| format_ident!("c{i}")).collect();
    let strategies: Vec<TokenStream> = types
        .iter()
        .map(|ty| quote!(<#ty as #rt::laws::Arbitrary>::strategy()))
        .collect();
    let (strategy, pattern) = nested_tuple(&strategies, &names);
    let direct_rules = direct_rules(name);
    let direct_terms = if kernel_hooks(decl).is_some() {
        term_methods(&quote!(#name), &quote!(#direct), &never)
    } else {
        TokenStream::new()
    };
    let direct_backward = if backward_helpers(decl).is_some() {
        backward_methods(&quote!(#name), &quote!(#direct), &never)
    } else {
        TokenStream::new()
    };
    let laws = laws_impls(
        direct,
        true,
        quote!(#strategy.prop_map(|#pattern| #direct(#name { #(#members: #names),* }))),
        law_origin(&decl.origin, &[]),
    );
    quote! {
        #[doc = #doc_text]
        #[derive(Clone)]
        pub struct #direct(pub #name);

        #doc
        impl #rt::PartialEq for #direct {
            fn eq(&self, other: &Self) -> bool { self.0 == other.0 }
        }

        impl #rt::Eq for #direct {}

        #doc
        impl #rt::Lattice for #direct {
            const FINITE_HEIGHT: bool = <#name as #rt::Lattice>::FINITE_HEIGHT;
            const EXACT: bool = true #(&& <#types as #rt::Lattice>::EXACT)*;

            fn bottom() -> Self { #direct(<#name as #rt::Lattice>::bottom()) }

            fn is_bottom(&self) -> bool { #rt::Lattice::is_bottom(&self.0) }

            fn leq(&self, other: &Self) -> bool { #rt::Lattice::leq(&self.0, &other.0) }

            fn join(&self, other: &Self) -> Self {
                if #rt::Lattice::is_bottom(self) { return #rt::Clone::clone(other); }
                if #rt::Lattice::is_bottom(other) { return #rt::Clone::clone(self); }
                #join
            }

            fn meet(&self, other: &Self) -> Self {
                let mut result = #meet;
                if #rt::Lattice::is_bottom(&result) { result.0.__absinthe_collapse(); }
                result
            }

            fn widen(&self, other: &Self) -> Self {
                #direct(#rt::Lattice::widen(&self.0, &other.0))
            }

            fn widen_with_thresholds(&self, other: &Self, thresholds: &#rt::Thresholds) -> Self {
                #direct(#rt::Lattice::widen_with_thresholds(&self.0, &other.0, thresholds))
            }

            fn narrow(&self, other: &Self) -> Self {
                #direct(#rt::Lattice::narrow(&self.0, &other.0))
            }
        }

        #doc
        impl #rt::Top for #direct {
            fn top() -> Self { #direct(<#name as #rt::Top>::top()) }
            fn is_top(&self) -> bool { #rt::Top::is_top(&self.0) }
        }

        #doc
        impl #rt::Concrete for #direct {
            fn contains(&self, v: #rt::i64) -> bool { #rt::Concrete::contains(&self.0, v) }
            fn as_constant(&self) -> #rt::Option<#rt::i64> { #rt::Concrete::as_constant(&self.0) }
            fn as_address(&self) -> #rt::Option<(#rt::SymbolId, #rt::i64)> {
                #rt::Concrete::as_address(&self.0)
            }
        }

        #doc
        impl #rt::ValueDomain for #direct {
            fn constant(c: #rt::i64) -> Self {
                #direct(#name::__absinthe_constant(c, #never))
            }

            fn address(s: #rt::SymbolId) -> Self {
                #direct(#name::__absinthe_address(s, #never))
            }

            fn binary(op: #rt::Op, a: &Self, b: &Self) -> Self {
                #direct(#name::__absinthe_binary(op, &a.0, &b.0, #never))
            }

            fn assume(op: #rt::Op, a: &Self, b: &Self) -> (Self, Self) {
                let (x, y) = #name::__absinthe_assume(op, &a.0, &b.0, #never);
                (#direct(x), #direct(y))
            }

            #direct_terms

            #direct_backward

            #direct_rules
        }

        impl #rt::fmt::Debug for #direct {
            fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                #rt::fmt::Debug::fmt(&self.0, f)
            }
        }

        impl #rt::fmt::Display for #direct {
            fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                #rt::fmt::Display::fmt(&self.0, f)
            }
        }

        #laws
    }
}
