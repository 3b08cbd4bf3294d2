//! The typing environment over a function in SSA form, as a simplifier walks it: one pass in
//! reverse post-order, no fixpoint (the domain has no widening, as the talk says). A block's
//! environment extends its immediate dominator's: with one live incoming edge it is that edge's
//! environment (refined by the branch taken); with several it is the [join](TypingEnv::join) of
//! the edges over the immediate dominator, which defines the block's φs; a loop head defines its
//! φs as `⊤`. Statements define their names: `x = block t [a, b]` is `x : t(=a, =b)`, `x = a[i]`
//! relates `a`'s field to `x` (when `a`'s tag is known), `x = y` is an alias, integer
//! arithmetic folds small sets of immediates, `tag`, `isblock`, branches and switches read and
//! refine what is known.

use super::approx::{Approx, Desc, Extension, Fields, Imm, Name, NumberKind};
use super::env::TypingEnv;
use super::join::Branch;
use super::queries::Proof;
use super::summary::{Summary, instantiate};
use absinthe::cfg::{Dominators, reverse_post_order};
use absinthe::program::{
    BlockId, Cfg, Cond, FuncId, NameId, Op, Operand, Program, Rhs, Stmt, Terminator,
};
use std::collections::{BTreeMap, BTreeSet};

/// What the pass knows at each point of a function.
#[derive(Clone, Debug)]
pub struct EnvSolution {
    /// Per block: `None` when no live edge reaches it, else the environment on entry (φs
    /// defined) and after each statement.
    pub blocks: Vec<Option<BlockEnvs>>,
    /// For a closure body solved under the lock: how many places that make its closures its
    /// entry joins (0: solved from nothing known of its inputs).
    pub locked: usize,
}

/// The environments of one reached block.
#[derive(Clone, Debug)]
pub struct BlockEnvs {
    /// On entry, after the φs.
    pub entry: TypingEnv,
    /// After each statement.
    pub after: Vec<TypingEnv>,
    /// The environment's name of every program name defined so far (dominating definitions).
    pub names: BTreeMap<NameId, Name>,
}

impl BlockEnvs {
    /// The environment before statement `index` (`index` equal to the statement count: before
    /// the terminator).
    pub fn before(&self, index: usize) -> &TypingEnv {
        match index {
            0 => &self.entry,
            i => &self.after[i - 1],
        }
    }
}

/// Runs the pass over `program`, which must be in SSA form (every name defined once); calls
/// give `⊤`.
pub fn analyze<P: Program + Cfg + ?Sized>(program: &P) -> EnvSolution {
    analyze_with(program, &TypingEnv::new(), None, &mut |_| None)
}

/// The name an operand's approximation is an alias of, if it is one.
fn alias(approx: Approx) -> Option<Name> {
    match approx {
        Approx::Alias(m) => Some(m),
        _ => None,
    }
}

/// [`analyze`], starting from `start` (an empty environment that says how closures' code prints,
/// [`TypingEnv::with_code_names`], and which declared domain integers fall back to,
/// [`TypingEnv::with_ints`]), with `callee` giving the summary of a called function (`None`:
/// `⊤`); `this` is the function's id in its module (what `myclosure` is the code of).
pub fn analyze_with<P: Program + Cfg + ?Sized>(
    program: &P,
    start: &TypingEnv,
    this: Option<FuncId>,
    callee: &mut dyn FnMut(FuncId) -> Option<Summary>,
) -> EnvSolution {
    analyze_from(program, start, &[], this, callee)
}

