//! Checking lattice declarations: their shapes, the operations written out or derived, their
//! model, and how their concretization is given.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Sema {
    pub(super) fn resolve_lattice(&mut self, place: &Place, l: &ast::Lattice) {
        let file = place.file;
        let name = &l.name.text;
        let shape = match &l.body {
            LatticeBody::Flat(payload) => {
                let t = self.resolve_type(file, payload);
                if !matches!(t, Ty::Int | Ty::Bool | Ty::Error) {
                    self.error_help(
                        file,
                        payload.span(),
                        format!(
                            "a flat lattice's values are `int` or `bool`, not `{}`",
                            self.types.name(&t)
                        ),
                        "not a value type",
                        "for lattice payloads, declare a `sum` instead".to_string(),
                    );
                }
                Shape::Flat { payload: t }
            }
            LatticeBody::Finite(chains, written) => {
                self.validate_overrides(file, written, &["contains"]);
                let mut variants: Vec<String> = Vec::new();
                let mut pairs = Vec::new();
                for chain in chains {
                    let mut previous: Option<usize> = None;
                    for v in chain {
                        if let Err(message) = rust_ident(&v.text) {
                            self.error(file, v.span.clone(), message, "not usable as a name");
                        }
                        let index = match variants.iter().position(|x| *x == v.text) {
                            Some(i) => i,
                            None => {
                                variants.push(v.text.clone());
                                variants.len() - 1
                            }
                        };
                        if let Some(p) = previous {
                            pairs.push((p, index));
                        }
                        previous = Some(index);
                    }
                }
                if variants.len() > 255 {
                    self.error(
                        file,
                        l.name.span.clone(),
                        "a finite lattice has at most 255 elements".into(),
                        "too many elements",
                    );
                }
                match FiniteOrder::from_pairs(variants.len(), &pairs) {
                    Ok(order) => Shape::Finite { variants, order },
                    Err(e) => {
                        let message = order_message(&e, &variants);
                        self.error_help(
                            file,
                            l.name.span.clone(),
                            message,
                            "this order is not a lattice",
                            "every two elements need a least upper and a greatest lower bound"
                                .into(),
                        );
                        Shape::Error
                    }
                }
            }
            LatticeBody::Sum(summands, written) => {
                self.validate_overrides(file, written, &["contains"]);
                let mut out = Vec::new();
                for (v, t) in summands {
                    if let Err(message) = rust_ident(&v.text) {
                        self.error(file, v.span.clone(), message, "not usable as a name");
                    }
                    if v.text == "Bottom" || v.text == "Top" {
                        self.error(
                            file,
                            v.span.clone(),
                            format!("`{}` is added to every sum; do not declare it", v.text),
                            "reserved variant",
                        );
                    }
                    if out.iter().any(|(x, _): &(String, Option<Ty>)| *x == v.text) {
                        self.error(
                            file,
                            v.span.clone(),
                            format!("variant `{}` is declared twice", v.text),
                            "duplicate variant",
                        );
                    }
                    let payload = t.as_ref().map(|t| {
                        let resolved = self.resolve_type(file, t);
                        if !matches!(resolved, Ty::Lat(_) | Ty::Error) {
                            self.error(
                                file,
                                t.span(),
                                format!(
                                    "a summand carries a lattice, not `{}`",
                                    self.types.name(&resolved)
                                ),
                                "not a lattice",
                            );
                        }
                        resolved
                    });
                    out.push((v.text.clone(), payload));
                }
                Shape::Sum { summands: out }
            }
            LatticeBody::Struct {
                smash,
                fields,
                overrides,
            } => {
                let mut out: Vec<(String, Ty)> = Vec::new();
                for (f, t) in fields {
                    if let Err(message) = rust_ident(&f.text) {
                        self.error(file, f.span.clone(), message, "not usable as a name");
                    }
                    if out.iter().any(|(x, _)| *x == f.text) {
                        self.error(
                            file,
                            f.span.clone(),
                            format!("field `{}` is declared twice", f.text),
                            "duplicate field",
                        );
                    }
                    let resolved = self.resolve_type(file, t);
                    if !matches!(resolved, Ty::Lat(_) | Ty::Error | Ty::Int | Ty::Bool) {
                        self.error_help(
                            file,
                            t.span(),
                            format!(
                                "field `{}` of lattice `{name}` is `{}`, which is neither a lattice nor a plain `int` or `bool`",
                                f.text,
                                self.types.name(&resolved)
                            ),
                            "not a lattice",
                            "give the field a lattice type, or wrap the value in `flat(…)`".into(),
                        );
                    }
                    out.push((f.text.clone(), resolved));
                }
                let before = self.errors.len();
                self.validate_overrides(
                    file,
                    overrides,
                    &[
                        "join",
                        "meet",
                        "widen",
                        "narrow",
                        "leq",
                        "empty",
                        "contains",
                        "bottom",
                        "top",
                        "normalize",
                    ],
                );
                // A misspelt operation is reported once, not again as a missing one.
                if self.errors.len() == before {
                    self.require_written(file, name, fields, &out, overrides);
                }
                Shape::Struct {
                    fields: out,
                    smash: *smash,
                }
            }
        };
        self.types.define(name, shape);
    }

    /// A struct lattice with plain `int` or `bool` fields cannot derive what combines them: its
    /// `join`, `meet`, `leq`, `bottom` and `top` must be written out, and `widen` too with an
    /// `int` (its chains are as long as `int`). Reports what is missing at the first such field.
    pub(super) fn require_written(
        &mut self,
        file: FileId,
        name: &str,
        fields: &[(Name, ast::Type)],
        resolved: &[(String, Ty)],
        overrides: &[ast::Override],
    ) {
        let Some(first) = resolved
            .iter()
            .position(|(_, t)| matches!(t, Ty::Int | Ty::Bool))
        else {
            return;
        };
        let mut needed = vec!["join", "meet", "leq", "bottom", "top"];
        if resolved.iter().any(|(_, t)| *t == Ty::Int) {
            needed.push("widen");
        }
        let missing: Vec<&str> = needed
            .into_iter()
            .filter(|op| !overrides.iter().any(|o| o.op.text == *op))
            .collect();
        if missing.is_empty() {
            return;
        }
        let (field, ty) = (&fields[first].0, &fields[first].1);
        let list = missing
            .iter()
            .map(|op| format!("`{op}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let example = missing
            .iter()
            .map(|op| match *op {
                "bottom" | "top" => format!("{op}() = …;"),
                _ => format!("{op}(a, b) = …;"),
            })
            .collect::<Vec<_>>()
            .join(" ");
        self.error_help(
            file,
            ty.span(),
            format!(
                "field `{}` of lattice `{name}` is a plain `{}`, so {list} of `{name}` cannot be derived",
                field.text,
                self.types.name(&resolved[first].1)
            ),
            "a plain value",
            format!("write them out: `with {{ {example} }}`"),
        );
    }

    /// Checks the written-out operations of a lattice: known, allowed for its kind, the right
    /// number of parameters, each written once.
    pub(super) fn validate_overrides(
        &mut self,
        file: FileId,
        overrides: &[ast::Override],
        allowed: &[&str],
    ) {
        let mut seen: Vec<&str> = Vec::new();
        for o in overrides {
            let op = o.op.text.as_str();
            let arity = match op {
                "join" | "meet" | "widen" | "narrow" | "leq" | "contains" => Some(2),
                "empty" | "normalize" => Some(1),
                "bottom" | "top" => Some(0),
                _ => None,
            };
            // `widen(a, b, t)` also takes the thresholds the engine found.
            let arity = match arity {
                Some(2) if op == "widen" && o.params.len() == 3 => Some(3),
                other => other,
            };
            let Some(arity) = arity.filter(|_| allowed.contains(&op)) else {
                let list = allowed
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                self.error_help(
                    file,
                    o.op.span.clone(),
                    format!("`{op}` cannot be written out for this lattice"),
                    "unknown operation",
                    crate::diagnostic::did_you_mean(op, allowed.iter().copied()).unwrap_or_else(
                        || format!("this lattice's written-out operations are {list}"),
                    ),
                );
                continue;
            };
            if seen.contains(&op) {
                self.error(
                    file,
                    o.span.clone(),
                    format!("`{op}` is written out twice"),
                    "duplicate operation",
                );
                continue;
            }
            seen.push(op);
            if o.params.len() != arity {
                self.error(
                    file,
                    o.span.clone(),
                    format!(
                        "`{op}` takes {arity} parameter{}, this one {}",
                        if arity == 1 { "" } else { "s" },
                        o.params.len()
                    ),
                    "wrong number of parameters",
                );
            }
        }
    }

    /// Checks the functions of written-out operations and records them; returns them by their
    /// name in the model.
    pub(super) fn written_ops(
        &mut self,
        place: &Place,
        l: &ast::Lattice,
        id: usize,
        overrides: &[ast::Override],
    ) -> BTreeMap<String, syn::Path> {
        let me = Ty::Lat(id);
        let mut out = BTreeMap::new();
        for o in overrides {
            let op = o.op.text.as_str();
            let (result, params): (Ty, Vec<Ty>) = match op {
                "widen" if o.params.len() == 3 => {
                    (me.clone(), vec![me.clone(), me.clone(), Ty::Thresholds])
                }
                "join" | "meet" | "widen" | "narrow" => (me.clone(), vec![me.clone(), me.clone()]),
                "leq" => (Ty::Bool, vec![me.clone(), me.clone()]),
                "empty" => (Ty::Bool, vec![me.clone()]),
                "normalize" => (me.clone(), vec![me.clone()]),
                "contains" => (Ty::Bool, vec![me.clone(), Ty::Int]),
                "bottom" | "top" => (me.clone(), Vec::new()),
                _ => continue,
            };
            // The model's name: a widening with thresholds replaces both of the runtime's.
            let key = if params.len() == 3 {
                "widen_with_thresholds"
            } else {
                op
            };
            if o.params.len() != params.len()
                || out.contains_key(key)
                || (op == "widen" && out.keys().any(|k: &String| k.starts_with("widen")))
            {
                continue;
            }
            let mut scope = Scope::default();
            for (p, t) in o.params.iter().zip(&params) {
                scope.bind(&p.text, t.clone());
            }
            let body = self.check_body(place, &o.body, &scope, &result);
            let f = format_ident!("__{}_{}", l.name.text.to_lowercase(), op);
            let fallback = match op {
                "bottom" | "top" => {
                    // No sound value to fall back on: the body must not be able to fail.
                    let functions = &self.functions;
                    // A call of a `fn` can fail; an `extern fn` returns its value.
                    let fallible = |name: &str| match functions.get(name) {
                        Some(f) => !f.external,
                        None => unreachable!(
                            "the checker resolved every call in a body it checked, not `{name}`"
                        ),
                    };
                    if body.may_fail(&fallible) {
                        self.error_help(
                            place.file,
                            o.body.span.clone(),
                            format!("`{op}` of `{}` may fail: it uses checked arithmetic or a function that can", l.name.text),
                            "can fail",
                            "write the extremes with literals, `int::MIN`, `int::MAX` or the wrapping `+% -% *%`".into(),
                        );
                    }
                    Fallback::Fail
                }
                "join" | "widen" => Fallback::Top(me.clone()),
                // A normal form that overflows leaves the value as it is: the same value.
                "meet" | "narrow" | "normalize" => Fallback::Param(0),
                // An overflow while deciding membership must not lose a value: say yes.
                "contains" => Fallback::Bool(true),
                _ => Fallback::Bool(false),
            };
            self.record(
                &f.to_string(),
                tree::Function {
                    role: Role::Written(me.clone(), op.to_string()),
                    params: o
                        .params
                        .iter()
                        .zip(&params)
                        .map(|(p, t)| (p.text.clone(), t.clone()))
                        .collect(),
                    result,
                    body,
                    fallback,
                    place: place.describe(o.span.start),
                    recursion: None,
                },
            );
            out.insert(key.to_string(), syn::Path::from(f));
        }
        out
    }

    pub(super) fn lattice_model(&mut self, place: &Place, l: &ast::Lattice) {
        let Some(Ty::Lat(id)) = self.types.lookup(&l.name.text) else {
            return;
        };
        let shape = self.types.shape(id).clone();
        let name = format_ident!("{}", l.name.text);
        let origin = Origin::new(
            Span::call_site(),
            format!(
                "`lattice {}` at {}",
                l.name.text,
                place.describe(l.span.start)
            ),
        );
        let kind = match shape {
            Shape::Flat { payload } => LatticeKind::Flat(model::Flat {
                bottom: format_ident!("Bottom"),
                top: format_ident!("Top"),
                values: vec![Variant {
                    name: format_ident!("Value"),
                    fields: VariantFields::Tuple(vec![self.types.syn_type(&payload)]),
                }],
            }),
            Shape::Finite { variants, order } => LatticeKind::Finite(Finite {
                variants: variants.iter().map(|v| format_ident!("{}", v)).collect(),
                order,
            }),
            Shape::Sum { summands } => LatticeKind::Sum(Sum {
                bottom: format_ident!("Bottom"),
                top: format_ident!("Top"),
                summands: summands
                    .iter()
                    .map(|(v, t)| Variant {
                        name: format_ident!("{}", v),
                        fields: match t {
                            Some(t) => VariantFields::Tuple(vec![self.types.syn_type(t)]),
                            None => VariantFields::Unit,
                        },
                    })
                    .collect(),
            }),
            Shape::Struct { fields, smash } => {
                let LatticeBody::Struct { overrides, .. } = &l.body else {
                    return;
                };
                let mut written = self.written_ops(place, l, id, overrides);
                let empty_if = written.remove("empty");
                let normalize = written.remove("normalize");
                let (bottom, top) = (written.remove("bottom"), written.remove("top"));
                if let Some(f) = written.remove("contains") {
                    self.contains_fns.insert(l.name.text.clone(), f);
                }
                LatticeKind::Pointwise(Box::new(Pointwise {
                    fields: fields
                        .iter()
                        .map(|(f, t)| Field {
                            member: syn::Member::Named(format_ident!("{}", f)),
                            ty: self.types.syn_type(t),
                            ignored: false,
                            value: !matches!(t, Ty::Lat(_)),
                        })
                        .collect(),
                    smash,
                    empty_if,
                    normalize,
                    bottom,
                    top,
                    overrides: written.into_iter().collect(),
                    written_at: overrides
                        .iter()
                        .map(|o| (o.op.text.clone(), place.describe(o.span.start)))
                        .collect(),
                    generics: syn::Generics::default(),
                }))
            }
            _ => return,
        };
        self.concrete(place, l, id);
        self.out.program.lattices.push(LatticeDecl {
            name,
            origin,
            kind,
            has_top: true,
        });
    }

    /// Membership of concrete integers: written out with `contains(x, v)` (checked here), or
    /// derived by the back ends.
    pub(super) fn concrete(&mut self, place: &Place, l: &ast::Lattice, id: usize) {
        let written = match &l.body {
            LatticeBody::Finite(_, o) | LatticeBody::Sum(_, o) => {
                if o.iter().any(|o| o.op.text == "contains") {
                    self.written_ops(place, l, id, o).remove("contains")
                } else {
                    None
                }
            }
            LatticeBody::Struct { .. } => self.contains_fns.get(&l.name.text).cloned(),
            LatticeBody::Flat(_) => None,
        };
        self.out.program.decls.push(Decl::Concretization {
            lattice: Ty::Lat(id),
            contains: written.as_ref().map(model::function_name),
            place: place.describe(l.span.start),
        });
    }
}

impl Sema {
    /// For blame: where the join of each product component's lattice comes from (a checked
    /// program's, once every lattice is declared).
    pub(super) fn join_origins(&mut self) {
        let program = &mut self.out.program;
        for (product, _) in &mut program.products {
            let Some(Ty::Lat(id)) = self.types.lookup(&product.name.to_string()) else {
                unreachable!("a product of the model is a lattice type of the program")
            };
            let Shape::Product { components } = self.types.shape(id) else {
                unreachable!("a product of the model has the shape of a product")
            };
            for (c, (_, t)) in product.components.iter_mut().zip(components) {
                c.join_origin = Some(join_origin(&program.lattices, &self.types, t));
            }
        }
    }
}

/// For blame: where the join of the lattice `t` (a product's component) comes from — a
/// written-out `join`, the declaration it is derived for, or the runtime's lattice.
fn join_origin(lattices: &[LatticeDecl], types: &TypeTable, t: &Ty) -> String {
    let name = types.name(t);
    let declared = lattices.iter().find(|l| l.name == name);
    match (declared, t) {
        (Some(l), _) => {
            let written = match &l.kind {
                LatticeKind::Pointwise(p) => p.written_at.iter().find(|(op, _)| op == "join"),
                LatticeKind::Flat(_) | LatticeKind::Finite(_) | LatticeKind::Sum(_) => None,
            };
            match written {
                Some((_, at)) => format!("`join` of `{name}`, written out at {at}"),
                None => format!("`join` of `{name}`, derived for {}", l.origin.describe),
            }
        }
        (None, Ty::Lat(id)) if matches!(types.shape(*id), Shape::Extern) => {
            format!("`join` of `{name}`, the Rust type's `Lattice::join`")
        }
        (None, _) => format!("the runtime's `join` of `{name}`"),
    }
}
