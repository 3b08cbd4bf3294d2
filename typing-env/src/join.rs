//! Joins over a common ancestor, and function summaries.
//!
//! Branches are environments derived from one ancestor; each passes arguments to the join
//! point. The join reads, from each branch's history past the ancestor's, what it changed: an
//! ancestor name a branch refined gets the join of the branches' approximations, and the join
//! point's parameters get the join of the arguments. Aliases join to an alias when both sides
//! name the same ancestor class. The names a branch defined are out of scope at the join: with
//! two branches, a name of each met in the same place (`(=y, =y)` joined with `(=z, =z)`)
//! becomes one existential of the result, `(=∃y, =∃y)` with `∃y` the join of what `y` and `z`
//! were (or the parameter itself, when both branches pass such names to it); any other alias of
//! a branch's name is expanded in its branch and the descriptions joined. Three branches or
//! more join two at a time (the join of two is derived from the ancestor as well), so a name
//! each of them met in the same place is still one existential. A case of a disjunction that only one branch brings
//! keeps, as its extension, what that branch passed for the other parameters — so the two
//! branches of `let tag, arg = if c then A, y else B, z` join into
//! `{arg : ⊤; tag : (A{arg : =y} | B{arg : =z})}`, and a later `tag = A` gives back `arg = y`.

use super::approx::{Approx, Block, Desc, Extension, Fields, Imm, Naked, Name, NumberKind};
use super::env::{TypingEnv, abstract_imms};
use super::ints::Ints;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// How deep aliases are expanded when a join has to look through them.
const DEPTH: usize = 8;

/// The most existentials one join introduces (past them, names are expanded away).
const MAX_EXISTENTIALS: usize = 32;

/// While two branches are joined, a name a branch defined stands in exported approximations as
/// `LOCAL[branch] + index` (only when every index is below `LOCAL_SPAN`).
const LOCAL: [u32; 2] = [1 << 31, (1 << 31) + (1 << 30)];
const LOCAL_SPAN: u32 = 1 << 30;

/// One branch reaching a join point: its environment and the arguments it passes.
#[derive(Clone, Copy, Debug)]
pub struct Branch<'a> {
    /// The branch's environment, derived from the ancestor.
    pub env: &'a TypingEnv,
    /// The arguments, one per parameter of the join point.
    pub args: &'a [Approx],
}