/// [`analyze_with`], with the function's inputs (its parameters, then its captures) being the
/// names `inputs` gives of `start` (a closure's value slots under the lock); an input it does
/// not give is a fresh name of which nothing is known.
pub(super) fn analyze_from<P: Program + Cfg + ?Sized>(
    program: &P,
    start: &TypingEnv,
    inputs: &[Option<Name>],
    this: Option<FuncId>,
    callee: &mut dyn FnMut(FuncId) -> Option<Summary>,
) -> EnvSolution {
    assert!(program.is_ssa(), "the typing environment runs on SSA form");
    let n = program.block_count();
    let dominators = Dominators::new(program);
    let order = reverse_post_order(program);
    let position: BTreeMap<BlockId, usize> =
        order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let reads = reads(program);
    let mut blocks: Vec<Option<BlockEnvs>> = vec![None; n];
    // The environment and names at the end of each processed block.
    let mut exits: Vec<Option<(TypingEnv, BTreeMap<NameId, Name>)>> = vec![None; n];
    for &b in &order {
        let (env, names) = if b == program.entry() {
            let mut env = start.clone();
            let mut names = BTreeMap::new();
            for (i, &p) in program
                .params()
                .iter()
                .chain(program.captures())
                .enumerate()
            {
                let name = match inputs.get(i).copied().flatten() {
                    Some(name) => name,
                    None => env.define(program.name(p), Approx::Top),
                };
                names.insert(p, name);
            }
            (env, names)
        } else {
            let Some(idom) = dominators.idom(b) else {
                continue;
            };
            let Some((ancestor, ancestor_names)) = exits[idom.index()].clone() else {
                continue;
            };
            let preds = program.predecessors(b);
            let loop_head = preds
                .iter()
                .any(|p| position.get(p).is_none_or(|&i| i >= position[&b]));
            // The live edges into `b`, each with its environment (refined by the branch).
            let mut edges: Vec<(BlockId, TypingEnv)> = Vec::new();
            if !loop_head {
                for &p in preds.iter().collect::<BTreeSet<_>>() {
                    let Some((exit, names)) = &exits[p.index()] else {
                        continue;
                    };
                    if let Some(env) = edge_env(program, p, b, exit, names, &reads) {
                        edges.push((p, env));
                    }
                }
                if edges.is_empty() {
                    continue;
                }
            }
            let phis = program.phis(b);
            let mut names = ancestor_names.clone();
            let env = match edges.as_slice() {
                [(p, env)] if phis.is_empty() || preds.len() == 1 => {
                    let mut env = env.clone();
                    let edge_names = &exits[p.index()].as_ref().expect("processed").1;
                    for phi in phis {
                        let arg = phi.incoming.iter().find(|(from, _)| from == p);
                        let approx =
                            arg.map_or(Approx::Top, |(_, o)| operand(&mut env, edge_names, *o));
                        names.insert(phi.dest, env.define(program.name(phi.dest), approx));
                    }
                    env
                }
                _ if loop_head => {
                    let mut env = ancestor.clone();
                    for phi in phis {
                        names.insert(phi.dest, env.define(program.name(phi.dest), Approx::Top));
                    }
                    env
                }
                _ => {
                    let labels: Vec<&str> = phis.iter().map(|phi| program.name(phi.dest)).collect();
                    let mut args: Vec<Vec<Approx>> = Vec::new();
                    let mut envs: Vec<TypingEnv> = Vec::new();
                    for (p, env) in &edges {
                        let mut env = env.clone();
                        let edge_names = &exits[p.index()].as_ref().expect("processed").1;
                        let row = phis
                            .iter()
                            .map(|phi| {
                                phi.incoming
                                    .iter()
                                    .find(|(from, _)| from == p)
                                    .map_or(Approx::Top, |(_, o)| operand(&mut env, edge_names, *o))
                            })
                            .collect();
                        args.push(row);
                        envs.push(env);
                    }
                    let branches: Vec<Branch<'_>> = envs
                        .iter()
                        .zip(&args)
                        .map(|(env, args)| Branch { env, args })
                        .collect();
                    let (env, params) = ancestor.join(&branches, &labels);
                    for (phi, param) in phis.iter().zip(params) {
                        names.insert(phi.dest, param);
                    }
                    env
                }
            };
            (env, names)
        };
        let mut names = names;
        let mut current = env.clone();
        let mut after = Vec::new();
        for stmt in program.stmts(b) {
            current = statement(program, &current, &mut names, stmt, this, callee);
            // A field read that did not trap says its block is one: what reads of that block
            // said (`isblock`, `tag`) follows.
            if let Stmt::Assign {
                dest,
                rhs: Rhs::Field(..),
            } = stmt
            {
                current = sync_reads(current.clone(), &names, &reads).unwrap_or_else(|| {
                    let dest = *names.get(dest).expect("the read defined its name");
                    bottom(&current, dest)
                });
            }
            after.push(current.clone());
        }
        exits[b.index()] = Some((current, names.clone()));
        blocks[b.index()] = Some(BlockEnvs {
            entry: env,
            after,
            names,
        });
    }
    EnvSolution { blocks, locked: 0 }
}

