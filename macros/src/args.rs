//! The options of `#[lattice(…)]`, `#[transfer(…)]` and their field and variant forms, parsed
//! with darling.

use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::util::{Flag, SpannedValue};
use proc_macro2::TokenStream;

/// `#[lattice(…)]` on a struct or an enum.
#[derive(Debug, Default, FromMeta)]
#[darling(default)]
pub struct LatticeArgs {
    /// A bottom field makes the whole struct bottom.
    pub smash: Flag,
    /// `fn(&Self) -> bool`: the values that also stand for bottom.
    pub empty_if: Option<SpannedValue<syn::Path>>,
    /// `fn() -> Self` giving bottom.
    pub bottom: Option<SpannedValue<syn::Path>>,
    /// `fn(&Self) -> Self` giving a value's normal form.
    pub normalize: Option<SpannedValue<syn::Path>>,
    /// `fn() -> Self` giving top.
    pub top: Option<SpannedValue<syn::Path>>,
    /// No top element.
    pub no_top: Flag,
    /// No generated `Display` (write your own).
    pub no_display: Flag,
    /// The enum is a sum of lattices.
    pub sum: Flag,
    /// The order of a finite enum: `"A < B < C, A < D"`.
    pub order: Option<SpannedValue<String>>,
    /// The struct is a reduced product (only inside `#[absinthe::domain]`).
    pub product: Flag,
    /// The reduction policy of a product: `"never"`, `"once"`, `"fixpoint"` or `"fixpoint(K)"`.
    pub reduce: Option<SpannedValue<String>>,
    /// The name of a direct-product companion type to generate.
    pub direct: Option<syn::Ident>,
    /// Written-out operations of a struct, `fn(&Self, &Self) -> Self`, replacing the pointwise
    /// ones (required with `#[lattice(value)]` fields).
    pub join: Option<SpannedValue<syn::Path>>,
    /// `fn(&Self, &Self) -> Self`: the meet.
    pub meet: Option<SpannedValue<syn::Path>>,
    /// `fn(&Self, &Self) -> bool`: the order.
    pub leq: Option<SpannedValue<syn::Path>>,
    /// `fn(&Self, &Self) -> Self`: the widening.
    pub widen: Option<SpannedValue<syn::Path>>,
    /// `fn(&Self, &Self) -> Self`: the narrowing.
    pub narrow: Option<SpannedValue<syn::Path>>,
}

impl LatticeArgs {
    /// The written-out binary operations given, by name, in a fixed order.
    pub fn written(&self) -> Vec<(&'static str, &SpannedValue<syn::Path>)> {
        [
            ("join", &self.join),
            ("meet", &self.meet),
            ("leq", &self.leq),
            ("widen", &self.widen),
            ("narrow", &self.narrow),
        ]
        .into_iter()
        .filter_map(|(name, path)| path.as_ref().map(|p| (name, p)))
        .collect()
    }
}

/// `#[lattice(…)]` on a field.
#[derive(Debug, Default, FromMeta)]
#[darling(default)]
pub struct FieldArgs {
    /// Keep the field out of the order.
    pub ignore: Flag,
    /// A plain value (an integer, a `bool`) rather than a lattice: compared and printed, ordered
    /// only by the struct's written-out operations.
    pub value: Flag,
    /// In a product: operations without a rule use the component type's own `ValueDomain`.
    pub value_domain: Flag,
    /// In a product: the relational component (`relation(packs = 8)`), whose type is a
    /// `Bounds<Octagon>` or `Bounds<Zone>`.
    pub relation: Option<RelationArgs>,
}

/// `relation(…)` on a product's component.
#[derive(Debug, FromMeta)]
pub struct RelationArgs {
    /// The most names a pack of the relation holds (with its place, for the error).
    pub packs: SpannedValue<usize>,
}

impl RelationArgs {
    /// What is wrong with the declaration of the component at `span`: a pack size out of
    /// range (said at the size), or `another` relational component declared before it.
    pub fn check(&self, span: proc_macro2::Span, another: bool) -> Vec<syn::Error> {
        let mut errors = Vec::new();
        let max = absinthe_domc::model::MAX_PACK;
        let packs = *self.packs;
        if packs == 0 || packs as u64 > max {
            errors.push(syn::Error::new(
                self.packs.span(),
                format!(
                    "a pack holds between 1 and {max} names, not {}: write `relation(packs = K)` \
                     (8 is a common choice)",
                    packs
                ),
            ));
        }
        if another {
            errors.push(syn::Error::new(
                span,
                "a product has at most one relational component: the engines keep one \
                 relation over a function's names",
            ));
        }
        errors
    }
}

/// `#[lattice(…)]` on an enum variant.
#[derive(Debug, Default, FromMeta)]
#[darling(default)]
pub struct VariantArgs {
    /// This variant is the bottom.
    pub bottom: Flag,
    /// This variant is the top.
    pub top: Flag,
    /// This variant is below each of these variants (finite lattices).
    pub below: darling::util::PathList,
}

