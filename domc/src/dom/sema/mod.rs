//! Checking: names, types and well-formedness of a parsed `.dom` program, reporting every error
//! found in one pass; on success, the checked program as a typed tree ([`tree::Program`]: the
//! shared model, the types, and every body as a tree), and nothing else.
//!
//! Declarations are collected first (so order does not matter), types resolved second, bodies
//! checked last, each by the body checker (`check/`), which types it bidirectionally into a
//! tree. Generating Rust from the result is a later phase (`rust/`).

use super::ast::{self, Item, LatticeBody, Name, PolicyAst, Trigger};
use super::check::{Checker, Scope};
use super::tree::{self, Decl, Extern, Fallback, FnSig, Node, Role};
use super::types::{Shape, Ty, TypeTable, rust_ident};
use crate::diagnostic::{Diagnostic, FileId};
use crate::model::{
    self, COMPARISONS, Component, Field, Finite, FiniteOrder, LatticeDecl, LatticeKind, MAX_PACK,
    Origin, Pointwise, Policy, ProductDecl, Reduction, Rule, RuleKind, Sum, Variant, VariantFields,
};
use proc_macro2::Span;
use quote::format_ident;
use std::collections::BTreeMap;
use std::ops::Range;

mod analysis;
mod lattice;
mod recursion;
mod sites;
mod transfer;

pub use crate::model::AnalysisDecl;

/// A checked program.
#[derive(Debug, Default)]
pub struct Checked {
    /// The program as a typed tree, with the model.
    pub program: tree::Program,
    /// The analyses.
    pub analyses: Vec<AnalysisDecl>,
}

/// A place in the sources, for diagnostics and provenance.
#[derive(Clone, Debug)]
pub struct Place {
    /// The file.
    pub file: FileId,
    /// The file's name.
    pub file_name: String,
    /// The file's text (for line numbers).
    pub line_starts: Vec<usize>,
}

impl Place {
    /// `file:line:col` of `offset`.
    pub fn describe(&self, offset: usize) -> String {
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let col = offset
            - self
                .line_starts
                .get(line.wrapping_sub(1))
                .copied()
                .unwrap_or(0)
            + 1;
        format!("{}:{line}:{col}", self.file_name)
    }
}

/// The type of one expression of a body: its file, its range and the type's name.
pub type Typed = (FileId, Range<usize>, String);

/// Checks the items of every file (imports already resolved, in dependency order).
pub fn check(files: &[(Place, Vec<Item>)]) -> Result<Checked, Vec<Diagnostic>> {
    check_typed(files).0
}

/// Checks as [`check`] does, and also gives the type of every expression it checked, whether or
/// not the program has errors (what an editor shows on hover).
pub fn check_typed(files: &[(Place, Vec<Item>)]) -> (Result<Checked, Vec<Diagnostic>>, Vec<Typed>) {
    let mut sema = Sema::default();
    sema.collect(files);
    sema.resolve_declarations(files);
    sema.check_bodies(files);
    sema.check_backward_domains(files);
    let typed = std::mem::take(&mut sema.typed);
    (sema.finish(), typed)
}

impl Sema {
    fn finish(self) -> Result<Checked, Vec<Diagnostic>> {
        let mut sema = self;
        if !sema.errors.is_empty() {
            return Err(sema.errors);
        }
        sema.join_origins();
        let mut out = sema.out;
        out.program.contains = sema
            .contains_fns
            .iter()
            .map(|(l, f)| (l.clone(), model::function_name(f)))
            .collect();
        out.program.types = sema.types;
        // The files were checked imports first; their places are reported root first.
        out.program
            .extern_places
            .sort_by_key(|(file, span)| (*file, span.start));
        Ok(out)
    }
}

/// The deepest a `fn` may declare it calls itself (`recursion N`): enough for Euclid's algorithm
/// on any two `int`s (at most 92 steps), small enough for every back end's stack.
pub const MAX_RECURSION: u64 = 1024;