/// The approximation of an operand: a constant's predefined name, or the name's alias.
pub(super) fn operand(env: &mut TypingEnv, names: &BTreeMap<NameId, Name>, o: Operand) -> Approx {
    match o {
        Operand::Int(v) => Approx::Alias(env.constant(Imm::Int(v))),
        Operand::Name(n) => names.get(&n).map_or(Approx::Top, |&m| Approx::Alias(m)),
    }
}

/// The integers `approx` may be, if it is a known set of them (immediates, or naked numbers as
/// their 64-bit patterns).
fn ints(env: &TypingEnv, approx: &Approx) -> Option<BTreeSet<i64>> {
    match env.expand(approx, 1) {
        Approx::Known(Desc::Imms(cases)) => cases
            .keys()
            .map(|imm| match imm {
                Imm::Int(v) => Some(*v),
                Imm::Ctor(_) => None,
            })
            .collect(),
        Approx::Known(Desc::Naked(naked)) => naked.values,
        _ => None,
    }
}

/// The kind of naked number `a op b` makes (`b` the set of integers the second operand may
/// be, when known), `None` for a plain integer: floats from float arithmetic and conversions
/// to float; `int32`s from `trunc n`, `fptosi n` and `fptoui n` with `n` up to 32 and from
/// `fbits 32`; `int64`s from the other conversions out of floats.
fn result_kind(op: Op, b: Option<&BTreeSet<i64>>) -> Option<NumberKind> {
    let width = b.and_then(|b| match b.len() {
        1 => b.first().copied(),
        _ => None,
    });
    match op {
        Op::FAdd
        | Op::FSub
        | Op::FMul
        | Op::FDiv
        | Op::FRem
        | Op::FPTrunc
        | Op::SIToFP
        | Op::UIToFP
        | Op::FFromBits
        | Op::FSqrt
        | Op::FRound => Some(NumberKind::Float),
        Op::Trunc => match width {
            Some(1..=32) => Some(NumberKind::Int32),
            _ => None,
        },
        Op::FPToSI | Op::FPToUI => match width {
            Some(1..=32) => Some(NumberKind::Int32),
            _ => Some(NumberKind::Int64),
        },
        Op::FBits => match width {
            Some(32) => Some(NumberKind::Int32),
            _ => Some(NumberKind::Int64),
        },
        _ => None,
    }
}

/// `a op b`: folded over every pair when both are known sets of integers, few enough results
/// come out and none traps (a naked number of the kind `op` makes, or immediates); else the
/// declared domain's `op` (`⊤` without one), or any float for float arithmetic.
fn arithmetic(env: &TypingEnv, op: Op, a: &Approx, b: &Approx) -> Approx {
    let (x, y) = (ints(env, a), ints(env, b));
    let kind = result_kind(op, y.as_ref());
    let max = kind.map_or(env.max_imms(), |k| env.max_numbers(k));
    if let (Some(x), Some(y)) = (&x, &y) {
        if let Some(values) = fold(op, x, y, max) {
            return match kind {
                Some(kind) => Approx::naked(kind, Some(values)),
                None => Approx::imms(values.into_iter().map(Imm::Int)),
            };
        }
    }
    if kind == Some(NumberKind::Float) {
        return Approx::naked(NumberKind::Float, None);
    }
    match (env.as_ints(a), env.as_ints(b)) {
        (Some(x), Some(y)) => Approx::ints(x.binary(op, &y)),
        _ => kind.map_or(Approx::Top, |kind| Approx::naked(kind, None)),
    }
}

/// `op` over every pair of known integers, when there are at most `max` and none traps.
fn fold(op: Op, a: &BTreeSet<i64>, b: &BTreeSet<i64>, max: usize) -> Option<BTreeSet<i64>> {
    let mut out = BTreeSet::new();
    for &x in a {
        for &y in b {
            out.insert(op.eval(x, y)?);
            if out.len() > max {
                return None;
            }
        }
    }
    Some(out)
}

