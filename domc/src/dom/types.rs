//! The types of the `.dom` language: `int`, `bool`, `Op`, the kernel-term types `Param` and
//! `ArgKind`, tuples, and lattices — the built-in `Interval`, `Constant`, `Names`, `Steps` and
//! `FiniteSum<L, N>`, and those the program declares — with their Rust spelling in generated
//! code.

use super::ast;
use crate::model::FiniteOrder;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeMap;
use std::ops::Range;

/// A `.dom` type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `int`: `i64`.
    Int,
    /// `bool`.
    Bool,
    /// `Op`: an operation of the program.
    Op,
    /// `Param`: a parameter of a kernel-terms program (`ParamId`), compared by identity.
    Param,
    /// `ArgKind`: what a primitive's argument term is on kernel terms (`ArgKind::Param(p)`,
    /// `ArgKind::Const(c)` or `ArgKind::Other`).
    ArgKind,
    /// The thresholds a widening may stop at: only the third parameter of a written-out
    /// `widen(a, b, t)`, read with `Thresholds::at_least` and `Thresholds::at_most`.
    Thresholds,
    /// A lattice, by index in the [`TypeTable`].
    Lat(usize),
    /// `(A, B, …)`.
    Tuple(Vec<Ty>),
    /// A type that could not be resolved (already reported).
    Error,
}

impl Ty {
    /// Whether resolving this type failed.
    pub fn is_error(&self) -> bool {
        match self {
            Ty::Error => true,
            Ty::Tuple(parts) => parts.iter().any(Ty::is_error),
            _ => false,
        }
    }
}

/// What a lattice type is.
#[derive(Clone, Debug)]
pub enum Shape {
    /// Declared, not resolved yet.
    Pending,
    /// `extern type`: a lattice written in Rust.
    Extern,
    /// The runtime's intervals.
    Interval,
    /// The runtime's addresses: a symbol plus a byte offset, flat.
    Address,
    /// The runtime's flat constants.
    Constant,
    /// The runtime's sets of parameters (`Names`), ordered by inclusion.
    Names,
    /// The runtime's sets of steps (`Steps`: constants and parameters plus constants, or ⊤).
    Steps,
    /// One of the runtime's numeric value domains that a file may also declare a lattice of
    /// the same name in place of (`Congruence`, `Parity`, `Sign`).
    Numeric(Numeric),
    /// A product's relational component: the bounds a relational value of the runtime gives
    /// one name (`Octagon`, `Zone`: `absinthe::relational::Bounds<R>`), computing as an interval
    /// where the relation is not consulted.
    Relation(Relational),
    /// The runtime's finite disjunction.
    FiniteSum {
        /// The disjuncts' lattice.
        inner: Ty,
        /// The most disjuncts.
        n: u64,
    },
    /// `= flat(T)`.
    Flat {
        /// The values' type.
        payload: Ty,
    },
    /// `= finite { … }`.
    Finite {
        /// The elements.
        variants: Vec<String>,
        /// The checked order.
        order: FiniteOrder,
    },
    /// `= sum { … }`.
    Sum {
        /// The variants and their lattices.
        summands: Vec<(String, Option<Ty>)>,
    },
    /// `{ fields }`.
    Struct {
        /// The fields.
        fields: Vec<(String, Ty)>,
        /// Whether smashed.
        smash: bool,
    },
    /// A product.
    Product {
        /// The components.
        components: Vec<(String, Ty)>,
    },
    /// The direct companion of the named product.
    Direct,
    /// A declaration that failed to check.
    Error,
}

/// The runtime's numeric value domains that are names only while a file declares nothing of
/// that name: older files declare their own `Sign` or `Parity`, and their declaration wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numeric {
    /// Congruence classes `m·ℤ + r` (`absinthe::lattice::Congruence`).
    Congruence,
    /// Even, odd (`absinthe::lattice::Parity`).
    Parity,
    /// Sets of signs (`absinthe::lattice::Sign`).
    Sign,
}

