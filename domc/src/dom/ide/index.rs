//! What every name of a `.dom` file and its imports declares or refers to: the declarations
//! (top-level items, elements and variants, fields and components, parameters and local names)
//! and every place a name refers to one of them. Go to definition, find references, the outline
//! and the semantic classes of names all read this.
//!
//! Names are resolved the way the checker resolves them: types by name across files, `T::V` as a
//! variant of `T`, a single name as the nearest parameter or `let`/pattern binder in scope and
//! else a `fn`; a field by the type the checker gave the expression before the dot.

use crate::diagnostic::FileId;
use crate::dom::Study;
use crate::dom::ast::{Expr, ExprKind, Item, LatticeBody, Name, Pattern, Setting, Type, TypeArg};
use std::collections::BTreeMap;
use std::ops::Range;

/// What a declaration is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `lattice T …`
    Lattice,
    /// `product P …`, or its `direct` companion.
    Product,
    /// `type A = T;`
    Alias,
    /// `extern type T;`
    ExternType,
    /// `fn f(…)`
    Function,
    /// `extern fn f(…)`
    ExternFn,
    /// `meet_ext r(…)`
    Reduction,
    /// `transfer t on …`
    Rule,
    /// `analysis a { … }`
    Analysis,
    /// An element of a `finite` lattice or a variant of a `sum`.
    Variant,
    /// A field of a struct lattice.
    Field,
    /// A component of a product.
    Component,
    /// A parameter of a function, rule, reduction or written-out operation.
    Param,
    /// A `let` or a pattern's binder.
    Local,
}

impl Kind {
    /// The word a person would use.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Lattice => "lattice",
            Kind::Product => "product",
            Kind::Alias => "type alias",
            Kind::ExternType => "extern type",
            Kind::Function => "fn",
            Kind::ExternFn => "extern fn",
            Kind::Reduction => "meet_ext",
            Kind::Rule => "transfer",
            Kind::Analysis => "analysis",
            Kind::Variant => "element",
            Kind::Field => "field",
            Kind::Component => "component",
            Kind::Param => "parameter",
            Kind::Local => "local",
        }
    }

    /// Whether the declaration names a type.
    pub fn is_type(self) -> bool {
        matches!(
            self,
            Kind::Lattice | Kind::Product | Kind::Alias | Kind::ExternType
        )
    }
}

/// One declaration.
#[derive(Clone, Debug)]
pub struct Def {
    /// What it is.
    pub kind: Kind,
    /// Its name.
    pub name: String,
    /// The file it is in.
    pub file: FileId,
    /// Its name's range.
    pub span: Range<usize>,
    /// The whole declaration's range (a parameter or local: its name).
    pub whole: Range<usize>,
    /// The declaration it belongs to: a variant's or field's type, a component's product, a
    /// parameter's function.
    pub parent: Option<usize>,
    /// Its type as written, where it has one (a field, component or parameter).
    pub ty: Option<String>,
    /// Where a parameter or local can be named: the range of its declaration or body.
    pub scope: Option<Range<usize>>,
}

/// A declaration's index in [`Index::defs`].
pub type DefId = usize;

/// Every declaration and every reference of a study.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// The declarations, in the order of the files and of each file.
    pub defs: Vec<Def>,
    /// Every place a name refers to a declaration: file, range, declaration.
    pub refs: Vec<(FileId, Range<usize>, DefId)>,
    /// Top-level declarations by name.
    globals: BTreeMap<String, DefId>,
    /// The type of every checked expression, by file and range.
    typed: BTreeMap<(FileId, usize, usize), String>,
}

impl Index {
    /// Indexes what `study` read.
    pub fn build(study: &Study) -> Index {
        let mut index = Index {
            typed: study
                .typed
                .iter()
                .map(|(file, span, ty)| ((*file, span.start, span.end), ty.clone()))
                .collect(),
            ..Index::default()
        };
        for (place, items) in &study.files {
            for item in items {
                index.declare_item(place.file, item);
            }
        }
        for (place, items) in &study.files {
            for item in items {
                index.refer_item(place.file, item);
            }
        }
        index
    }