fn statement<P: Program + ?Sized>(
    program: &P,
    env: &TypingEnv,
    names: &mut BTreeMap<NameId, Name>,
    stmt: &Stmt,
    this: Option<FuncId>,
    callee: &mut dyn FnMut(FuncId) -> Option<Summary>,
) -> TypingEnv {
    let Stmt::Assign { dest, rhs } = stmt else {
        return env.clone();
    };
    let mut env = env.clone();
    let label = program.name(*dest);
    let approx = match rhs {
        Rhs::Use(o) => operand(&mut env, names, *o),
        Rhs::Binary(op, a, b) => {
            let (a, b) = (operand(&mut env, names, *a), operand(&mut env, names, *b));
            arithmetic(&env, *op, &a, &b)
        }
        Rhs::Block(tag, fields) => {
            let fields: Vec<Approx> = fields
                .iter()
                .map(|&o| operand(&mut env, names, o))
                .collect();
            Approx::block(*tag, fields)
        }
        Rhs::Field(a, index) => {
            let a = operand(&mut env, names, *a);
            let x = env.define(label, Approx::Top);
            names.insert(*dest, x);
            // The read traps unless `a` is a block with the field: `a` is one, its field `x`
            // (with its tag when known; of unknown tag, a partial shape all the same).
            let relation = match (&a, env.expand(&a, 1)) {
                (Approx::Alias(block), Approx::Known(Desc::Block(known))) => Some((
                    *block,
                    Approx::projection(known.tag, *index as usize, Approx::Alias(x)),
                )),
                (Approx::Alias(block), _) => {
                    Some((*block, Approx::untagged(*index as usize, Approx::Alias(x))))
                }
                _ => None,
            };
            return match relation {
                Some((block, projection)) => env.refine(block, &projection).unwrap_or_else(|| {
                    // The read traps: nothing after it runs.
                    bottom(&env, x)
                }),
                None => env,
            };
        }
        Rhs::Tag(a) => {
            let a = operand(&mut env, names, *a);
            match env.expand(&a, 1) {
                Approx::Known(Desc::Block(known)) => Approx::imm(Imm::Int(i64::from(known.tag))),
                // The tag of a variant is one of its tags, each case knowing which block `a` is
                // then (the tag and the block as a reduced product: refining the tag refines
                // the block).
                Approx::Known(Desc::Variant(cases)) => {
                    let block = alias(a.clone());
                    Approx::cases(
                        cases
                            .into_iter()
                            .map(|(tag, fields)| {
                                let constraints = block
                                    .map(|b| {
                                        let case = Approx::variant(BTreeMap::from([(tag, fields)]));
                                        BTreeMap::from([(b, case)])
                                    })
                                    .unwrap_or_default();
                                (Imm::Int(i64::from(tag)), Extension { constraints })
                            })
                            .collect(),
                    )
                }
                _ => Approx::Top,
            }
        }
        Rhs::IsBlock(a) => {
            let a = operand(&mut env, names, *a);
            match env.expand(&a, 1) {
                Approx::Known(
                    Desc::Block(_)
                    | Desc::Variant(_)
                    | Desc::Closure(_)
                    | Desc::AnyBlock
                    | Desc::Untagged(_),
                ) => Approx::imm(Imm::Int(1)),
                Approx::Known(Desc::Imms(_) | Desc::Ints(_)) => Approx::imm(Imm::Int(0)),
                // An immediate or a block: each answer says which part `a` is.
                Approx::Known(Desc::Either(imms, blocks)) => match alias(a.clone()) {
                    Some(b) => Approx::cases(BTreeMap::from([
                        (
                            Imm::Int(0),
                            Extension {
                                constraints: BTreeMap::from([(b, Approx::cases(imms))]),
                            },
                        ),
                        (
                            Imm::Int(1),
                            Extension {
                                constraints: BTreeMap::from([(b, Approx::Known(*blocks))]),
                            },
                        ),
                    ])),
                    None => Approx::imms([Imm::Int(0), Imm::Int(1)]),
                },
                // Unknown: 0 or 1, and nothing more of `a`. `isblock` is 1 of any reference,
                // heap objects (`new`) included, which no description but `⊤` admits: 1 does
                // not make `a` a block.
                _ => Approx::imms([Imm::Int(0), Imm::Int(1)]),
            }
        }
        Rhs::Call(f, args) => match callee(*f) {
            Some(summary) => {
                let bound: Vec<Option<Name>> = args
                    .iter()
                    .map(|&o| alias(operand(&mut env, names, o)))
                    .collect();
                instantiate(&mut env, &summary, &bound).unwrap_or(Approx::Bottom)
            }
            None => Approx::Top,
        },
        Rhs::Closure(f, captured) => {
            let slots: Vec<Approx> = captured
                .iter()
                .map(|&o| operand(&mut env, names, o))
                .collect();
            Approx::closure(f.0, slots)
        }
        // A function slot: the closure of `g` with the value slots of `c`'s set.
        Rhs::Sibling(c, g) => {
            let c = operand(&mut env, names, *c);
            match env.expand(&c, 1) {
                Approx::Known(Desc::Closure(known)) => Approx::closure(g.0, known.slots),
                _ => Approx::Top,
            }
        }
        // The closure the function runs in: its code, its captures as value slots.
        Rhs::MyClosure => match this {
            Some(f) => Approx::closure(
                f.0,
                program
                    .captures()
                    .iter()
                    .map(|c| names.get(c).map_or(Approx::Top, |&n| Approx::Alias(n))),
            ),
            None => Approx::Top,
        },
        Rhs::Apply(c, args) => {
            // A closure whose code is known is a direct call: its summary, with its parameters
            // the arguments and its captures the closure's slots.
            let c = operand(&mut env, names, *c);
            match env.expand(&c, 1) {
                Approx::Known(Desc::Closure(known)) => match callee(FuncId(known.code)) {
                    Some(summary) => {
                        let mut bound: Vec<Option<Name>> = args
                            .iter()
                            .map(|&o| alias(operand(&mut env, names, o)))
                            .collect();
                        bound.extend(known.slots.iter().map(|slot| alias(slot.clone())));
                        instantiate(&mut env, &summary, &bound).unwrap_or(Approx::Bottom)
                    }
                    None => Approx::Top,
                },
                _ => Approx::Top,
            }
        }
        // An address is a machine-width integer, and a known one.
        Rhs::Address(symbol) => Approx::naked(
            NumberKind::NativeInt,
            Some(BTreeSet::from([absinthe::program::symbol_address(*symbol)])),
        ),
        Rhs::Select(_, _, _) | Rhs::New | Rhs::Load(_, _) | Rhs::Table(..) => Approx::Top,
    };
    let x = env.define(label, approx);
    names.insert(*dest, x);
    env
}

