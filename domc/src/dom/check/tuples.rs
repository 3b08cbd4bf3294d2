//! Checking `match` on a tuple: each arm's patterns are tuple patterns of as many parts (or `_`),
//! each part a pattern of the part's type (`_`, a name that binds the part, an integer, a
//! variant); an arm no value reaches is an error, and so is a `match` some value escapes, named
//! by one such value. Both are decided on the matrix of the arms' patterns by usefulness, as
//! Rust's own `match` is checked.

use super::*;
use crate::dom::tree;

/// One part of a pattern as usefulness sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Atom {
    /// `_` or a name: every value.
    Any,
    /// A variant, by name.
    Variant(String),
    /// An integer.
    Int(i64),
}

/// What a part of the scrutinee can be.
#[derive(Clone, Debug)]
enum Column {
    /// One of these variants: (name, as a value is written in messages).
    Variants(Vec<(String, String)>),
    /// An `int`: integer patterns, `_` and names.
    Ints,
    /// Values no pattern tells apart: only `_` and names match them.
    Open,
}

/// A value that `query` matches and no row of `rows` does, written part by part; `None` when
/// there is none (the rows cover `query`).
fn uncovered(rows: &[&[Atom]], query: &[Atom], columns: &[Column]) -> Option<Vec<String>> {
    let Some((first, query_rest)) = query.split_first() else {
        return rows.is_empty().then(Vec::new);
    };
    let Some((column, columns_rest)) = columns.split_first() else {
        unreachable!("a query has one part per column")
    };
    // The rows that match `atom` first, without their first part.
    let specialized = |atom: &Atom| -> Vec<&[Atom]> {
        (rows.iter())
            .filter(|r| r[0] == *atom || r[0] == Atom::Any)
            .map(|r| &r[1..])
            .collect()
    };
    let heads: Vec<&Atom> = rows.iter().map(|r| &r[0]).collect();
    let named = |atom: &Atom| -> String {
        match (atom, column) {
            (Atom::Variant(v), Column::Variants(all)) => all
                .iter()
                .find(|(n, _)| n == v)
                .map_or_else(|| v.clone(), |(_, shown)| shown.clone()),
            (Atom::Int(i), _) => i.to_string(),
            _ => "_".into(),
        }
    };
    if *first != Atom::Any {
        let mut witness = uncovered(&specialized(first), query_rest, columns_rest)?;
        witness.insert(0, named(first));
        return Some(witness);
    }
    match column {
        Column::Variants(all)
            if all
                .iter()
                .all(|(v, _)| heads.contains(&&Atom::Variant(v.clone()))) =>
        {
            // Every variant is named first somewhere: some variant's rows must leave a gap.
            all.iter().find_map(|(v, shown)| {
                let atom = Atom::Variant(v.clone());
                let mut witness = uncovered(&specialized(&atom), query_rest, columns_rest)?;
                witness.insert(0, shown.clone());
                Some(witness)
            })
        }
        _ => {
            // A first part no row names (another variant, another integer) reaches only the
            // rows that take any value there.
            let default: Vec<&[Atom]> = (rows.iter())
                .filter(|r| r[0] == Atom::Any)
                .map(|r| &r[1..])
                .collect();
            let mut witness = uncovered(&default, query_rest, columns_rest)?;
            let head = match column {
                // Not every variant is named first (the branch above takes that case).
                Column::Variants(all) => {
                    match (all.iter()).find(|(v, _)| !heads.contains(&&Atom::Variant(v.clone()))) {
                        Some((_, shown)) => shown.clone(),
                        None => unreachable!("a column whose variants are all named is complete"),
                    }
                }
                // The least integer from 0 up that no row names (there are finitely many rows).
                Column::Ints => match (0..).find(|i| !heads.contains(&&Atom::Int(*i))) {
                    Some(i) => i64::to_string(&i),
                    None => unreachable!("finitely many rows name finitely many integers"),
                },
                Column::Open => "_".into(),
            };
            witness.insert(0, head);
            Some(witness)
        }
    }
}