#[derive(Default)]
struct Sema {
    errors: Vec<Diagnostic>,
    types: TypeTable,
    /// Functions by name: user `fn`s and `extern fn`s.
    functions: BTreeMap<String, FnSig>,
    /// Written-out `contains` of struct lattices, by lattice name.
    contains_fns: BTreeMap<String, syn::Path>,
    /// Products with a component whose type is unknown (already reported): a rule's result
    /// that is not one of their components may be that component.
    incomplete: std::collections::BTreeSet<String>,
    /// Every top-level name and where it was declared, for duplicate detection.
    declared: BTreeMap<String, (FileId, Range<usize>)>,
    /// The type of every expression of every body, by file and range.
    typed: Vec<Typed>,
    out: Checked,
}

impl Sema {
    fn error(&mut self, file: FileId, span: Range<usize>, message: String, label: &str) {
        self.errors
            .push(Diagnostic::new(file, span, message, label));
    }

    fn error_help(
        &mut self,
        file: FileId,
        span: Range<usize>,
        message: String,
        label: &str,
        help: String,
    ) {
        self.errors
            .push(Diagnostic::new(file, span, message, label).with_help(help));
    }

    fn declare(&mut self, file: FileId, name: &Name, what: &str) -> bool {
        if let Err(message) = rust_ident(&name.text) {
            self.error(file, name.span.clone(), message, "not usable as a name");
            return false;
        }
        if TypeTable::is_builtin_name(&name.text) {
            self.error_help(
                file,
                name.span.clone(),
                format!(
                    "`{}` is a built-in name and cannot be redeclared",
                    name.text
                ),
                "already built in",
                format!("rename this {what}"),
            );
            return false;
        }
        if let Some((_, previous)) = self.declared.get(&name.text) {
            let _ = previous;
            self.error(
                file,
                name.span.clone(),
                format!("`{}` is declared twice", name.text),
                "a second declaration of this name",
            );
            return false;
        }
        self.declared
            .insert(name.text.clone(), (file, name.span.clone()));
        true
    }

    /// First pass: every type name, so declarations may refer to each other in any order.
    fn collect(&mut self, files: &[(Place, Vec<Item>)]) {
        for (place, items) in files {
            for item in items {
                match item {
                    Item::Lattice(l) => {
                        if self.declare(place.file, &l.name, "lattice") {
                            self.types.declare(&l.name.text, Shape::Pending);
                        }
                    }
                    Item::Product(p) => {
                        if self.declare(place.file, &p.name, "product") {
                            self.types.declare(&p.name.text, Shape::Pending);
                        }
                        if let Some(d) = &p.direct {
                            if self.declare(place.file, d, "direct product") {
                                self.types.declare(&d.text, Shape::Pending);
                            }
                        }
                    }
                    Item::ExternType(n) => {
                        if self.declare(place.file, n, "extern type") {
                            self.types.declare(&n.text, Shape::Extern);
                        }
                    }
                    Item::Function(sig, _) | Item::ExternFn(sig) => {
                        self.declare(place.file, &sig.name, "function");
                    }
                    Item::MeetExt(sig, _) => {
                        self.declare(place.file, &sig.name, "reduction");
                    }
                    Item::Transfer(t) => {
                        self.declare(place.file, &t.sig.name, "rule");
                    }
                    Item::Analysis(a) => {
                        self.declare(place.file, &a.name, "analysis");
                    }
                    Item::TypeAlias(n, _) => {
                        self.declare(place.file, n, "type alias");
                    }
                    Item::Import { .. } => {}
                }
            }
        }
        let declared = &self.declared;
        self.types
            .declare_numeric(|name| declared.contains_key(name));
    }

    fn resolve_type(&mut self, file: FileId, ty: &ast::Type) -> Ty {
        match self.types.resolve(ty) {
            Ok(t) => t,
            Err((span, message, help)) => {
                let d = Diagnostic::new(file, span, message, "unknown or ill-formed type");
                self.errors.push(match help {
                    Some(h) => d.with_help(h),
                    None => d,
                });
                Ty::Error
            }
        }
    }