/// `env` with `x` bottom: what follows is unreachable.
fn bottom(env: &TypingEnv, x: Name) -> TypingEnv {
    let mut env = env.clone();
    env.make_bottom(x);
    env
}

/// What a name was read from: `t = tag x` or `b = isblock x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Read {
    /// The tag of this block.
    Tag(NameId),
    /// Whether this value is a block.
    IsBlock(NameId),
}

/// The names defined as a read of what another name is (`t = tag x`, `b = isblock x`): each is
/// defined once (SSA form) and the value it reads never changes, so what an edge learns of one
/// side it learns of the other.
fn reads<P: Program + ?Sized>(program: &P) -> BTreeMap<NameId, Read> {
    let mut reads = BTreeMap::new();
    for b in 0..program.block_count() {
        for stmt in program.stmts(BlockId::new(b)) {
            match stmt {
                Stmt::Assign {
                    dest,
                    rhs: Rhs::Tag(Operand::Name(x)),
                } => reads.insert(*dest, Read::Tag(*x)),
                Stmt::Assign {
                    dest,
                    rhs: Rhs::IsBlock(Operand::Name(x)),
                } => reads.insert(*dest, Read::IsBlock(*x)),
                _ => None,
            };
        }
    }
    reads
}

/// The environment along the edge `from → to`: `from`'s exit refined by the branch taken; then
/// each block whose tag the branch compared refined by what it learned of the tag (`t = tag x`
/// and `t` one of `{0, 2}`: `x` is a block of tag 0 or 2); then, the other way, every read in
/// scope refined by what is known of the value it read (`x` a block of tag 2: `t` is 2 and
/// `isblock x` is 1). `None` when the edge cannot be taken.
fn edge_env<P: Program + Cfg + ?Sized>(
    program: &P,
    from: BlockId,
    to: BlockId,
    exit: &TypingEnv,
    names: &BTreeMap<NameId, Name>,
    reads: &BTreeMap<NameId, Read>,
) -> Option<TypingEnv> {
    let mut env = refine_edge(program, from, to, exit, names)?;
    let compared: Vec<Operand> = match program.terminator(from) {
        Terminator::Branch {
            cond: Cond::Compare(_, a, b),
            ..
        } => vec![*a, *b],
        Terminator::Branch {
            cond: Cond::NonZero(a),
            ..
        }
        | Terminator::Switch { on: a, .. } => vec![*a],
        _ => Vec::new(),
    };
    for o in compared {
        let Operand::Name(t) = o else { continue };
        let (Some(Read::Tag(block)), Some(&tag)) = (reads.get(&t), names.get(&t)) else {
            continue;
        };
        let (Some(&block), Some(values)) = (names.get(block), ints(&env, &Approx::Alias(tag)))
        else {
            continue;
        };
        // A tag is a `u32` (what `tag` reads of a block; of anything else it traps), and
        // nothing is known of the fields.
        let cases: BTreeMap<u32, Fields> = values
            .into_iter()
            .filter_map(|v| u32::try_from(v).ok())
            .map(|tag| (tag, Fields::Partial(BTreeMap::new())))
            .collect();
        env = env.refine(block, &Approx::variant(cases))?;
    }
    sync_reads(env, names, reads)
}