impl Checker<'_> {
    /// `match` on a value of the tuple type `parts`.
    pub(super) fn tuple_matching(
        &mut self,
        parts: &[Ty],
        scrutinee: (Ty, Node),
        arms: &[crate::dom::ast::Arm],
        scope: &Scope,
        span: Range<usize>,
    ) -> (Ty, Node) {
        let columns: Vec<Column> = parts.iter().map(|t| self.column(t)).collect();
        let mut rows: Vec<Vec<Atom>> = Vec::new();
        let mut result_ty: Option<Ty> = None;
        let mut tree_arms = Vec::new();
        // A pattern was wrong: exhaustiveness is not reported on top of it.
        let mut bad_pattern = false;
        for arm in arms {
            let mut arm_scope = scope.clone();
            let mut tree_pats = Vec::new();
            let alternatives = arm.patterns.len() > 1;
            for pattern in &arm.patterns {
                let Some((atoms, pat)) =
                    self.tuple_pattern(pattern, parts, &mut arm_scope, alternatives)
                else {
                    // Its names are in scope all the same (of no type), so that the arm's body
                    // reports nothing more.
                    bind_unbound(pattern, &mut arm_scope);
                    bad_pattern = true;
                    continue;
                };
                let earlier: Vec<&[Atom]> = rows.iter().map(Vec::as_slice).collect();
                if uncovered(&earlier, &atoms, &columns).is_none() {
                    self.error_help(
                        pattern_span(pattern),
                        "this pattern can never match: the arms above take every value it does"
                            .into(),
                        "unreachable pattern",
                        "remove it, or move it above the arms that take its values".into(),
                    );
                    continue;
                }
                rows.push(atoms);
                tree_pats.push(pat);
            }
            self.arm(arm, &arm_scope, tree_pats, &mut result_ty, &mut tree_arms);
        }
        if !bad_pattern {
            let all: Vec<&[Atom]> = rows.iter().map(Vec::as_slice).collect();
            let anything = vec![Atom::Any; parts.len()];
            if let Some(witness) = uncovered(&all, &anything, &columns) {
                self.error_help(
                    span,
                    format!("this `match` does not cover `({})`", witness.join(", ")),
                    "not exhaustive",
                    "add an arm for it, or a `_ => …` arm".into(),
                );
            }
        }
        let (st, scrutinee) = scrutinee;
        let node = Node::Match(st, Box::new(scrutinee), tree_arms);
        (result_ty.unwrap_or(Ty::Error), node)
    }

    /// What a part of type `t` can be, for usefulness.
    fn column(&self, t: &Ty) -> Column {
        let enumerated = match t {
            Ty::Op | Ty::ArgKind => true,
            Ty::Lat(id) => matches!(
                self.types.shape(*id),
                Shape::Flat { .. }
                    | Shape::Constant
                    | Shape::Finite { .. }
                    | Shape::Sum { .. }
                    | Shape::Numeric(Numeric::Parity | Numeric::Sign)
            ),
            _ => false,
        };
        if *t == Ty::Int {
            return Column::Ints;
        }
        let variants = if enumerated {
            self.types.variants(t)
        } else {
            None
        };
        match variants {
            Some(variants) => {
                let type_name = self.type_name(t);
                let shown = variants
                    .into_iter()
                    .map(|(v, payload)| {
                        let text = match payload {
                            Some(_) => format!("{type_name}::{v}(_)"),
                            None => format!("{type_name}::{v}"),
                        };
                        (v, text)
                    })
                    .collect();
                Column::Variants(shown)
            }
            None => Column::Open,
        }
    }

    fn type_name(&self, t: &Ty) -> String {
        match t {
            Ty::Op => "Op".to_string(),
            other => self.types.name(other),
        }
    }

    /// One alternative of an arm: `_` (every tuple) or a tuple pattern of `parts.len()` parts.
    /// Binds its names in `scope`; `None` after reporting a mistake.
    fn tuple_pattern(
        &mut self,
        pattern: &Pattern,
        parts: &[Ty],
        scope: &mut Scope,
        alternatives: bool,
    ) -> Option<(Vec<Atom>, tree::Pat)> {
        let items = match pattern {
            Pattern::Wildcard(_) => {
                return Some((vec![Atom::Any; parts.len()], tree::Pat::Wildcard));
            }
            Pattern::Tuple(items, s) if items.len() != parts.len() => {
                self.error(
                    s.clone(),
                    format!(
                        "this pattern has {} parts, and the tuple {}",
                        items.len(),
                        parts.len()
                    ),
                    "a pattern of another size",
                );
                return None;
            }
            Pattern::Tuple(items, _) => items,
            other => {
                self.error_help(
                    pattern_span(other),
                    "a `match` on a tuple takes tuple patterns".into(),
                    "not a tuple pattern",
                    format!(
                        "write one pattern per part, `({})`",
                        vec!["_"; parts.len()].join(", ")
                    ),
                );
                return None;
            }
        };
        let mut atoms = Vec::new();
        let mut pats = Vec::new();
        let mut ok = true;
        let mut bound = Vec::new();
        for (item, t) in items.iter().zip(parts) {
            match self.part_pattern(item, t, scope, (alternatives, &mut bound)) {
                Some((atom, pat)) => {
                    atoms.push(atom);
                    pats.push(pat);
                }
                None => ok = false,
            }
        }
        ok.then_some((atoms, tree::Pat::Tuple(pats)))
    }

    /// A pattern for one part, of type `t`.
    fn part_pattern(
        &mut self,
        pattern: &Pattern,
        t: &Ty,
        scope: &mut Scope,
        (alternatives, bound): (bool, &mut Vec<String>),
    ) -> Option<(Atom, tree::Pat)> {
        let type_name = self.type_name(t);
        // Whether `name` may be bound here: not in an arm with alternatives, not twice. A name
        // refused is in scope all the same (of no type), so that the arm reports nothing more.
        let bind = |this: &mut Self, bound: &mut Vec<String>, name: &Name| -> bool {
            if alternatives {
                this.error(
                    name.span.clone(),
                    "a pattern with alternatives cannot bind names".into(),
                    "binding in an alternative",
                );
                return false;
            }
            if bound.contains(&name.text) {
                this.error(
                    name.span.clone(),
                    format!("`{}` is bound twice in this pattern", name.text),
                    "bound again",
                );
                return false;
            }
            bound.push(name.text.clone());
            true
        };
        match pattern {
            Pattern::Wildcard(_) => Some((Atom::Any, tree::Pat::Wildcard)),
            Pattern::Tuple(_, s) => {
                self.error_help(
                    s.clone(),
                    "a tuple pattern inside a tuple pattern".into(),
                    "nested tuple",
                    "bind the inner tuple to a name and match it, or take it apart with `let`"
                        .into(),
                );
                None
            }
            Pattern::Int(v, s) => {
                if *t != Ty::Int {
                    self.error(
                        s.clone(),
                        format!("an integer pattern on a part of type `{type_name}`"),
                        "not an int",
                    );
                    return None;
                }
                let Ok(v) = i64::try_from(*v) else {
                    self.error(s.clone(), format!("{v} does not fit in `int`"), "too large");
                    return None;
                };
                Some((Atom::Int(v), tree::Pat::Int(v)))
            }
            Pattern::Variant {
                path,
                binders,
                span: s,
            } => {
                // A single name binds the part.
                if let ([name], true) = (path.as_slice(), binders.is_empty()) {
                    if !bind(self, bound, name) {
                        scope.bind_local(&name.text, Ty::Error);
                        return None;
                    }
                    scope.bind_local(&name.text, t.clone());
                    return Some((Atom::Any, tree::Pat::Bind(name.text.clone())));
                }
                let Column::Variants(variants) = self.column(t) else {
                    self.error(
                        s.clone(),
                        format!("a variant pattern on a part of type `{type_name}`"),
                        "not an enumeration",
                    );
                    return None;
                };
                let [ty_name, variant] = path.as_slice() else {
                    self.error(
                        s.clone(),
                        "a variant pattern is written `Type::Variant`".into(),
                        "expected `Type::Variant`",
                    );
                    return None;
                };
                if ty_name.text != type_name {
                    self.error(
                        ty_name.span.clone(),
                        format!(
                            "a `{}` pattern on a part of type `{type_name}`",
                            ty_name.text
                        ),
                        "wrong type",
                    );
                    return None;
                }
                let payload = match self
                    .types
                    .variants(t)
                    .and_then(|all| all.into_iter().find(|(n, _)| *n == variant.text))
                {
                    Some((_, payload)) => payload,
                    None => {
                        let help =
                            did_you_mean(&variant.text, variants.iter().map(|(n, _)| n.as_str()))
                                .unwrap_or_else(|| {
                                    let names: Vec<String> =
                                        variants.iter().map(|(n, _)| format!("`{n}`")).collect();
                                    format!("its variants are {}", names.join(", "))
                                });
                        self.error_help(
                            variant.span.clone(),
                            format!("`{type_name}` has no variant `{}`", variant.text),
                            "unknown variant",
                            help,
                        );
                        return None;
                    }
                };
                let want = usize::from(payload.is_some());
                if binders.len() != want && !(binders.is_empty() && want == 1) {
                    self.error(
                        s.clone(),
                        format!(
                            "`{type_name}::{}` carries {want} value{}, the pattern binds {}",
                            variant.text,
                            if want == 1 { "" } else { "s" },
                            binders.len()
                        ),
                        "wrong number of bindings",
                    );
                    return None;
                }
                let binder = match (payload, binders.first()) {
                    (Some(pt), Some(Some(b))) => {
                        if !bind(self, bound, b) {
                            scope.bind_local(&b.text, Ty::Error);
                            return None;
                        }
                        scope.bind_local(&b.text, pt);
                        Some(b.text.clone())
                    }
                    _ => None,
                };
                let atom = Atom::Variant(variant.text.clone());
                Some((atom, tree::Pat::Variant(variant.text.clone(), binder)))
            }
        }
    }
}

