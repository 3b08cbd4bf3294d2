//! Code for declared lattices: equality consistent with the order, the `Lattice` and `Top`
//! impls, `Debug` and `Display` that print `⊥` and `⊤`, and the law-checker hooks.

use super::common::{nested_tuple, provenance, rt};
use super::laws::{law_origin, laws_impls, laws_impls_with};
use crate::model::{
    Finite, Flat, LatticeDecl, LatticeKind, Pointwise, Sum, Variant, VariantFields,
};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// Everything generated for one declared lattice.
pub fn lattice(decl: &LatticeDecl, display: bool) -> TokenStream {
    match &decl.kind {
        LatticeKind::Pointwise(p) => pointwise(decl, p, display),
        LatticeKind::Flat(f) => flat(decl, f, display),
        LatticeKind::Finite(f) => finite(decl, f, display),
        LatticeKind::Sum(s) => sum(decl, s, display),
    }
}

/// `self.f1.OP(&other.f1)` for every ordered field, as a struct literal keeping ignored fields
/// from `self`.
fn fieldwise(name: &Ident, p: &Pointwise, op: &str, extra: &TokenStream) -> TokenStream {
    let op = format_ident!("{op}");
    let rt = rt();
    let inits = p.fields.iter().map(|f| {
        let m = &f.member;
        let ty = &f.ty;
        if f.ignored {
            quote!(#m: #rt::Clone::clone(&self.#m))
        } else {
            quote!(#m: <#ty as #rt::Lattice>::#op(&self.#m, &other.#m #extra))
        }
    });
    quote!(#name { #(#inits),* })
}

fn pointwise(decl: &LatticeDecl, p: &Pointwise, display: bool) -> TokenStream {
    let rt = rt();
    let name = &decl.name;
    let ordered: Vec<_> = p.ordered().collect();
    let members: Vec<_> = ordered.iter().map(|f| &f.member).collect();
    let types: Vec<_> = ordered.iter().map(|f| &f.ty).collect();
    // The fields the derived operations combine: plain values are ordered by written-out
    // operations only.
    let lattice_fields: Vec<_> = p.lattice_fields().collect();
    let lattice_members: Vec<_> = lattice_fields.iter().map(|f| &f.member).collect();
    let lattice_types: Vec<_> = lattice_fields.iter().map(|f| &f.ty).collect();
    let values = p.has_values();
    let many_bottoms = p.has_many_bottoms();

    // Every ordered field at its extreme (`Lattice::bottom` or `Top::top`), ignored fields at
    // their default.
    let extreme = |custom: &Option<syn::Path>, tr: TokenStream, f: TokenStream| match custom {
        Some(path) => quote!(#path()),
        None => {
            let inits = p.fields.iter().map(|field| {
                let (m, ty) = (&field.member, &field.ty);
                if field.ignored {
                    quote!(#m: #rt::Default::default())
                } else {
                    quote!(#m: <#ty as #tr>::#f())
                }
            });
            quote!(#name { #(#inits),* })
        }
    };
    let bottom = extreme(&p.bottom, quote!(#rt::Lattice), quote!(bottom));
    let each_bottom = lattice_fields.iter().map(|f| {
        let (m, ty) = (&f.member, &f.ty);
        quote!(<#ty as #rt::Lattice>::is_bottom(&self.#m))
    });
    // A plain value has no bottom, so with one the value is bottom only where `empty` or the
    // written-out bottom says so.
    let mut is_bottom = if p.smash {
        quote!(false #(|| #each_bottom)*)
    } else if values {
        quote!(false)
    } else {
        quote!(true #(&& #each_bottom)*)
    };
    if let Some(path) = &p.empty_if {
        is_bottom = quote!((#is_bottom) || #path(self));
    }
    // `this` and `that` in their normal forms, if the struct has one.
    let normal = |this: TokenStream, that: TokenStream| match &p.normalize {
        Some(path) => quote!(let (this, that) = (&#path(#this), &#path(#that));),
        None => quote!(let (this, that) = (#this, #that);),
    };
    if p.bottom.is_some() {
        // Field by field: `==` itself asks `is_bottom` when bottom has several representations.
        let normal = normal(quote!(self), quote!(&<Self as #rt::Lattice>::bottom()));
        let written = quote!({
            #normal
            true #(&& this.#members == that.#members)*
        });
        // A written-out bottom is the bottom: with lattice fields and a written-out order (a
        // dual, say), the fields' own bottoms need not be the struct's.
        is_bottom = if values || p.smash {
            quote!((#is_bottom) || #written)
        } else {
            match &p.empty_if {
                Some(path) => quote!(#path(self) || #written),
                None => written,
            }
        };
    }

    // When bottom has several representations, every binary operation settles bottoms first.
    let settle_join = many_bottoms.then(|| {
        quote! {
            if #rt::Lattice::is_bottom(self) { return #rt::Clone::clone(other); }
            if #rt::Lattice::is_bottom(other) { return #rt::Clone::clone(self); }
        }
    });
    let canonical = many_bottoms.then(|| {
        quote! {
            if #rt::Lattice::is_bottom(&result) { return <Self as #rt::Lattice>::bottom(); }
        }
    });
    let none = TokenStream::new();
    let thresholds = quote!(, thresholds);
    // A widening written with thresholds: `widen` passes none.
    let with_thresholds = p.override_of("widen_with_thresholds");
    let written = |op: &str, default: TokenStream| match (op, p.override_of(op), with_thresholds) {
        ("widen", _, Some(path)) => quote!(#path(self, other, &#rt::Thresholds::none())),
        (_, Some(path), _) => quote!(#path(self, other)),
        _ => default,
    };
    let join = written("join", fieldwise(name, p, "join", &none));
    let meet = written("meet", fieldwise(name, p, "meet", &none));
    // With plain values (whose join, meet and leq are written out, and widen too for integers),
    // an unwritten widening is the join and an unwritten narrowing the meet.
    let (widen, widen_t, narrow) = if values {
        let widen = written("widen", quote!(<Self as #rt::Lattice>::join(self, other)));
        let narrow = written("narrow", quote!(<Self as #rt::Lattice>::meet(self, other)));
        let widen_t = match with_thresholds {
            Some(path) => quote!(#path(self, other, thresholds)),
            None => widen.clone(),
        };
        (widen, widen_t, narrow)
    } else {
        let widen_t = match (with_thresholds, p.override_of("widen")) {
            (Some(path), _) => quote!(#path(self, other, thresholds)),
            (None, Some(path)) => quote!(#path(self, other)),
            (None, None) => fieldwise(name, p, "widen_with_thresholds", &thresholds),
        };
        (
            written("widen", fieldwise(name, p, "widen", &none)),
            widen_t,
            written("narrow", fieldwise(name, p, "narrow", &none)),
        )
    };
    let leq = written(
        "leq",
        quote!(true #(&& <#lattice_types as #rt::Lattice>::leq(&self.#lattice_members, &other.#lattice_members))*),
    );
    let eq_bottoms = many_bottoms.then(|| {
        quote! {
            let (a, b) = (#rt::Lattice::is_bottom(self), #rt::Lattice::is_bottom(other));
            if a || b { return a == b; }
        }
    });
    let leq_bottoms = many_bottoms.then(|| {
        quote! {
            if #rt::Lattice::is_bottom(self) { return true; }
            if #rt::Lattice::is_bottom(other) { return false; }
        }
    });
    // With a normal form, two values are equal when their normal forms are field by field.
    let eq_fields = match &p.normalize {
        Some(path) => quote! {
            let (this, that) = (#path(self), #path(other));
            true #(&& this.#members == that.#members)*
        },
        None => quote!(true #(&& self.#members == other.#members)*),
    };
    // A value prints as its normal form.
    let shown = match &p.normalize {
        Some(path) => quote!(let this = &#path(self);),
        None => quote!(let this = self;),
    };
    let doc = provenance("The pointwise order", &decl.origin);
    // Plain integers make chains as long as `int`: never claim a finite height with them.
    let finite = !values;
    // What each impl needs of the field types that name a type parameter; ignored fields are
    // cloned, defaulted and printed.
    let head = Head::new(name, p);
    let kept = quote!(#rt::Clone + #rt::Default + #rt::fmt::Debug);
    let lattice_head = |tr: TokenStream| head.of(tr, &quote!(#rt::Lattice), &kept);

    let top_head = head.of(quote!(#rt::Top), &quote!(#rt::Top), &kept);
    let debug_head = lattice_head(quote!(#rt::fmt::Debug));
    let display_bound = if decl.has_top {
        quote!(#rt::Top + #rt::fmt::Display)
    } else {
        quote!(#rt::Lattice + #rt::fmt::Display)
    };
    let display_head = head.of(quote!(#rt::fmt::Display), &display_bound, &kept);
    let eq_head = lattice_head(quote!(#rt::PartialEq));
    let total_head = lattice_head(quote!(#rt::Eq));
    let lattice_impl_head = lattice_head(quote!(#rt::Lattice));
    let top = decl.has_top.then(|| {
        let top_value = extreme(&p.top, quote!(#rt::Top), quote!(top));
        let is_top = match &p.top {
            Some(_) => {
                let normal = normal(quote!(self), quote!(&<Self as #rt::Top>::top()));
                quote!({
                    #normal
                    true #(&& this.#members == that.#members)*
                })
            }
            None => {
                quote!(true #(&& <#lattice_types as #rt::Top>::is_top(&self.#lattice_members))*)
            }
        };
        quote! {
            #doc
            #top_head {
                fn top() -> Self { #top_value }
                fn is_top(&self) -> bool { #is_top }
            }
        }
    });

    let debug_fields = ordered.iter().map(|f| {
        let m = &f.member;
        let label = member_label(m);
        quote!(.field(#label, &self.#m))
    });
    let name_text = name.to_string();
    let debug = quote! {
        #debug_head {
            fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                if #rt::Lattice::is_bottom(self) { return f.write_str("⊥"); }
                f.debug_struct(#name_text) #(#debug_fields)* .finish()
            }
        }
    };
    let display = display.then(|| {
        let top_check = decl
            .has_top
            .then(|| quote!(if #rt::Top::is_top(self) { return f.write_str("⊤"); }));
        let parts = ordered.iter().enumerate().map(|(i, f)| {
            let m = &f.member;
            let sep = if i == 0 { "" } else { ", " };
            let label = format!("{sep}{}: ", member_label(m));
            quote! {
                f.write_str(#label)?;
                #rt::fmt::Display::fmt(&this.#m, f)?;
            }
        });
        quote! {
            #display_head {
                fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                    if #rt::Lattice::is_bottom(self) { return f.write_str("⊥"); }
                    #top_check
                    #shown
                    f.write_str("{")?;
                    #(#parts)*
                    f.write_str("}")
                }
            }
        }
    });

    let field_names: Vec<Ident> = (0..ordered.len()).map(|i| format_ident!("f{i}")).collect();
    let strategies: Vec<TokenStream> = types
        .iter()
        .map(|ty| quote!(<#ty as #rt::laws::Arbitrary>::strategy()))
        .collect();
    let (strategy, pattern) = nested_tuple(&strategies, &field_names);
    let inits = p.fields.iter().map(|f| {
        let m = &f.member;
        match ordered.iter().position(|o| o.member == f.member) {
            Some(i) => {
                let v = &field_names[i];
                quote!(#m: #v)
            }
            None => quote!(#m: #rt::Default::default()),
        }
    });
    let arbitrary_bound = if decl.has_top {
        quote!(#rt::Top + #rt::laws::Arbitrary + 'static)
    } else {
        quote!(#rt::Lattice + #rt::laws::Arbitrary + 'static)
    };
    let kept_static = quote!(#rt::Clone + #rt::Default + #rt::fmt::Debug + 'static);
    let laws = laws_impls_with(
        head.of(quote!(#rt::laws::Arbitrary), &arbitrary_bound, &kept_static),
        head.of(quote!(#rt::laws::Laws), &arbitrary_bound, &kept_static),
        decl.has_top,
        quote!(#strategy.prop_map(|#pattern| #name { #(#inits),* })),
        law_origin(&decl.origin, &p.written_at),
        TokenStream::new(),
    );

    quote! {
        #doc
        #eq_head {
            fn eq(&self, other: &Self) -> bool {
                #eq_bottoms
                #eq_fields
            }
        }

        #total_head {}

        #doc
        #lattice_impl_head {
            const FINITE_HEIGHT: bool = #finite #(&& <#lattice_types as #rt::Lattice>::FINITE_HEIGHT)*;
            const EXACT: bool = true #(&& <#lattice_types as #rt::Lattice>::EXACT)*;

            fn bottom() -> Self { #bottom }

            fn is_bottom(&self) -> bool { #is_bottom }

            fn leq(&self, other: &Self) -> bool {
                #leq_bottoms
                #leq
            }

            fn join(&self, other: &Self) -> Self {
                #settle_join
                #join
            }

            fn meet(&self, other: &Self) -> Self {
                let result = #meet;
                #canonical
                result
            }

            fn widen(&self, other: &Self) -> Self {
                #settle_join
                #widen
            }

            fn widen_with_thresholds(&self, other: &Self, thresholds: &#rt::Thresholds) -> Self {
                let _ = thresholds;
                #settle_join
                #widen_t
            }

            fn narrow(&self, other: &Self) -> Self {
                let result = #narrow;
                #canonical
                result
            }
        }

        #top
        #debug
        #display
        #laws
    }
}

/// The label of a field in `Debug` and `Display`.
fn member_label(member: &syn::Member) -> String {
    match member {
        syn::Member::Named(ident) => ident.to_string(),
        syn::Member::Unnamed(index) => index.index.to_string(),
    }
}

/// The header of an impl for a pointwise lattice: the `impl<…>` parameters, the type with its
/// arguments, and a where clause that requires `bound` of every ordered field type naming a type
/// parameter and `ignored` of every such ignored field type (nothing for a concrete struct).
struct Head {
    params: TokenStream,
    ty: TokenStream,
    generics: syn::Generics,
    fields: Vec<(syn::Type, bool)>,
}

impl Head {
    fn new(name: &Ident, p: &Pointwise) -> Head {
        let (params, args, _) = p.generics.split_for_impl();
        let type_params: Vec<String> = p
            .generics
            .type_params()
            .map(|t| t.ident.to_string())
            .collect();
        let fields = p
            .fields
            .iter()
            .filter(|f| names_any(&type_params, &f.ty))
            .map(|f| (f.ty.clone(), f.ignored))
            .collect();
        Head {
            params: quote!(#params),
            ty: quote!(#name #args),
            generics: p.generics.clone(),
            fields,
        }
    }

    /// `impl<…> TRAIT for Type<…> where …`.
    fn of(&self, tr: TokenStream, bound: &TokenStream, ignored: &TokenStream) -> TokenStream {
        let (params, ty) = (&self.params, &self.ty);
        let mut predicates: Vec<TokenStream> = self
            .generics
            .where_clause
            .iter()
            .flat_map(|w| w.predicates.iter().map(|p| quote!(#p)))
            .collect();
        for (field_ty, is_ignored) in &self.fields {
            let b = if *is_ignored { ignored } else { bound };
            predicates.push(quote!(#field_ty: #b));
        }
        if predicates.is_empty() {
            quote!(impl #params #tr for #ty)
        } else {
            quote!(impl #params #tr for #ty where #(#predicates),*)
        }
    }
}

/// Whether the type `ty` names one of `params` anywhere in it.
fn names_any(params: &[String], ty: &syn::Type) -> bool {
    fn walk(tokens: TokenStream, params: &[String]) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => params.iter().any(|p| i == p),
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), params),
            _ => false,
        })
    }
    !params.is_empty() && walk(quote!(#ty), params)
}

/// A pattern binding the fields of `variant` to `{prefix}0`, `{prefix}1`, …, and those names.
fn bind(name: &Ident, variant: &Variant, prefix: &str) -> (TokenStream, Vec<Ident>) {
    let v = &variant.name;
    match &variant.fields {
        VariantFields::Unit => (quote!(#name::#v), Vec::new()),
        VariantFields::Tuple(types) => {
            let names: Vec<Ident> = (0..types.len())
                .map(|i| format_ident!("{prefix}{i}"))
                .collect();
            (quote!(#name::#v(#(#names),*)), names)
        }
        VariantFields::Named(fields) => {
            let names: Vec<Ident> = (0..fields.len())
                .map(|i| format_ident!("{prefix}{i}"))
                .collect();
            let labels = fields.iter().map(|(label, _)| label);
            (quote!(#name::#v { #(#labels: #names),* }), names)
        }
    }
}

/// Builds a value of `variant` from strategies of its fields.
fn variant_strategy(name: &Ident, variant: &Variant) -> TokenStream {
    let rt = rt();
    let types = variant.fields.types();
    if types.is_empty() {
        let v = &variant.name;
        return quote!(#rt::laws::Strategy::boxed(#rt::laws::Just(#name::#v)));
    }
    let (pattern_value, names) = bind(name, variant, "x");
    let strategies: Vec<TokenStream> = types
        .iter()
        .map(|ty| quote!(<#ty as #rt::laws::Arbitrary>::strategy()))
        .collect();
    let (strategy, pattern) = nested_tuple(&strategies, &names);
    quote!(#rt::laws::Strategy::boxed(
        #rt::laws::Strategy::prop_map(#strategy, |#pattern| #pattern_value)
    ))
}

/// `Union` of the given boxed strategies.
fn union(strategies: Vec<TokenStream>) -> TokenStream {
    let rt = rt();
    quote!(#rt::laws::Union::new([#(#strategies),*]))
}

/// Structural equality of variants: same variant and equal fields.
fn variant_eq(name: &Ident, variants: &[&Variant]) -> TokenStream {
    let arms = variants.iter().map(|variant| {
        let (left, ls) = bind(name, variant, "a");
        let (right, rs) = bind(name, variant, "b");
        quote!((#left, #right) => true #(&& #ls == #rs)*)
    });
    quote! {
        match (self, other) {
            #(#arms,)*
            _ => false,
        }
    }
}

fn unit(variant: &Ident) -> Variant {
    Variant {
        name: variant.clone(),
        fields: VariantFields::Unit,
    }
}

/// `Display` of a value variant: its only field alone, its name when it has none, and
/// `Name(a, b)` or `Name { x: a }` otherwise.
fn display_variant(name: &Ident, variant: &Variant) -> TokenStream {
    let rt = rt();
    let (pattern, names) = bind(name, variant, "x");
    let text = variant.name.to_string();
    let body = match (&variant.fields, names.as_slice()) {
        (VariantFields::Unit, _) => quote!(f.write_str(#text)),
        (VariantFields::Tuple(_), [only]) => quote!(#rt::fmt::Display::fmt(#only, f)),
        (VariantFields::Tuple(_), _) => {
            let parts = names.iter().enumerate().map(|(i, x)| {
                let sep = if i == 0 { "" } else { ", " };
                quote!(f.write_str(#sep)?; #rt::fmt::Display::fmt(#x, f)?;)
            });
            quote!({ f.write_str(#text)?; f.write_str("(")?; #(#parts)* f.write_str(")") })
        }
        (VariantFields::Named(fields), _) => {
            let parts = fields
                .iter()
                .zip(&names)
                .enumerate()
                .map(|(i, ((label, _), x))| {
                    let sep = if i == 0 { " { " } else { ", " };
                    let label = format!("{sep}{label}: ");
                    quote!(f.write_str(#label)?; #rt::fmt::Display::fmt(#x, f)?;)
                });
            quote!({ f.write_str(#text)?; #(#parts)* f.write_str(" }") })
        }
    };
    quote!(#pattern => #body)
}

/// `Debug` of a value variant, the way `#[derive(Debug)]` prints it.
fn debug_variant(name: &Ident, variant: &Variant) -> TokenStream {
    let (pattern, names) = bind(name, variant, "x");
    let text = variant.name.to_string();
    match &variant.fields {
        VariantFields::Unit => quote!(#pattern => f.write_str(#text)),
        VariantFields::Tuple(_) => {
            quote!(#pattern => f.debug_tuple(#text) #(.field(#names))* .finish())
        }
        VariantFields::Named(fields) => {
            let labels = fields.iter().map(|(label, _)| label.to_string());
            quote!(#pattern => f.debug_struct(#text) #(.field(#labels, #names))* .finish())
        }
    }
}

fn flat(decl: &LatticeDecl, f: &Flat, display: bool) -> TokenStream {
    let rt = rt();
    let name = &decl.name;
    let (bot, top) = (&f.bottom, &f.top);
    let mut all: Vec<Variant> = vec![unit(bot), unit(top)];
    all.extend(f.values.iter().cloned());
    let refs: Vec<&Variant> = all.iter().collect();
    let eq = variant_eq(name, &refs);
    let doc = provenance("The flat order", &decl.origin);
    let debug_arms = f.values.iter().map(|v| debug_variant(name, v));
    let display_impl = display.then(|| {
        let arms = f.values.iter().map(|v| display_variant(name, v));
        quote! {
            impl #rt::fmt::Display for #name {
                fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                    match self {
                        #name::#bot => f.write_str("⊥"),
                        #name::#top => f.write_str("⊤"),
                        #(#arms,)*
                    }
                }
            }
        }
    });
    let mut strategies = vec![
        variant_strategy(name, &all[0]),
        variant_strategy(name, &all[1]),
    ];
    // Values are drawn more often than the two extremes.
    for v in &f.values {
        for _ in 0..3 {
            strategies.push(variant_strategy(name, v));
        }
    }
    let laws = laws_impls(name, true, union(strategies), law_origin(&decl.origin, &[]));
    quote! {
        #doc
        impl #rt::PartialEq for #name {
            fn eq(&self, other: &Self) -> bool { #eq }
        }

        impl #rt::Eq for #name {}

        #doc
        impl #rt::Lattice for #name {
            const FINITE_HEIGHT: bool = true;

            fn bottom() -> Self { #name::#bot }

            fn is_bottom(&self) -> bool { matches!(self, #name::#bot) }

            fn leq(&self, other: &Self) -> bool {
                matches!(self, #name::#bot) || matches!(other, #name::#top) || self == other
            }

            fn join(&self, other: &Self) -> Self {
                match (self, other) {
                    (#name::#bot, x) | (x, #name::#bot) => #rt::Clone::clone(x),
                    (a, b) if a == b => #rt::Clone::clone(a),
                    _ => #name::#top,
                }
            }

            fn meet(&self, other: &Self) -> Self {
                match (self, other) {
                    (#name::#top, x) | (x, #name::#top) => #rt::Clone::clone(x),
                    (a, b) if a == b => #rt::Clone::clone(a),
                    _ => #name::#bot,
                }
            }
        }

        #doc
        impl #rt::Top for #name {
            fn top() -> Self { #name::#top }
            fn is_top(&self) -> bool { matches!(self, #name::#top) }
        }

        impl #rt::fmt::Debug for #name {
            fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                match self {
                    #name::#bot => f.write_str("⊥"),
                    #name::#top => f.write_str("⊤"),
                    #(#debug_arms,)*
                }
            }
        }

        #display_impl
        #laws
    }
}

fn finite(decl: &LatticeDecl, f: &Finite, display: bool) -> TokenStream {
    let rt = rt();
    let name = &decl.name;
    let n = f.variants.len();
    let variants = &f.variants;
    let indices = 0..n;
    let order = &f.order;
    let leq_rows = order.leq.iter().map(|row| quote!([#(#row),*]));
    let to_u8 = |table: &Vec<Vec<usize>>| -> Vec<TokenStream> {
        table
            .iter()
            .map(|row| {
                let row = row.iter().map(|&x| x as u8);
                quote!([#(#row),*])
            })
            .collect()
    };
    let join_rows = to_u8(&order.join);
    let meet_rows = to_u8(&order.meet);
    let bottom = &variants[order.bottom];
    let top = &variants[order.top];
    let doc = provenance("The finite order", &decl.origin);
    let leq_name = format_ident!("__ABSINTHE_{}_LEQ", name.to_string().to_uppercase());
    let join_name = format_ident!("__ABSINTHE_{}_JOIN", name.to_string().to_uppercase());
    let meet_name = format_ident!("__ABSINTHE_{}_MEET", name.to_string().to_uppercase());
    let texts: Vec<String> = variants.iter().map(ToString::to_string).collect();
    let display_impl = display.then(|| {
        let arms = variants
            .iter()
            .zip(&texts)
            .enumerate()
            .map(|(i, (v, text))| {
                let shown = if i == order.bottom {
                    "⊥".to_string()
                } else if i == order.top {
                    "⊤".to_string()
                } else {
                    text.clone()
                };
                quote!(#name::#v => f.write_str(#shown))
            });
        quote! {
            impl #rt::fmt::Display for #name {
                fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                    match self { #(#arms,)* }
                }
            }
        }
    });
    let strategies = variants
        .iter()
        .map(|v| quote!(#rt::laws::Strategy::boxed(#rt::laws::Just(#name::#v))))
        .collect();
    let laws = laws_impls(name, true, union(strategies), law_origin(&decl.origin, &[]));
    let index_arms = variants
        .iter()
        .zip(indices.clone())
        .map(|(v, i)| quote!(#name::#v => #i));
    let from_arms = variants.iter().zip(indices).map(|(v, i)| {
        let i = i as u8;
        quote!(#i => #name::#v)
    });
    let index_fn = format_ident!("__absinthe_index");
    let from_fn = format_ident!("__absinthe_from_index");
    quote! {
        const #leq_name: [[bool; #n]; #n] = [#(#leq_rows),*];
        const #join_name: [[u8; #n]; #n] = [#(#join_rows),*];
        const #meet_name: [[u8; #n]; #n] = [#(#meet_rows),*];

        impl #name {
            fn #index_fn(&self) -> usize {
                match self { #(#index_arms,)* }
            }

            fn #from_fn(index: u8) -> Self {
                match index {
                    #(#from_arms,)*
                    _ => ::core::unreachable!(
                        "the join and meet tables hold indices of elements only, not {}",
                        index
                    ),
                }
            }
        }

        #doc
        impl #rt::PartialEq for #name {
            fn eq(&self, other: &Self) -> bool { self.#index_fn() == other.#index_fn() }
        }

        impl #rt::Eq for #name {}

        #doc
        impl #rt::Lattice for #name {
            const FINITE_HEIGHT: bool = true;

            fn bottom() -> Self { #name::#bottom }

            fn is_bottom(&self) -> bool { matches!(self, #name::#bottom) }

            fn leq(&self, other: &Self) -> bool {
                #leq_name[self.#index_fn()][other.#index_fn()]
            }

            fn join(&self, other: &Self) -> Self {
                Self::#from_fn(#join_name[self.#index_fn()][other.#index_fn()])
            }

            fn meet(&self, other: &Self) -> Self {
                Self::#from_fn(#meet_name[self.#index_fn()][other.#index_fn()])
            }
        }

        #doc
        impl #rt::Top for #name {
            fn top() -> Self { #name::#top }
            fn is_top(&self) -> bool { matches!(self, #name::#top) }
        }

        impl #rt::fmt::Debug for #name {
            fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                <Self as #rt::fmt::Display>::fmt(self, f)
            }
        }

        #display_impl
        #laws
    }
}

fn sum(decl: &LatticeDecl, s: &Sum, display: bool) -> TokenStream {
    let rt = rt();
    let name = &decl.name;
    let (bot, top) = (&s.bottom, &s.top);
    let payloads: Vec<&syn::Type> = s.summands.iter().flat_map(|v| v.fields.types()).collect();
    let doc = provenance("The order of the sum", &decl.origin);
    // Summands with a lattice payload, and unit summands.
    let lattice_arms = |f: &dyn Fn(&Ident, &syn::Type) -> TokenStream| -> Vec<TokenStream> {
        s.summands
            .iter()
            .map(|v| {
                let vn = &v.name;
                match v.fields.types().as_slice() {
                    [ty] => {
                        let body = f(vn, ty);
                        quote!((#name::#vn(a), #name::#vn(b)) => #body)
                    }
                    _ => quote!((#name::#vn, #name::#vn) => #name::#vn),
                }
            })
            .collect()
    };
    let join_arms = lattice_arms(&|vn, ty| quote!(#name::#vn(<#ty as #rt::Lattice>::join(a, b))));
    let widen_arms = lattice_arms(&|vn, ty| quote!(#name::#vn(<#ty as #rt::Lattice>::widen(a, b))));
    let widen_t_arms = lattice_arms(
        &|vn, ty| quote!(#name::#vn(<#ty as #rt::Lattice>::widen_with_thresholds(a, b, thresholds))),
    );
    let narrow_arms =
        lattice_arms(&|vn, ty| quote!(#name::#vn(<#ty as #rt::Lattice>::narrow(a, b))));
    let meet_arms = lattice_arms(&|vn, ty| {
        quote!({
            let m = <#ty as #rt::Lattice>::meet(a, b);
            if <#ty as #rt::Lattice>::is_bottom(&m) { #name::#bot } else { #name::#vn(m) }
        })
    });
    let leq_arms = s.summands.iter().map(|v| {
        let vn = &v.name;
        match v.fields.types().as_slice() {
            [ty] => quote!((#name::#vn(a), #name::#vn(b)) => <#ty as #rt::Lattice>::leq(a, b)),
            _ => quote!((#name::#vn, #name::#vn) => true),
        }
    });
    let eq_arms = s.summands.iter().map(|v| {
        let vn = &v.name;
        match v.fields.types().as_slice() {
            [_] => quote!((#name::#vn(a), #name::#vn(b)) => a == b),
            _ => quote!((#name::#vn, #name::#vn) => true),
        }
    });
    let bottom_arms = s.summands.iter().filter_map(|v| {
        let vn = &v.name;
        match v.fields.types().as_slice() {
            [ty] => Some(quote!(#name::#vn(a) => <#ty as #rt::Lattice>::is_bottom(a))),
            _ => None,
        }
    });
    let settle = quote! {
        if #rt::Lattice::is_bottom(self) { return #rt::Clone::clone(other); }
        if #rt::Lattice::is_bottom(other) { return #rt::Clone::clone(self); }
    };
    let debug_arms = s.summands.iter().map(|v| debug_variant(name, v));
    let display_impl = display.then(|| {
        let arms = s.summands.iter().map(|v| {
            let vn = &v.name;
            let text = vn.to_string();
            match v.fields.types().as_slice() {
                [_] => quote!(#name::#vn(x) => {
                    f.write_str(#text)?;
                    f.write_str("(")?;
                    #rt::fmt::Display::fmt(x, f)?;
                    f.write_str(")")
                }),
                _ => quote!(#name::#vn => f.write_str(#text)),
            }
        });
        quote! {
            impl #rt::fmt::Display for #name {
                fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                    if #rt::Lattice::is_bottom(self) { return f.write_str("⊥"); }
                    match self {
                        #name::#bot => f.write_str("⊥"),
                        #name::#top => f.write_str("⊤"),
                        #(#arms,)*
                    }
                }
            }
        }
    });
    let mut strategies = vec![
        variant_strategy(name, &unit(bot)),
        variant_strategy(name, &unit(top)),
    ];
    for v in &s.summands {
        for _ in 0..3 {
            strategies.push(variant_strategy(name, v));
        }
    }
    let laws = laws_impls(name, true, union(strategies), law_origin(&decl.origin, &[]));
    quote! {
        #doc
        impl #rt::PartialEq for #name {
            fn eq(&self, other: &Self) -> bool {
                let (a, b) = (#rt::Lattice::is_bottom(self), #rt::Lattice::is_bottom(other));
                if a || b { return a == b; }
                match (self, other) {
                    (#name::#top, #name::#top) => true,
                    #(#eq_arms,)*
                    _ => false,
                }
            }
        }

        impl #rt::Eq for #name {}

        #doc
        impl #rt::Lattice for #name {
            const FINITE_HEIGHT: bool = true #(&& <#payloads as #rt::Lattice>::FINITE_HEIGHT)*;
            const EXACT: bool = true #(&& <#payloads as #rt::Lattice>::EXACT)*;

            fn bottom() -> Self { #name::#bot }

            fn is_bottom(&self) -> bool {
                match self {
                    #name::#bot => true,
                    #(#bottom_arms,)*
                    _ => false,
                }
            }

            fn leq(&self, other: &Self) -> bool {
                if #rt::Lattice::is_bottom(self) { return true; }
                match (self, other) {
                    (_, #name::#top) => true,
                    #(#leq_arms,)*
                    _ => false,
                }
            }

            fn join(&self, other: &Self) -> Self {
                #settle
                match (self, other) {
                    #(#join_arms,)*
                    _ => #name::#top,
                }
            }

            fn meet(&self, other: &Self) -> Self {
                if #rt::Lattice::is_bottom(self) || #rt::Lattice::is_bottom(other) {
                    return #name::#bot;
                }
                match (self, other) {
                    (#name::#top, x) | (x, #name::#top) => #rt::Clone::clone(x),
                    #(#meet_arms,)*
                    _ => #name::#bot,
                }
            }

            fn widen(&self, other: &Self) -> Self {
                #settle
                match (self, other) {
                    #(#widen_arms,)*
                    _ => #name::#top,
                }
            }

            fn widen_with_thresholds(&self, other: &Self, thresholds: &#rt::Thresholds) -> Self {
                #settle
                match (self, other) {
                    #(#widen_t_arms,)*
                    _ => #name::#top,
                }
            }

            fn narrow(&self, other: &Self) -> Self {
                if #rt::Lattice::is_bottom(other) { return #name::#bot; }
                match (self, other) {
                    #(#narrow_arms,)*
                    _ => #rt::Clone::clone(self),
                }
            }
        }

        #doc
        impl #rt::Top for #name {
            fn top() -> Self { #name::#top }
            fn is_top(&self) -> bool { matches!(self, #name::#top) }
        }

        impl #rt::fmt::Debug for #name {
            fn fmt(&self, f: &mut #rt::fmt::Formatter<'_>) -> #rt::fmt::Result {
                if #rt::Lattice::is_bottom(self) { return f.write_str("⊥"); }
                match self {
                    #name::#bot => f.write_str("⊥"),
                    #name::#top => f.write_str("⊤"),
                    #(#debug_arms,)*
                }
            }
        }

        #display_impl
        #laws
    }
}