/// `env` with every read in scope (`t = tag x`, `b = isblock x`) refined by what `env` knows of
/// the value it read; `None` when they contradict (what follows cannot run).
fn sync_reads(
    mut env: TypingEnv,
    names: &BTreeMap<NameId, Name>,
    reads: &BTreeMap<NameId, Read>,
) -> Option<TypingEnv> {
    for (read, what) in reads {
        let (Read::Tag(x) | Read::IsBlock(x)) = what;
        let (Some(&read), Some(&x)) = (names.get(read), names.get(x)) else {
            continue;
        };
        // The specialised queries: what the class says, without a meet.
        let known = match what {
            Read::Tag(_) => match env.prove_tags(x) {
                Proof::Proved(tags) => Approx::imms(tags.into_iter().map(|t| Imm::Int(t.into()))),
                Proof::Unknown => continue,
                Proof::Invalid => return None,
            },
            Read::IsBlock(_) => match env.prove_is_block(x) {
                Proof::Proved(block) => Approx::imm(Imm::Int(i64::from(block))),
                Proof::Unknown => continue,
                Proof::Invalid => return None,
            },
        };
        env = env.refine(read, &known)?;
    }
    Some(env)
}

/// `from`'s exit refined by the branch `from → to` takes, or `None` when it cannot be taken.
fn refine_edge<P: Program + Cfg + ?Sized>(
    program: &P,
    from: BlockId,
    to: BlockId,
    exit: &TypingEnv,
    names: &BTreeMap<NameId, Name>,
) -> Option<TypingEnv> {
    if exit.is_bottom() {
        return None;
    }
    let mut env = exit.clone();
    match program.terminator(from) {
        Terminator::Branch {
            cond,
            then_to,
            else_to,
        } => {
            if then_to == else_to {
                return Some(env);
            }
            let taken = *then_to == to;
            match cond {
                Cond::NonZero(a) => {
                    let a = operand(&mut env, names, *a);
                    refine_compare(&env, Op::Ne, &a, &Approx::imm(Imm::Int(0)), taken)
                }
                Cond::Compare(op, a, b) => {
                    let (a, b) = (operand(&mut env, names, *a), operand(&mut env, names, *b));
                    refine_compare(&env, *op, &a, &b, taken)
                }
            }
        }
        Terminator::Switch { on, cases, default } => {
            let on = operand(&mut env, names, *on);
            let hits: Vec<i64> = cases
                .iter()
                .filter(|(_, target)| *target == to)
                .map(|(v, _)| *v)
                .collect();
            let missed: Vec<i64> = cases
                .iter()
                .take_while(|(_, target)| *target != to)
                .map(|(v, _)| *v)
                .collect();
            let mut reached = Vec::new();
            // A case reaching `to` (only if no earlier case took the value).
            for v in hits {
                if !missed.contains(&v) {
                    reached.push(v);
                }
            }
            let by_default = *default == to;
            match (reached.is_empty(), by_default) {
                // Only these cases reach `to`: `on` is one of them, known set or not.
                (false, false) => match (&on, ints(&env, &on)) {
                    (Approx::Alias(name), None) => {
                        env.refine(*name, &Approx::imms(reached.iter().map(|&v| Imm::Int(v))))
                    }
                    _ => restrict(&env, &on, |v| reached.contains(&v)),
                },
                (true, true) => {
                    let all: Vec<i64> = cases.iter().map(|(v, _)| *v).collect();
                    exclude(&env, &on, &all)
                }
                (true, false) => None,
                // Some cases and the default: only what the other targets take is excluded.
                (false, true) => {
                    let other: Vec<i64> = cases
                        .iter()
                        .filter(|(v, t)| *t != to && !reached.contains(v))
                        .map(|(v, _)| *v)
                        .collect();
                    exclude(&env, &on, &other)
                }
            }
        }
        _ => Some(env),
    }
}