    /// Second pass: lattice shapes, product components, function signatures.
    fn resolve_declarations(&mut self, files: &[(Place, Vec<Item>)]) {
        // Lattices first, in an order where fields are resolved before the types using them is
        // not needed: the table holds names, and recursion is checked separately.
        // Aliases first, so that lattices and products can use them.
        for (place, items) in files {
            for item in items {
                if let Item::TypeAlias(n, t) = item {
                    match self.resolve_type(place.file, t) {
                        Ty::Lat(id) => self.types.alias(&n.text, id),
                        Ty::Error => {}
                        other => {
                            let shown = self.types.name(&other);
                            self.error(
                                place.file,
                                t.span(),
                                format!("a type alias names a lattice, not `{shown}`"),
                                "not a lattice",
                            );
                        }
                    }
                }
            }
        }
        for (place, items) in files {
            for item in items {
                if let Item::Lattice(l) = item {
                    self.resolve_lattice(place, l);
                }
            }
        }
        for (place, items) in files {
            for item in items {
                match item {
                    Item::Product(p) => self.resolve_product(place, p),
                    Item::Function(sig, _) => self.declare_function(place, sig, false),
                    Item::ExternFn(sig) => self.declare_function(place, sig, true),
                    _ => {}
                }
            }
        }
        self.check_recursion(files);
        self.check_function_recursion(files);
    }

    /// Records the signature of a `fn` or (`external`) an `extern fn` so that bodies can call
    /// it.
    fn declare_function(&mut self, place: &Place, sig: &ast::Signature, external: bool) {
        let params = sig
            .params
            .iter()
            .map(|(_, t)| self.resolve_type(place.file, t))
            .collect();
        let result = self.resolve_type(place.file, &sig.result);
        self.functions.insert(
            sig.name.text.clone(),
            FnSig {
                params,
                result,
                external,
            },
        );
    }

    fn resolve_product(&mut self, place: &Place, p: &ast::Product) {
        let file = place.file;
        let mut components = Vec::new();
        for c in &p.components {
            let (n, t, uses) = (&c.name, &c.ty, &c.uses);
            if let Err(message) = rust_ident(&n.text) {
                self.error(file, n.span.clone(), message, "not usable as a name");
            }
            if components
                .iter()
                .any(|(x, _, _, _): &(String, Ty, bool, Option<usize>)| *x == n.text)
            {
                self.error(
                    file,
                    n.span.clone(),
                    format!("component `{}` is declared twice", n.text),
                    "duplicate component",
                );
            }
            let resolved = self.resolve_type(file, t);
            if resolved.is_error() {
                self.incomplete.insert(p.name.text.clone());
            }
            match &resolved {
                Ty::Lat(id) if self.types.is_product(*id) => self.error(
                    file,
                    t.span(),
                    format!(
                        "component `{}` is the product `{}`; products do not nest",
                        n.text,
                        self.types.name(&resolved)
                    ),
                    "a product",
                ),
                Ty::Lat(_) | Ty::Error => {}
                other => self.error(
                    file,
                    t.span(),
                    format!(
                        "component `{}` is `{}`, which is not a lattice",
                        n.text,
                        self.types.name(other)
                    ),
                    "not a lattice",
                ),
            }
            if *uses && !self.types.has_builtin_rules(&resolved) {
                self.error_help(
                    file,
                    t.span(),
                    format!(
                        "`{}` has no built-in transfer functions to use",
                        self.types.name(&resolved)
                    ),
                    "`uses builtin` needs a built-in value domain",
                    "built-in value domains are `Interval` and `Constant`".into(),
                );
            }
            let another = components.iter().any(|c| c.3.is_some());
            let relation = self.relation_component(file, c, &resolved, another);
            components.push((n.text.clone(), resolved, *uses, relation));
        }
        if components.is_empty() {
            self.error(
                file,
                p.name.span.clone(),
                "a product needs at least one component".into(),
                "no components",
            );
        }
        let shape = Shape::Product {
            components: components
                .iter()
                .map(|(n, t, _, _)| (n.clone(), t.clone()))
                .collect(),
        };
        self.types.define(&p.name.text, shape.clone());
        if let Some(d) = &p.direct {
            self.types.define(&d.text, Shape::Direct);
        }
        let policy = match p.policy {
            None => Policy::Fixpoint(8),
            Some((PolicyAst::Never, _)) => Policy::Never,
            Some((PolicyAst::Once, _)) => Policy::Once,
            Some((PolicyAst::Fixpoint(None), _)) => Policy::Fixpoint(8),
            Some((PolicyAst::Fixpoint(Some(k)), ref span)) => {
                if k == 0 || k > 1000 {
                    self.error(
                        file,
                        span.clone(),
                        format!("a fixpoint bound is between 1 and 1000, not {k}"),
                        "out of range",
                    );
                }
                Policy::Fixpoint(u32::try_from(k).unwrap_or(1000).clamp(1, 1000))
            }
        };
        let decl = ProductDecl {
            name: format_ident!("{}", p.name.text),
            origin: Origin::new(
                Span::call_site(),
                format!(
                    "`product {}` at {}",
                    p.name.text,
                    place.describe(p.span.start)
                ),
            ),
            components: components
                .iter()
                .map(|(n, t, uses, relation)| Component {
                    member: syn::Member::Named(format_ident!("{}", n)),
                    ty: self.types.syn_type(t),
                    // A relational component computes with its own operations (an interval's)
                    // where the relation is not consulted.
                    value_domain: *uses || relation.is_some(),
                    relation: *relation,
                    // Filled in once every lattice is declared (`finish`).
                    join_origin: None,
                })
                .collect(),
            policy,
            reductions: Vec::new(),
            rules: Vec::new(),
        };
        let direct = p.direct.as_ref().map(|d| d.text.clone());
        self.out.program.products.push((decl, direct));
    }

