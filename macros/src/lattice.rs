//! `#[lattice]`: a struct or enum → the shared model → checks → the shared generator.

use crate::args::{self, FieldArgs, LatticeArgs, VariantArgs};
use crate::bounds;
use crate::errors::{Errors, flag_span, is_attr, stub};
use absinthe_domc::codegen;
use absinthe_domc::model::{
    Field, Finite, FiniteOrder, Flat, LatticeDecl, LatticeKind, OrderError, Origin, Pointwise, Sum,
    Variant, VariantFields, type_text,
};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use syn::spanned::Spanned;

/// Expands `#[lattice(args)] item`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let options: LatticeArgs = match args::parse(args) {
        Ok(options) => options,
        Err(error) => {
            errors.darling::<LatticeArgs>(error);
            LatticeArgs::default()
        }
    };
    let mut item: syn::Item = match syn::parse2(item.clone()) {
        Ok(item) => item,
        Err(error) => return error.to_compile_error(),
    };
    if let Some(span) = flag_span(&options.product) {
        errors.push(syn::Error::new(
            span,
            "`#[lattice(product)]` declares a reduced product together with its reductions and \
             rules: put the struct inside a `#[absinthe::domain]` module",
        ));
    }
    let decl = read(&options, &mut item, &mut errors);
    let name = match &item {
        syn::Item::Struct(s) => Some((s.ident.clone(), s.generics.clone())),
        syn::Item::Enum(e) => Some((e.ident.clone(), e.generics.clone())),
        _ => None,
    };
    match (decl, errors.is_empty()) {
        (Some(mut decl), true) => {
            let display = !options.no_display.is_present();
            let typed = type_written_operations(&mut decl);
            let assertions = require_lattice_fields(&mut decl, display);
            let (flat_assertions, predicates) = require_flat_values(&decl, display);
            let generated = bounds::restrict_impls(
                codegen::lattice(&decl, display),
                &[&decl.name],
                &predicates,
            );
            quote!(#item #typed #assertions #flat_assertions #generated)
        }
        _ => {
            let errors = errors.to_compile_errors();
            let stub = name.map(|(n, g)| stub(&n, &g));
            quote!(#item #errors #stub)
        }
    }
}

/// Requires every ordered field of a concrete type to be a lattice (with a top unless the struct
/// has none, printable unless it prints itself): one assertion per field type, and the same requirement as a deferred bound on the
/// generated impls (see [`crate::bounds`]), so that a field of the wrong type is one error at
/// its type. Fields whose type names a type parameter are required by the impls' own bounds.
fn require_lattice_fields(decl: &mut LatticeDecl, display: bool) -> TokenStream {
    let LatticeKind::Pointwise(p) = &mut decl.kind else {
        return TokenStream::new();
    };
    let (check, bound) = match (decl.has_top, display) {
        (true, true) => ("printed_field_with_top", "PrintedFieldWithTop"),
        (false, true) => ("printed_field", "PrintedField"),
        (true, false) => ("field_with_top", "FieldWithTop"),
        (false, false) => ("field", "Field"),
    };
    let params: Vec<String> = p
        .generics
        .type_params()
        .map(|t| t.ident.to_string())
        .collect();
    let mut assertions = TokenStream::new();
    let mut seen = Vec::new();
    for field in p.lattice_fields() {
        let text = type_text(&field.ty);
        if bounds::names_param(&field.ty, &params) || seen.contains(&text) {
            continue;
        }
        seen.push(text);
        assertions.extend(bounds::assertion(&field.ty, check));
    }
    let mut predicates: Vec<syn::WherePredicate> = p
        .lattice_fields()
        .filter(|f| !bounds::names_param(&f.ty, &params))
        .map(|f| bounds::deferred(&f.ty, bound))
        .collect();
    // Ignored fields are cloned, created with `Default` and printed with `Debug`.
    let mut seen = Vec::new();
    for field in p.fields.iter().filter(|f| f.ignored) {
        let text = type_text(&field.ty);
        if bounds::names_param(&field.ty, &params) || seen.contains(&text) {
            continue;
        }
        seen.push(text);
        assertions.extend(bounds::assertion(&field.ty, "ignored_field"));
        predicates.push(bounds::deferred(&field.ty, "IgnoredField"));
    }
    p.generics.make_where_clause().predicates.extend(predicates);
    assertions
}

/// Gives each function a struct names (`empty_if`, `bottom`, `top` and the written-out
/// operations) its type, as an associated constant the generated impls call: a function of the
/// wrong signature is then one error at its path, rather than one in each generated body that
/// calls it. Only for structs without type parameters (a constant cannot be generic); a generic
/// struct's impls call the paths as written.
fn type_written_operations(decl: &mut LatticeDecl) -> TokenStream {
    let LatticeKind::Pointwise(p) = &mut decl.kind else {
        return TokenStream::new();
    };
    if !p.generics.params.is_empty() {
        return TokenStream::new();
    }
    let name = &decl.name;
    let mut constants = Vec::new();
    let mut typed = |what: &str, path: &mut syn::Path, ty: TokenStream| {
        let constant = quote::format_ident!("__ABSINTHE_{}", what.to_uppercase());
        let written = path.clone();
        constants.push(quote!(const #constant: #ty = #written;));
        *path = syn::parse_quote!(Self::#constant);
    };
    if let Some(path) = &mut p.empty_if {
        typed("empty_if", path, quote!(fn(&#name) -> bool));
    }
    if let Some(path) = &mut p.normalize {
        typed("normalize", path, quote!(fn(&#name) -> #name));
    }
    if let Some(path) = &mut p.bottom {
        typed("bottom", path, quote!(fn() -> #name));
    }
    if let Some(path) = &mut p.top {
        typed("top", path, quote!(fn() -> #name));
    }
    for (what, path) in &mut p.overrides {
        let ty = if what == "leq" {
            quote!(fn(&#name, &#name) -> bool)
        } else {
            quote!(fn(&#name, &#name) -> #name)
        };
        typed(what, path, ty);
    }
    if constants.is_empty() {
        return TokenStream::new();
    }
    quote! {
        #[doc(hidden)]
        impl #name {
            #(#constants)*
        }
    }
}

/// Requires the data of a flat enum's value variants to be comparable and printable, and the
/// payloads of a sum to be (printable) lattices: one assertion per type and the same
/// requirement as deferred bounds (see [`crate::bounds`]).
fn require_flat_values(
    decl: &LatticeDecl,
    display: bool,
) -> (TokenStream, Vec<syn::WherePredicate>) {
    let (variants, (check, bound)) = match (&decl.kind, display) {
        (LatticeKind::Flat(flat), true) => (&flat.values, ("flat_value", "FlatValue")),
        (LatticeKind::Flat(flat), false) => {
            (&flat.values, ("unprinted_flat_value", "UnprintedFlatValue"))
        }
        (LatticeKind::Sum(sum), true) => (&sum.summands, ("summand", "Summand")),
        (LatticeKind::Sum(sum), false) => {
            (&sum.summands, ("unprinted_summand", "UnprintedSummand"))
        }
        _ => return (TokenStream::new(), Vec::new()),
    };
    let mut assertions = TokenStream::new();
    let mut predicates = Vec::new();
    let mut seen = Vec::new();
    for variant in variants {
        for ty in variant.fields.types() {
            let text = type_text(ty);
            if seen.contains(&text) {
                continue;
            }
            seen.push(text);
            assertions.extend(bounds::assertion(ty, check));
            predicates.push(bounds::deferred(ty, bound));
        }
    }
    (assertions, predicates)
}

/// Reads a struct or enum into the model, removing the `#[lattice(…)]` attributes of its fields
/// and variants; records every problem found.
pub fn read(
    options: &LatticeArgs,
    item: &mut syn::Item,
    errors: &mut Errors,
) -> Option<LatticeDecl> {
    match item {
        syn::Item::Struct(s) => {
            forbid_const_generics(&s.generics, errors);
            forbid_derives(&mut s.attrs, errors);
            reject_enum_options(options, errors);
            for (flag, what) in [
                (options.reduce.is_some(), "reduce"),
                (options.direct.is_some(), "direct"),
            ] {
                if flag {
                    errors.at(
                        &s.ident,
                        format!(
                            "`{what}` is an option of `#[lattice(product)]`, a reduced product \
                             declared in a `#[absinthe::domain]` module; remove it, or declare \
                             the struct there"
                        ),
                    );
                }
            }
            let fields = read_fields(&mut s.fields, errors);
            let pointwise = Pointwise {
                fields,
                smash: options.smash.is_present(),
                empty_if: options.empty_if.as_ref().map(|p| (**p).clone()),
                normalize: options.normalize.as_ref().map(|p| (**p).clone()),
                bottom: options.bottom.as_ref().map(|p| (**p).clone()),
                top: options.top.as_ref().map(|p| (**p).clone()),
                overrides: options
                    .written()
                    .into_iter()
                    .map(|(name, path)| (name.to_string(), (**path).clone()))
                    .collect(),
                written_at: Vec::new(),
                generics: s.generics.clone(),
            };
            require_written(options, &s.ident, &s.fields, &pointwise, errors);
            if options.no_top.is_present() && pointwise.top.is_some() {
                errors.at(
                    &s.ident,
                    "`no_top` and `top = …` contradict each other; keep one",
                );
            }
            Some(LatticeDecl {
                origin: Origin::new(s.ident.span(), format!("`#[lattice] struct {}`", s.ident)),
                name: s.ident.clone(),
                kind: LatticeKind::Pointwise(Box::new(pointwise)),
                has_top: !options.no_top.is_present(),
            })
        }
        syn::Item::Enum(e) => {
            forbid_generics(&e.generics, errors);
            forbid_derives(&mut e.attrs, errors);
            reject_struct_options(options, &e.ident, errors);
            read_enum(options, e, errors)
        }
        syn::Item::Union(u) => {
            let (union, ident) = (&u.union_token, &u.ident);
            errors.at(
                quote!(#union #ident),
                "`#[lattice]` applies to a struct (the pointwise product of its fields) or an \
                 enum; a union's fields share their storage, so it cannot hold one value of each: \
                 make it a struct, or an enum with a variant per field",
            );
            None
        }
        other => {
            errors.at(
                other,
                "`#[lattice]` applies to a struct or an enum: put it on the type declaration",
            );
            None
        }
    }
}

/// A struct with plain-value fields (`#[lattice(value)]`) cannot derive what combines them: its
/// `join`, `meet`, `leq`, `bottom` and `top` (unless `no_top`) must be written out, and `widen`
/// too unless every value is a `bool` (other values may have infinite chains). Reports what is
/// missing at the first value field's type, as the `.dom` checker does.
fn require_written(
    options: &LatticeArgs,
    name: &Ident,
    fields: &syn::Fields,
    p: &Pointwise,
    errors: &mut Errors,
) {
    let Some(first) = p.fields.iter().position(|f| f.value) else {
        return;
    };
    let mut needed = vec!["join", "meet", "leq", "bottom"];
    if !options.no_top.is_present() {
        needed.push("top");
    }
    if p.fields
        .iter()
        .any(|f| f.value && type_text(&f.ty) != "bool")
    {
        needed.push("widen");
    }
    let given = |op: &str| match op {
        "bottom" => p.bottom.is_some(),
        "top" => p.top.is_some(),
        _ => p.override_of(op).is_some(),
    };
    let missing: Vec<&str> = needed.into_iter().filter(|op| !given(op)).collect();
    if missing.is_empty() {
        return;
    }
    let list = missing
        .iter()
        .map(|op| format!("`{op}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let prefix = name.to_string().to_lowercase();
    let example = missing
        .iter()
        .map(|op| format!("{op} = {prefix}_{op}"))
        .collect::<Vec<_>>()
        .join(", ");
    let field = fields.iter().nth(first).map_or_else(
        || quote!(#name),
        |f| {
            let ty = &f.ty;
            quote!(#ty)
        },
    );
    let member = match &p.fields[first].member {
        syn::Member::Named(ident) => ident.to_string(),
        syn::Member::Unnamed(index) => index.index.to_string(),
    };
    errors.at(
        field,
        format!(
            "field `{member}` of `{name}` is a plain value (`#[lattice(value)]`), so {list} of \
             `{name}` cannot be derived; write them out on the struct: \
             `#[lattice({example})]` naming functions `fn(&{name}, &{name}) -> {name}` \
             (`leq` returns `bool`; `bottom` and `top` are `fn() -> {name}`)"
        ),
    );
}

fn forbid_generics(generics: &syn::Generics, errors: &mut Errors) {
    if !generics.params.is_empty() {
        errors.at(
            generics,
            "a `#[lattice]` enum does not take generic parameters (a struct does); declare it for \
             concrete types (a type alias can name an instance)",
        );
    }
}

/// A `#[lattice]` struct takes type parameters; lifetimes and const parameters have no use in
/// a lattice's value.
fn forbid_const_generics(generics: &syn::Generics, errors: &mut Errors) {
    for param in &generics.params {
        if !matches!(param, syn::GenericParam::Type(_)) {
            errors.at(
                param,
                "a `#[lattice]` struct takes type parameters only (no lifetimes or const \
                 parameters): remove this one, and give the fields types without it",
            );
        }
    }
}

/// `#[lattice]` writes `PartialEq`, `Eq` and `Debug` itself (equality must agree with the order):
/// each of them in a derive is reported, and dropped so that rustc reports nothing more.
fn forbid_derives(attrs: &mut [syn::Attribute], errors: &mut Errors) {
    let is_ours = |path: &syn::Path| {
        path.segments
            .last()
            .is_some_and(|s| ["PartialEq", "Eq", "Debug"].contains(&s.ident.to_string().as_str()))
    };
    for attr in attrs.iter_mut().filter(|a| a.path().is_ident("derive")) {
        let Ok(paths) = attr.parse_args_with(
            syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
        ) else {
            continue;
        };
        for path in paths.iter().filter(|p| is_ours(p)) {
            let name = quote!(#path).to_string().replace(' ', "");
            errors.at(
                path,
                format!(
                    "`#[lattice]` implements `{name}` itself (equality must agree with the \
                     order, and `Debug` prints ⊥ and ⊤); remove `{name}` from the derive"
                ),
            );
        }
        let kept = paths.iter().filter(|p| !is_ours(p));
        *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
    }
}

fn reject_enum_options(options: &LatticeArgs, errors: &mut Errors) {
    if let Some(span) = flag_span(&options.sum) {
        errors.push(syn::Error::new(
            span,
            "`sum` applies to enums; a struct is a product",
        ));
    }
    if let Some(order) = &options.order {
        errors.push(syn::Error::new(
            order.span(),
            "`order` applies to enums of unit variants; a struct is ordered field by field",
        ));
    }
}

fn reject_struct_options(options: &LatticeArgs, name: &Ident, errors: &mut Errors) {
    if let Some(span) = flag_span(&options.smash) {
        errors.push(syn::Error::new(
            span,
            "`smash` applies to structs (any bottom field makes the struct bottom); an enum's \
             bottom is its bottom variant: remove it",
        ));
    }
    if let Some(path) = &options.normalize {
        errors.push(syn::Error::new(
            path.span(),
            "`normalize = …` applies to structs, whose values may have several representations; \
             an enum's variants are each one value: remove it",
        ));
    }
    for (path, what) in [
        (&options.empty_if, "empty_if"),
        (&options.bottom, "bottom"),
        (&options.top, "top"),
    ] {
        if let Some(path) = path {
            errors.push(syn::Error::new(
                path.span(),
                format!(
                    "`{what} = …` applies to structs; in an enum, mark the variant \
                     `#[lattice({})]`",
                    if what == "top" { "top" } else { "bottom" }
                ),
            ));
        }
    }
    if let Some(span) = flag_span(&options.no_top) {
        errors.push(syn::Error::new(
            span,
            format!("`no_top` applies to structs; the enum lattice `{name}` always has a top"),
        ));
    }
    if options.reduce.is_some() || options.direct.is_some() {
        errors.at(
            name,
            "`reduce` and `direct` are options of `#[lattice(product)]`",
        );
    }
    for (what, path) in options.written() {
        errors.push(syn::Error::new_spanned(
            &**path,
            format!(
                "`{what} = …` writes out an operation of a struct; an enum lattice's operations \
                 follow from its variants"
            ),
        ));
    }
}

/// The fields of a struct, with their `#[lattice(ignore)]` flags read and removed.
pub fn read_fields(fields: &mut syn::Fields, errors: &mut Errors) -> Vec<Field> {
    let mut out = Vec::new();
    for (index, field) in fields.iter_mut().enumerate() {
        let args = take_args::<FieldArgs>(&mut field.attrs, errors);
        if let Some(span) = flag_span(&args.value_domain) {
            errors.push(syn::Error::new(
                span,
                "`value_domain` applies to components of a `#[lattice(product)]`; remove it \
                 from this field",
            ));
        }
        if args.relation.is_some() {
            errors.push(syn::Error::new(
                field.ty.span(),
                "`relation` marks the relational component of a `#[lattice(product)]`; remove \
                 it from this field",
            ));
        }
        let member = match &field.ident {
            Some(ident) => syn::Member::Named(ident.clone()),
            None => syn::Member::Unnamed(syn::Index {
                index: index as u32,
                span: field.ty.span(),
            }),
        };
        if let (Some(_), Some(span)) = (flag_span(&args.ignore), flag_span(&args.value)) {
            errors.push(syn::Error::new(
                span,
                "`value` and `ignore` contradict each other: an ignored field takes no part in \
                 the order, a value field is ordered by the written-out operations; keep one",
            ));
        }
        out.push(Field {
            member,
            ty: field.ty.clone(),
            ignored: args.ignore.is_present(),
            // Both given is reported above; the field is then taken as ignored only.
            value: args.value.is_present() && !args.ignore.is_present(),
        });
    }
    out
}

/// Reads and removes the `#[lattice(…)]` attributes in `attrs`.
pub fn take_args<T: darling::FromMeta + Default + args::Options>(
    attrs: &mut Vec<syn::Attribute>,
    errors: &mut Errors,
) -> T {
    let mut result = T::default();
    let mut kept = Vec::new();
    for attr in attrs.drain(..) {
        if is_attr(&attr, "lattice") {
            match args::from_attr(&attr) {
                Ok(args) => result = args,
                Err(error) => errors.darling::<T>(error),
            }
        } else {
            kept.push(attr);
        }
    }
    *attrs = kept;
    result
}

fn variant_fields(fields: &syn::Fields) -> VariantFields {
    match fields {
        syn::Fields::Unit => VariantFields::Unit,
        syn::Fields::Unnamed(f) => {
            VariantFields::Tuple(f.unnamed.iter().map(|f| f.ty.clone()).collect())
        }
        syn::Fields::Named(f) => VariantFields::Named(
            f.named
                .iter()
                .filter_map(|f| f.ident.clone().map(|i| (i, f.ty.clone())))
                .collect(),
        ),
    }
}

fn read_enum(
    options: &LatticeArgs,
    e: &mut syn::ItemEnum,
    errors: &mut Errors,
) -> Option<LatticeDecl> {
    let mut args = Vec::new();
    let before = errors.len();
    for variant in &mut e.variants {
        args.push(take_args::<VariantArgs>(&mut variant.attrs, errors));
        for field in variant.fields.iter_mut() {
            if let Some(attr) = field.attrs.iter().find(|a| is_attr(a, "lattice")) {
                errors.at(
                    attr,
                    format!(
                        "`#[lattice(…)]` marks a variant (`#[lattice(bottom)]`, \
                         `#[lattice(top)]`, `#[lattice(below(…))]` above `{}`), not the data \
                         it carries; move it to the variant or remove it",
                        variant.ident
                    ),
                );
                field.attrs.retain(|a| !is_attr(a, "lattice"));
            }
        }
    }
    if errors.len() > before {
        // A mark that does not parse is missing from what follows (a bottom, a top, an order):
        // report nothing more.
        return None;
    }
    let name = e.ident.clone();
    if e.variants.is_empty() {
        errors.at(
            &e.ident,
            "an enum lattice needs variants: at least a bottom and a top, such as unit \
             variants `Bottom` and `Top`",
        );
        return None;
    }
    let finite = options.order.is_some() || args.iter().any(|a| !a.below.is_empty());
    if finite && options.sum.is_present() {
        errors.at(
            &e.ident,
            "`sum` and an order between variants contradict each other: a sum orders \
             its variants by their payloads, a finite lattice by the order you give",
        );
        return None;
    }
    let origin = Origin::new(e.ident.span(), format!("`#[lattice] enum {name}`"));
    if finite {
        return read_finite(options, e, &args, errors).map(|finite| LatticeDecl {
            name,
            origin,
            kind: LatticeKind::Finite(finite),
            has_top: true,
        });
    }
    // Flat and sum lattices: a bottom and a top variant around the values.
    let mut bottom: Option<Ident> = None;
    let mut top: Option<Ident> = None;
    let mut values = Vec::new();
    for (variant, a) in e.variants.iter().zip(&args) {
        let is_bottom = a.bottom.is_present()
            || (variant.ident == "Bottom" && !args.iter().any(|x| x.bottom.is_present()));
        let is_top = a.top.is_present()
            || (variant.ident == "Top" && !args.iter().any(|x| x.top.is_present()));
        if is_bottom || is_top {
            let role = if is_bottom { "bottom" } else { "top" };
            if is_bottom && is_top {
                errors.at(
                    &variant.ident,
                    "a variant cannot be both the bottom and the top: mark it \
                     `#[lattice(bottom)]` or `#[lattice(top)]`, and add a unit variant for the \
                     other",
                );
                // The missing bottom or top follows from this error: report nothing more.
                return None;
            }
            if !matches!(variant.fields, syn::Fields::Unit) {
                errors.at(
                    &variant.fields,
                    format!("the {role} variant carries no data: make it a unit variant"),
                );
            }
            let slot = if is_bottom { &mut bottom } else { &mut top };
            if let Some(previous) = slot {
                errors.at(
                    &variant.ident,
                    format!(
                        "a second {role} variant: `{previous}` is already the {role}; keep one"
                    ),
                );
            } else {
                *slot = Some(variant.ident.clone());
            }
            continue;
        }
        let fields = variant_fields(&variant.fields);
        if options.sum.is_present() && fields.types().len() > 1 {
            errors.at(
                &variant.fields,
                "a summand carries one lattice; wrap several in a `#[lattice]` struct",
            );
        }
        values.push(Variant {
            name: variant.ident.clone(),
            fields,
        });
    }
    let what = if options.sum.is_present() {
        "a sum lattice"
    } else {
        "a flat lattice"
    };
    let Some(bottom) = bottom else {
        errors.at(
            &e.ident,
            format!("{what} needs a bottom variant: add a unit variant `Bottom` or mark one `#[lattice(bottom)]`"),
        );
        return None;
    };
    let Some(top) = top else {
        errors.at(
            &e.ident,
            format!(
                "{what} needs a top variant: add a unit variant `Top` or mark one `#[lattice(top)]`"
            ),
        );
        return None;
    };
    let kind = if options.sum.is_present() {
        LatticeKind::Sum(Sum {
            bottom,
            top,
            summands: values,
        })
    } else {
        LatticeKind::Flat(Flat {
            bottom,
            top,
            values,
        })
    };
    Some(LatticeDecl {
        name,
        origin,
        kind,
        has_top: true,
    })
}

fn read_finite(
    options: &LatticeArgs,
    e: &syn::ItemEnum,
    args: &[VariantArgs],
    errors: &mut Errors,
) -> Option<Finite> {
    let variants: Vec<Ident> = e.variants.iter().map(|v| v.ident.clone()).collect();
    let mut ok = true;
    for variant in &e.variants {
        if !matches!(variant.fields, syn::Fields::Unit) {
            errors.at(
                &variant.fields,
                "the variants of a finite lattice carry no data; use `#[lattice(sum)]` for \
                 variants that carry lattices",
            );
            ok = false;
        }
    }
    if variants.len() > 255 {
        errors.at(&e.ident, "a finite lattice has at most 255 variants");
        return None;
    }
    for (a, variant) in args.iter().zip(&e.variants) {
        for flag in [&a.bottom, &a.top] {
            if let Some(span) = flag_span(flag) {
                errors.push(syn::Error::new(
                    span,
                    format!(
                        "in a finite lattice the order decides the bottom and the top; drop this \
                         mark on `{}`",
                        variant.ident
                    ),
                ));
                ok = false;
            }
        }
    }
    let index = |ident: &Ident| variants.iter().position(|v| v == ident);
    let mut pairs = Vec::new();
    for (i, a) in args.iter().enumerate() {
        for path in a.below.iter() {
            match path.get_ident().and_then(index) {
                Some(j) => pairs.push((i, j)),
                None => {
                    errors.at(
                        path,
                        format!(
                            "`{}` has no variant `{}`; variants: {}",
                            e.ident,
                            quote!(#path),
                            variants
                                .iter()
                                .map(|v| format!("`{v}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                    ok = false;
                }
            }
        }
    }
    if let Some(order) = &options.order {
        match parse_order(order.as_str(), &variants) {
            Ok(more) => pairs.extend(more),
            Err(message) => {
                errors.push(syn::Error::new(order.span(), message));
                ok = false;
            }
        }
    }
    if !ok {
        return None;
    }
    match FiniteOrder::from_pairs(variants.len(), &pairs) {
        Ok(order) => Some(Finite { variants, order }),
        Err(error) => {
            let span = options.order.as_ref().map_or(e.ident.span(), |o| o.span());
            errors.push(syn::Error::new(span, order_message(&error, &variants)));
            None
        }
    }
}

/// Parses `"A < B < C, A < D"` into pairs of variant indices.
fn parse_order(text: &str, variants: &[Ident]) -> Result<Vec<(usize, usize)>, String> {
    let mut pairs = Vec::new();
    for chain in text.split(',') {
        let names: Vec<&str> = chain.split('<').map(str::trim).collect();
        if names.len() < 2 {
            return Err(format!(
                "expected a chain such as `A < B` in the order, found `{}`",
                chain.trim()
            ));
        }
        let mut previous: Option<usize> = None;
        for name in names {
            if name.is_empty() {
                return Err(format!("expected a variant name in `{}`", chain.trim()));
            }
            let Some(i) = variants.iter().position(|v| v == name) else {
                let known: Vec<String> = variants.iter().map(|v| format!("`{v}`")).collect();
                return Err(format!(
                    "the order names `{name}`, which is not a variant; variants: {}",
                    known.join(", ")
                ));
            };
            if let Some(p) = previous {
                pairs.push((p, i));
            }
            previous = Some(i);
        }
    }
    Ok(pairs)
}

fn order_message(error: &OrderError, variants: &[Ident]) -> String {
    let names = |xs: &[usize]| {
        xs.iter()
            .map(|&i| format!("`{}`", variants[i]))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match error {
        OrderError::Empty => "a finite lattice needs variants".to_string(),
        OrderError::Cycle(xs) => format!(
            "the order has a cycle through {}: each element is below itself; remove the `<` \
             that closes the cycle",
            names(xs)
        ),
        OrderError::NoBottom(xs) => format!(
            "the order is not a lattice: {} are all minimal, so there is no bottom; add a \
             variant below them",
            names(xs)
        ),
        OrderError::NoTop(xs) => format!(
            "the order is not a lattice: {} are all maximal, so there is no top; add a variant \
             above them",
            names(xs)
        ),
        OrderError::NoJoin(a, b, xs) => format!(
            "the order is not a lattice: `{}` and `{}` have no least upper bound ({} are all \
             minimal upper bounds)",
            variants[*a],
            variants[*b],
            names(xs)
        ),
        OrderError::NoMeet(a, b, xs) => format!(
            "the order is not a lattice: `{}` and `{}` have no greatest lower bound ({} are all \
             maximal lower bounds)",
            variants[*a],
            variants[*b],
            names(xs)
        ),
    }
}