/// `env` knowing that `on` is one of the integers `keep` accepts: when `on`'s set is known,
/// filtered; otherwise, with a single accepted value, that value.
fn restrict(env: &TypingEnv, on: &Approx, keep: impl Fn(i64) -> bool) -> Option<TypingEnv> {
    let Approx::Alias(name) = on else {
        return Some(env.clone());
    };
    match ints(env, on) {
        Some(set) => {
            let kept: Vec<Imm> = set.into_iter().filter(|&v| keep(v)).map(Imm::Int).collect();
            env.refine(*name, &Approx::imms(kept))
        }
        None => Some(env.clone()),
    }
}

/// `env` knowing that `on` is none of `values`: filtered when `on`'s set is known, else as the
/// declared domain can say it.
fn exclude(env: &TypingEnv, on: &Approx, values: &[i64]) -> Option<TypingEnv> {
    if let (Approx::Alias(name), None, Some(mut x)) = (on, ints(env, on), env.as_ints(on)) {
        for &v in values {
            x = x.assume(Op::Ne, &x.constant(v)).0;
        }
        return env.refine(*name, &Approx::ints(x));
    }
    restrict(env, on, |v| !values.contains(&v))
}

/// `env` knowing whether `a op b` holds (`taken`), as the declared domain's `assume` says.
fn assume_ints(env: &TypingEnv, op: Op, a: &Approx, b: &Approx, taken: bool) -> Option<TypingEnv> {
    let op = if taken { Some(op) } else { op.negated() };
    let (Some(op), Some(x), Some(y)) = (op, env.as_ints(a), env.as_ints(b)) else {
        return Some(env.clone());
    };
    let (x2, y2) = x.assume(op, &y);
    if x2.is_bottom() || y2.is_bottom() {
        return None;
    }
    let mut env = env.clone();
    for (side, before, after) in [(a, x, x2), (b, y, y2)] {
        if let (Approx::Alias(name), false) = (side, before == after) {
            env = env.refine(*name, &Approx::ints(after))?;
        }
    }
    Some(env)
}