    /// The pack size of `c`, a component of type `resolved`, when it is declared the product's
    /// relational component (`relation(packs = K)`), after checking that its type is relational,
    /// that `another` relational component was not declared before it, and that a component of
    /// a relational type is declared so.
    fn relation_component(
        &mut self,
        file: FileId,
        c: &ast::ComponentAst,
        resolved: &Ty,
        another: bool,
    ) -> Option<usize> {
        let relational = match resolved {
            Ty::Lat(id) => match self.types.shape(*id) {
                Shape::Relation(r) => Some(*r),
                _ => None,
            },
            _ => None,
        };
        let Some((packs, span)) = &c.relation else {
            if let Some(r) = relational {
                self.error_help(
                    file,
                    c.ty.span(),
                    format!(
                        "component `{}` is `{}`, a relational domain, but is not declared the \
                         product's relation",
                        c.name.text,
                        r.name()
                    ),
                    "a relational type",
                    format!(
                        "write `{}: {} relation(packs = 8)`: the engines then keep one {} over \
                         a function's names, in packs of at most 8 related names",
                        c.name.text,
                        r.name(),
                        r.name().to_lowercase()
                    ),
                );
            }
            return None;
        };
        if relational.is_none() && !resolved.is_error() {
            self.error_help(
                file,
                c.ty.span(),
                format!(
                    "`relation(…)` declares a relational component, and `{}` is not a \
                     relational domain",
                    self.types.name(resolved)
                ),
                "not relational",
                "the relational domains are `Octagon` and `Zone`".into(),
            );
        }
        if *packs == 0 || *packs > MAX_PACK {
            self.error(
                file,
                span.clone(),
                format!("a pack holds between 1 and {MAX_PACK} names, not {packs} (8 is a common choice)"),
                "out of range",
            );
        }
        if another {
            self.error(
                file,
                span.clone(),
                "a product has at most one relational component: the engines keep one relation \
                 over a function's names"
                    .into(),
                "a second relation",
            );
        }
        Some(
            usize::try_from(*packs)
                .unwrap_or(MAX_PACK as usize)
                .clamp(1, MAX_PACK as usize),
        )
    }

    /// A lattice or product that contains itself has no finite representation.
    fn check_recursion(&mut self, files: &[(Place, Vec<Item>)]) {
        for (place, items) in files {
            for item in items {
                let name = match item {
                    Item::Lattice(l) => &l.name,
                    Item::Product(p) => &p.name,
                    _ => continue,
                };
                let span = &name.span;
                if let Some(cycle) = self.types.cycle_through(&name.text) {
                    self.error_help(
                        place.file,
                        span.clone(),
                        format!("`{}` contains itself ({})", name.text, cycle.join(" → ")),
                        "a recursive lattice",
                        "a lattice value must be finite; break the cycle with a flat or finite lattice".into(),
                    );
                }
            }
        }
    }

