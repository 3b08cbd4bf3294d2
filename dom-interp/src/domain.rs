//! A product of a `.dom` file as a value domain: transfer dispatch to the declared rules,
//! reductions under the product's policy, blame for `verify`, the rules behind each operation
//! for explanations, and the kernel-term hooks — each as the generator writes them for the
//! product (`absinthe_domc::codegen::product` and `explain`).

use super::Interp;
use super::eval::{Scratch, grown};
use super::memo;
use super::numeric::Num;
use super::val::{Payload, Val};
use crate::plan::{Product as ProductDecl, RuleKind};
use absinthe::__private::with_site;
use absinthe::lattice::{Address, Flat, Interval, Lattice};
use absinthe::product::{ReducePolicy, log_reduction, recording_reductions};
use absinthe::program::{Op, SymbolId};
use absinthe::relational::Relation;
use absinthe::terms::{ArgKind, ParamId};
use absinthe::value::ValueDomain;
use absinthe_domc::dom::tree::{Shape, Ty};
use absinthe_domc::model::Policy;
use std::rc::Rc;

impl Interp {
    /// The product declaration behind `t` (a product or its direct companion).
    pub fn product_index(&self, t: &Ty) -> Option<usize> {
        match t {
            Ty::Lat(id) => self.product_of[*id],
            _ => None,
        }
    }

    /// [`Interp::product_index`] of every type, by id: made once, when the file is loaded.
    pub(crate) fn products_by_type(&self) -> Vec<Option<usize>> {
        (0..self.program.types.len())
            .map(|id| {
                let Ty::Lat(product) = self.direct_product(&Ty::Lat(id)) else {
                    unreachable!("a lattice's direct product is a lattice")
                };
                let name = self.program.types.name(&Ty::Lat(product));
                self.program
                    .products
                    .iter()
                    .position(|(d, _)| d.name == name)
            })
            .collect()
    }

    pub(crate) fn decl(&self, t: &Ty) -> &ProductDecl {
        let Some(i) = self.product_index(t) else {
            unreachable!(
                "`{}` is not a product: the checker gives operations on products only",
                self.type_name(t)
            )
        };
        &self.program.products[i].0
    }

    /// The reduction policy of `t`: the declared one, `Never` for a direct product.
    pub fn policy(&self, t: &Ty) -> ReducePolicy {
        if self.is_direct(t) {
            return ReducePolicy::Never;
        }
        self.declared_policy(t)
    }

    fn declared_policy(&self, t: &Ty) -> ReducePolicy {
        match self.decl(t).policy {
            Policy::Never => ReducePolicy::Never,
            Policy::Once => ReducePolicy::Once,
            Policy::Fixpoint(k) => ReducePolicy::Fixpoint(k),
        }
    }

    fn is_direct(&self, t: &Ty) -> bool {
        matches!(t, Ty::Lat(id) if matches!(self.program.types.shape(*id), Shape::Direct))
    }

    /// `ReducedProduct::reduce_with` on a copy of `value` (the identity for a product of one
    /// component without reductions). A value no reduction changes is given back as it is.
    pub fn reduced(&self, t: &Ty, value: Val, policy: ReducePolicy) -> Val {
        if self.single(t) {
            return value;
        }
        if self.is_bottom(t, &value) {
            return self.collapse(t);
        }
        let decl = self.decl(t);
        if decl.reductions.is_empty() || policy.max_rounds() == 0 {
            return value;
        }
        // The value made of the same components before, if this thread remembers it (see
        // `memo.rs`): only for the running file, whose run tells values apart.
        let (true, Some(run), Ty::Lat(product)) = (memo::worth_it(), crate::run_of(self), t) else {
            return grown(|| self.reduce_rounds(t, decl, value, policy));
        };
        let memo = (run, *product, policy.max_rounds());
        let parts = self.parts_in(t, &value);
        let Some(hash) = memo::key(parts) else {
            return grown(|| self.reduce_rounds(t, decl, value, policy));
        };
        if let Some(known) = memo::reduced(memo, hash, parts) {
            return known;
        }
        // The components before, kept while `value` is changed in place: plain values, copied
        // without allocating.
        let n = parts.len();
        let mut before: [Val; memo::MAX_PARTS] = std::array::from_fn(|_| Val::Bool(false));
        before[..n].clone_from_slice(parts);
        // Every reduction's body on one stack check (see `grown`), not one per call.
        let after = grown(|| self.reduce_rounds(t, decl, value, policy));
        memo::remember(memo, hash, &before[..n], &after);
        after
    }

