//! `#[absinthe::domain]`: an inline module of reduced products, `#[meet_ext]` reductions and
//! `#[transfer]` rules → the shared model → checks → the shared generator.
//!
//! A proc-macro sees one item at a time; a reduced product needs its reductions and rules at once
//! to check them (a reduction between domains that are not components, a rule with the wrong
//! arity, two rules for one operation) and to order them deterministically. The module is that
//! unit, the same unit as a `.dom` file.
//!
//! What a `#[transfer(…)]` rule is for, and the signature it must have (`P` the product, `C` the
//! component it computes, named by the return type or by `component = field`):
//!
//! - `op = "+"`: one operation, `fn(&P, &P) -> C`; `binary`: every operation without a rule of
//!   its own, `fn(Op, &P, &P) -> C`. Either may take two more parameters of type `ArgKind` (any
//!   path ending in `ArgKind`, such as `absinthe::terms::ArgKind`), what the operands' kernel
//!   terms are (a parameter, a constant, another term): `fn(&P, &P, ArgKind, ArgKind) -> C`. The
//!   rule then gets the operands' kinds on kernel terms and `ArgKind::Other` everywhere else
//!   (`Rule::with_kinds`).
//! - `literal`: `fn(i64) -> C`.
//! - `assume = "<"`: `fn(&P, &P) -> (C, C)`; `assume`: `fn(Op, &P, &P) -> (C, C)`.
//! - The hooks of the behavior graph, on kernel terms only (`ValueDomain::term_*`): `cond`, the
//!   value of `(cond p a b)`, `fn(&P, &P, &P) -> C`; `param`, a parameter's value from the join
//!   of what it is bound to, `fn(ParamId, &P) -> C`; `apply`, an application with an unknown
//!   operator, from the operator's value and the result of what it may call,
//!   `fn(&P, &P) -> C`; `function`, the value of an abstraction or a primitive as a term,
//!   `fn() -> C`.
//!
//! A parameter of the wrong shape or a wrong count is one error at the offending token, saying
//! the expected signature.

use crate::args::{self, LatticeArgs, TransferArgs};
use crate::bounds;
use crate::errors::{Errors, flag_span, is_attr, product_stub};
use crate::lattice::take_args;
use absinthe_domc::codegen;
use absinthe_domc::model::{
    Component, Origin, Policy, ProductDecl, Reduction, Rule, RuleKind, type_text,
};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use syn::spanned::Spanned;

