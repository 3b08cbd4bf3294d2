//! Checking `match`: the scrutinee's elements for exhaustiveness, each pattern checked against
//! them (unreachable and duplicate arms, binders, alternatives), and the arms as a tree.

use super::tuples::pattern_span;
use super::*;
use crate::dom::tree;

impl Checker<'_> {
    pub(super) fn matching(
        &mut self,
        scrutinee: &Expr,
        arms: &[crate::dom::ast::Arm],
        scope: &Scope,
        span: Range<usize>,
    ) -> (Ty, Node) {
        let (st, scrutinee_node) = self.expr(scrutinee, scope);
        if st.is_error() {
            return (Ty::Error, Node::Unreachable);
        }
        // The elements the scrutinee can be, for exhaustiveness: `None` for integers.
        let elements: Option<Vec<(String, Option<Ty>)>> = match &st {
            Ty::Int => None,
            Ty::Bool => {
                return self.error_help(
                    scrutinee.span.clone(),
                    "`match` on `bool` is written `if … { … } else { … }`".into(),
                    "a bool",
                    "use `if`".into(),
                );
            }
            Ty::Op | Ty::ArgKind => self.types.variants(&st),
            Ty::Param => {
                return self.error_help(
                    scrutinee.span.clone(),
                    "a `Param` cannot be matched on; compare it with `==`".into(),
                    "a parameter",
                    "write `if x == y { … } else { … }`".into(),
                );
            }
            Ty::Thresholds => {
                return self.error_help(
                    scrutinee.span.clone(),
                    "thresholds cannot be matched on".into(),
                    "thresholds",
                    "read them with `Thresholds::at_least(t, x, otherwise)` or `Thresholds::at_most(t, x, otherwise)`".into(),
                );
            }
            Ty::Lat(id) => match self.types.shape(*id) {
                Shape::Flat { .. }
                | Shape::Constant
                | Shape::Finite { .. }
                | Shape::Sum { .. }
                | Shape::Numeric(Numeric::Parity | Numeric::Sign) => self.types.variants(&st),
                Shape::Numeric(Numeric::Congruence) => {
                    return self.error_help(
                        scrutinee.span.clone(),
                        "`Congruence` cannot be matched on: its values are classes".into(),
                        "not an enumeration",
                        "read a class with `Congruence::modulus(x)` and `Congruence::residue(x)`"
                            .into(),
                    );
                }
                _ => {
                    return self.error(
                        scrutinee.span.clone(),
                        format!(
                            "`{}` cannot be matched on; match on its fields",
                            self.types.name(&st)
                        ),
                        "not an enumeration",
                    );
                }
            },
            Ty::Tuple(parts) => {
                let parts = parts.clone();
                return self.tuple_matching(&parts, (st, scrutinee_node), arms, scope, span);
            }
            Ty::Error => return (Ty::Error, Node::Unreachable),
        };
        let type_name = match &st {
            Ty::Op => "Op".to_string(),
            other => self.types.name(other),
        };
        let mut covered: Vec<String> = Vec::new();
        let mut seen_ints: Vec<i128> = Vec::new();
        let mut wildcard = false;
        // An unknown variant was reported: exhaustiveness is not reported on top of it.
        let mut bad_pattern = false;
        let mut result_ty: Option<Ty> = None;
        let mut tree_arms = Vec::new();
        for arm in arms {
            let mut arm_scope = scope.clone();
            let mut tree_pats = Vec::new();
            for pattern in &arm.patterns {
                if wildcard {
                    let s = pattern_span(pattern);
                    self.error_help(
                        s,
                        "this pattern can never match: an earlier `_` takes every value".into(),
                        "unreachable pattern",
                        "remove it, or move the `_` arm last".into(),
                    );
                    continue;
                }
                match pattern {
                    Pattern::Wildcard(_) => {
                        wildcard = true;
                        tree_pats.push(tree::Pat::Wildcard);
                    }
                    Pattern::Tuple(_, s) => {
                        self.error(
                            s.clone(),
                            format!("a tuple pattern on `{type_name}`"),
                            "not a tuple",
                        );
                        bad_pattern = true;
                    }
                    Pattern::Int(v, s) => {
                        if elements.is_some() {
                            self.error(
                                s.clone(),
                                format!("an integer pattern on `{type_name}`"),
                                "expected a variant",
                            );
                            continue;
                        }
                        let Ok(v) = i64::try_from(*v) else {
                            self.error(
                                s.clone(),
                                format!("{v} does not fit in `int`"),
                                "too large",
                            );
                            continue;
                        };
                        if seen_ints.contains(&i128::from(v)) {
                            self.error(
                                s.clone(),
                                format!("`{v}` is already matched above"),
                                "unreachable pattern",
                            );
                            continue;
                        }
                        seen_ints.push(i128::from(v));
                        tree_pats.push(tree::Pat::Int(v));
                    }
                    Pattern::Variant {
                        path,
                        binders,
                        span: s,
                    } => {
                        let Some(elements) = &elements else {
                            self.error(
                                s.clone(),
                                "a variant pattern on `int`".into(),
                                "expected an integer or `_`",
                            );
                            continue;
                        };
                        let (ptype, pvar) = match path.as_slice() {
                            [t, v] => (t.text.as_str(), v),
                            _ => {
                                self.error_help(
                                    s.clone(),
                                    "a variant pattern is written `Type::Variant`".into(),
                                    "expected `Type::Variant`",
                                    format!("for example `{type_name}::{}`", elements[0].0),
                                );
                                continue;
                            }
                        };
                        if ptype != type_name {
                            self.error(
                                path[0].span.clone(),
                                format!("a `{ptype}` pattern on a `{type_name}` value"),
                                "wrong type",
                            );
                            continue;
                        }
                        let Some((_, payload)) = elements.iter().find(|(n, _)| *n == pvar.text)
                        else {
                            // Bind the names anyway, so that the arm reports nothing more.
                            for b in binders.iter().flatten() {
                                arm_scope.bind_local(&b.text, Ty::Error);
                            }
                            let names: Vec<String> =
                                elements.iter().map(|(n, _)| format!("`{n}`")).collect();
                            let help =
                                did_you_mean(&pvar.text, elements.iter().map(|(n, _)| n.as_str()))
                                    .unwrap_or_else(|| {
                                        format!("its variants are {}", names.join(", "))
                                    });
                            self.error_help(
                                pvar.span.clone(),
                                format!("`{type_name}` has no variant `{}`", pvar.text),
                                "unknown variant",
                                help,
                            );
                            // One unknown variant: the arms cannot be counted.
                            bad_pattern = true;
                            continue;
                        };
                        if covered.contains(&pvar.text) {
                            self.error(
                                s.clone(),
                                format!("`{type_name}::{}` is already matched above", pvar.text),
                                "unreachable pattern",
                            );
                            continue;
                        }
                        covered.push(pvar.text.clone());
                        let want = usize::from(payload.is_some());
                        if binders.len() != want && !(binders.is_empty() && want == 1) {
                            self.error(s.clone(), format!("`{type_name}::{}` carries {want} value{}, the pattern binds {}", pvar.text, if want == 1 { "" } else { "s" }, binders.len()), "wrong number of bindings");
                            continue;
                        }
                        match (payload, binders.first()) {
                            (Some(pt), Some(Some(b))) => {
                                if arm.patterns.len() > 1 {
                                    self.error(
                                        b.span.clone(),
                                        "a pattern with alternatives cannot bind names".into(),
                                        "binding in an alternative",
                                    );
                                    continue;
                                }
                                arm_scope.bind_local(&b.text, pt.clone());
                                tree_pats.push(tree::Pat::Variant(
                                    pvar.text.clone(),
                                    Some(b.text.clone()),
                                ));
                            }
                            // No payload, or one the pattern does not bind.
                            _ => tree_pats.push(tree::Pat::Variant(pvar.text.clone(), None)),
                        }
                    }
                }
            }
            self.arm(arm, &arm_scope, tree_pats, &mut result_ty, &mut tree_arms);
        }
        if !wildcard && !bad_pattern {
            match &elements {
                None => {
                    self.error_help(
                        span.clone(),
                        "this `match` on `int` does not cover every integer".into(),
                        "not exhaustive",
                        "add a `_ => …` arm".into(),
                    );
                }
                Some(elements) => {
                    let missing: Vec<String> = elements
                        .iter()
                        .filter(|(n, _)| !covered.contains(n))
                        .map(|(n, _)| format!("`{type_name}::{n}`"))
                        .collect();
                    if !missing.is_empty() {
                        self.error_help(
                            span.clone(),
                            format!("this `match` does not cover {}", missing.join(", ")),
                            "not exhaustive",
                            "add the missing arms or a `_ => …` arm".into(),
                        );
                    }
                }
            }
        }
        let node = Node::Match(st, Box::new(scrutinee_node), tree_arms);
        (result_ty.unwrap_or(Ty::Error), node)
    }

    /// An arm's body, checked in `scope` (its pattern's names bound): its type must be the first
    /// arm's (`result_ty`, set by the first), and the arm joins `tree_arms` when one of its
    /// patterns checked.
    pub(super) fn arm(
        &mut self,
        arm: &crate::dom::ast::Arm,
        scope: &Scope,
        patterns: Vec<tree::Pat>,
        result_ty: &mut Option<Ty>,
        tree_arms: &mut Vec<tree::Arm>,
    ) {
        let (bt, body) = self.expr(&arm.body, scope);
        match result_ty {
            None => *result_ty = Some(bt),
            Some(want) => {
                let want = want.clone();
                self.expect(
                    arm.body.span.clone(),
                    &bt,
                    &want,
                    "the type of the first arm",
                );
            }
        }
        if !patterns.is_empty() {
            tree_arms.push(tree::Arm { patterns, body });
        }
    }
}