/// Binds every name `pattern` would bind and `scope` does not have yet, of no type.
fn bind_unbound(pattern: &Pattern, scope: &mut Scope) {
    let mut bind = |name: &Name| {
        if scope.get(&name.text).is_none() {
            scope.bind_local(&name.text, Ty::Error);
        }
    };
    match pattern {
        Pattern::Tuple(items, _) => items.iter().for_each(|p| bind_unbound(p, scope)),
        Pattern::Variant { path, binders, .. } => {
            if let ([name], true) = (path.as_slice(), binders.is_empty()) {
                bind(name);
            }
            binders.iter().flatten().for_each(bind);
        }
        Pattern::Wildcard(_) | Pattern::Int(..) => {}
    }
}

/// Where a pattern is written.
pub(super) fn pattern_span(p: &Pattern) -> Range<usize> {
    match p {
        Pattern::Wildcard(s) | Pattern::Int(_, s) | Pattern::Tuple(_, s) => s.clone(),
        Pattern::Variant { span, .. } => span.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of a column the brute force tries: every variant, or the integers 0 to 3.
    fn values(column: &Column) -> Vec<Atom> {
        match column {
            Column::Variants(all) => all.iter().map(|(v, _)| Atom::Variant(v.clone())).collect(),
            Column::Ints => (0..4).map(Atom::Int).collect(),
            Column::Open => vec![Atom::Any],
        }
    }

    fn covers(row: &[Atom], value: &[Atom]) -> bool {
        row.iter()
            .zip(value)
            .all(|(p, v)| *p == Atom::Any || p == v)
    }

    /// Every combination of the columns' values.
    fn combinations(columns: &[Column]) -> Vec<Vec<Atom>> {
        let mut out = vec![Vec::new()];
        for column in columns {
            out = out
                .into_iter()
                .flat_map(|prefix| {
                    values(column).into_iter().map(move |v| {
                        let mut next = prefix.clone();
                        next.push(v);
                        next
                    })
                })
                .collect();
        }
        out
    }

    /// On random matrices over variant columns of 1 to 3 variants and integer columns (rows
    /// naming only 0 to 2, so that 3 stands for every other integer), `uncovered` finds a value
    /// no row covers exactly when brute force over every value does, and its witness is one.
    #[test]
    fn uncovered_agrees_with_brute_force() {
        let mut seed: u64 = 0x5eed;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        for case in 0..3000 {
            let width = 1 + next(3) as usize;
            let columns: Vec<Column> = (0..width)
                .map(|_| match next(3) {
                    0 => Column::Ints,
                    n => Column::Variants(
                        (0..=n + next(2))
                            .map(|i| (format!("V{i}"), format!("T::V{i}")))
                            .collect(),
                    ),
                })
                .collect();
            let rows: Vec<Vec<Atom>> = (0..next(6))
                .map(|_| {
                    (columns.iter())
                        .map(|c| match (next(3), c) {
                            (0, _) => Atom::Any,
                            (_, Column::Variants(all)) => {
                                Atom::Variant(all[next(all.len() as u64) as usize].0.clone())
                            }
                            (_, _) => Atom::Int(next(3) as i64),
                        })
                        .collect()
                })
                .collect();
            let refs: Vec<&[Atom]> = rows.iter().map(Vec::as_slice).collect();
            let missed: Vec<Vec<Atom>> = (combinations(&columns).into_iter())
                .filter(|v| !rows.iter().any(|r| covers(r, v)))
                .collect();
            let witness = uncovered(&refs, &vec![Atom::Any; width], &columns);
            assert_eq!(
                witness.is_some(),
                !missed.is_empty(),
                "case {case}: columns {columns:?}, rows {rows:?}, witness {witness:?}"
            );
            if let Some(witness) = witness {
                let value: Vec<Atom> = (witness.iter().zip(&columns))
                    .map(|(w, c)| match c {
                        Column::Ints => Atom::Int(w.parse().expect("an integer witness")),
                        _ => Atom::Variant(w.trim_start_matches("T::").to_owned()),
                    })
                    .collect();
                assert!(
                    !rows.iter().any(|r| covers(r, &value)),
                    "case {case}: the witness {witness:?} is covered; rows {rows:?}"
                );
            }
        }
    }
}