    /// The rounds of [`Interp::reduced`] on `value`, which is not bottom.
    fn reduce_rounds(&self, t: &Ty, decl: &ProductDecl, value: Val, policy: ReducePolicy) -> Val {
        let types = self.part_types(t);
        // Whether `value` is written yet: a record shared with other values is copied at the
        // first change, one held by `value` alone (what a transfer just made) is changed in
        // place.
        let mut written = false;
        let mut value = value;
        let mut stack = Scratch::take();
        // A reduction is a function of its target and its source: one whose two components
        // have not changed since it last ran would refine nothing again, so it is skipped (the
        // generated code runs it and finds no change; the result and the log are the same).
        // `pending` holds a bit for each reduction that has not run yet or one of whose
        // components changed since it last ran (`Product::readers`); a product with more
        // reductions than bits runs every one.
        let skipping = !decl.readers.is_empty();
        let mut pending = u64::MAX;
        for _ in 0..policy.max_rounds() {
            let mut round = false;
            for (k, r) in decl.reductions.iter().enumerate() {
                if skipping {
                    let bit = 1u64 << k;
                    if pending & bit == 0 {
                        continue;
                    }
                    pending &= !bit;
                }
                let parts = self.parts_in(t, &value);
                stack.push(parts[r.target].clone());
                stack.push(parts[r.source].clone());
                let refined = self.call_grown(r.function, &mut stack, 0);
                let tt = &types[r.target];
                let old = &parts[r.target];
                if let Some(met) = self.refine(tt, old, refined) {
                    if recording_reductions() {
                        log_reduction(
                            &r.origin.describe,
                            decl.components[r.target].name(),
                            &self.shown(tt, old),
                            &self.shown(tt, &met),
                        );
                    }
                    let bottom = self.is_bottom(tt, &met);
                    if !written {
                        value = self.owned(t, value);
                        written = true;
                    }
                    self.parts_mut(t, &mut value)[r.target] = met;
                    if skipping {
                        // Its own target changed too: the next round runs it again on what it
                        // made, as the generated code does.
                        pending |= decl.readers[r.target];
                    }
                    round = true;
                    if bottom {
                        return self.collapse(t);
                    }
                }
                // Unchanged, the target is not bottom: a product is bottom when one of its
                // components is, `value` was not, and a reduction that made a component bottom
                // returned above (the generated code's test of it never holds here).
                debug_assert!(!self.is_bottom(tt, &self.parts_in(t, &value)[r.target]));
            }
            if !round {
                break;
            }
        }
        value
    }

    /// `meet(old, refined)` of `t` when it differs from `old` (a reduction's change), `None`
    /// when it does not: of intervals, constants and finite lattices' elements computed where
    /// they are, of other types by [`Interp::meet`] and [`Interp::eq`].
    fn refine(&self, t: &Ty, old: &Val, refined: Val) -> Option<Val> {
        match (self.shape(t), old, &refined) {
            (Shape::Interval, Val::Interval(x), Val::Interval(y)) => {
                let met = x.meet(y);
                (met != *x).then_some(Val::Interval(met))
            }
            (Shape::Constant, Val::Constant(x), Val::Constant(y)) => {
                let met = x.meet(y);
                (met != *x).then_some(Val::Constant(met))
            }
            (Shape::Finite { order, .. }, Val::Enum(x, _), Val::Enum(y, _)) => {
                let met = order.meet[*x][*y];
                (met != *x).then_some(Val::Enum(met, Payload::None))
            }
            _ => {
                let met = self.meet(t, old, &refined);
                (!self.eq(t, old, &met)).then_some(met)
            }
        }
    }

    /// The relation the engines keep for `t`'s relational component, if it has one
    /// (`ValueDomain::relation`).
    pub fn relation(&self, t: &Ty) -> Option<Relation> {
        self.relational(t).map(|(_, relation)| relation)
    }

    /// `t`'s relational component: its index and relation.
    fn relational(&self, t: &Ty) -> Option<(usize, Relation)> {
        self.product_index(t)
            .and_then(|i| self.program.products[i].0.relation)
    }