impl Numeric {
    /// Every one, in the order of their names.
    pub const ALL: [Numeric; 3] = [Numeric::Congruence, Numeric::Parity, Numeric::Sign];

    /// Its name in the language (and in the runtime).
    pub fn name(self) -> &'static str {
        match self {
            Numeric::Congruence => "Congruence",
            Numeric::Parity => "Parity",
            Numeric::Sign => "Sign",
        }
    }

    /// The one called `name`.
    pub fn named(name: &str) -> Option<Numeric> {
        Numeric::ALL.into_iter().find(|n| n.name() == name)
    }

    /// Its elements, for `Parity` and `Sign` (matched on and written `Sign::Neg`), in the
    /// runtime's order; none for `Congruence`, whose values are built by its functions.
    pub fn elements(self) -> &'static [&'static str] {
        match self {
            Numeric::Congruence => &[],
            Numeric::Parity => &["Bottom", "Even", "Odd", "Top"],
            Numeric::Sign => &[
                "Bottom", "Neg", "Zero", "Pos", "NonPos", "NonNeg", "NonZero", "Top",
            ],
        }
    }
}

/// The runtime's relational domains a product's relational component stands for; like
/// [`Numeric`], names only while a file declares nothing of that name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relational {
    /// Octagons: constraints `±x ± y ≤ c` (`absinthe::relational::Octagon`).
    Octagon,
    /// Zones (difference-bound matrices): constraints `x - y ≤ c` and bounds
    /// (`absinthe::relational::Zone`).
    Zone,
}

impl Relational {
    /// Every one, in the order of their names.
    pub const ALL: [Relational; 2] = [Relational::Octagon, Relational::Zone];

    /// Its name in the language (and in the runtime).
    pub fn name(self) -> &'static str {
        match self {
            Relational::Octagon => "Octagon",
            Relational::Zone => "Zone",
        }
    }
}

/// Every lattice type of a compilation.
#[derive(Clone, Debug)]
pub struct TypeTable {
    names: Vec<String>,
    shapes: Vec<Shape>,
    by_name: BTreeMap<String, usize>,
}

impl Default for TypeTable {
    fn default() -> TypeTable {
        let mut table = TypeTable {
            names: Vec::new(),
            shapes: Vec::new(),
            by_name: BTreeMap::new(),
        };
        table.declare("Interval", Shape::Interval);
        table.declare("Address", Shape::Address);
        table.declare("Constant", Shape::Constant);
        table.declare("Names", Shape::Names);
        table.declare("Steps", Shape::Steps);
        table
    }
}

const RUST_KEYWORDS: [&str; 51] = [
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
];

/// Whether `name` can name something in generated Rust; the message says why not.
pub fn rust_ident(name: &str) -> Result<(), String> {
    if RUST_KEYWORDS.contains(&name) || name == "gen" {
        return Err(format!(
            "`{name}` is a Rust keyword and cannot name a `.dom` item"
        ));
    }
    if name.starts_with("__") {
        return Err(format!(
            "`{name}`: names starting with `__` are reserved for generated code"
        ));
    }
    Ok(())
}

impl TypeTable {
    /// Names the language itself defines.
    pub fn is_builtin_name(name: &str) -> bool {
        matches!(
            name,
            "int"
                | "bool"
                | "Op"
                | "Param"
                | "ArgKind"
                | "Interval"
                | "Address"
                | "Constant"
                | "Names"
                | "Steps"
                | "FiniteSum"
                | "Host"
                | "Externs"
        )
    }

    /// Adds a type name.
    pub fn declare(&mut self, name: &str, shape: Shape) -> usize {
        self.names.push(name.to_string());
        self.shapes.push(shape);
        let id = self.names.len() - 1;
        self.by_name.insert(name.to_string(), id);
        id
    }

    /// Makes `name` another name of the lattice `id`.
    pub fn alias(&mut self, name: &str, id: usize) {
        self.by_name.insert(name.to_string(), id);
    }