impl TypingEnv {
    /// Joins `branches`, each derived from `self`, into `self` with the join point's `params`
    /// defined; returns the environment and the parameters' names. Dead branches (a bottom
    /// environment) are left out; with none left every parameter is bottom.
    pub fn join(&self, branches: &[Branch<'_>], params: &[&str]) -> (TypingEnv, Vec<Name>) {
        let mut result = self.clone();
        let names: Vec<Name> = params
            .iter()
            .map(|p| result.define(p, Approx::Top))
            .collect();
        let live: Vec<&Branch<'_>> = branches.iter().filter(|b| !b.env.is_bottom()).collect();
        // Three branches or more: two at a time. The join of two is derived from the ancestor
        // too, passing its parameters on; a name every branch met in the same place stays one
        // existential, paired again with each next branch's.
        if let [first, second, rest @ ..] = live.as_slice()
            && !rest.is_empty()
        {
            let mut joined = self.join(&[**first, **second], params);
            for next in rest {
                let args: Vec<Approx> = joined.1.iter().map(|&n| Approx::Alias(n)).collect();
                let so_far = Branch {
                    env: &joined.0,
                    args: &args,
                };
                joined = self.join(&[so_far, **next], params);
            }
            return joined;
        }
        let from = self.history.len();
        for b in &live {
            // The branch's history extends the ancestor's (checked where it meets the tail, so
            // that the check costs nothing in the environment's size).
            assert!(
                b.env.len() >= self.len()
                    && b.env.history.len() >= from
                    && (from == 0 || b.env.history.get(from - 1) == self.history.last()),
                "a branch of a join must be derived from the ancestor"
            );
            assert_eq!(b.args.len(), params.len(), "one argument per parameter");
        }
        // With two branches, names each defined are paired where the joined values meet and
        // each pair becomes an existential of the result: `(=y, =y)` joined with `(=z, =z)`
        // is `(=∃y, =∃y)`, which keeps that both fields are one value.
        let small = |e: &TypingEnv| e.len() < LOCAL_SPAN as usize;
        let two = match live.as_slice() {
            [a, b] if small(a.env) && small(b.env) => Some([*a, *b]),
            _ => None,
        };
        let joiner = Joiner {
            ancestor: self.len(),
            params: &names,
            ints: self.ints(),
            max_imms: self.max_imms(),
            max_numbers: self.all_max_numbers(),
            two,
            first_existential: result.len(),
            seeded: BTreeMap::new(),
            existentials: RefCell::default(),
        };
        let mut joiner = joiner;
        if let Some([left, right]) = two {
            for (j, &param) in names.iter().enumerate() {
                let l = joiner.export(left, &left.args[j], None, 0);
                let r = joiner.export(right, &right.args[j], None, 0);
                if let (Approx::Alias(x), Approx::Alias(y)) = (l, r) {
                    if let (Some((0, x)), Some((1, y))) = (joiner.local(x), joiner.local(y)) {
                        joiner.seeded.entry((x, y)).or_insert(param);
                    }
                }
            }
        }
        let joiner = joiner;
        // Ancestor names that some branch changed.
        let changed: BTreeSet<Name> = live
            .iter()
            .flat_map(|b| b.env.history.skip(from))
            .filter(|n| n.index() < self.len())
            .collect();
        let changed: Vec<(Name, Approx)> = changed
            .into_iter()
            .map(|name| {
                let approxes: Vec<(usize, Approx)> = live
                    .iter()
                    .enumerate()
                    .map(|(i, b)| (i, b.env.approx_of(name)))
                    .collect();
                (name, joiner.join_all(&live, &approxes, None))
            })
            .collect();
        let joined_params: Vec<Approx> = (0..names.len())
            .map(|j| {
                let approxes: Vec<(usize, Approx)> = live
                    .iter()
                    .enumerate()
                    .map(|(i, b)| (i, b.args[j].clone()))
                    .collect();
                if live.is_empty() {
                    Approx::Bottom
                } else {
                    joiner.join_all(&live, &approxes, Some(j))
                }
            })
            .collect();
        // The existentials' approximations (finding one may pair more names); parameters that
        // stand for a pair get theirs the same way.
        let mut existentials: Vec<(String, Approx)> = Vec::new();
        let mut seeded: Vec<(Name, Approx)> = Vec::new();
        if let Some([left, right]) = two {
            for (&(x, y), &param) in &joiner.seeded {
                let a = joiner.export(left, &left.env.approx_of(x), None, DEPTH);
                let b = joiner.export(right, &right.env.approx_of(y), None, DEPTH);
                seeded.push((
                    param,
                    joiner.join2((&a, Some(left)), (&b, Some(right)), DEPTH),
                ));
            }
            let mut k = 0;
            loop {
                // The borrow ends here: joining the pair may pair more names (and so borrow the
                // list mutably).
                let next = joiner.existentials.borrow().get(k).copied();
                let Some((x, y)) = next else { break };
                let a = joiner.export(left, &left.env.approx_of(x), None, DEPTH);
                let b = joiner.export(right, &right.env.approx_of(y), None, DEPTH);
                let joined = joiner.join2((&a, Some(left)), (&b, Some(right)), DEPTH);
                existentials.push((left.env.plain_label(x), joined));
                k += 1;
            }
        }
        // Two existentials of one join may come from names of one label (in different branches,
        // or an existential of an earlier join): each prints apart, `∃y_1`, `∃y_1'`.
        let mut labels: BTreeSet<String> = BTreeSet::new();
        let ex: Vec<Name> = existentials
            .iter()
            .map(|(label, _)| {
                let mut label = label.clone();
                while !labels.insert(label.clone()) {
                    label.push('\'');
                }
                result.define_existential(&label, Approx::Top)
            })
            .collect();
        for (e, (_, approx)) in ex.iter().zip(&existentials) {
            if let Some(refined) = result.refine(*e, &joiner.resolve(approx, DEPTH)) {
                result = refined;
            }
        }
        for (name, joined) in changed.into_iter().chain(seeded) {
            if let Some(refined) = result.refine(name, &joiner.resolve(&joined, DEPTH)) {
                result = refined;
            }
        }
        for (&param, joined) in names.iter().zip(joined_params) {
            let joined = joiner.resolve(&joined, DEPTH);
            result = match result.refine(param, &joined) {
                Some(env) => env,
                None => {
                    let mut dead = result.clone();
                    dead.make_bottom(param);
                    dead
                }
            };
        }
        (result, names)
    }

    /// The summary of a function whose body ends in this environment: what it knows of `result`,
    /// in terms of `params` (other names expanded away) — `{result : (=x, =y)}` for
    /// `let f x y = (x, y)`.
    pub fn summary(&self, params: &[Name], result: Name) -> Extension {
        let keep: Vec<Name> = params.iter().map(|&p| self.canonical(p)).collect();
        let approx = self.restrict(&self.approx_of(result), &keep, DEPTH);
        Extension {
            constraints: BTreeMap::from([(result, approx)]),
        }
    }

    /// Applies a callee's `summary` at a call: its parameters stand for `args`, its result for
    /// `result`. `None` when the call cannot return here.
    pub fn apply_summary(
        &self,
        summary: &Extension,
        params: &[Name],
        args: &[Name],
        result: Name,
        callee_result: Name,
    ) -> Option<TypingEnv> {
        let rename = |n: Name| {
            if n == callee_result {
                result
            } else {
                params.iter().position(|&p| p == n).map_or(n, |i| args[i])
            }
        };
        let mut env = self.clone();
        for (name, approx) in summary.rename(&rename).constraints {
            env = env.refine(name, &approx)?;
        }
        Some(env)
    }

    /// `approx` keeping aliases of the `keep` classes and expanding every other alias.
    fn restrict(&self, approx: &Approx, keep: &[Name], depth: usize) -> Approx {
        match approx {
            Approx::Alias(n) => {
                let c = self.canonical(*n);
                if keep.contains(&c) {
                    Approx::Alias(c)
                } else if depth == 0 {
                    Approx::Top
                } else {
                    self.restrict(&self.approx_of(c), keep, depth - 1)
                }
            }
            other => map_parts(other, &|a| self.restrict(a, keep, depth.saturating_sub(1))),
        }
    }
}

/// `approx` with `f` applied to every field and every extension's approximation.
fn map_parts(approx: &Approx, f: &dyn Fn(&Approx) -> Approx) -> Approx {
    match approx {
        Approx::Known(Desc::Block(block)) => Approx::Known(Desc::Block(Block {
            tag: block.tag,
            fields: match &block.fields {
                Fields::Full(fields) => Fields::Full(fields.iter().map(f).collect()),
                Fields::Partial(known) => {
                    Fields::Partial(known.iter().map(|(&i, a)| (i, f(a))).collect())
                }
            },
        })),
        Approx::Known(Desc::Closure(c)) => Approx::closure(c.code, c.slots.iter().map(f)),
        Approx::Known(Desc::Untagged(known)) => Approx::Known(Desc::Untagged(
            known.iter().map(|(&i, a)| (i, f(a))).collect(),
        )),
        Approx::Known(Desc::Either(imms, blocks)) => {
            let imms = match map_parts(&Approx::Known(Desc::Imms(imms.clone())), f) {
                Approx::Known(Desc::Imms(cases)) => cases,
                _ => BTreeMap::new(),
            };
            Approx::either(imms, map_parts(&Approx::Known((**blocks).clone()), f))
        }
        Approx::Known(Desc::Variant(cases)) => Approx::Known(Desc::Variant(
            cases
                .iter()
                .map(|(&t, fields)| (t, fields.map(f)))
                .collect(),
        )),
        Approx::Known(Desc::Imms(cases)) => Approx::cases(
            cases
                .iter()
                .map(|(imm, ext)| {
                    let constraints = ext.constraints.iter().map(|(&n, a)| (n, f(a))).collect();
                    (imm.clone(), Extension { constraints })
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The integers `values` as a value of the declared domain `top` belongs to.
fn naked_part(top: &Ints, values: &BTreeSet<i64>) -> Option<Ints> {
    let imms: Vec<Imm> = values.iter().map(|&v| Imm::Int(v)).collect();
    abstract_imms(&top.top(), imms.iter())
}

struct Joiner<'a> {
    /// Names below this index are the ancestor's (the same in every branch).
    ancestor: usize,
    /// The join point's parameters, in the result.
    params: &'a [Name],
    /// The declared domain integers fall back to, if any.
    ints: Option<&'a Ints>,
    /// The most immediates a set keeps.
    max_imms: usize,
    /// The most values a set of naked numbers keeps, per kind.
    max_numbers: [usize; 4],
    /// The two branches, when exactly two are joined: names they defined are kept (as
    /// `LOCAL`) and paired into existentials.
    two: Option<[&'a Branch<'a>; 2]>,
    /// The result's name of the first existential.
    first_existential: usize,
    /// Pairs of names that are the join point's parameters themselves (both branches pass a
    /// name they defined): the parameter stands for the pair, no existential is needed.
    seeded: BTreeMap<(Name, Name), Name>,
    /// The pairs of names (the first branch's, the second's) each existential stands for, in
    /// order.
    existentials: RefCell<Vec<(Name, Name)>>,
}

impl Joiner<'_> {
    /// Two sets of naked integers joined in the declared domain, if there is one.
    fn naked_ints(&self, x: &Naked, y: &Naked) -> Option<Approx> {
        let top = self.ints?;
        let a = naked_part(top, x.values.as_ref()?)?;
        let b = naked_part(top, y.values.as_ref()?)?;
        Some(Approx::ints(a.join(&b)))
    }

    /// Which of the two joined branches `branch` is.
    fn branch_index(&self, branch: &Branch<'_>) -> Option<usize> {
        let [l, r] = self.two?;
        if std::ptr::eq(l, branch) {
            Some(0)
        } else if std::ptr::eq(r, branch) {
            Some(1)
        } else {
            None
        }
    }

    /// The branch and name a `LOCAL` name stands for.
    fn local(&self, n: Name) -> Option<(usize, Name)> {
        self.two?;
        let i = usize::from(n.0 >= LOCAL[1]);
        (n.0 >= LOCAL[0]).then(|| (i, Name(n.0 - LOCAL[i])))
    }

    /// `approx` with a `LOCAL` alias at its top replaced by what its branch knew of the name.
    fn expand_local(&self, approx: &Approx, depth: usize) -> Approx {
        match approx {
            Approx::Alias(n) => match (self.local(*n), self.two) {
                (Some((i, m)), Some(two)) if depth > 0 => {
                    let branch = two[i];
                    self.export(branch, &branch.env.approx_of(m), None, depth - 1)
                }
                (Some(_), _) => Approx::Top,
                _ => approx.clone(),
            },
            other => other.clone(),
        }
    }

    /// The existential of the result standing for the pair of names (the first branch's, the
    /// second's), made if new; `None` past [`MAX_EXISTENTIALS`].
    fn existential(&self, pair: (Name, Name)) -> Option<Name> {
        if let Some(&param) = self.seeded.get(&pair) {
            return Some(param);
        }
        let mut pairs = self.existentials.borrow_mut();
        let k = match pairs.iter().position(|&p| p == pair) {
            Some(k) => k,
            None if pairs.len() < MAX_EXISTENTIALS => {
                pairs.push(pair);
                pairs.len() - 1
            }
            None => return None,
        };
        Some(Name((self.first_existential + k) as u32))
    }

    /// `approx` with every `LOCAL` alias left (where one branch's value met nothing of the
    /// other's) expanded in its branch.
    fn resolve(&self, approx: &Approx, depth: usize) -> Approx {
        match approx {
            Approx::Alias(n) if self.local(*n).is_some() => {
                if depth == 0 {
                    return Approx::Top;
                }
                let expanded = self.expand_local(approx, depth);
                self.resolve(&expanded, depth - 1)
            }
            Approx::Known(Desc::Imms(cases)) => Approx::cases(
                cases
                    .iter()
                    .map(|(imm, ext)| {
                        let constraints = ext
                            .constraints
                            .iter()
                            .filter(|(n, _)| self.local(**n).is_none())
                            .map(|(&n, a)| (n, self.resolve(a, depth.saturating_sub(1))))
                            .collect();
                        (imm.clone(), Extension { constraints })
                    })
                    .collect(),
            ),
            other => map_parts(other, &|a| self.resolve(a, depth.saturating_sub(1))),
        }
    }

    /// The join of `approxes`, each read in its branch; `param` is the parameter being joined,
    /// if any (its cases carry what their branch passed for the others).
    fn join_all(
        &self,
        branches: &[&Branch<'_>],
        approxes: &[(usize, Approx)],
        param: Option<usize>,
    ) -> Approx {
        let mut iter = approxes.iter();
        let Some((first, a)) = iter.next() else {
            return Approx::Bottom;
        };
        // The accumulator is read in the first branch until a second one is joined in.
        let mut acc = self.export(branches[*first], a, param, DEPTH);
        let mut acc_branch = Some(branches[*first]);
        for (i, b) in iter {
            let branch = branches[*i];
            let b = self.export(branch, b, param, DEPTH);
            acc = self.join2((&acc, acc_branch), (&b, Some(branch)), DEPTH);
            acc_branch = None;
        }
        acc
    }

    /// `approx`, read in `branch`, in terms of the ancestor's names: an alias of a name the
    /// branch defined is expanded; a case of a disjunction gets the branch's other arguments.
    fn export(
        &self,
        branch: &Branch<'_>,
        approx: &Approx,
        param: Option<usize>,
        depth: usize,
    ) -> Approx {
        let env = branch.env;
        match approx {
            Approx::Alias(n) => {
                let c = env.canonical(*n);
                if c.index() < self.ancestor {
                    Approx::Alias(c)
                } else if let Some(i) = self.branch_index(branch).filter(|_| !env.is_constant(c)) {
                    Approx::Alias(Name(LOCAL[i] + c.0))
                } else if depth == 0 {
                    Approx::Top
                } else {
                    self.export(branch, &env.approx_of(c), param, depth - 1)
                }
            }
            Approx::Known(Desc::Imms(cases)) => {
                let mut out = BTreeMap::new();
                for (imm, ext) in cases {
                    let mut constraints: BTreeMap<Name, Approx> = ext
                        .constraints
                        .iter()
                        .filter(|(n, _)| n.index() < self.ancestor)
                        .map(|(&n, a)| (n, self.export(branch, a, None, depth.saturating_sub(1))))
                        .collect();
                    if let Some(j) = param {
                        for (k, &other) in self.params.iter().enumerate() {
                            if k == j {
                                continue;
                            }
                            let arg =
                                self.export(branch, &branch.args[k], None, depth.saturating_sub(1));
                            if arg != Approx::Top {
                                constraints.insert(other, arg);
                            }
                        }
                    }
                    out.insert(imm.clone(), Extension { constraints });
                }
                Approx::cases(out)
            }
            Approx::Known(Desc::Either(imms, blocks)) => {
                let imms = match self.export(
                    branch,
                    &Approx::Known(Desc::Imms(imms.clone())),
                    param,
                    depth,
                ) {
                    Approx::Known(Desc::Imms(cases)) => cases,
                    _ => BTreeMap::new(),
                };
                let blocks = self.export(branch, &Approx::Known((**blocks).clone()), None, depth);
                Approx::either(imms, blocks)
            }
            other => map_parts(other, &|a| {
                self.export(branch, a, None, depth.saturating_sub(1))
            }),
        }
    }

    /// The join of two exported approximations (aliases name ancestor classes only), each with
    /// the branch it was read in when there is one: where one side is an alias and the other is
    /// not, or both are aliases of different classes, an alias is expanded into what its branch
    /// knew of the class.
    fn join2(
        &self,
        a: (&Approx, Option<&Branch<'_>>),
        b: (&Approx, Option<&Branch<'_>>),
        depth: usize,
    ) -> Approx {
        let expand = |side: (&Approx, Option<&Branch<'_>>)| -> Option<Approx> {
            match (side.0, side.1) {
                (Approx::Alias(n), Some(branch)) if depth > 0 => {
                    Some(self.export(branch, &branch.env.approx_of(*n), None, depth - 1))
                }
                _ => None,
            }
        };
        let sub = |x: &Approx, y: &Approx| self.join2((x, a.1), (y, b.1), depth.saturating_sub(1));
        match (a.0, b.0) {
            (Approx::Bottom, x) | (x, Approx::Bottom) => x.clone(),
            (Approx::Top, _) | (_, Approx::Top) => Approx::Top,
            // A name each branch defined: one existential for the pair.
            (Approx::Alias(x), Approx::Alias(y))
                if matches!(
                    (self.local(*x), self.local(*y)),
                    (Some((0, _)), Some((1, _))) | (Some((1, _)), Some((0, _)))
                ) =>
            {
                let (Some((i, x)), Some((_, y))) = (self.local(*x), self.local(*y)) else {
                    return Approx::Top;
                };
                let pair = if i == 0 { (x, y) } else { (y, x) };
                match self.existential(pair) {
                    Some(e) => Approx::Alias(e),
                    None => {
                        let l = self.expand_local(a.0, depth);
                        let r = self.expand_local(b.0, depth);
                        self.join2((&l, a.1), (&r, b.1), depth.saturating_sub(1))
                    }
                }
            }
            // A name a branch defined, with anything else: what the branch knew of it.
            (Approx::Alias(x), _) | (_, Approx::Alias(x)) if self.local(*x).is_some() => {
                let l = self.expand_local(a.0, depth);
                let r = self.expand_local(b.0, depth);
                if depth == 0 {
                    return Approx::Top;
                }
                self.join2((&l, a.1), (&r, b.1), depth - 1)
            }
            (Approx::Alias(x), Approx::Alias(y)) if x == y => Approx::Alias(*x),
            (Approx::Alias(_), _) | (_, Approx::Alias(_)) => {
                let left = if matches!(a.0, Approx::Alias(_)) {
                    expand(a)
                } else {
                    Some(a.0.clone())
                };
                let right = if matches!(b.0, Approx::Alias(_)) {
                    expand(b)
                } else {
                    Some(b.0.clone())
                };
                match (left, right) {
                    (Some(l), Some(r))
                        if !matches!(l, Approx::Alias(_)) || !matches!(r, Approx::Alias(_)) =>
                    {
                        self.join2((&l, a.1), (&r, b.1), depth.saturating_sub(1))
                    }
                    _ => Approx::Top,
                }
            }
            // Naked numbers of one kind: their values, as long as the kind's sets keep them
            // (a literal, an immediate, counts as one of its values); of two kinds, anything.
            (Approx::Known(Desc::Naked(x)), Approx::Known(Desc::Naked(y))) => {
                match x.join(y, self.max_numbers[x.kind as usize]) {
                    None => Approx::Top,
                    Some(
                        set @ Approx::Known(Desc::Naked(Naked {
                            values: Some(_), ..
                        })),
                    ) => set,
                    // Integers past their kind's bound: the declared domain's, when there is one.
                    Some(any) if x.kind != NumberKind::Float => {
                        self.naked_ints(x, y).unwrap_or(any)
                    }
                    Some(any) => any,
                }
            }
            // Integers of a naked kind with the declared domain's: joined in the domain.
            (Approx::Known(Desc::Naked(n)), Approx::Known(Desc::Ints(v)))
            | (Approx::Known(Desc::Ints(v)), Approx::Known(Desc::Naked(n)))
                if n.kind != NumberKind::Float =>
            {
                match n.values.as_ref().and_then(|values| naked_part(v, values)) {
                    Some(part) => Approx::ints(part.join(v)),
                    None => Approx::Top,
                }
            }
            (Approx::Known(Desc::Naked(n)), Approx::Known(Desc::Imms(cases)))
            | (Approx::Known(Desc::Imms(cases)), Approx::Known(Desc::Naked(n))) => {
                let plain: Option<BTreeSet<i64>> = cases
                    .iter()
                    .map(|(imm, ext)| match imm {
                        Imm::Int(v) if ext.is_empty() => Some(*v),
                        _ => None,
                    })
                    .collect();
                match plain {
                    Some(values) => {
                        let other = Naked {
                            kind: n.kind,
                            values: Some(values),
                        };
                        n.join(&other, self.max_numbers[n.kind as usize])
                            .unwrap_or(Approx::Top)
                    }
                    None => Approx::Top,
                }
            }
            // Integers of the declared domain with integers or immediates: joined in the domain.
            (
                Approx::Known(x @ (Desc::Imms(_) | Desc::Ints(_))),
                Approx::Known(y @ (Desc::Imms(_) | Desc::Ints(_))),
            ) if matches!(x, Desc::Ints(_)) || matches!(y, Desc::Ints(_)) => {
                let top = match (x, y) {
                    (Desc::Ints(v), _) | (_, Desc::Ints(v)) => v.top(),
                    _ => return Approx::Top,
                };
                let part = |d: &Desc| match d {
                    Desc::Ints(v) => Some(v.clone()),
                    Desc::Imms(cases) => abstract_imms(&top, cases.keys()),
                    _ => None,
                };
                match (part(x), part(y)) {
                    (Some(a), Some(b)) => Approx::ints(a.join(&b)),
                    _ => Approx::Top,
                }
            }
            // An immediate on one side and a block on the other (or either on either): each
            // part joined with its like, as a variant type mixing constant and non-constant
            // constructors.
            (Approx::Known(x), Approx::Known(y))
                if matches!(x, Desc::Either(..))
                    || matches!(y, Desc::Either(..))
                    || (matches!(x, Desc::Imms(_)) != matches!(y, Desc::Imms(_))) =>
            {
                let (Some((ia, ba)), Some((ib, bb))) = (a.0.split(), b.0.split()) else {
                    return Approx::Top;
                };
                let imms = match sub(&Approx::cases(ia), &Approx::cases(ib)) {
                    Approx::Known(Desc::Imms(cases)) => cases,
                    Approx::Bottom => BTreeMap::new(),
                    _ => return Approx::Top,
                };
                Approx::either(imms, sub(&ba, &bb))
            }
            (Approx::Known(Desc::Imms(p)), Approx::Known(Desc::Imms(q))) => {
                let mut cases = BTreeMap::new();
                for imm in p.keys().chain(q.keys()) {
                    let ext = match (p.get(imm), q.get(imm)) {
                        (Some(e), None) | (None, Some(e)) => e.clone(),
                        // Both sides bring it: only what both say of a name holds.
                        (Some(e), Some(f)) => Extension {
                            constraints: e
                                .constraints
                                .iter()
                                .filter_map(|(n, x)| {
                                    let joined = sub(x, f.constraints.get(n)?);
                                    (joined != Approx::Top).then_some((*n, joined))
                                })
                                .collect(),
                        },
                        (None, None) => Extension::default(),
                    };
                    cases.insert(imm.clone(), ext);
                }
                // Too many immediates: the declared domain's join of them, when there is one.
                if cases.len() > self.max_imms {
                    if let Some(ints) = self.ints.and_then(|t| abstract_imms(t, cases.keys())) {
                        return Approx::ints(ints);
                    }
                }
                Approx::cases(cases)
            }
            (Approx::Known(Desc::Closure(p)), Approx::Known(Desc::Closure(q)))
                if p.code == q.code && p.slots.len() == q.slots.len() =>
            {
                Approx::closure(p.code, p.slots.iter().zip(&q.slots).map(|(l, r)| sub(l, r)))
            }
            (Approx::Known(Desc::Block(p)), Approx::Known(Desc::Block(q))) if p.tag == q.tag => {
                let fields = join_fields(&p.fields, &q.fields, &sub);
                Approx::Known(Desc::Block(Block { tag: p.tag, fields }))
            }
            // Blocks of different tags: a disjunction split on the tag, each case keeping its
            // fields (joined where both sides bring the tag).
            (
                Approx::Known(Desc::Block(_) | Desc::Variant(_)),
                Approx::Known(Desc::Block(_) | Desc::Variant(_)),
            ) => {
                let (p, q) = (
                    a.0.block_cases().unwrap_or_default(),
                    b.0.block_cases().unwrap_or_default(),
                );
                let mut cases = p.clone();
                for (tag, fields) in q {
                    let joined = match p.get(&tag) {
                        Some(mine) => join_fields(mine, &fields, &sub),
                        None => fields,
                    };
                    cases.insert(tag, joined);
                }
                Approx::variant(cases)
            }
            // A block of unknown tag and blocks: a block of unknown tag, with the fields every
            // side knows, joined.
            (
                Approx::Known(Desc::Block(_) | Desc::Variant(_) | Desc::Untagged(_)),
                Approx::Known(Desc::Block(_) | Desc::Variant(_) | Desc::Untagged(_)),
            ) => {
                let fields = join_fields(
                    &Fields::Partial(known_fields(a.0)),
                    &Fields::Partial(known_fields(b.0)),
                    &sub,
                );
                let Fields::Partial(known) = fields else {
                    unreachable!("partial shapes join as a partial shape")
                };
                Approx::Known(Desc::Untagged(known))
            }
            // Blocks and closures, of whatever tags: a block.
            (
                Approx::Known(
                    Desc::Block(_)
                    | Desc::Variant(_)
                    | Desc::Closure(_)
                    | Desc::AnyBlock
                    | Desc::Untagged(_),
                ),
                Approx::Known(
                    Desc::Block(_)
                    | Desc::Variant(_)
                    | Desc::Closure(_)
                    | Desc::AnyBlock
                    | Desc::Untagged(_),
                ),
            ) => Approx::Known(Desc::AnyBlock),
            _ => Approx::Top,
        }
    }
}

/// The fields a block, a variant (those every case knows alike) or a block of unknown tag
/// knows, by index.
fn known_fields(approx: &Approx) -> BTreeMap<usize, Approx> {
    let of = |fields: &Fields| -> BTreeMap<usize, Approx> {
        match fields {
            Fields::Full(full) => full.iter().cloned().enumerate().collect(),
            Fields::Partial(known) => known.clone(),
        }
    };
    match approx {
        Approx::Known(Desc::Untagged(known)) => known.clone(),
        Approx::Known(Desc::Block(block)) => of(&block.fields),
        Approx::Known(Desc::Variant(cases)) => {
            let mut shapes = cases.values().map(of);
            let Some(first) = shapes.next() else {
                unreachable!("a variant has at least two cases")
            };
            shapes.fold(first, |mut common, next| {
                common.retain(|i, a| next.get(i) == Some(a));
                common
            })
        }
        other => unreachable!("only blocks have fields to join, not {other:?}"),
    }
}

/// The fields two blocks of one tag both know, joined by `sub`.
fn join_fields(p: &Fields, q: &Fields, sub: &dyn Fn(&Approx, &Approx) -> Approx) -> Fields {
    match (p, q) {
        (Fields::Full(x), Fields::Full(y)) if x.len() == y.len() => {
            Fields::Full(x.iter().zip(y).map(|(l, r)| sub(l, r)).collect())
        }
        _ => {
            let indices = |f: &Fields| -> BTreeSet<usize> {
                match f {
                    Fields::Full(fields) => (0..fields.len()).collect(),
                    Fields::Partial(known) => known.keys().copied().collect(),
                }
            };
            Fields::Partial(
                indices(p)
                    .intersection(&indices(q))
                    .filter_map(|&i| {
                        let joined = sub(p.get(i)?, q.get(i)?);
                        (joined != Approx::Top).then_some((i, joined))
                    })
                    .collect(),
            )
        }
    }
}