/// Expands `#[absinthe::domain] mod m { … }`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    if !args.is_empty() {
        errors.at(
            &args,
            "`#[absinthe::domain]` takes no options; a product's options go on its struct: \
             `#[lattice(product, reduce = \"once\")]`",
        );
    }
    let mut module: syn::ItemMod = match syn::parse2(item.clone()) {
        Ok(module) => module,
        Err(error) => {
            let error = syn::Error::new(
                error.span(),
                "`#[absinthe::domain]` applies to an inline module that holds the product, its \
                 reductions and its rules: `mod name { … }`",
            )
            .to_compile_error();
            return quote!(#item #error);
        }
    };
    let Some((_, items)) = module.content.as_mut() else {
        errors.at(
            &module,
            "`#[absinthe::domain]` needs the module's items: write `mod name { … }` here, not \
             `mod name;`",
        );
        let errors = errors.to_compile_errors();
        return quote!(#module #errors);
    };

    let mut products: Vec<(ProductDecl, Option<Ident>)> = Vec::new();
    let mut pending_reductions = Vec::new();
    let mut pending_rules = Vec::new();
    for item in items.iter_mut() {
        match item {
            syn::Item::Struct(s) => {
                if let Some(product) = read_product(s, &mut errors) {
                    products.push(product);
                }
            }
            syn::Item::Fn(f) => {
                if let Some(attr) = take_attr(&mut f.attrs, "meet_ext") {
                    if !matches!(attr.meta, syn::Meta::Path(_)) {
                        errors.at(
                            &attr,
                            "`#[meet_ext]` takes no options: the parameter types say which \
                             component it refines with which; write `#[meet_ext]`",
                        );
                    }
                    pending_reductions.push(f.sig.clone());
                }
                if let Some(attr) = take_attr(&mut f.attrs, "transfer") {
                    match args::from_attr::<TransferArgs>(&attr) {
                        Ok(args) => pending_rules.push((args, f.sig.clone(), attr)),
                        Err(error) => errors.darling::<TransferArgs>(error),
                    }
                }
            }
            _ => {}
        }
    }
    if products.is_empty() && (!pending_reductions.is_empty() || !pending_rules.is_empty()) {
        errors.at(
            &module.ident,
            "this module declares reductions or rules but no `#[lattice(product)]` struct for \
             them to belong to: add one whose fields are the components, such as \
             `#[lattice(product)] pub struct Value { pub interval: Interval }`",
        );
    }
    if !products.is_empty() {
        for sig in &pending_reductions {
            attach_reduction(sig, &mut products, &mut errors);
        }
        for (args, sig, attr) in &pending_rules {
            attach_rule(args, sig, attr, &mut products, &mut errors);
        }
    }

    check_direct_names(&products, items, &mut errors);

    let generated: Vec<TokenStream> = if errors.is_empty() {
        products
            .iter()
            .map(|(decl, direct)| {
                let (assertions, predicates) = require_components(decl);
                let mut names = vec![&decl.name];
                names.extend(direct.as_ref());
                let generated = bounds::restrict_impls(
                    codegen::product(decl, direct.as_ref()),
                    &names,
                    &predicates,
                );
                quote!(#assertions #generated)
            })
            .collect()
    } else {
        products
            .iter()
            .map(|(decl, _)| {
                // The struct's own parameters, so that the stub names the type as declared
                // (a product with parameters is itself an error, reported above).
                let generics = items
                    .iter()
                    .find_map(|item| match item {
                        syn::Item::Struct(s) if s.ident == decl.name => Some(s.generics.clone()),
                        _ => None,
                    })
                    .unwrap_or_default();
                product_stub(&decl.name, &generics)
            })
            .collect()
    };
    let errors = errors.to_compile_errors();
    if let Some((_, items)) = module.content.as_mut() {
        let extra: syn::File =
            syn::parse2(quote!(#(#generated)* #errors)).unwrap_or_else(|_| syn::File {
                shebang: None,
                attrs: Vec::new(),
                items: Vec::new(),
            });
        items.extend(extra.items);
    }
    quote!(#module)
}

/// Requires every component to be a lattice with a top that implements `Concrete` (a
/// `ValueDomain` with `value_domain`): one assertion per component type, and the same
/// requirement as deferred bounds for the generated impls (see [`crate::bounds`]), so that a
/// component of the wrong type is one error at its type.
fn require_components(decl: &ProductDecl) -> (TokenStream, Vec<syn::WherePredicate>) {
    let mut assertions = TokenStream::new();
    let mut predicates = Vec::new();
    let mut seen: Vec<(String, bool)> = Vec::new();
    for component in &decl.components {
        let key = (type_text(&component.ty), component.value_domain);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let (check, bound) = if component.value_domain {
            ("value_domain_component", "ValueDomainComponent")
        } else {
            ("component", "Component")
        };
        assertions.extend(bounds::assertion(&component.ty, check));
        predicates.push(bounds::deferred(&component.ty, bound));
    }
    (assertions, predicates)
}

/// `direct = Name` names a type the macro generates: it must not be a product's name or an item
/// of the module.
fn check_direct_names(
    products: &[(ProductDecl, Option<Ident>)],
    items: &[syn::Item],
    errors: &mut Errors,
) {
    let declared: Vec<&Ident> = items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) => Some(&s.ident),
            syn::Item::Enum(e) => Some(&e.ident),
            syn::Item::Union(u) => Some(&u.ident),
            syn::Item::Type(t) => Some(&t.ident),
            syn::Item::Trait(t) => Some(&t.ident),
            syn::Item::Fn(f) => Some(&f.sig.ident),
            syn::Item::Const(c) => Some(&c.ident),
            syn::Item::Static(s) => Some(&s.ident),
            syn::Item::Mod(m) => Some(&m.ident),
            _ => None,
        })
        .collect();
    let mut directs: Vec<&Ident> = Vec::new();
    for (decl, direct) in products {
        let Some(direct) = direct else { continue };
        let message = if *direct == decl.name {
            format!(
                "`direct = {direct}` names the product itself; the direct product is a second \
                 type: give it a name of its own, such as `direct = Direct{direct}`"
            )
        } else if declared.contains(&direct) || directs.contains(&direct) {
            format!(
                "`direct = {direct}` names the direct product this attribute generates, but the \
                 module already declares `{direct}`; choose a name no item of the module has"
            )
        } else {
            directs.push(direct);
            continue;
        };
        errors.at(direct, message);
    }
}