    /// Third pass: lattice models, rule bodies, reductions, analyses.
    fn check_bodies(&mut self, files: &[(Place, Vec<Item>)]) {
        for (place, items) in files {
            for item in items {
                match item {
                    Item::Lattice(l) => self.lattice_model(place, l),
                    Item::Function(sig, body) => self.function(place, sig, body),
                    Item::ExternFn(sig) => {
                        self.out
                            .program
                            .extern_places
                            .push((place.file, sig.span.clone()));
                        let Some(f) = self.functions.get(&sig.name.text).cloned() else {
                            continue;
                        };
                        self.out.program.externs.push(Extern {
                            name: sig.name.text.clone(),
                            params: named(sig, &f.params),
                            result: f.result,
                            place: place.describe(sig.span.start),
                        });
                    }
                    Item::MeetExt(sig, body) => self.meet_ext(place, sig, body),
                    Item::Transfer(t) => self.transfer(place, t),
                    Item::Analysis(a) => self.analysis(place, a),
                    Item::ExternType(name) => {
                        self.out
                            .program
                            .extern_places
                            .push((place.file, name.span.clone()));
                    }
                    Item::Product(_) | Item::TypeAlias(..) | Item::Import { .. } => {}
                }
            }
        }
    }

    /// Checks `body` of type `result` with the parameters in `scope`, in the file at `place`.
    fn check_body(&mut self, place: &Place, body: &ast::Expr, scope: &Scope, result: &Ty) -> Node {
        let mut checker = Checker::new(place.file, &self.types, &self.functions);
        let node = checker.body(body, scope, result);
        let (errors, typed) = checker.finish();
        self.errors.extend(errors);
        let types = &self.types;
        self.typed.extend(
            typed
                .into_iter()
                .map(|(span, ty)| (place.file, span, types.name(&ty))),
        );
        node
    }

    /// Records a checked function, in declaration order.
    fn record(&mut self, name: &str, function: tree::Function) {
        self.out
            .program
            .functions
            .insert(name.to_string(), function);
        self.out
            .program
            .decls
            .push(Decl::Function(name.to_string()));
    }

    /// Checks a `fn` and records it; `recursion N` must be within 1 to [`MAX_RECURSION`].
    fn function(&mut self, place: &Place, sig: &ast::Signature, body: &ast::Expr) {
        let Some(f) = self.functions.get(&sig.name.text).cloned() else {
            return;
        };
        let mut scope = Scope::default();
        for ((n, _), t) in sig.params.iter().zip(&f.params) {
            scope.bind(&n.text, t.clone());
        }
        let body = self.check_body(place, body, &scope, &f.result);
        let recursion = match &sig.recursion {
            None => None,
            Some((Some(n @ 1..=MAX_RECURSION), _)) => Some(*n as u32),
            Some((_, span)) => {
                self.error_help(
                    place.file,
                    span.clone(),
                    format!("a recursion limit is from 1 to {MAX_RECURSION}"),
                    "out of range",
                    "the limit is how many calls deep the function may call itself".into(),
                );
                None
            }
        };
        self.record(
            &sig.name.text,
            tree::Function {
                role: Role::Helper,
                params: named(sig, &f.params),
                result: f.result,
                body,
                fallback: Fallback::Fail,
                place: place.describe(sig.span.start),
                recursion,
            },
        );
    }