/// `#[transfer(…)]` on a function.
#[derive(Debug, Default, FromMeta)]
#[darling(default)]
pub struct TransferArgs {
    /// The operation: `"+"`, `"<"`, …: `fn(&P, &P) -> C`, or
    /// `fn(&P, &P, ArgKind, ArgKind) -> C` to also read what the operands' kernel terms are.
    pub op: Option<SpannedValue<String>>,
    /// The rule handles every operation without a rule of its own: `fn(Op, &P, &P) -> C`, or
    /// `fn(Op, &P, &P, ArgKind, ArgKind) -> C` with the operands' kinds.
    pub binary: Flag,
    /// The abstraction of literals: `fn(i64) -> C`.
    pub literal: Flag,
    /// The abstraction of `addr @s`, the address of symbol number `s`: `fn(i64) -> C`.
    pub address: Flag,
    /// Branch refinement: `assume = "<"` for one comparison, or `assume` alone for all.
    pub assume: Option<SpannedValue<darling::util::Override<String>>>,
    /// Kernel terms: the value of `(cond p a b)`: `fn(&P, &P, &P) -> C`.
    pub cond: Flag,
    /// Kernel terms: a parameter's value from what it is bound to: `fn(ParamId, &P) -> C`.
    pub param: Flag,
    /// Kernel terms: an application with an unknown operator, from the operator's value and the
    /// result of what it may call: `fn(&P, &P) -> C`.
    pub apply: Flag,
    /// Kernel terms: the value of an abstraction or a primitive as a term: `fn() -> C`.
    pub function: Flag,
    /// Backward analyses: what an operation demands of its operands given the demand on its
    /// result, `backward = "+"` for one operation (`fn(&P) -> C`) or `backward` alone for every
    /// operation without a rule of its own (`fn(Op, &P) -> C`).
    pub backward: Option<SpannedValue<darling::util::Override<String>>>,
    /// Backward analyses: what a copy demands of its source: `fn(&P) -> C`.
    pub backward_copy: Flag,
    /// Backward analyses: what an observation (a branch, a return, a store, a call) demands of
    /// the values it reads: `fn() -> C`.
    pub observe: Flag,
    /// The component the rule computes, when its type does not say.
    pub component: Option<syn::Ident>,
    /// The product the rule belongs to, when the module declares several.
    pub product: Option<syn::Ident>,
}

/// Parses the arguments of an attribute (`#[x(a, b = c)]`) into `T`.
pub fn parse<T: FromMeta + Default>(tokens: TokenStream) -> darling::Result<T> {
    if tokens.is_empty() {
        return Ok(T::default());
    }
    let items = NestedMeta::parse_meta_list(tokens)?;
    T::from_list(&items)
}

/// Parses `#[lattice(…)]` (or `#[transfer(…)]`, …) found on a field, variant or function.
pub fn from_attr<T: FromMeta + Default>(attr: &syn::Attribute) -> darling::Result<T> {
    match &attr.meta {
        syn::Meta::Path(_) => Ok(T::default()),
        syn::Meta::List(list) => parse(list.tokens.clone()),
        syn::Meta::NameValue(nv) => {
            Err(darling::Error::custom("expected a list of options: `#[lattice(…)]`").with_span(nv))
        }
    }
}

/// The words of an attribute, for messages about options it does not have.
pub trait Options {
    /// The attribute as written, in backticks: `` `#[lattice(…)]` ``.
    const ATTRIBUTE: &'static str;
    /// Every option it takes.
    const NAMES: &'static [&'static str];
}

impl Options for LatticeArgs {
    const ATTRIBUTE: &'static str = "`#[lattice(…)]`";
    const NAMES: &'static [&'static str] = &[
        "smash",
        "empty_if",
        "normalize",
        "bottom",
        "top",
        "no_top",
        "no_display",
        "sum",
        "order",
        "product",
        "reduce",
        "direct",
        "join",
        "meet",
        "leq",
        "widen",
        "narrow",
    ];
}

impl Options for FieldArgs {
    const ATTRIBUTE: &'static str = "`#[lattice(…)]` on a field";
    const NAMES: &'static [&'static str] = &["ignore", "value", "value_domain", "relation"];
}

impl Options for VariantArgs {
    const ATTRIBUTE: &'static str = "`#[lattice(…)]` on a variant";
    const NAMES: &'static [&'static str] = &["bottom", "top", "below"];
}

impl Options for TransferArgs {
    const ATTRIBUTE: &'static str = "`#[transfer(…)]`";
    const NAMES: &'static [&'static str] = &[
        "op",
        "binary",
        "literal",
        "address",
        "assume",
        "cond",
        "param",
        "apply",
        "function",
        "backward",
        "backward_copy",
        "observe",
        "component",
        "product",
    ];
}