/// Removes the first attribute called `name` from `attrs` and returns it.
fn take_attr(attrs: &mut Vec<syn::Attribute>, name: &str) -> Option<syn::Attribute> {
    let index = attrs.iter().position(|a| is_attr(a, name))?;
    Some(attrs.remove(index))
}

/// A struct marked `#[lattice(product …)]` as a product; other structs are left alone.
fn read_product(
    s: &mut syn::ItemStruct,
    errors: &mut Errors,
) -> Option<(ProductDecl, Option<Ident>)> {
    let index = s.attrs.iter().position(|a| is_attr(a, "lattice"))?;
    let options: LatticeArgs = match args::from_attr(&s.attrs[index]) {
        Ok(options) => options,
        Err(error) => {
            // Leave the attribute for `#[lattice]` to report on its own.
            let _ = error;
            return None;
        }
    };
    if !options.product.is_present() {
        return None;
    }
    s.attrs.remove(index);
    if !s.generics.params.is_empty() {
        errors.at(
            &s.generics,
            "a product does not take generic parameters: its rules and reductions are written \
             for its component types; declare it for concrete types (a `#[lattice]` struct may \
             be generic, and can be a component once instantiated)",
        );
    }
    for (given, what) in [
        (flag_span(&options.smash), "smash"),
        (flag_span(&options.sum), "sum"),
        (flag_span(&options.no_top), "no_top"),
        (options.order.as_ref().map(|o| o.span()), "order"),
        (options.empty_if.as_ref().map(|o| o.span()), "empty_if"),
        (options.normalize.as_ref().map(|o| o.span()), "normalize"),
        (options.bottom.as_ref().map(|o| o.span()), "bottom"),
        (options.top.as_ref().map(|o| o.span()), "top"),
        (flag_span(&options.no_display), "no_display"),
        (options.join.as_ref().map(|o| o.span()), "join"),
        (options.meet.as_ref().map(|o| o.span()), "meet"),
        (options.leq.as_ref().map(|o| o.span()), "leq"),
        (options.widen.as_ref().map(|o| o.span()), "widen"),
        (options.narrow.as_ref().map(|o| o.span()), "narrow"),
    ] {
        if let Some(span) = given {
            errors.push(syn::Error::new(
                span,
                format!(
                    "`{what}` does not apply to a product: a product is smashed (any bottom \
                     component makes it bottom), has a top, and prints its components"
                ),
            ));
        }
    }
    let policy = match &options.reduce {
        None => Policy::Fixpoint(absinthe_policy_default()),
        Some(text) => match parse_policy(text.as_str()) {
            Some(policy) => policy,
            None if text.as_str().replace(' ', "") == "fixpoint(0)" => {
                errors.push(syn::Error::new(
                    text.span(),
                    "`fixpoint(0)` would never reduce: the bound counts rounds of reductions and \
                     must be at least 1; write `reduce = \"never\"` to declare no reduction",
                ));
                Policy::Never
            }
            None => {
                errors.push(syn::Error::new(
                    text.span(),
                    format!(
                        "unknown reduction policy `{}`; expected `never`, `once`, `fixpoint` or \
                         `fixpoint(K)` with K ≥ 1",
                        text.as_str()
                    ),
                ));
                Policy::Never
            }
        },
    };
    let mut components = Vec::new();
    for (index, field) in s.fields.iter_mut().enumerate() {
        let args: args::FieldArgs = take_args(&mut field.attrs, errors);
        if let Some(span) = flag_span(&args.value) {
            errors.push(syn::Error::new(
                span,
                "a component of a product is a lattice; `value` marks a plain-value field of a \
                 `#[lattice]` struct",
            ));
        }
        if let Some(span) = flag_span(&args.ignore) {
            errors.push(syn::Error::new(
                span,
                "every component of a product takes part in the order; `ignore` applies to \
                 `#[lattice]` structs",
            ));
        }
        let member = match &field.ident {
            Some(ident) => syn::Member::Named(ident.clone()),
            None => syn::Member::Unnamed(syn::Index {
                index: index as u32,
                span: field.ty.span(),
            }),
        };
        if let Some(relation) = &args.relation {
            let another = components.iter().any(|c: &Component| c.relation.is_some());
            relation
                .check(field.ty.span(), another)
                .into_iter()
                .for_each(|e| errors.push(e));
        }
        components.push(Component {
            member,
            ty: field.ty.clone(),
            // A relational component computes with its own operations (an interval's) where
            // the relation is not consulted.
            value_domain: args.value_domain.is_present() || args.relation.is_some(),
            relation: args.relation.as_ref().map(|r| *r.packs),
            join_origin: None,
        });
    }
    if components.is_empty() {
        errors.at(
            &s.ident,
            "a product needs at least one component: declare each as a field whose type is a \
             lattice, for example `pub interval: Interval`",
        );
    }
    let decl = ProductDecl {
        name: s.ident.clone(),
        origin: Origin::new(
            s.ident.span(),
            format!("`#[lattice(product)] struct {}`", s.ident),
        ),
        components,
        policy,
        reductions: Vec::new(),
        rules: Vec::new(),
    };
    Some((decl, options.direct.clone()))
}