    fn meet_ext(&mut self, place: &Place, sig: &ast::Signature, body: &ast::Expr) {
        let file = place.file;
        let shape = "a reduction is `meet_ext name(target: T, source: S) -> T = …;`";
        if sig.params.len() != 2 {
            self.error_help(
                file,
                sig.span.clone(),
                format!("this reduction takes {} parameters", sig.params.len()),
                "expected two parameters",
                shape.into(),
            );
            return;
        }
        let target = self.resolve_type(file, &sig.params[0].1);
        let source = self.resolve_type(file, &sig.params[1].1);
        let result = self.resolve_type(file, &sig.result);
        if target.is_error() || source.is_error() || result.is_error() {
            return;
        }
        if result != target {
            self.error_help(
                file,
                sig.result.span(),
                format!(
                    "a reduction returns its refined target `{}`, not `{}`",
                    self.types.name(&target),
                    self.types.name(&result)
                ),
                "wrong result type",
                shape.into(),
            );
            return;
        }
        let mut attached = false;
        let function: syn::Path = syn::Path::from(format_ident!("{}", sig.name.text));
        let describe = format!(
            "`meet_ext {}` at {}",
            sig.name.text,
            place.describe(sig.span.start)
        );
        for (decl, _) in &mut self.out.program.products {
            let find = |t: &Ty, types: &TypeTable| {
                decl.components
                    .iter()
                    .position(|c| types.syn_type(t) == c.ty)
            };
            let (Some(ti), Some(si)) = (find(&target, &self.types), find(&source, &self.types))
            else {
                continue;
            };
            if ti == si {
                continue;
            }
            decl.reductions.push(Reduction {
                target: ti,
                source: si,
                function: function.clone(),
                in_place: false,
                origin: Origin::new(Span::call_site(), describe.clone()),
                site: None,
            });
            attached = true;
        }
        if !attached && self.incomplete.is_empty() {
            self.error_help(
                file,
                sig.name.span.clone(),
                format!(
                    "`{}` refines `{}` with `{}`, but no product has both as components",
                    sig.name.text,
                    self.types.name(&target),
                    self.types.name(&source)
                ),
                "a reduction between domains that are not in a product",
                "add both lattices as components of a product, or remove the reduction".into(),
            );
            return;
        }
        if !attached {
            return;
        }
        let mut scope = Scope::default();
        scope.bind(&sig.params[0].0.text, target.clone());
        scope.bind(&sig.params[1].0.text, source.clone());
        let checked = self.check_body(place, body, &scope, &target);
        let params = named(sig, &[target.clone(), source]);
        if let Some(site) = self.site(place, &sig.name.text, body, &checked, &params, &target) {
            for (decl, _) in &mut self.out.program.products {
                for r in &mut decl.reductions {
                    if r.function == function {
                        r.site = Some(site.clone());
                    }
                }
            }
        }
        let body = checked;
        self.record(
            &sig.name.text,
            tree::Function {
                role: Role::Reduction,
                params,
                result: target,
                body,
                // An overflow in the body refines nothing.
                fallback: Fallback::Param(0),
                place: place.describe(sig.span.start),
                recursion: None,
            },
        );
    }
}

/// A signature's parameter names with their checked types.
fn named(sig: &ast::Signature, types: &[Ty]) -> Vec<(String, Ty)> {
    sig.params
        .iter()
        .zip(types)
        .map(|((n, _), t)| (n.text.clone(), t.clone()))
        .collect()
}

fn component_name(decl: &ProductDecl, i: usize) -> String {
    match &decl.components[i].member {
        syn::Member::Named(n) => n.to_string(),
        syn::Member::Unnamed(x) => x.index.to_string(),
    }
}

/// The words for an order that is not a lattice.
pub fn order_message(error: &model::OrderError, variants: &[String]) -> String {
    use model::OrderError;
    let names = |xs: &[usize]| {
        xs.iter()
            .map(|&i| format!("`{}`", variants[i]))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match error {
        OrderError::Empty => "a finite lattice needs elements".into(),
        OrderError::Cycle(xs) => format!("the order has a cycle through {}", names(xs)),
        OrderError::NoBottom(xs) => {
            format!("the order has no bottom: {} are all minimal", names(xs))
        }
        OrderError::NoTop(xs) => format!("the order has no top: {} are all maximal", names(xs)),
        OrderError::NoJoin(a, b, xs) => format!(
            "`{}` and `{}` have no least upper bound ({} are all minimal upper bounds)",
            variants[*a],
            variants[*b],
            names(xs)
        ),
        OrderError::NoMeet(a, b, xs) => format!(
            "`{}` and `{}` have no greatest lower bound ({} are all maximal lower bounds)",
            variants[*a],
            variants[*b],
            names(xs)
        ),
    }
}