    /// Sets the shape of a declared type.
    pub fn define(&mut self, name: &str, shape: Shape) {
        if let Some(&id) = self.by_name.get(name) {
            self.shapes[id] = shape;
        }
    }

    /// How many lattice types there are (ids run from 0).
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are none (never: the built-in lattices are always there).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The lattice type called `name`.
    pub fn lookup(&self, name: &str) -> Option<Ty> {
        self.by_name.get(name).map(|&id| Ty::Lat(id))
    }

    /// Declares the runtime's numeric and relational domains whose names the file leaves free
    /// (`taken` says which names it declares): a file's own `Sign` or `Parity` wins over the
    /// runtime's.
    pub fn declare_numeric(&mut self, taken: impl Fn(&str) -> bool) {
        for n in Numeric::ALL {
            if !taken(n.name()) {
                self.declare(n.name(), Shape::Numeric(n));
            }
        }
        for r in Relational::ALL {
            if !taken(r.name()) {
                self.declare(r.name(), Shape::Relation(r));
            }
        }
    }

    /// The shape of lattice `id`.
    pub fn shape(&self, id: usize) -> &Shape {
        &self.shapes[id]
    }

    /// Whether lattice `id` is a product.
    pub fn is_product(&self, id: usize) -> bool {
        matches!(self.shapes[id], Shape::Product { .. })
    }

    /// Whether lattice `id` is a value domain (a product or a direct product).
    pub fn is_value_domain(&self, id: usize) -> bool {
        matches!(self.shapes[id], Shape::Product { .. } | Shape::Direct)
    }

    /// Whether `t` has built-in transfer functions (`uses builtin`).
    pub fn has_builtin_rules(&self, t: &Ty) -> bool {
        match t {
            Ty::Lat(id) => matches!(
                self.shapes[*id],
                Shape::Interval
                    | Shape::Constant
                    | Shape::Address
                    | Shape::Numeric(_)
                    | Shape::FiniteSum { .. }
            ),
            _ => false,
        }
    }