/// The bound of `fixpoint` without a number.
fn absinthe_policy_default() -> u32 {
    8
}

fn parse_policy(text: &str) -> Option<Policy> {
    let text = text.trim();
    match text {
        "never" => return Some(Policy::Never),
        "once" => return Some(Policy::Once),
        "fixpoint" => return Some(Policy::Fixpoint(absinthe_policy_default())),
        _ => {}
    }
    let k = text.strip_prefix("fixpoint(")?.strip_suffix(')')?.trim();
    k.parse::<u32>()
        .ok()
        .filter(|&k| k >= 1)
        .map(Policy::Fixpoint)
}

/// The type behind `&T` (or `&mut T` when `mutable`), if the parameter has that shape.
fn referenced(arg: &syn::FnArg, mutable: bool) -> Option<&syn::Type> {
    let syn::FnArg::Typed(pat) = arg else {
        return None;
    };
    match &*pat.ty {
        syn::Type::Reference(r) if r.mutability.is_some() == mutable => Some(&r.elem),
        _ => None,
    }
}

/// The components of `product` whose type reads as `ty`.
fn components_of(product: &ProductDecl, ty: &syn::Type) -> Vec<usize> {
    let text = type_text(ty);
    product
        .components
        .iter()
        .enumerate()
        .filter(|(_, c)| type_text(&c.ty) == text)
        .map(|(i, _)| i)
        .collect()
}

fn return_type(sig: &syn::Signature) -> Option<&syn::Type> {
    match &sig.output {
        syn::ReturnType::Type(_, ty) => Some(ty),
        syn::ReturnType::Default => None,
    }
}

fn origin(sig: &syn::Signature, what: &str) -> Origin {
    Origin::rust(sig.ident.span(), format!("`{what} fn {}`", sig.ident))
}