/// `env` knowing whether `a op b` holds (`taken`).
fn refine_compare(
    env: &TypingEnv,
    op: Op,
    a: &Approx,
    b: &Approx,
    taken: bool,
) -> Option<TypingEnv> {
    let (sa, sb) = (ints(env, a), ints(env, b));
    let holds = |x: i64, y: i64| op.eval(x, y).is_some_and(|r| r != 0) == taken;
    // One value compared with itself: the comparison's answer is known whatever the value
    // (`f == g` with `f` and `g` one class cannot be false).
    if let (Approx::Alias(x), Approx::Alias(y)) = (a, b)
        && op.is_comparison()
        && env.canonical(*x) == env.canonical(*y)
        && !holds(0, 0)
    {
        return None;
    }
    match (&sa, &sb) {
        (Some(sa), Some(sb)) => {
            if !sa.iter().any(|&x| sb.iter().any(|&y| holds(x, y))) {
                return None;
            }
            let env = restrict(env, a, |x| sb.iter().any(|&y| holds(x, y)))?;
            restrict(&env, b, |y| sa.iter().any(|&x| holds(x, y)))
        }
        // `a == c` (taken) makes `a` the constant.
        (None, Some(sb))
            if sb.len() == 1 && ((op == Op::Eq && taken) || (op == Op::Ne && !taken)) =>
        {
            match a {
                Approx::Alias(name) => env.refine(*name, b),
                _ => Some(env.clone()),
            }
        }
        (Some(sa), None)
            if sa.len() == 1 && ((op == Op::Eq && taken) || (op == Op::Ne && !taken)) =>
        {
            match b {
                Approx::Alias(name) => env.refine(*name, a),
                _ => Some(env.clone()),
            }
        }
        // `a == b` (taken) between two names neither of which is one known immediate: one
        // value, so one alias class (a comparison reads integers: on a block it traps), whose
        // description is the meet of both.
        (_, _) if (op == Op::Eq && taken) || (op == Op::Ne && !taken) => match a {
            Approx::Alias(name) if matches!(b, Approx::Alias(_)) => env.refine(*name, b),
            _ => assume_ints(env, op, a, b, taken),
        },
        _ => assume_ints(env, op, a, b, taken),
    }
}

/// Whether the concrete `value` may be described by `approx` in `env`, for checking the pass
/// against runs. `block` reads a heap block: its tag and fields, or `None` for an object or a
/// closure (which only `⊤` describes).
pub fn admits(env: &TypingEnv, approx: &Approx, value: &ConcreteValue, depth: usize) -> bool {
    match env.expand(approx, 1) {
        Approx::Top => true,
        Approx::Bottom => false,
        Approx::Alias(_) => true,
        Approx::Known(Desc::Imms(cases)) => match value {
            ConcreteValue::Int(v) => cases.contains_key(&Imm::Int(*v)),
            _ => false,
        },
        Approx::Known(Desc::Closure(known)) => match value {
            ConcreteValue::Closure(code, slots) => {
                *code == known.code
                    && slots.len() == known.slots.len()
                    && (depth == 0
                        || slots
                            .iter()
                            .zip(&known.slots)
                            .all(|(v, a)| admits(env, a, v, depth - 1)))
            }
            _ => false,
        },
        Approx::Known(Desc::AnyBlock) => {
            matches!(value, ConcreteValue::Block(..) | ConcreteValue::Closure(..))
        }
        Approx::Known(Desc::Untagged(known)) => match value {
            ConcreteValue::Block(_, fields) => {
                known.keys().next_back().is_none_or(|&i| i < fields.len())
                    && (depth == 0
                        || known
                            .iter()
                            .all(|(&i, a)| admits(env, a, &fields[i], depth - 1)))
            }
            _ => false,
        },
        Approx::Known(Desc::Ints(known)) => {
            matches!(value, ConcreteValue::Int(v) if known.contains(*v))
        }
        Approx::Known(Desc::Naked(naked)) => {
            matches!(value, ConcreteValue::Int(v) if naked.admits(*v))
        }
        Approx::Known(Desc::Either(imms, blocks)) => match value {
            ConcreteValue::Int(v) => imms.contains_key(&Imm::Int(*v)),
            _ => admits(env, &Approx::Known(*blocks), value, depth),
        },
        known @ Approx::Known(Desc::Block(_) | Desc::Variant(_)) => match value {
            ConcreteValue::Block(tag, fields) => {
                let cases = known.block_cases().unwrap_or_default();
                let Some(shape) = cases.get(tag) else {
                    return false;
                };
                if let Fields::Full(f) = shape {
                    if f.len() != fields.len() {
                        return false;
                    }
                }
                depth == 0
                    || fields
                        .iter()
                        .enumerate()
                        .all(|(i, v)| shape.get(i).is_none_or(|a| admits(env, a, v, depth - 1)))
            }
            _ => false,
        },
    }
}

/// A concrete value as [`admits`] reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConcreteValue {
    /// An integer.
    Int(i64),
    /// A block: its tag and fields.
    Block(u32, Vec<ConcreteValue>),
    /// A closure: the index of its function and its captured values.
    Closure(u32, Vec<ConcreteValue>),
    /// A heap object (or what a run never assigned).
    Other,
}
