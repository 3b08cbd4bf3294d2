//! Checking transfer rules: the trigger, the parameters it takes (with the kernel-term hooks
//! and argument kinds), the component a rule computes, and the rule's body and fallback.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Sema {
    pub(super) fn transfer(&mut self, place: &Place, t: &ast::Transfer) {
        let file = place.file;
        let sig = &t.sig;
        let params: Vec<Ty> = sig
            .params
            .iter()
            .map(|(_, ty)| self.resolve_type(file, ty))
            .collect();
        let result = self.resolve_type(file, &sig.result);
        if params.iter().any(Ty::is_error) || result.is_error() {
            return;
        }
        // The product: the type of the product parameters.
        let product_ty = params
            .iter()
            .find(|t| matches!(t, Ty::Lat(id) if self.types.is_product(*id)))
            .cloned();
        let kind = match &t.trigger {
            Trigger::Literal => RuleKind::Literal,
            Trigger::Address => RuleKind::Address,
            Trigger::AnyOp => RuleKind::AnyBinary,
            Trigger::AnyAssume => RuleKind::AnyAssume,
            Trigger::Cond => RuleKind::Cond,
            Trigger::Param => RuleKind::Param,
            Trigger::Apply => RuleKind::Apply,
            Trigger::Function => RuleKind::Function,
            Trigger::DemandAny => RuleKind::AnyDemand,
            Trigger::DemandCopy => RuleKind::DemandCopy,
            Trigger::Observe => RuleKind::Observe,
            Trigger::Op(op) | Trigger::Demand(op) => match model::op_variant(op) {
                Some(v) if matches!(t.trigger, Trigger::Demand(_)) => {
                    RuleKind::Demand(format_ident!("{}", v))
                }
                Some(v) => RuleKind::Binary(format_ident!("{}", v)),
                None => {
                    self.error_help(
                        file,
                        t.trigger_span.clone(),
                        format!("unknown operation `{op}`"),
                        "not an operation",
                        // Symbols are too short to tell typos apart; words are not.
                        (op.len() > 2)
                            .then(|| {
                                crate::diagnostic::did_you_mean(
                                    op,
                                    model::OPERATIONS.iter().map(|(sym, _)| *sym),
                                )
                            })
                            .flatten()
                            .unwrap_or_else(|| {
                                format!("the operations are {}", model::op_symbols())
                            }),
                    );
                    return;
                }
            },
            Trigger::Assume(op) => {
                if !COMPARISONS.contains(&op.as_str()) {
                    self.error_help(
                        file,
                        t.trigger_span.clone(),
                        format!("a branch can only assume a comparison, not `{op}`"),
                        "not a comparison",
                        format!(
                            "the comparisons are {}",
                            COMPARISONS.map(|c| format!("`{c}`")).join(", ")
                        ),
                    );
                    return;
                }
                match model::op_variant(op) {
                    Some(v) => RuleKind::Assume(format_ident!("{}", v)),
                    None => unreachable!("every comparison is an operation, `{op}` too"),
                }
            }
        };
        // The product this rule belongs to.
        let product_index = match &product_ty {
            Some(Ty::Lat(id)) => {
                let name = self.types.name(&Ty::Lat(*id));
                self.out
                    .program
                    .products
                    .iter()
                    .position(|(d, _)| d.name == name)
            }
            _ if self.out.program.products.len() == 1 => Some(0),
            // No product parameter (`on literal`, `on backward observe`, …): the one product
            // with a component of the rule's result type.
            _ => {
                let component = self.types.syn_type(&result);
                let mut owners = self
                    .out
                    .program
                    .products
                    .iter()
                    .enumerate()
                    .filter(|(_, (d, _))| d.components.iter().any(|c| c.ty == component))
                    .map(|(i, _)| i);
                match (owners.next(), owners.next()) {
                    (Some(i), None) => Some(i),
                    _ => None,
                }
            }
        };
        let Some(product_index) = product_index else {
            self.error_help(
                file,
                sig.span.clone(),
                "this rule belongs to no product".into(),
                "no product parameter",
                "a rule belongs to the product it takes as parameters (`(a: P, b: P)`); a rule \
                 without one (`on literal`, `on backward observe`) to the one product with a \
                 component of its result type, and here none or several have one"
                    .into(),
            );
            return;
        };
        let p = self.out.program.products[product_index].0.name.to_string();
        let p_ty = self.types.lookup(&p).unwrap_or(Ty::Error);
        // An operation's rule may also take what its arguments' terms are (kernel terms).
        let with_kinds = matches!(kind, RuleKind::Binary(_) | RuleKind::AnyBinary)
            && params.len() >= 2
            && params[params.len() - 2..] == [Ty::ArgKind, Ty::ArgKind];
        // A rule that names kinds but takes them wrongly is shown the form with kinds.
        let kinds: &[Ty] = if with_kinds || params.contains(&Ty::ArgKind) {
            &[Ty::ArgKind, Ty::ArgKind]
        } else {
            &[]
        };
        let (expected_params, expected): (Vec<Ty>, String) = match &kind {
            RuleKind::Literal => (vec![Ty::Int], "(c: int) -> C".into()),
            RuleKind::Address => (vec![Ty::Int], "(s: int) -> C".into()),
            RuleKind::Binary(_) => (
                [&[p_ty.clone(), p_ty.clone()], kinds].concat(),
                if kinds.is_empty() {
                    format!("(a: {p}, b: {p}) -> C")
                } else {
                    format!("(a: {p}, b: {p}, ka: ArgKind, kb: ArgKind) -> C")
                },
            ),
            RuleKind::AnyBinary => (
                [&[Ty::Op, p_ty.clone(), p_ty.clone()], kinds].concat(),
                if kinds.is_empty() {
                    format!("(op: Op, a: {p}, b: {p}) -> C")
                } else {
                    format!("(op: Op, a: {p}, b: {p}, ka: ArgKind, kb: ArgKind) -> C")
                },
            ),
            RuleKind::Cond => (
                vec![p_ty.clone(), p_ty.clone(), p_ty.clone()],
                format!("(p: {p}, a: {p}, b: {p}) -> C"),
            ),
            RuleKind::Param => (
                vec![Ty::Param, p_ty.clone()],
                format!("(x: Param, bound: {p}) -> C"),
            ),
            RuleKind::Apply => (
                vec![p_ty.clone(), p_ty.clone()],
                format!("(operator: {p}, result: {p}) -> C"),
            ),
            RuleKind::Function => (Vec::new(), "() -> C".into()),
            RuleKind::Demand(_) | RuleKind::DemandCopy => {
                (vec![p_ty.clone()], format!("(d: {p}) -> C"))
            }
            RuleKind::AnyDemand => (vec![Ty::Op, p_ty.clone()], format!("(op: Op, d: {p}) -> C")),
            RuleKind::Observe => (Vec::new(), "() -> C".into()),
            RuleKind::Assume(_) => (
                vec![p_ty.clone(), p_ty.clone()],
                format!("(a: {p}, b: {p}) -> (C, C)"),
            ),
            RuleKind::AnyAssume => (
                vec![Ty::Op, p_ty.clone(), p_ty.clone()],
                format!("(op: Op, a: {p}, b: {p}) -> (C, C)"),
            ),
        };
        if params != expected_params {
            let got = params
                .iter()
                .map(|t| self.types.name(t))
                .collect::<Vec<_>>()
                .join(", ");
            self.error_help(
                file,
                sig.span.clone(),
                format!(
                    "this rule takes ({got}); a rule on {} takes {}",
                    trigger_words(&t.trigger),
                    expected.split(" ->").next().unwrap_or("")
                ),
                "wrong parameters",
                format!(
                    "write `transfer {} on … {expected}` where C is a component of `{p}`",
                    sig.name.text
                ),
            );
            return;
        }
        let component_ty = match (&kind, &result) {
            (RuleKind::Assume(_) | RuleKind::AnyAssume, Ty::Tuple(parts))
                if parts.len() == 2 && parts[0] == parts[1] =>
            {
                parts[0].clone()
            }
            (RuleKind::Assume(_) | RuleKind::AnyAssume, _) => {
                self.error(
                    file,
                    sig.result.span(),
                    format!(
                        "a branch rule returns both refined operands: `(C, C)`, not `{}`",
                        self.types.name(&result)
                    ),
                    "wrong result type",
                );
                return;
            }
            _ => result.clone(),
        };
        let decl = &self.out.program.products[product_index].0;
        let component_syn = self.types.syn_type(&component_ty);
        let component = match decl
            .components
            .iter()
            .enumerate()
            .filter(|(_, c)| c.ty == component_syn)
            .map(|(i, _)| i)
            .collect::<Vec<_>>()
            .as_slice()
        {
            [i] => *i,
            [] if self.incomplete.contains(&p) => return,
            [] => {
                self.error(
                    file,
                    sig.result.span(),
                    format!(
                        "`{}` is not a component of `{p}`",
                        self.types.name(&component_ty)
                    ),
                    "not a component",
                );
                return;
            }
            _ => {
                self.error(
                    file,
                    sig.result.span(),
                    format!(
                        "`{p}` has several components of type `{}`",
                        self.types.name(&component_ty)
                    ),
                    "ambiguous component",
                );
                return;
            }
        };
        if let Some(previous) = decl
            .rules
            .iter()
            .find(|r| r.component == component && r.kind == kind)
        {
            let previous = previous
                .function
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default();
            self.error(
                file,
                sig.name.span.clone(),
                format!(
                    "a second rule for {} of component `{}`: `{previous}` already defines it",
                    trigger_words(&t.trigger),
                    component_name(decl, component)
                ),
                "duplicate rule",
            );
            return;
        }
        let describe = format!(
            "`transfer {}` at {}",
            sig.name.text,
            place.describe(sig.span.start)
        );
        self.out.program.products[product_index].0.rules.push(Rule {
            component,
            kind,
            function: syn::Path::from(format_ident!("{}", sig.name.text)),
            with_kinds,
            origin: Origin::new(Span::call_site(), describe.clone()),
            site: None,
        });
        let mut scope = Scope::default();
        for ((n, _), ty) in sig.params.iter().zip(&params) {
            scope.bind(&n.text, ty.clone());
        }
        let body = self.check_body(place, &t.body, &scope, &result);
        let site = self.site(
            place,
            &sig.name.text,
            &t.body,
            &body,
            &named(sig, &params),
            &result,
        );
        if let Some(rule) = self.out.program.products[product_index].0.rules.last_mut() {
            rule.site = site;
        }
        let fallback = match &result {
            // An overflow while refining refines nothing.
            Ty::Tuple(_) => Fallback::Operands(component),
            // An overflow in the body means the rule knows nothing.
            _ => Fallback::Top(component_ty),
        };
        self.record(
            &sig.name.text,
            tree::Function {
                role: Role::Rule,
                params: named(sig, &params),
                result,
                body,
                fallback,
                place: place.describe(sig.span.start),
                recursion: None,
            },
        );
    }
}

fn trigger_words(t: &Trigger) -> String {
    match t {
        Trigger::Op(op) => format!("`{op}`"),
        Trigger::AnyOp => "every operation".into(),
        Trigger::Literal => "literals".into(),
        Trigger::Address => "addresses".into(),
        Trigger::Assume(op) => format!("assuming `{op}`"),
        Trigger::AnyAssume => "assuming any comparison".into(),
        Trigger::Cond => "`cond`".into(),
        Trigger::Param => "parameters".into(),
        Trigger::Apply => "applications".into(),
        Trigger::Function => "functions".into(),
        Trigger::Demand(op) => format!("`{op}` backward"),
        Trigger::DemandAny => "every operation backward".into(),
        Trigger::DemandCopy => "copies backward".into(),
        Trigger::Observe => "observations".into(),
    }
}