fn attach_reduction(
    sig: &syn::Signature,
    products: &mut [(ProductDecl, Option<Ident>)],
    errors: &mut Errors,
) {
    let shape = "a reduction is `fn(target: &T, source: &S) -> T`, or `fn(target: &mut T, source: &S)` \
                 to refine in place";
    let inputs: Vec<&syn::FnArg> = sig.inputs.iter().collect();
    let [first, second] = inputs.as_slice() else {
        let taken = match inputs.len() {
            0 => "none".to_string(),
            1 => "one".to_string(),
            n => format!("{n}"),
        };
        if inputs.is_empty() {
            errors.at(&sig.ident, format!("{shape}; this one takes no parameter"));
        } else {
            errors.at(&sig.inputs, format!("{shape}; this one takes {taken}"));
        }
        return;
    };
    let (target, in_place) = match (referenced(first, false), referenced(first, true)) {
        (Some(t), _) => (t, false),
        (None, Some(t)) => (t, true),
        (None, None) => {
            errors.at(first, shape);
            return;
        }
    };
    let Some(source) = referenced(second, false) else {
        errors.at(second, shape);
        return;
    };
    // A type that is no product's component is the mistake, whatever else is: say so at the
    // type, with the component type it most likely means.
    let component_types: Vec<String> = products
        .iter()
        .flat_map(|(p, _)| p.components.iter().map(|c| type_text(&c.ty)))
        .collect();
    for (ty, role) in [(target, "target"), (source, "source")] {
        let text = type_text(ty);
        if !products.is_empty() && !component_types.contains(&text) {
            let hint = absinthe_domc::diagnostic::did_you_mean(
                &text,
                component_types.iter().map(String::as_str),
            )
            .unwrap_or_else(|| {
                let mut all = component_types.clone();
                all.sort();
                all.dedup();
                format!("the component types are `{}`", all.join("`, `"))
            });
            errors.at(
                ty,
                format!(
                    "the reduction's {role} `{text}` is not the type of a component of this \
                     module's products; {hint}"
                ),
            );
            return;
        }
    }
    match (in_place, return_type(sig)) {
        (false, Some(ret)) if type_text(ret) == type_text(target) => {}
        (false, Some(ret)) => {
            errors.at(
                ret,
                format!(
                    "a reduction returns its refined target: expected `{}`, found `{}`",
                    type_text(target),
                    type_text(ret)
                ),
            );
            return;
        }
        (false, None) => {
            errors.at(sig, format!("{shape}; this one returns nothing"));
            return;
        }
        (true, Some(ret)) => {
            errors.at(
                ret,
                "a reduction in place (`&mut` target) returns nothing: remove the return type, \
                 or take the target as `&T` and return the refined value",
            );
            return;
        }
        (true, None) => {}
    }
    if type_text(target) == type_text(source) {
        errors.at(
            second,
            format!(
                "a reduction refines a component with another component's value, but target and \
                 source are both `{}`; meet the two values in a transfer rule, or take the \
                 source from a component of another type",
                type_text(target)
            ),
        );
        return;
    }
    let mut attached = false;
    for (product, _) in products.iter_mut() {
        let targets = components_of(product, target);
        let sources = components_of(product, source);
        if targets.is_empty() || sources.is_empty() {
            continue;
        }
        for &t in &targets {
            for &s in &sources {
                if t == s {
                    continue;
                }
                product.reductions.push(Reduction {
                    target: t,
                    source: s,
                    function: sig.ident.clone().into(),
                    in_place,
                    origin: origin(sig, "#[meet_ext]"),
                    site: None,
                });
                attached = true;
            }
        }
    }
    if !attached {
        let listing: Vec<String> = products
            .iter()
            .map(|(p, _)| {
                let components: Vec<String> =
                    p.components.iter().map(|c| type_text(&c.ty)).collect();
                format!("`{}` has {}", p.name, components.join(", "))
            })
            .collect();
        errors.at(
            &sig.ident,
            format!(
                "`{}` refines `{}` with `{}`, but no product of this module has both as \
                 components ({})",
                sig.ident,
                type_text(target),
                type_text(source),
                listing.join("; ")
            ),
        );
    }
}

