//! Code that names the rules behind a product's values: `blame_*` (for abstract debugging: which
//! rule or reduction excludes a concrete value) and `rules_*` (for explanations: which rules
//! compute an operation at all). Both read one private table per operation kind, the rule of
//! each component as a report line, so the two always name a rule the same way.

use super::common::{assume_op, binary_op, op_rules, reduction_call, rt};
use crate::model::{Origin, ProductDecl, Rule, RuleKind, Site};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{quote, quote_spanned};

/// An expression naming a rule for reports: its description and, for Rust items, `file:line`.
pub(super) fn located(origin: &Origin) -> TokenStream {
    labelled("", origin)
}

/// [`located`] after `label`, as one string expression (a literal for `.dom` rules, whose place
/// is already in their description).
fn labelled(label: &str, origin: &Origin) -> TokenStream {
    let describe = format!("{label}{}", origin.describe);
    if origin.in_rust {
        quote_spanned!(origin.span=> ::core::concat!(#describe, " at ", ::core::file!(), ":", ::core::line!()))
    } else {
        quote!(#describe)
    }
}

/// The label that starts component `i`'s report line.
fn label(decl: &ProductDecl, i: usize) -> String {
    format!("component `{}`: ", decl.components[i].name())
}

/// Component `i`'s report line for an operation (`Binary` or `Assume` rules, as `per_op`
/// selects): its rule for `op`, else its catch-all rule of kind `any`, else its built-in
/// function (`builtin` names it) when it uses one, else `none`.
fn op_rule_line(
    decl: &ProductDecl,
    i: usize,
    per_op: fn(&RuleKind) -> Option<&Ident>,
    any: &RuleKind,
    builtin: &str,
    none: &str,
) -> TokenStream {
    let rt = rt();
    let label = label(decl, i);
    let (arms, catch_all) = op_rules(decl, i, per_op, any);
    let arms: Vec<TokenStream> = arms
        .iter()
        .map(|(op, r)| {
            let text = labelled(&label, &r.origin);
            quote!(#rt::Op::#op => #text)
        })
        .collect();
    let component = &decl.components[i];
    let fallback = match catch_all {
        Some(r) => labelled(&label, &r.origin),
        None if component.value_domain => {
            let t = format!(
                "{label}the built-in {builtin} of `{}`",
                component.type_name()
            );
            quote!(#t)
        }
        None => {
            let t = format!("{label}{none}");
            quote!(#t)
        }
    };
    if arms.is_empty() {
        fallback
    } else {
        quote!(match op { #(#arms,)* _ => #fallback })
    }
}

/// Component `i`'s report line for a literal.
fn literal_line(decl: &ProductDecl, i: usize) -> TokenStream {
    let label = label(decl, i);
    let component = &decl.components[i];
    match decl
        .rules
        .iter()
        .find(|r| r.component == i && r.kind == RuleKind::Literal)
    {
        Some(r) => labelled(&label, &r.origin),
        None => {
            let t = if component.value_domain {
                format!(
                    "{label}the built-in literal rule of `{}`",
                    component.type_name()
                )
            } else {
                format!("{label}no rule (component `{}` is top)", component.name())
            };
            quote!(#t)
        }
    }
}

/// The `blame_*` and `rules_*` methods of the product's `ValueDomain` impl, and the private
/// helpers they call (an inherent impl). `binary` and `literal` are each component's expression
/// (`member: value`) for `binary(op, a, b)` and `constant(c)` before reduction, `assume` the
/// statements refining `ra` and `rb` for `assume(op, a, b)`, as the transfer dispatch has them.
pub(super) fn explain(
    decl: &ProductDecl,
    binary: &[TokenStream],
    literal: &[TokenStream],
    assume: &[TokenStream],
) -> (TokenStream, TokenStream) {
    let rt = rt();
    let name = &decl.name;
    let n = decl.components.len();
    let count = Literal::usize_unsuffixed(n);
    let binary_lines = (0..n).map(|i| {
        let none = format!("no rule (component `{}` is top)", decl.components[i].name());
        op_rule_line(
            decl,
            i,
            binary_op,
            &RuleKind::AnyBinary,
            "transfer function",
            &none,
        )
    });
    let literal_lines = (0..n).map(|i| literal_line(decl, i));
    let assume_lines = (0..n).map(|i| {
        op_rule_line(
            decl,
            i,
            assume_op,
            &RuleKind::AnyAssume,
            "branch refinement",
            "no rule (not refined)",
        )
    });
    // `op` is unused when no component has a rule for a particular operation.
    let ignore_op = |per_op: fn(&RuleKind) -> Option<&Ident>| {
        if decl.rules.iter().any(|r| per_op(&r.kind).is_some()) {
            TokenStream::new()
        } else {
            quote!(let _ = op;)
        }
    };
    let (binary_op_unused, assume_op_unused) = (ignore_op(binary_op), ignore_op(assume_op));

    // Each component's check, `excludes(member, type)` saying whether its value lost the
    // concrete one: the first that did names its rule.
    // Each report line with the place of the value the rule gave, where its body has several
    // (`site(index)` computes it), else the line alone.
    let checks = |excludes: &dyn Fn(&syn::Member, &syn::Type) -> TokenStream,
                  site: &dyn Fn(usize) -> Option<TokenStream>| {
        decl.components
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let test = excludes(&c.member, &c.ty);
                let index = Literal::usize_unsuffixed(i);
                let line = match site(i) {
                    Some(site) => quote!(#rt::with_site(rules[#index], #site)),
                    None => quote!(::std::string::String::from(rules[#index])),
                };
                quote! {
                    if #test {
                        return #rt::Option::Some(#line);
                    }
                }
            })
            .collect::<Vec<_>>()
    };
    let binary_site = |i: usize| {
        let args = |r: &Rule| {
            if r.with_kinds {
                quote!(a, b, #rt::ArgKind::Other, #rt::ArgKind::Other)
            } else {
                quote!(a, b)
            }
        };
        op_site(decl, i, binary_op, &RuleKind::AnyBinary, &args, &quote!(v))
    };
    // Branch refinements give pairs: their site functions take no concrete value.
    let assume_site = |i: usize| {
        let args = |_: &Rule| quote!(a, b);
        op_site(decl, i, assume_op, &RuleKind::AnyAssume, &args, &quote!())
    };
    let literal_site = |i: usize| {
        let r = decl
            .rules
            .iter()
            .find(|r| r.component == i && r.kind == RuleKind::Literal)?;
        r.site
            .as_ref()
            .map(|s| site_call(s, &quote!(c), &quote!(c)))
    };
    let binary_blame = checks(
        &|m, ty| quote!(!<#ty as #rt::Concrete>::contains(&raw.#m, v)),
        &binary_site,
    );
    let literal_blame = checks(
        &|m, ty| quote!(!<#ty as #rt::Concrete>::contains(&raw.#m, c)),
        &literal_site,
    );
    let assume_blame = checks(
        &|m, ty| {
            quote! {
                !<#ty as #rt::Concrete>::contains(&ra.#m, va)
                    || !<#ty as #rt::Concrete>::contains(&rb.#m, vb)
            }
        },
        &assume_site,
    );
    let blame_reduce = blame_reduce(decl);
    let join_blame = decl.components.iter().map(|c| {
        let (m, ty) = (&c.member, &c.ty);
        let (name, type_name) = (c.name(), c.type_name());
        let origin = (c.join_origin.clone()).unwrap_or_else(|| format!("`join` of `{type_name}`"));
        let lost = format!("component `{name}`: {origin}, is not above what it joins");
        let unordered = format!(
            "component `{name}`: `contains` of `{type_name}` is not monotone (the joined value \
             is above the incoming one but does not hold the value)"
        );
        quote! {
            if <#ty as #rt::Concrete>::contains(&incoming.#m, v)
                && !<#ty as #rt::Concrete>::contains(&joined.#m, v)
            {
                let line = if <#ty as #rt::Lattice>::leq(&incoming.#m, &joined.#m) {
                    #unordered
                } else {
                    #lost
                };
                return #rt::Option::Some(::std::string::String::from(line));
            }
        }
    });

    let methods = quote! {
        fn blame_binary(op: #rt::Op, a: &Self, b: &Self, v: #rt::i64) -> #rt::Option<::std::string::String> {
            if #rt::Lattice::is_bottom(a) || #rt::Lattice::is_bottom(b) {
                return #rt::Option::None;
            }
            let raw = #name { #(#binary),* };
            let rules = Self::__absinthe_binary_rules(op);
            #(#binary_blame)*
            Self::__absinthe_blame_reduce(raw, v)
        }

        fn blame_constant(c: #rt::i64) -> #rt::Option<::std::string::String> {
            let raw = #name { #(#literal),* };
            let rules = Self::__absinthe_literal_rules();
            #(#literal_blame)*
            Self::__absinthe_blame_reduce(raw, c)
        }

        fn blame_assume(
            op: #rt::Op,
            a: &Self,
            b: &Self,
            va: #rt::i64,
            vb: #rt::i64,
        ) -> #rt::Option<::std::string::String> {
            let (mut ra, mut rb) = (#rt::Clone::clone(a), #rt::Clone::clone(b));
            #(#assume)*
            let rules = Self::__absinthe_assume_rules(op);
            #(#assume_blame)*
            Self::__absinthe_blame_reduce(ra, va).or_else(|| Self::__absinthe_blame_reduce(rb, vb))
        }

        fn blame_join(incoming: &Self, joined: &Self, v: #rt::i64) -> #rt::Option<::std::string::String> {
            #(#join_blame)*
            #rt::Option::None
        }

        fn rules_binary(op: #rt::Op) -> ::std::vec::Vec<::std::string::String> {
            Self::__absinthe_binary_rules(op).iter().copied().map(::std::string::String::from).collect()
        }

        fn rules_constant() -> ::std::vec::Vec<::std::string::String> {
            Self::__absinthe_literal_rules().iter().copied().map(::std::string::String::from).collect()
        }

        fn rules_assume(op: #rt::Op) -> ::std::vec::Vec<::std::string::String> {
            Self::__absinthe_assume_rules(op).iter().copied().map(::std::string::String::from).collect()
        }
    };
    let helpers = quote! {
        impl #name {
            /// For blame and explanations: the rule computing each component of
            /// `binary(op, _, _)`, as a report line.
            fn __absinthe_binary_rules(op: #rt::Op) -> [&'static str; #count] {
                #binary_op_unused
                [#(#binary_lines),*]
            }

            /// For blame and explanations: the rule computing each component of `constant(_)`.
            fn __absinthe_literal_rules() -> [&'static str; #count] {
                [#(#literal_lines),*]
            }

            /// For blame and explanations: the rule refining each component in
            /// `assume(op, _, _)`.
            fn __absinthe_assume_rules(op: #rt::Op) -> [&'static str; #count] {
                #assume_op_unused
                [#(#assume_lines),*]
            }

            #blame_reduce
        }
    };
    (methods, helpers)
}

/// A call of a site function on `args`: the place of the value the rule gave, if its body did not
/// fail. `lost` is the concrete value the rule's value lost, passed last to the site functions
/// that take it.
fn site_call(site: &Site, args: &TokenStream, lost: &TokenStream) -> TokenStream {
    let rt = rt();
    let f = &site.function;
    let places = &site.places;
    if site.concrete {
        quote!(#rt::site_place(#f(#args, #lost), &[#(#places),*]))
    } else {
        quote!(#rt::site_place(#f(#args), &[#(#places),*]))
    }
}

/// For component `i`'s rule for `op` (as [`op_rule_line`] picks it), where the value it gave is
/// written; `None` when no rule of the component has a site.
fn op_site(
    decl: &ProductDecl,
    i: usize,
    per_op: fn(&RuleKind) -> Option<&Ident>,
    any: &RuleKind,
    args: &dyn Fn(&Rule) -> TokenStream,
    lost: &TokenStream,
) -> Option<TokenStream> {
    let rt = rt();
    let (arms, catch_all) = op_rules(decl, i, per_op, any);
    if arms.iter().all(|(_, r)| r.site.is_none()) && catch_all.is_none_or(|r| r.site.is_none()) {
        return None;
    }
    let none = quote!(#rt::Option::None);
    let arms: Vec<TokenStream> = arms
        .iter()
        .map(|(op, r)| {
            let call = r
                .site
                .as_ref()
                .map_or(none.clone(), |s| site_call(s, &args(r), lost));
            quote!(#rt::Op::#op => #call)
        })
        .collect();
    let fallback = match catch_all {
        Some(r) => {
            let rest = args(r);
            r.site
                .as_ref()
                .map_or(none.clone(), |s| site_call(s, &quote!(op, #rest), lost))
        }
        None => none.clone(),
    };
    if arms.is_empty() {
        return Some(fallback);
    }
    Some(quote!(match op { #(#arms,)* _ => #fallback }))
}

/// The private helper replaying the reductions for blame.
fn blame_reduce(decl: &ProductDecl) -> TokenStream {
    let rt = rt();
    let reduce_blame = decl.reductions.iter().map(|r| {
        let target = &decl.components[r.target];
        let source = &decl.components[r.source];
        let (tm, tt) = (&target.member, &target.ty);
        let sm = &source.member;
        let call = reduction_call(r, tm, sm, &quote!(value));
        let text = located(&r.origin);
        let label = format!("reduction into component `{}`: ", target.name());
        let (site, line) = match &r.site {
            Some(site) => {
                let call = site_call(site, &quote!(&value.#tm, &value.#sm), &quote!(v));
                (
                    quote!(let site = #call;),
                    quote!(#rt::with_site(&::std::format!("{}{}", #label, #text), site)),
                )
            }
            None => (quote!(), quote!(::std::format!("{}{}", #label, #text))),
        };
        quote! {
            {
                #site
                let refined: #tt = #call;
                round |= <#tt as #rt::Lattice>::meet_with(&mut value.#tm, &refined);
                if !<#tt as #rt::Concrete>::contains(&value.#tm, v) {
                    return #rt::Option::Some(#line);
                }
            }
        }
    });
    let (value_param, rounds) = if decl.reductions.is_empty() {
        (
            quote!(value),
            quote! {
                let _ = (value, v);
                #rt::Option::None
            },
        )
    } else {
        (
            quote!(mut value),
            quote! {
                for _ in 0..<Self as #rt::ReducedProduct>::POLICY.max_rounds() {
                    let mut round = #rt::Changed::No;
                    #(#reduce_blame)*
                    if !round.changed() {
                        break;
                    }
                }
                #rt::Option::None
            },
        )
    };
    quote! {
        /// Replays the reductions on `value` and names the first one after which `value` no
        /// longer contains `v`.
        fn __absinthe_blame_reduce(#value_param: Self, v: #rt::i64) -> #rt::Option<::std::string::String> {
            #rounds
        }
    }
}

/// The `rules_*` methods of the direct product `ValueDomain` impl: those of the product `name`
/// it wraps (the same rules; reductions are never listed), and its `blame_join` (the same
/// component-wise join).
pub(super) fn direct_rules(name: &Ident) -> TokenStream {
    let rt = rt();
    quote! {
        fn blame_join(incoming: &Self, joined: &Self, v: #rt::i64) -> #rt::Option<::std::string::String> {
            <#name as #rt::ValueDomain>::blame_join(&incoming.0, &joined.0, v)
        }

        fn rules_binary(op: #rt::Op) -> ::std::vec::Vec<::std::string::String> {
            <#name as #rt::ValueDomain>::rules_binary(op)
        }

        fn rules_constant() -> ::std::vec::Vec<::std::string::String> {
            <#name as #rt::ValueDomain>::rules_constant()
        }

        fn rules_assume(op: #rt::Op) -> ::std::vec::Vec<::std::string::String> {
            <#name as #rt::ValueDomain>::rules_assume(op)
        }
    }
}