    /// The top-level declaration called `name`.
    pub fn global(&self, name: &str) -> Option<DefId> {
        self.globals.get(name).copied()
    }

    /// The type the checker gave the expression at exactly this range.
    pub fn type_at(&self, file: FileId, span: &Range<usize>) -> Option<&str> {
        self.typed
            .get(&(file, span.start, span.end))
            .map(String::as_str)
    }

    /// The smallest checked expression containing `offset`, and its type.
    pub fn expression_at(&self, file: FileId, offset: usize) -> Option<(Range<usize>, &str)> {
        self.typed
            .iter()
            .filter(|((f, start, end), _)| *f == file && *start <= offset && offset < *end)
            .min_by_key(|((_, start, end), _)| end - start)
            .map(|((_, start, end), ty)| (*start..*end, ty.as_str()))
    }

    /// The declaration whose name, or a reference to which, is at `offset` of `file`.
    pub fn at(&self, file: FileId, offset: usize) -> Option<DefId> {
        let inside = |span: &Range<usize>| span.start <= offset && offset <= span.end;
        self.refs
            .iter()
            .filter(|(f, span, _)| *f == file && inside(span))
            .map(|(_, span, def)| (span.len(), *def))
            .chain(
                self.defs
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| d.file == file && inside(&d.span))
                    .map(|(id, d)| (d.span.len(), id)),
            )
            .min_by_key(|(len, _)| *len)
            .map(|(_, def)| def)
    }

    /// Every reference to `def` (not its declaration), in order.
    pub fn references(&self, def: DefId) -> Vec<(FileId, Range<usize>)> {
        let mut found: Vec<(FileId, Range<usize>)> = self
            .refs
            .iter()
            .filter(|(_, _, d)| *d == def)
            .map(|(f, span, _)| (*f, span.clone()))
            .collect();
        found.sort_by_key(|(f, span)| (*f, span.start));
        found.dedup();
        found
    }

    /// The declarations that belong to `parent` (a type's variants and fields, a product's
    /// components, a function's parameters).
    pub fn children(&self, parent: DefId) -> impl Iterator<Item = (DefId, &Def)> {
        self.defs
            .iter()
            .enumerate()
            .filter(move |(_, d)| d.parent == Some(parent))
    }

    /// The parameters and locals that can be named at `offset` of `file`.
    pub fn locals_at(&self, file: FileId, offset: usize) -> impl Iterator<Item = &Def> {
        self.defs.iter().filter(move |d| {
            d.file == file
                && matches!(d.kind, Kind::Param | Kind::Local)
                && d.scope
                    .as_ref()
                    .is_some_and(|s| s.start <= offset && offset <= s.end)
        })
    }

    fn add(&mut self, def: Def) -> DefId {
        self.defs.push(def);
        self.defs.len() - 1
    }

    fn global_def(&mut self, kind: Kind, file: FileId, name: &Name, whole: Range<usize>) -> DefId {
        let id = self.add(Def {
            kind,
            name: name.text.clone(),
            file,
            span: name.span.clone(),
            whole,
            parent: None,
            ty: None,
            scope: None,
        });
        // The first declaration wins, as the checker's duplicate error says.
        self.globals.entry(name.text.clone()).or_insert(id);
        id
    }

    fn member(&mut self, kind: Kind, file: FileId, name: &Name, parent: DefId, ty: Option<&Type>) {
        self.add(Def {
            kind,
            name: name.text.clone(),
            file,
            span: name.span.clone(),
            whole: name.span.clone(),
            parent: Some(parent),
            ty: ty.map(type_text),
            scope: None,
        });
    }

    fn declare_item(&mut self, file: FileId, item: &Item) {
        match item {
            Item::Import { .. } => {}
            Item::ExternType(name) => {
                self.global_def(Kind::ExternType, file, name, name.span.clone());
            }
            Item::TypeAlias(name, ty) => {
                let id = self.global_def(Kind::Alias, file, name, name.span.start..ty.span().end);
                self.defs[id].ty = Some(type_text(ty));
            }
            Item::ExternFn(sig) => {
                self.global_def(Kind::ExternFn, file, &sig.name, sig.span.clone());
            }
            Item::Function(sig, _) => {
                self.global_def(Kind::Function, file, &sig.name, sig.span.clone());
            }
            Item::MeetExt(sig, _) => {
                self.global_def(Kind::Reduction, file, &sig.name, sig.span.clone());
            }
            Item::Transfer(t) => {
                self.global_def(Kind::Rule, file, &t.sig.name, t.sig.span.clone());
            }
            Item::Analysis(a) => {
                self.global_def(Kind::Analysis, file, &a.name, a.span.clone());
            }
            Item::Lattice(l) => {
                let id = self.global_def(Kind::Lattice, file, &l.name, l.span.clone());
                match &l.body {
                    LatticeBody::Flat(_) => {}
                    LatticeBody::Finite(chains, _) => {
                        let mut seen: Vec<&str> = Vec::new();
                        for name in chains.iter().flatten() {
                            if !seen.contains(&name.text.as_str()) {
                                seen.push(&name.text);
                                self.member(Kind::Variant, file, name, id, None);
                            }
                        }
                    }
                    LatticeBody::Sum(variants, _) => {
                        for (name, ty) in variants {
                            self.member(Kind::Variant, file, name, id, ty.as_ref());
                        }
                    }
                    LatticeBody::Struct { fields, .. } => {
                        for (name, ty) in fields {
                            self.member(Kind::Field, file, name, id, Some(ty));
                        }
                    }
                }
            }
            Item::Product(p) => {
                let id = self.global_def(Kind::Product, file, &p.name, p.span.clone());
                if let Some(direct) = &p.direct {
                    self.global_def(Kind::Product, file, direct, p.span.clone());
                }
                for c in &p.components {
                    self.member(Kind::Component, file, &c.name, id, Some(&c.ty));
                }
            }
        }
    }

    fn refer(&mut self, file: FileId, span: &Range<usize>, def: DefId) {
        self.refs.push((file, span.clone(), def));
    }

    fn refer_type(&mut self, file: FileId, ty: &Type) {
        match ty {
            Type::Named { name, args, .. } => {
                if let Some(def) = self.global(&name.text) {
                    self.refer(file, &name.span, def);
                }
                for arg in args {
                    if let TypeArg::Type(t) = arg {
                        self.refer_type(file, t);
                    }
                }
            }
            Type::Tuple(parts, _) => {
                for part in parts {
                    self.refer_type(file, part);
                }
            }
        }
    }

    /// The parameters of a signature as locals of `whole`, belonging to `parent`.
    fn params(&mut self, file: FileId, params: &[(Name, Type)], parent: DefId) -> Scope {
        let whole = self.defs[parent].whole.clone();
        let mut scope = Scope::default();
        for (name, ty) in params {
            self.refer_type(file, ty);
            self.param(file, name, parent, Some(type_text(ty)), &whole, &mut scope);
        }
        scope
    }

    /// A parameter `name` of `parent`, named in `reach`, bound in `scope`.
    fn param(
        &mut self,
        file: FileId,
        name: &Name,
        parent: DefId,
        ty: Option<String>,
        reach: &Range<usize>,
        scope: &mut Scope,
    ) {
        let id = self.add(Def {
            kind: Kind::Param,
            name: name.text.clone(),
            file,
            span: name.span.clone(),
            whole: name.span.clone(),
            parent: Some(parent),
            ty,
            scope: Some(reach.clone()),
        });
        scope.names.push((name.text.clone(), id));
    }

    fn refer_item(&mut self, file: FileId, item: &Item) {
        match item {
            Item::Import { .. } | Item::ExternType(_) => {}
            Item::TypeAlias(_, ty) => self.refer_type(file, ty),
            Item::ExternFn(sig) | Item::Function(sig, _) | Item::MeetExt(sig, _) => {
                let Some(parent) = self.def_named(file, &sig.name) else {
                    return;
                };
                let scope = self.params(file, &sig.params, parent);
                self.refer_type(file, &sig.result);
                if let Item::Function(_, body) | Item::MeetExt(_, body) = item {
                    self.refer_expr(file, body, &scope);
                }
            }
            Item::Transfer(t) => {
                let Some(parent) = self.def_named(file, &t.sig.name) else {
                    return;
                };
                let scope = self.params(file, &t.sig.params, parent);
                self.refer_type(file, &t.sig.result);
                self.refer_expr(file, &t.body, &scope);
            }
            Item::Lattice(l) => {
                let Some(parent) = self.def_named(file, &l.name) else {
                    return;
                };
                let overrides = match &l.body {
                    LatticeBody::Flat(ty) => {
                        self.refer_type(file, ty);
                        &[][..]
                    }
                    LatticeBody::Finite(_, overrides) => overrides.as_slice(),
                    LatticeBody::Sum(variants, overrides) => {
                        for ty in variants.iter().filter_map(|(_, t)| t.as_ref()) {
                            self.refer_type(file, ty);
                        }
                        overrides.as_slice()
                    }
                    LatticeBody::Struct {
                        fields, overrides, ..
                    } => {
                        for (_, ty) in fields {
                            self.refer_type(file, ty);
                        }
                        overrides.as_slice()
                    }
                };
                for o in overrides {
                    let mut scope = Scope::default();
                    for name in &o.params {
                        self.param(file, name, parent, None, &o.span, &mut scope);
                    }
                    self.refer_expr(file, &o.body, &scope);
                }
            }
            Item::Product(p) => {
                for c in &p.components {
                    self.refer_type(file, &c.ty);
                }
            }
            Item::Analysis(a) => {
                for (_, values) in &a.settings {
                    for value in values {
                        if let Setting::Word(word) = value
                            && let Some(def) = self.global(&word.text)
                        {
                            self.refer(file, &word.span, def);
                        }
                    }
                }
            }
        }
    }

    /// The declaration of this very name (not a duplicate's first declaration).
    fn def_named(&self, file: FileId, name: &Name) -> Option<DefId> {
        self.defs
            .iter()
            .position(|d| d.file == file && d.span == name.span)
    }

    /// A member (variant, field or component) called `name` of the type `owner`, aliases
    /// followed.
    fn member_of(&self, owner: DefId, name: &str) -> Option<DefId> {
        let owner = self.unalias(owner);
        self.children(owner)
            .find(|(_, d)| d.name == name && !matches!(d.kind, Kind::Param))
            .map(|(id, _)| id)
    }

    fn unalias(&self, mut def: DefId) -> DefId {
        for _ in 0..self.defs.len() {
            let d = &self.defs[def];
            if d.kind != Kind::Alias {
                break;
            }
            match d.ty.as_deref().and_then(|t| self.global(t)) {
                Some(target) => def = target,
                None => break,
            }
        }
        def
    }

    fn refer_path(&mut self, file: FileId, path: &[Name], scope: &Scope) {
        match path {
            [single] => {
                if let Some(def) = scope.get(&single.text) {
                    self.refer(file, &single.span, def);
                } else if let Some(def) = self.global(&single.text) {
                    self.refer(file, &single.span, def);
                }
            }
            [owner, item, ..] => {
                if let Some(def) = self.global(&owner.text) {
                    self.refer(file, &owner.span, def);
                    if let Some(member) = self.member_of(def, &item.text) {
                        self.refer(file, &item.span, member);
                    }
                }
            }
            [] => {}
        }
    }

    fn local(&mut self, file: FileId, name: &Name, scope: &Range<usize>, into: &mut Scope) {
        let id = self.add(Def {
            kind: Kind::Local,
            name: name.text.clone(),
            file,
            span: name.span.clone(),
            whole: name.span.clone(),
            parent: None,
            ty: None,
            scope: Some(scope.clone()),
        });
        into.names.push((name.text.clone(), id));
    }

    fn refer_pattern(
        &mut self,
        file: FileId,
        pattern: &Pattern,
        body: &Range<usize>,
        scope: &mut Scope,
    ) {
        match pattern {
            Pattern::Wildcard(_) | Pattern::Int(..) => {}
            Pattern::Tuple(parts, _) => {
                for part in parts {
                    self.refer_pattern(file, part, body, scope);
                }
            }
            Pattern::Variant { path, binders, .. } => {
                if let [single] = path.as_slice() {
                    // In a tuple pattern, a single name binds the part.
                    self.local(file, single, body, scope);
                } else {
                    self.refer_path(file, path, &Scope::default());
                }
                for binder in binders.iter().flatten() {
                    self.local(file, binder, body, scope);
                }
            }
        }
    }

    fn refer_expr(&mut self, file: FileId, e: &Expr, scope: &Scope) {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bits(_) | ExprKind::Bool(_) => {}
            ExprKind::Path(path) => self.refer_path(file, path, scope),
            ExprKind::Call(path, args) => {
                self.refer_path(file, path, scope);
                for a in args {
                    self.refer_expr(file, a, scope);
                }
            }
            ExprKind::StructLit(name, fields) => {
                let owner = self.global(&name.text);
                if let Some(def) = owner {
                    self.refer(file, &name.span, def);
                }
                for (field, value) in fields {
                    if let Some(member) = owner.and_then(|o| self.member_of(o, &field.text)) {
                        self.refer(file, &field.span, member);
                    }
                    self.refer_expr(file, value, scope);
                }
            }
            ExprKind::Field(base, field) => {
                self.refer_expr(file, base, scope);
                let owner = self.type_at(file, &base.span).and_then(|t| self.global(t));
                if let Some(member) = owner.and_then(|o| self.member_of(o, &field.text)) {
                    self.refer(file, &field.span, member);
                }
            }
            ExprKind::Tuple(parts) => {
                for p in parts {
                    self.refer_expr(file, p, scope);
                }
            }
            ExprKind::Unary(_, x) => self.refer_expr(file, x, scope),
            ExprKind::Binary(_, a, b) => {
                self.refer_expr(file, a, scope);
                self.refer_expr(file, b, scope);
            }
            ExprKind::Let(name, value, body) => {
                self.refer_expr(file, value, scope);
                let mut inner = scope.clone();
                self.local(file, name, &(name.span.start..body.span.end), &mut inner);
                self.refer_expr(file, body, &inner);
            }
            ExprKind::LetTuple(names, value, body) => {
                self.refer_expr(file, value, scope);
                let mut inner = scope.clone();
                for name in names.iter().flatten() {
                    self.local(file, name, &(name.span.start..body.span.end), &mut inner);
                }
                self.refer_expr(file, body, &inner);
            }
            ExprKind::If(c, t, f) => {
                self.refer_expr(file, c, scope);
                self.refer_expr(file, t, scope);
                self.refer_expr(file, f, scope);
            }
            ExprKind::Match(scrutinee, arms) => {
                self.refer_expr(file, scrutinee, scope);
                for arm in arms {
                    let mut inner = scope.clone();
                    let start = arm
                        .patterns
                        .first()
                        .map_or(arm.body.span.start, pattern_start);
                    let reach = start..arm.body.span.end;
                    for pattern in &arm.patterns {
                        self.refer_pattern(file, pattern, &reach, &mut inner);
                    }
                    self.refer_expr(file, &arm.body, &inner);
                }
            }
        }
    }
}

fn pattern_start(p: &Pattern) -> usize {
    match p {
        Pattern::Wildcard(span) | Pattern::Int(_, span) | Pattern::Tuple(_, span) => span.start,
        Pattern::Variant { span, .. } => span.start,
    }
}

/// The names in scope in a body, innermost last.
#[derive(Clone, Debug, Default)]
struct Scope {
    names: Vec<(String, DefId)>,
}

impl Scope {
    fn get(&self, name: &str) -> Option<DefId> {
        self.names
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, id)| *id)
    }
}

/// A type as written, in one line.
pub fn type_text(ty: &Type) -> String {
    match ty {
        Type::Named { name, args, .. } if args.is_empty() => name.text.clone(),
        Type::Named { name, args, .. } => {
            let args: Vec<String> = args
                .iter()
                .map(|a| match a {
                    TypeArg::Type(t) => type_text(t),
                    TypeArg::Int(n, _) => n.to_string(),
                })
                .collect();
            format!("{}<{}>", name.text, args.join(", "))
        }
        Type::Tuple(parts, _) => {
            let parts: Vec<String> = parts.iter().map(type_text).collect();
            format!("({})", parts.join(", "))
        }
    }
}