fn attach_rule(
    args: &TransferArgs,
    sig: &syn::Signature,
    attr: &syn::Attribute,
    products: &mut [(ProductDecl, Option<Ident>)],
    errors: &mut Errors,
) {
    // What the rule is for.
    let Some(kinds) = crate::rule_kind::transfer_kinds(args, errors) else {
        return;
    };
    let kind = match kinds.as_slice() {
        [(kind, _)] => kind.clone(),
        [] => {
            errors.at(
                attr,
                "say what the rule is for: `#[transfer(op = \"+\")]`, `#[transfer(binary)]`, \
                 `#[transfer(literal)]`, `#[transfer(assume = \"<\")]`, `#[transfer(assume)]`, \
                 on kernel terms `#[transfer(cond)]`, `#[transfer(param)]`, \
                 `#[transfer(apply)]` or `#[transfer(function)]`, or for a backward analysis \
                 `#[transfer(backward = \"+\")]`, `#[transfer(backward)]`, \
                 `#[transfer(backward_copy)]` or `#[transfer(observe)]`",
            );
            return;
        }
        [(_, a), (_, b), ..] => {
            errors.at(
                attr,
                format!(
                    "a rule is for one thing: `{a}` and `{b}` conflict; write one function for \
                     each"
                ),
            );
            return;
        }
    };

    // The product: named, or the only one, or the one the parameters mention.
    let inputs: Vec<&syn::FnArg> = sig.inputs.iter().collect();
    let product_index = match &args.product {
        Some(name) => match products.iter().position(|(p, _)| p.name == *name) {
            Some(i) => i,
            None => {
                let declared: Vec<String> = products
                    .iter()
                    .map(|(p, _)| format!("`{}`", p.name))
                    .collect();
                errors.at(
                    name,
                    format!(
                        "this module declares no product `{name}`; its products: {}",
                        declared.join(", ")
                    ),
                );
                return;
            }
        },
        None => {
            let mentioned = inputs.iter().find_map(|arg| {
                let ty = referenced(arg, false)?;
                let text = type_text(ty);
                products.iter().position(|(p, _)| p.name == text)
            });
            match (mentioned, products.len()) {
                (Some(i), _) => i,
                (None, 1) => 0,
                (None, _) => {
                    errors.at(
                        &sig.ident,
                        "this module declares several products: say which one the rule belongs \
                         to with `product = Name`",
                    );
                    return;
                }
            }
        }
    };
    let product = &mut products[product_index].0;
    let p = product.name.to_string();

    // The expected signature.
    use Expect::{Int, Kind, Operation, ParamId, Product};
    let (mut params, mut expected): (Vec<Expect>, String) = match &kind {
        RuleKind::Literal | RuleKind::Address => (vec![Int], "fn(i64) -> C".to_string()),
        RuleKind::Binary(_) => (vec![Product, Product], format!("fn(&{p}, &{p}) -> C")),
        RuleKind::AnyBinary => (
            vec![Operation, Product, Product],
            format!("fn(Op, &{p}, &{p}) -> C"),
        ),
        RuleKind::Assume(_) => (vec![Product, Product], format!("fn(&{p}, &{p}) -> (C, C)")),
        RuleKind::AnyAssume => (
            vec![Operation, Product, Product],
            format!("fn(Op, &{p}, &{p}) -> (C, C)"),
        ),
        RuleKind::Cond => (
            vec![Product, Product, Product],
            format!("fn(&{p}, &{p}, &{p}) -> C"),
        ),
        RuleKind::Param => (vec![ParamId, Product], format!("fn(ParamId, &{p}) -> C")),
        RuleKind::Apply => (vec![Product, Product], format!("fn(&{p}, &{p}) -> C")),
        RuleKind::Function | RuleKind::Observe => (Vec::new(), "fn() -> C".to_string()),
        RuleKind::Demand(_) | RuleKind::DemandCopy => (vec![Product], format!("fn(&{p}) -> C")),
        RuleKind::AnyDemand => (vec![Operation, Product], format!("fn(Op, &{p}) -> C")),
    };
    // An operation rule may also read what its operands' kernel terms are: two `ArgKind`s after
    // the operands.
    let with_kinds_expected = match &kind {
        RuleKind::Binary(_) => Some(format!("fn(&{p}, &{p}, ArgKind, ArgKind) -> C")),
        RuleKind::AnyBinary => Some(format!("fn(Op, &{p}, &{p}, ArgKind, ArgKind) -> C")),
        _ => None,
    };
    let with_kinds = match &with_kinds_expected {
        Some(kinds_expected) if inputs.len() == params.len() + 2 => {
            params.extend([Kind, Kind]);
            expected = kinds_expected.clone();
            true
        }
        _ => false,
    };
    if inputs.len() != params.len() {
        let taken = format!(
            "this rule takes {} parameter{}",
            inputs.len(),
            if inputs.len() == 1 { "" } else { "s" },
        );
        let message = match &with_kinds_expected {
            // More than the operands: perhaps an attempt at reading their kinds.
            Some(kinds_expected) if inputs.len() > params.len() => format!(
                "{taken}, expected {}, or {} with the operands' kinds: `{expected}` or \
                 `{kinds_expected}` where C is a component of `{p}`",
                params.len(),
                params.len() + 2
            ),
            _ => format!(
                "{taken}, expected {}: `{expected}` where C is a component of `{p}`",
                params.len()
            ),
        };
        errors.at(
            if inputs.is_empty() {
                let ident = &sig.ident;
                quote!(#ident)
            } else {
                quote!(#(#inputs),*)
            },
            message,
        );
        return;
    }
    for (arg, want) in inputs.iter().zip(&params) {
        if let Some(message) = want.check(arg, &p, &expected) {
            errors.at(arg, message);
            return;
        }
    }

    // The component: named, or the one the return type names.
    let Some(ret) = return_type(sig) else {
        errors.at(
            sig,
            format!("this rule returns nothing; expected `{expected}`"),
        );
        return;
    };
    let component_ty = match (&kind, ret) {
        (RuleKind::Assume(_) | RuleKind::AnyAssume, syn::Type::Tuple(t)) if t.elems.len() == 2 => {
            let (a, b) = (&t.elems[0], &t.elems[1]);
            if type_text(a) != type_text(b) {
                errors.at(
                    ret,
                    "a branch rule refines both operands in one component: `(C, C)`",
                );
                return;
            }
            a.clone()
        }
        (RuleKind::Assume(_) | RuleKind::AnyAssume, _) => {
            errors.at(
                ret,
                format!("a branch rule returns the refined operands: `{expected}`"),
            );
            return;
        }
        _ => ret.clone(),
    };
    let component = match &args.component {
        Some(name) => match product.components.iter().position(|c| match &c.member {
            syn::Member::Named(ident) => ident == name,
            syn::Member::Unnamed(_) => false,
        }) {
            Some(i) if type_text(&product.components[i].ty) == type_text(&component_ty) => i,
            Some(i) => {
                errors.at(
                    ret,
                    format!(
                        "component `{name}` of `{p}` is a `{}`, but the rule returns `{}`; \
                         return the component's type, or name a component of the type returned",
                        type_text(&product.components[i].ty),
                        type_text(&component_ty)
                    ),
                );
                return;
            }
            None => {
                let fields: Vec<String> = product
                    .components
                    .iter()
                    .map(|c| match &c.member {
                        syn::Member::Named(ident) => format!("`{ident}`"),
                        syn::Member::Unnamed(index) => format!("`{}`", index.index),
                    })
                    .collect();
                errors.at(
                    name,
                    format!(
                        "`{p}` has no component `{name}`; its components: {}",
                        fields.join(", ")
                    ),
                );
                return;
            }
        },
        None => match components_of(product, &component_ty).as_slice() {
            [i] => *i,
            [] => {
                let listing: Vec<String> = product
                    .components
                    .iter()
                    .map(|c| type_text(&c.ty))
                    .collect();
                errors.at(
                    ret,
                    format!(
                        "`{}` is not a component of `{p}` (components: {})",
                        type_text(&component_ty),
                        listing.join(", ")
                    ),
                );
                return;
            }
            _ => {
                errors.at(
                    ret,
                    format!(
                        "`{p}` has several components of type `{}`: name one with \
                         `component = field`",
                        type_text(&component_ty)
                    ),
                );
                return;
            }
        },
    };
    if let Some(previous) = product
        .rules
        .iter()
        .find(|r| r.component == component && r.kind == kind)
    {
        errors.at(
            &sig.ident,
            format!(
                "a second rule for the same operation and component: `{}` already defines it; \
                 remove one, or say with `component = …` that this one computes another \
                 component",
                quote_path(&previous.function)
            ),
        );
        return;
    }
    product.rules.push(Rule {
        component,
        kind,
        function: sig.ident.clone().into(),
        with_kinds,
        origin: origin(sig, "#[transfer]"),
        site: None,
    });
}

/// What a parameter of a rule must be.
#[derive(Clone, Copy)]
enum Expect {
    /// `&P`, the whole product.
    Product,
    /// `i64` by value: a literal.
    Int,
    /// `Op` by value (any path ending in `Op`): the operation or comparison.
    Operation,
    /// `ArgKind` by value (any path ending in `ArgKind`).
    Kind,
    /// `ParamId` by value (any path ending in `ParamId`).
    ParamId,
}

impl Expect {
    /// What is wrong with `arg`, a parameter of a rule of product `p` whose signature should be
    /// `expected`, if anything.
    fn check(self, arg: &syn::FnArg, p: &str, expected: &str) -> Option<String> {
        match self {
            Expect::Product if referenced(arg, false).is_none_or(|ty| type_text(ty) != p) => {
                Some(format!(
                    "expected `&{p}`: a rule sees its arguments as the whole product, so it can \
                     read every component (`{expected}`)"
                ))
            }
            Expect::Int if typed(arg).is_none_or(|ty| !names_type(ty, "i64")) => Some(format!(
                "expected `i64` (by value): a literal rule abstracts the literal's value \
                 (`{expected}`)"
            )),
            Expect::Operation if typed(arg).is_none_or(|ty| !names_type(ty, "Op")) => {
                Some(format!(
                    "expected `Op` (by value, `absinthe::program::Op`): a rule for every \
                     operation without one of its own reads which operation it is (`{expected}`)"
                ))
            }
            Expect::Kind if typed(arg).is_none_or(|ty| !names_type(ty, "ArgKind")) => {
                Some(format!(
                    "expected `ArgKind` (by value): after its operands, an operation rule may \
                     read what their terms are, a parameter, a constant or another term \
                     (`{expected}`)"
                ))
            }
            Expect::ParamId if typed(arg).is_none_or(|ty| !names_type(ty, "ParamId")) => {
                Some(format!(
                    "expected `ParamId` (by value): a parameter rule reads which parameter it is \
                     and the value it is bound to (`{expected}`)"
                ))
            }
            _ => None,
        }
    }
}

/// The type of a parameter other than `self`.
fn typed(arg: &syn::FnArg) -> Option<&syn::Type> {
    let syn::FnArg::Typed(pat) = arg else {
        return None;
    };
    Some(&*pat.ty)
}

/// Whether `ty` is a path ending in `name`, without generic arguments (`ArgKind`,
/// `absinthe::terms::ArgKind`).
fn names_type(ty: &syn::Type, name: &str) -> bool {
    match ty {
        syn::Type::Group(g) => names_type(&g.elem, name),
        syn::Type::Paren(p) => names_type(&p.elem, name),
        syn::Type::Path(path) if path.qself.is_none() => {
            path.path.segments.last().is_some_and(|last| {
                last.ident == name && matches!(last.arguments, syn::PathArguments::None)
            })
        }
        _ => false,
    }
}

fn quote_path(path: &syn::Path) -> String {
    quote!(#path).to_string().replace(' ', "")
}