    /// The bounds `value`'s relational component holds; top without one
    /// (`ValueDomain::relation_bounds`).
    pub fn relation_bounds(&self, t: &Ty, value: &Val) -> Interval {
        let Some((i, _)) = self.relational(t) else {
            return Interval::top();
        };
        match self.part_at(t, value, i) {
            Val::Interval(bounds) => *bounds,
            other => self.mismatch("relation_bounds", &self.part_types(t)[i], other),
        }
    }

    /// `value` with its relational component met with `bounds` and the product's reductions run
    /// (`ValueDomain::with_relation_bounds`, as the generated code does it); `value` itself
    /// without one.
    pub fn with_relation_bounds(&self, t: &Ty, value: &Val, bounds: Interval) -> Val {
        let Some((i, _)) = self.relational(t) else {
            return value.clone();
        };
        let ct = &self.part_types(t)[i];
        let met = self.meet(ct, self.part_at(t, value, i), &Val::Interval(bounds));
        let mut value = self.owned(t, value.clone());
        self.parts_mut(t, &mut value)[i] = met;
        self.reduced(t, value, self.policy(t))
    }

    /// `value`, a value of the product `t`, held by no other value: its record copied when it
    /// is shared.
    fn owned(&self, t: &Ty, value: Val) -> Val {
        if self.unwrapped(t) {
            return value;
        }
        match &value {
            Val::Record(parts) if Rc::strong_count(parts) == 1 && Rc::weak_count(parts) == 0 => {
                value
            }
            Val::Record(parts) => Val::Record(parts.iter().cloned().collect()),
            other => unreachable!(
                "a value of the product `{}` is a record, found {other:?}",
                self.type_name(t)
            ),
        }
    }