    /// The variants a value of type `t` is one of, each with the type of its payload, if any:
    /// for `Op`, `ArgKind` and the enumerated lattices (flat, constant, finite and sum); `None`
    /// for every other type.
    pub fn variants(&self, t: &Ty) -> Option<Vec<(String, Option<Ty>)>> {
        let bracketed = |payloads: &mut dyn Iterator<Item = (String, Option<Ty>)>| {
            let mut all = vec![("Bottom".to_string(), None)];
            all.extend(payloads);
            all.push(("Top".to_string(), None));
            all
        };
        match t {
            Ty::Op => Some(
                crate::model::OPERATIONS
                    .iter()
                    .map(|(_, v)| ((*v).to_string(), None))
                    .collect(),
            ),
            Ty::ArgKind => Some(vec![
                ("Param".into(), Some(Ty::Param)),
                ("Const".into(), Some(Ty::Int)),
                ("Other".into(), None),
            ]),
            Ty::Lat(id) => match &self.shapes[*id] {
                Shape::Flat { payload } => Some(bracketed(&mut std::iter::once((
                    "Value".to_string(),
                    Some(payload.clone()),
                )))),
                Shape::Constant => Some(bracketed(&mut std::iter::once((
                    "Value".to_string(),
                    Some(Ty::Int),
                )))),
                Shape::Finite { variants, .. } => {
                    Some(variants.iter().map(|v| (v.clone(), None)).collect())
                }
                Shape::Sum { summands } => Some(bracketed(&mut summands.iter().cloned())),
                Shape::Numeric(n @ (Numeric::Parity | Numeric::Sign)) => {
                    Some(n.elements().iter().map(|v| (v.to_string(), None)).collect())
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The type as the user writes it.
    pub fn name(&self, t: &Ty) -> String {
        match t {
            Ty::Int => "int".into(),
            Ty::Bool => "bool".into(),
            Ty::Op => "Op".into(),
            Ty::Param => "Param".into(),
            Ty::ArgKind => "ArgKind".into(),
            Ty::Thresholds => "Thresholds".into(),
            Ty::Lat(id) => self.names[*id].clone(),
            Ty::Tuple(parts) => {
                let parts: Vec<String> = parts.iter().map(|p| self.name(p)).collect();
                format!("({})", parts.join(", "))
            }
            Ty::Error => "{unknown}".into(),
        }
    }

    /// Every type name: the built-in types and the lattices, products and aliases declared.
    pub fn type_names(&self) -> Vec<&str> {
        let mut names = vec!["int", "bool", "Op", "Param", "ArgKind", "FiniteSum"];
        names.extend(
            self.by_name
                .keys()
                .map(String::as_str)
                .filter(|n| !n.contains('<')),
        );
        names
    }

    /// `did you mean …?` for an unknown type name.
    pub fn did_you_mean(&self, name: &str) -> Option<String> {
        crate::diagnostic::did_you_mean(name, self.type_names())
    }

    /// Resolves a written type.
    pub fn resolve(
        &mut self,
        ty: &ast::Type,
    ) -> Result<Ty, (Range<usize>, String, Option<String>)> {
        match ty {
            ast::Type::Tuple(parts, _) => {
                let parts: Result<Vec<Ty>, _> = parts.iter().map(|p| self.resolve(p)).collect();
                Ok(Ty::Tuple(parts?))
            }
            ast::Type::Named { name, args, span } => {
                let no_args = |t: Ty| {
                    if args.is_empty() {
                        Ok(t)
                    } else {
                        Err((
                            span.clone(),
                            format!("`{}` takes no arguments", name.text),
                            None,
                        ))
                    }
                };
                match name.text.as_str() {
                    "int" => no_args(Ty::Int),
                    "bool" => no_args(Ty::Bool),
                    "Op" => no_args(Ty::Op),
                    "Param" => no_args(Ty::Param),
                    "ArgKind" => no_args(Ty::ArgKind),
                    "FiniteSum" => {
                        let (inner, n) = match args.as_slice() {
                            [ast::TypeArg::Type(t), ast::TypeArg::Int(n, n_span)] => {
                                if *n == 0 || *n > 64 {
                                    return Err((
                                        n_span.clone(),
                                        format!(
                                            "a `FiniteSum` keeps between 1 and 64 disjuncts, not {n}"
                                        ),
                                        None,
                                    ));
                                }
                                (self.resolve(t)?, *n)
                            }
                            _ => {
                                return Err((
                                    span.clone(),
                                    "`FiniteSum` takes a lattice and a bound: `FiniteSum<Interval, 3>`".into(),
                                    None,
                                ));
                            }
                        };
                        if !matches!(&inner, Ty::Lat(id) if matches!(self.shapes[*id], Shape::Interval | Shape::Constant))
                        {
                            return Err((
                                span.clone(),
                                format!(
                                    "a `FiniteSum` holds `Interval` or `Constant` values, not `{}`",
                                    self.name(&inner)
                                ),
                                None,
                            ));
                        }
                        let key = format!("FiniteSum<{}, {n}>", self.name(&inner));
                        if let Some(t) = self.lookup(&key) {
                            return Ok(t);
                        }
                        Ok(Ty::Lat(self.declare(&key, Shape::FiniteSum { inner, n })))
                    }
                    other => match self.lookup(other) {
                        Some(t) => no_args(t),
                        None => Err((
                            name.span.clone(),
                            format!("unknown type `{other}`"),
                            Some(self.did_you_mean(other).unwrap_or_else(|| {
                                "the types are `int`, `bool`, `Op`, `Param`, `ArgKind`, `Interval`, \
                                 `Constant`, `Address`, `Congruence`, `Parity`, `Sign`, `Names`, \
                                 `Steps`, `FiniteSum<L, N>`, the relational `Octagon` and `Zone`, \
                                 and the lattices and products declared"
                                    .into()
                            })),
                        )),
                    },
                }
            }
        }
    }

    /// The Rust spelling of `t` in generated code (for the Rust generator, and for the model's
    /// types through [`TypeTable::syn_type`]).
    pub fn rust(&self, t: &Ty) -> TokenStream {
        match t {
            Ty::Int => quote!(i64),
            Ty::Bool => quote!(bool),
            Ty::Op => quote!(::absinthe::__private::Op),
            Ty::Param => quote!(::absinthe::__private::ParamId),
            Ty::ArgKind => quote!(::absinthe::__private::ArgKind),
            Ty::Thresholds => quote!(::absinthe::__private::Thresholds),
            Ty::Tuple(parts) => {
                let parts = parts.iter().map(|p| self.rust(p));
                quote!((#(#parts),*))
            }
            Ty::Error => quote!(()),
            Ty::Lat(id) => match &self.shapes[*id] {
                Shape::Interval => quote!(::absinthe::__private::Interval),
                Shape::Address => quote!(::absinthe::__private::Address),
                Shape::Constant => quote!(::absinthe::__private::Flat<i64>),
                Shape::Names => quote!(::absinthe::__private::Names),
                Shape::Steps => quote!(::absinthe::__private::Steps),
                Shape::Numeric(n) => {
                    let name = format_ident!("{}", n.name());
                    quote!(::absinthe::__private::#name)
                }
                Shape::FiniteSum { inner, n } => {
                    let inner = self.rust(inner);
                    let n = *n as usize;
                    quote!(::absinthe::__private::FiniteSum<#inner, #n>)
                }
                Shape::Relation(r) => {
                    let name = format_ident!("{}", r.name());
                    quote!(::absinthe::__private::Bounds<::absinthe::__private::#name>)
                }
                _ => {
                    let name = format_ident!("{}", self.names[*id]);
                    quote!(#name)
                }
            },
        }
    }

    /// [`TypeTable::rust`] as a `syn::Type`, for the model.
    pub fn syn_type(&self, t: &Ty) -> syn::Type {
        let tokens = self.rust(t);
        syn::parse2(tokens).unwrap_or_else(|_| syn::parse_quote!(()))
    }

    /// How a parameter of type `t` is passed: lattices by reference, the rest by value.
    pub fn param_rust(&self, t: &Ty) -> TokenStream {
        let rust = self.rust(t);
        match t {
            Ty::Lat(_) | Ty::Thresholds => quote!(&#rust),
            _ => rust,
        }
    }

    /// The lattices a lattice's fields, payloads or components name.
    fn parts(&self, id: usize) -> Vec<usize> {
        let lat = |t: &Ty| match t {
            Ty::Lat(i) => Some(*i),
            _ => None,
        };
        match &self.shapes[id] {
            Shape::Sum { summands } => summands
                .iter()
                .filter_map(|(_, t)| t.as_ref().and_then(lat))
                .collect(),
            Shape::Struct { fields, .. } => fields.iter().filter_map(|(_, t)| lat(t)).collect(),
            Shape::Product { components } => {
                components.iter().filter_map(|(_, t)| lat(t)).collect()
            }
            Shape::FiniteSum { inner, .. } => lat(inner).into_iter().collect(),
            _ => Vec::new(),
        }
    }

    /// A cycle of containment through `name`, as names, if there is one.
    pub fn cycle_through(&self, name: &str) -> Option<Vec<String>> {
        let start = *self.by_name.get(name)?;
        // Depth-first search with an explicit stack of paths.
        let mut stack: Vec<Vec<usize>> = vec![vec![start]];
        let mut seen = vec![false; self.names.len()];
        while let Some(path) = stack.pop() {
            let last = *path.last()?;
            for next in self.parts(last) {
                if next == start {
                    let mut names: Vec<String> =
                        path.iter().map(|&i| self.names[i].clone()).collect();
                    names.push(self.names[start].clone());
                    return Some(names);
                }
                if !seen[next] {
                    seen[next] = true;
                    let mut longer = path.clone();
                    longer.push(next);
                    stack.push(longer);
                }
            }
        }
        None
    }
}
