//! Joins over a common ancestor, and function summaries.
//!
//! Branches are environments derived from one ancestor; each passes arguments to the join
//! point. The join reads, from each branch's history past the ancestor's, what it changed: the
//! names it defined are existentially quantified away (an alias of one is expanded into what
//! that branch knew of it), an ancestor name a branch refined gets the join of the branches'
//! approximations, and the join point's parameters get the join of the arguments. Aliases join
//! to an alias when both sides name the same ancestor class; otherwise both are expanded in their
//! own branch and the descriptions joined. A case of a disjunction that only one branch brings
//! keeps, as its extension, what that branch passed for the other parameters — so the two
//! branches of `let tag, arg = if c then A, y else B, z` join into
//! `{arg : ⊤; tag : (A{arg : =y} | B{arg : =z})}`, and a later `tag = A` gives back `arg = y`.

use super::approx::{Approx, Block, Desc, Extension, Fields, Name};
use super::env::{TypingEnv, abstract_imms};
use super::ints::Ints;
use std::collections::{BTreeMap, BTreeSet};

/// How deep aliases are expanded when a join has to look through them.
const DEPTH: usize = 8;

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
        let joiner = Joiner {
            ancestor: self.len(),
            params: &names,
            ints: self.ints(),
        };
        // Ancestor names that some branch changed.
        let changed: BTreeSet<Name> = live
            .iter()
            .flat_map(|b| b.env.history.skip(from))
            .filter(|n| n.index() < self.len())
            .collect();
        for name in changed {
            let approxes: Vec<(usize, Approx)> = live
                .iter()
                .enumerate()
                .map(|(i, b)| (i, b.env.approx_of(name)))
                .collect();
            let joined = joiner.join_all(&live, &approxes, None);
            if let Some(refined) = result.refine(name, &joined) {
                result = refined;
            }
        }
        for (j, &param) in names.iter().enumerate() {
            let approxes: Vec<(usize, Approx)> = live
                .iter()
                .enumerate()
                .map(|(i, b)| (i, b.args[j].clone()))
                .collect();
            let joined = if live.is_empty() {
                Approx::Bottom
            } else {
                joiner.join_all(&live, &approxes, Some(j))
            };
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

struct Joiner<'a> {
    /// Names below this index are the ancestor's (the same in every branch).
    ancestor: usize,
    /// The join point's parameters, in the result.
    params: &'a [Name],
    /// The declared domain integers fall back to, if any.
    ints: Option<&'a Ints>,
}

impl Joiner<'_> {
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
                if cases.len() > TypingEnv::MAX_IMMS {
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
            // Blocks and closures, of whatever tags: a block.
            (
                Approx::Known(
                    Desc::Block(_) | Desc::Variant(_) | Desc::Closure(_) | Desc::AnyBlock,
                ),
                Approx::Known(
                    Desc::Block(_) | Desc::Variant(_) | Desc::Closure(_) | Desc::AnyBlock,
                ),
            ) => Approx::Known(Desc::AnyBlock),
            _ => Approx::Top,
        }
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