    /// The components of `value`, a value of the product `t` that [`Interp::owned`] gave.
    fn parts_mut<'v>(&self, t: &Ty, value: &'v mut Val) -> &'v mut [Val] {
        if self.unwrapped(t) {
            return std::slice::from_mut(value);
        }
        match value {
            Val::Record(parts) => match Rc::get_mut(parts) {
                Some(parts) => parts,
                None => unreachable!("`Interp::owned` gives a record no other value holds"),
            },
            other => unreachable!(
                "a value of the product `{}` is a record, found {other:?}",
                self.type_name(t)
            ),
        }
    }

    /// `v` printed as a value of `t`.
    fn shown(&self, t: &Ty, v: &Val) -> String {
        let mut out = String::new();
        self.show(t, v, &mut out);
        out
    }

    /// The components of `constant(c)`, before reduction.
    fn literal_parts(&self, t: &Ty, c: i64) -> Val {
        let decl = self.decl(t);
        let types = self.part_types(t);
        let mut stack = Scratch::take();
        self.assemble(
            t,
            decl.components.iter().enumerate().map(|(i, comp)| {
                let rule = decl.rule(&RuleKind::Literal, i);
                match rule {
                    Some(r) => {
                        stack.push(Val::Int(c));
                        self.call_on(r.function, &mut stack, 0)
                    }
                    None if comp.value_domain => self.runtime_constant(&types[i], c),
                    None => self.top(&types[i]),
                }
            }),
        )
    }

    /// The components of `binary(op, a, b)`, before reduction; `kinds` are the operands' term
    /// kinds when known (kernel terms).
    fn binary_parts(&self, t: &Ty, op: Op, a: &Val, b: &Val, kinds: (ArgKind, ArgKind)) -> Val {
        let decl = self.decl(t);
        let types = self.part_types(t);
        let mut stack = Scratch::take();
        self.assemble(
            t,
            decl.components
                .iter()
                .enumerate()
                .map(|(i, comp)| match decl.binary_rule(op, i) {
                    Some(r) => {
                        if r.kind == RuleKind::AnyBinary {
                            stack.push(Val::Op(op));
                        }
                        stack.push(a.clone());
                        stack.push(b.clone());
                        if r.with_kinds {
                            stack.push(Val::Kind(kinds.0));
                            stack.push(Val::Kind(kinds.1));
                        }
                        self.call_on(r.function, &mut stack, 0)
                    }
                    None if comp.value_domain => self.runtime_binary(
                        &types[i],
                        op,
                        self.part_at(t, a, i),
                        self.part_at(t, b, i),
                    ),
                    None => self.top(&types[i]),
                }),
        )
    }

    /// `assume(op, a, b)` before reduction: every component refined by its rule, met with what
    /// was known.
    fn assume_parts(&self, t: &Ty, op: Op, a: &Val, b: &Val) -> (Val, Val) {
        let decl = self.decl(t);
        let types = self.part_types(t);
        let (mut ra, mut rb) = (self.parts_in(t, a).to_vec(), self.parts_in(t, b).to_vec());
        let mut stack = Scratch::take();
        for (i, comp) in decl.components.iter().enumerate() {
            let (x, y) = match decl.assume_rule(op, i) {
                Some(r) => {
                    if r.kind == RuleKind::AnyAssume {
                        stack.push(Val::Op(op));
                    }
                    stack.push(a.clone());
                    stack.push(b.clone());
                    let refined = self.call_on(r.function, &mut stack, 0);
                    (refined.part(0).clone(), refined.part(1).clone())
                }
                None if comp.value_domain => {
                    self.runtime_assume(&types[i], op, self.part_at(t, a, i), self.part_at(t, b, i))
                }
                None => (self.part_at(t, a, i).clone(), self.part_at(t, b, i).clone()),
            };
            ra[i] = self.meet(&types[i], self.part_at(t, a, i), &x);
            rb[i] = self.meet(&types[i], self.part_at(t, b, i), &y);
        }
        (self.assemble(t, ra), self.assemble(t, rb))
    }

    /// `ValueDomain::address`: each component's `on address` rule, else its built-in
    /// abstraction (an `Address` knows the symbol; the other built-ins are top), else top.
    pub fn address(&self, t: &Ty, symbol: SymbolId) -> Val {
        let decl = self.decl(t);
        let types = self.part_types(t);
        let raw = self.assemble(
            t,
            decl.components.iter().enumerate().map(|(i, comp)| {
                let rule = decl.rule(&RuleKind::Address, i);
                match rule {
                    Some(r) => self.call(r.function, &[Val::Int(i64::from(symbol.0))]),
                    None if comp.value_domain => self.runtime_address(&types[i], symbol),
                    None => self.top(&types[i]),
                }
            }),
        );
        self.reduced(t, raw, self.policy(t))
    }

    /// `ValueDomain::constant`.
    pub fn constant(&self, t: &Ty, c: i64) -> Val {
        let raw = self.literal_parts(t, c);
        self.reduced(t, raw, self.policy(t))
    }

    /// `ValueDomain::binary`.
    pub fn transfer(&self, t: &Ty, op: Op, a: &Val, b: &Val) -> Val {
        if self.is_bottom(t, a) || self.is_bottom(t, b) {
            return self.bottom(t);
        }
        let raw = self.binary_parts(t, op, a, b, (ArgKind::Other, ArgKind::Other));
        self.reduced(t, raw, self.policy(t))
    }

    /// `ValueDomain::assume`.
    pub fn assume(&self, t: &Ty, op: Op, a: &Val, b: &Val) -> (Val, Val) {
        let (ra, rb) = self.assume_parts(t, op, a, b);
        let policy = self.policy(t);
        (self.reduced(t, ra, policy), self.reduced(t, rb, policy))
    }

    /// Whether the product has kernel-term hooks (rules on `cond`, `param`, `apply`,
    /// `function`, or rules that read argument kinds); without them the trait's defaults apply.
    pub fn has_hooks(&self, t: &Ty) -> bool {
        self.decl(t)
            .rules
            .iter()
            .any(|r| r.with_kinds || r.kind.is_kernel_hook())
    }

    /// `ValueDomain::term_binary` with hooks.
    pub fn term_binary(&self, t: &Ty, op: Op, a: (&Val, ArgKind), b: (&Val, ArgKind)) -> Val {
        let raw = self.binary_parts(t, op, a.0, b.0, (a.1, b.1));
        self.reduced(t, raw, self.policy(t))
    }

    /// A kernel hook's value per component: the declared rule on `args`, else the component's
    /// own hook (`uses builtin`), else `default`.
    fn hook(
        &self,
        t: &Ty,
        kind: RuleKind,
        args: &[Val],
        builtin: &dyn Fn(usize, &Ty) -> Val,
        default: &dyn Fn(usize, &Ty) -> Val,
    ) -> Val {
        let decl = self.decl(t);
        let types = self.part_types(t);
        let raw = self.assemble(
            t,
            decl.components
                .iter()
                .enumerate()
                .map(|(i, comp)| match decl.rule(&kind, i) {
                    Some(r) => self.call(r.function, args),
                    None if comp.value_domain => builtin(i, &types[i]),
                    None => default(i, &types[i]),
                }),
        );
        self.reduced(t, raw, self.policy(t))
    }

    /// `ValueDomain::term_cond` with hooks.
    pub fn term_cond(&self, t: &Ty, p: &Val, a: &Val, b: &Val) -> Val {
        let builtin = |i: usize, ct: &Ty| {
            self.runtime_cond(
                ct,
                self.part_at(t, p, i),
                self.part_at(t, a, i),
                self.part_at(t, b, i),
            )
        };
        let default =
            |i: usize, ct: &Ty| self.join(ct, self.part_at(t, a, i), self.part_at(t, b, i));
        let args = [p.clone(), a.clone(), b.clone()];
        self.hook(t, RuleKind::Cond, &args, &builtin, &default)
    }

    /// `ValueDomain::term_param` with hooks.
    pub fn term_param(&self, t: &Ty, param: ParamId, bound: &Val) -> Val {
        let same = |i: usize, _: &Ty| self.part_at(t, bound, i).clone();
        let args = [Val::Param(param), bound.clone()];
        self.hook(t, RuleKind::Param, &args, &same, &same)
    }

    /// `ValueDomain::term_apply` with hooks.
    pub fn term_apply(&self, t: &Ty, operator: &Val, result: &Val) -> Val {
        let same = |i: usize, _: &Ty| self.part_at(t, result, i).clone();
        let args = [operator.clone(), result.clone()];
        self.hook(t, RuleKind::Apply, &args, &same, &same)
    }

    /// `ValueDomain::term_function` with hooks.
    pub fn term_function(&self, t: &Ty) -> Val {
        let bottom = |_: usize, ct: &Ty| self.bottom(ct);
        self.hook(t, RuleKind::Function, &[], &bottom, &bottom)
    }

    /// Component `i`'s report line for `binary(op, _, _)`: its rule for `op`, else its
    /// catch-all, else its built-in transfer function, else none (the generated
    /// `__absinthe_binary_rules` has the same lines).
    fn binary_rule_line(decl: &ProductDecl, i: usize, op: Op) -> String {
        let comp = &decl.components[i];
        let rule = match decl.binary_rule(op, i) {
            Some(r) => r.origin.describe.clone(),
            None if comp.value_domain => {
                format!("the built-in transfer function of `{}`", comp.type_name())
            }
            None => format!("no rule (component `{}` is top)", comp.name()),
        };
        format!("component `{}`: {rule}", comp.name())
    }

    /// Component `i`'s report line for `constant(_)`.
    fn literal_rule_line(decl: &ProductDecl, i: usize) -> String {
        let comp = &decl.components[i];
        let rule = match decl.rule(&RuleKind::Literal, i) {
            Some(r) => r.origin.describe.clone(),
            None if comp.value_domain => {
                format!("the built-in literal rule of `{}`", comp.type_name())
            }
            None => format!("no rule (component `{}` is top)", comp.name()),
        };
        format!("component `{}`: {rule}", comp.name())
    }

    /// Component `i`'s report line for `assume(op, _, _)`.
    fn assume_rule_line(decl: &ProductDecl, i: usize, op: Op) -> String {
        let comp = &decl.components[i];
        let rule = match decl.assume_rule(op, i) {
            Some(r) => r.origin.describe.clone(),
            None if comp.value_domain => {
                format!("the built-in branch refinement of `{}`", comp.type_name())
            }
            None => "no rule (not refined)".to_string(),
        };
        format!("component `{}`: {rule}", comp.name())
    }

    /// Every component's report line, `line(decl, i)`; none when `t` is not a product.
    fn rule_lines(&self, t: &Ty, line: impl Fn(&ProductDecl, usize) -> String) -> Vec<String> {
        if self.product_index(t).is_none() {
            return Vec::new();
        }
        let decl = self.decl(t);
        (0..decl.components.len()).map(|i| line(decl, i)).collect()
    }

    /// `ValueDomain::rules_binary`: each component's rule for `op` (a direct product's are
    /// those of its product).
    pub fn rules_binary(&self, t: &Ty, op: Op) -> Vec<String> {
        self.rule_lines(t, |decl, i| Self::binary_rule_line(decl, i, op))
    }

    /// `ValueDomain::rules_constant`.
    pub fn rules_constant(&self, t: &Ty) -> Vec<String> {
        self.rule_lines(t, Self::literal_rule_line)
    }

    /// `ValueDomain::rules_assume`.
    pub fn rules_assume(&self, t: &Ty, op: Op) -> Vec<String> {
        self.rule_lines(t, |decl, i| Self::assume_rule_line(decl, i, op))
    }

    /// `ValueDomain::blame_binary`: the component whose rule excludes `v`, or the reduction.
    pub fn blame_binary(&self, t: &Ty, op: Op, a: &Val, b: &Val, v: i64) -> Option<String> {
        if self.is_direct(t) || self.is_bottom(t, a) || self.is_bottom(t, b) {
            return None;
        }
        let raw = self.binary_parts(t, op, a, b, (ArgKind::Other, ArgKind::Other));
        let decl = self.decl(t);
        let types = self.part_types(t);
        for (i, ty) in types.iter().enumerate() {
            if !self.contains(ty, self.part_at(t, &raw, i), v) {
                let line = Self::binary_rule_line(decl, i, op);
                let site = decl.binary_rule(op, i).and_then(|r| {
                    let site = r.site.as_ref()?;
                    let mut args = Vec::new();
                    if r.kind == RuleKind::AnyBinary {
                        args.push(Val::Op(op));
                    }
                    args.extend([a.clone(), b.clone()]);
                    if r.with_kinds {
                        args.extend([Val::Kind(ArgKind::Other), Val::Kind(ArgKind::Other)]);
                    }
                    self.site_of(site, &args, Some(v))
                });
                return Some(with_site(&line, site));
            }
        }
        self.blame_reduce(t, raw, v)
    }

    /// `ValueDomain::blame_constant`.
    pub fn blame_constant(&self, t: &Ty, c: i64) -> Option<String> {
        if self.is_direct(t) {
            return None;
        }
        let raw = self.literal_parts(t, c);
        let decl = self.decl(t);
        let types = self.part_types(t);
        for (i, ty) in types.iter().enumerate() {
            if !self.contains(ty, self.part_at(t, &raw, i), c) {
                let line = Self::literal_rule_line(decl, i);
                let site = decl
                    .rule(&RuleKind::Literal, i)
                    .and_then(|r| self.site_of(r.site.as_ref()?, &[Val::Int(c)], Some(c)));
                return Some(with_site(&line, site));
            }
        }
        self.blame_reduce(t, raw, c)
    }

    /// `ValueDomain::blame_assume`.
    pub fn blame_assume(
        &self,
        t: &Ty,
        op: Op,
        a: &Val,
        b: &Val,
        va: i64,
        vb: i64,
    ) -> Option<String> {
        if self.is_direct(t) {
            return None;
        }
        let (ra, rb) = self.assume_parts(t, op, a, b);
        let decl = self.decl(t);
        let types = self.part_types(t);
        for (i, ty) in types.iter().enumerate() {
            if !self.contains(ty, self.part_at(t, &ra, i), va)
                || !self.contains(ty, self.part_at(t, &rb, i), vb)
            {
                let line = Self::assume_rule_line(decl, i, op);
                let site = decl.assume_rule(op, i).and_then(|r| {
                    let site = r.site.as_ref()?;
                    let mut args = Vec::new();
                    if r.kind == RuleKind::AnyAssume {
                        args.push(Val::Op(op));
                    }
                    args.extend([a.clone(), b.clone()]);
                    self.site_of(site, &args, None)
                });
                return Some(with_site(&line, site));
            }
        }
        self.blame_reduce(t, ra, va)
            .or_else(|| self.blame_reduce(t, rb, vb))
    }

    /// `ValueDomain::blame_join`: the first component whose value along the edge holds `v` and
    /// whose joined value does not, as the generated code words it.
    /// A direct product's join is its product's, component by component.
    pub fn blame_join(&self, t: &Ty, incoming: &Val, joined: &Val, v: i64) -> Option<String> {
        let decl = self.decl(t);
        let types = self.part_types(t);
        for (i, ty) in types.iter().enumerate() {
            let (a, b) = (self.part_at(t, incoming, i), self.part_at(t, joined, i));
            if self.contains(ty, a, v) && !self.contains(ty, b, v) {
                let c = &decl.components[i];
                let (name, type_name) = (c.name(), c.type_name());
                return Some(if self.leq(ty, a, b) {
                    format!(
                        "component `{name}`: `contains` of `{type_name}` is not monotone (the \
                         joined value is above the incoming one but does not hold the value)"
                    )
                } else {
                    format!(
                        "component `{name}`: {}, is not above what it joins",
                        c.join_origin()
                    )
                });
            }
        }
        None
    }

    /// The reduction that removes `v` from `value`, if one does.
    fn blame_reduce(&self, t: &Ty, value: Val, v: i64) -> Option<String> {
        let decl = self.decl(t);
        if decl.reductions.is_empty() {
            return None;
        }
        let types = self.part_types(t);
        let mut parts: Vec<Val> = self.parts_in(t, &value).to_vec();
        for _ in 0..self.declared_policy(t).max_rounds() {
            let mut round = false;
            for r in &decl.reductions {
                let args = [parts[r.target].clone(), parts[r.source].clone()];
                let site = r
                    .site
                    .as_ref()
                    .and_then(|s| self.site_of(s, &args, Some(v)));
                let refined = self.call(r.function, &args);
                let tt = &types[r.target];
                let met = self.meet(tt, &parts[r.target], &refined);
                if !self.eq(tt, &parts[r.target], &met) {
                    parts[r.target] = met;
                    round = true;
                }
                if !self.contains(tt, &parts[r.target], v) {
                    let target = decl.components[r.target].name();
                    let line =
                        format!("reduction into component `{target}`: {}", r.origin.describe);
                    return Some(with_site(&line, site));
                }
            }
            if !round {
                break;
            }
        }
        None
    }

    /// `op` of a built-in value domain on a component that is none: never in a checked program
    /// (`uses builtin` is for `Interval`, `Constant`, `Address`, `Congruence`, `Parity`, `Sign`
    /// and `FiniteSum` only, and a `FiniteSum` holds `Interval`s or `Constant`s).
    fn not_builtin(&self, op: &str, t: &Ty) -> ! {
        unreachable!(
            "the checker lets `{op}` fall back to the built-in value domains `Interval`, \
             `Constant`, `Address`, `Congruence`, `Parity`, `Sign` and `FiniteSum` only, not to \
             `{}`",
            self.type_name(t)
        )
    }

    /// A built-in value domain's (`uses builtin`) literal.
    fn runtime_constant(&self, t: &Ty, c: i64) -> Val {
        match self.shape(t) {
            Shape::Interval => Val::Interval(Interval::constant(c)),
            Shape::Constant => Val::Constant(<Flat<i64> as ValueDomain>::constant(c)),
            Shape::Address => Val::Address(<Address as ValueDomain>::constant(c)),
            Shape::Numeric(n) => Val::Num(Num::constant(*n, c)),
            Shape::FiniteSum { inner, n } => {
                let one = self.runtime_constant(inner, c);
                self.canonical(inner, *n, vec![one])
            }
            _ => self.not_builtin("constant", t),
        }
    }

    /// A built-in value domain's abstraction of `addr @symbol`.
    fn runtime_address(&self, t: &Ty, symbol: SymbolId) -> Val {
        match self.shape(t) {
            Shape::Interval => Val::Interval(<Interval as ValueDomain>::address(symbol)),
            Shape::Constant => Val::Constant(<Flat<i64> as ValueDomain>::address(symbol)),
            Shape::Address => Val::Address(<Address as ValueDomain>::address(symbol)),
            Shape::Numeric(n) => Val::Num(Num::address(*n, symbol)),
            Shape::FiniteSum { inner, n } => {
                let one = self.runtime_address(inner, symbol);
                self.canonical(inner, *n, vec![one])
            }
            _ => self.not_builtin("address", t),
        }
    }

    /// A built-in value domain's transfer function.
    pub fn runtime_binary(&self, t: &Ty, op: Op, a: &Val, b: &Val) -> Val {
        match (self.shape(t), a, b) {
            (Shape::Interval, Val::Interval(x), Val::Interval(y)) => {
                Val::Interval(Interval::binary(op, x, y))
            }
            (Shape::Constant, Val::Constant(x), Val::Constant(y)) => {
                Val::Constant(<Flat<i64> as ValueDomain>::binary(op, x, y))
            }
            (Shape::Address, Val::Address(x), Val::Address(y)) => {
                Val::Address(<Address as ValueDomain>::binary(op, x, y))
            }
            (Shape::Numeric(_), Val::Num(x), Val::Num(y)) => match Num::binary(op, x, y) {
                Some(v) => Val::Num(v),
                None => self.mismatch("binary", t, &(a, b)),
            },
            // As the runtime's `FiniteSum`: the disjuncts' operation on each pair.
            (Shape::FiniteSum { inner, n }, _, _) => {
                let mut out = Vec::new();
                for x in self.values_of(a) {
                    for y in self.values_of(b) {
                        out.push(self.runtime_binary(inner, op, &x, &y));
                    }
                }
                self.canonical(inner, *n, out)
            }
            (Shape::Interval | Shape::Constant | Shape::Address | Shape::Numeric(_), _, _) => {
                self.mismatch("binary", t, &(a, b))
            }
            _ => self.not_builtin("binary", t),
        }
    }

    /// A built-in value domain's branch refinement.
    pub fn runtime_assume(&self, t: &Ty, op: Op, a: &Val, b: &Val) -> (Val, Val) {
        match (self.shape(t), a, b) {
            (Shape::Interval, Val::Interval(x), Val::Interval(y)) => {
                let (p, q) = Interval::assume(op, x, y);
                (Val::Interval(p), Val::Interval(q))
            }
            (Shape::Constant, Val::Constant(x), Val::Constant(y)) => {
                let (p, q) = <Flat<i64> as ValueDomain>::assume(op, x, y);
                (Val::Constant(p), Val::Constant(q))
            }
            (Shape::Address, Val::Address(x), Val::Address(y)) => {
                let (p, q) = <Address as ValueDomain>::assume(op, x, y);
                (Val::Address(p), Val::Address(q))
            }
            (Shape::Numeric(_), Val::Num(x), Val::Num(y)) => match Num::assume(op, x, y) {
                Some((p, q)) => (Val::Num(p), Val::Num(q)),
                None => self.mismatch("assume", t, &(a, b)),
            },
            // As the runtime's `FiniteSum`: each disjunct refined by every disjunct of the
            // other side, to the join of what the possible pairs leave of it.
            (Shape::FiniteSum { inner, n }, _, _) => {
                let (xs, ys) = (self.values_of(a), self.values_of(b));
                let refine = |mine: &[Val], theirs: &[Val], left: bool| {
                    let refined = mine.iter().map(|x| {
                        theirs.iter().fold(self.bottom(inner), |acc, y| {
                            let (kept, other) = if left {
                                self.runtime_assume(inner, op, x, y)
                            } else {
                                let (ry, rx) = self.runtime_assume(inner, op, y, x);
                                (rx, ry)
                            };
                            if self.is_bottom(inner, &kept) || self.is_bottom(inner, &other) {
                                acc
                            } else {
                                self.join(inner, &acc, &kept)
                            }
                        })
                    });
                    self.canonical(inner, *n, refined.collect())
                };
                (refine(&xs, &ys, true), refine(&ys, &xs, false))
            }
            (Shape::Interval | Shape::Constant | Shape::Address | Shape::Numeric(_), _, _) => {
                self.mismatch("assume", t, &(a, b))
            }
            _ => self.not_builtin("assume", t),
        }
    }

    fn runtime_cond(&self, t: &Ty, p: &Val, a: &Val, b: &Val) -> Val {
        match (self.shape(t), p, a, b) {
            (Shape::Interval, Val::Interval(p), Val::Interval(x), Val::Interval(y)) => {
                Val::Interval(Interval::term_cond(p, x, y))
            }
            (Shape::Constant, Val::Constant(p), Val::Constant(x), Val::Constant(y)) => {
                Val::Constant(<Flat<i64> as ValueDomain>::term_cond(p, x, y))
            }
            (Shape::Address, Val::Address(p), Val::Address(x), Val::Address(y)) => {
                Val::Address(<Address as ValueDomain>::term_cond(p, x, y))
            }
            (Shape::Numeric(_), Val::Num(q), Val::Num(x), Val::Num(y)) => {
                match Num::term_cond(q, x, y) {
                    Some(v) => Val::Num(v),
                    None => self.mismatch("term_cond", t, &(p, a, b)),
                }
            }
            (Shape::Interval | Shape::Constant | Shape::Address | Shape::Numeric(_), _, _, _) => {
                self.mismatch("term_cond", t, &(p, a, b))
            }
            // The trait's default, which the runtime's `FiniteSum` keeps: the join.
            (Shape::FiniteSum { .. }, _, _, _) => self.join(t, a, b),
            _ => self.not_builtin("term_cond", t),
        }
    }
}
