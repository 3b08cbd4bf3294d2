//! What the escape analysis's solution says about a function: which loads are forwarded to
//! which operand, which stores replace their field, where each allocation escapes, which
//! allocations can be replaced by scalars or sunk, and the function's [`Summary`] for its
//! callers (the seed's `ArgEscapeCache`).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Arc;

use super::state::{Content, Escape, Heap, Loc, Object, Place, Slot};
use super::transfer::{self, Step};
use super::{Callees, EscapeAnalysis, States};
use crate::cfg::Dominators;
use crate::engine::{Solution, solve};
use crate::heap::Site;
use crate::interproc::Module;
use crate::program::{BlockId, Cfg, FuncId, NameId, Operand, Program, Rhs, Stmt, Terminator};
use crate::value::ValueDomain;

/// What a function does with one of its inputs (a parameter, or past them a capture).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct InputEffect {
    /// The input's object may be reachable from the returned value.
    pub returned: bool,
    /// It may be reachable from the returned value through a field (not only as the value).
    pub returned_inside: bool,
    /// It may be reachable from a thrown value.
    pub thrown: bool,
    /// It may be handed to code or memory the function does not see.
    pub global: bool,
    /// The fields of the input's own object the function may write.
    pub writes: BTreeSet<Slot>,
}

/// A function's summary for its callers: what it does with its inputs and what it returns.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Summary {
    /// Per input (parameters then captures).
    pub inputs: Vec<InputEffect>,
    /// The inputs the result may be (as itself, not through a field).
    pub returns_inputs: BTreeSet<u32>,
    /// Whether the result may be an object other than an input.
    pub returns_other: bool,
    /// What it does with objects it reaches through its inputs' fields (or gets from callees),
    /// all alike.
    pub others: InputEffect,
    /// Whether it may write memory reached through its inputs' fields.
    pub writes_unknown: bool,
    /// Whether it may run code the analysis does not see.
    pub calls_unknown: bool,
}

/// An allocation of the function and what is known of its objects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// Where it is.
    pub site: Site,
    /// The name it defines.
    pub dest: NameId,
    /// Where its objects escape, over every path.
    pub escape: Escape,
    /// Whether its objects can be replaced by scalars: they never escape, every load from them
    /// is forwarded, and every other use is a store into exactly that object.
    pub scalar: bool,
    /// A block the allocation (with the stores into it that follow it in its block) can move
    /// down to: every other use is dominated by it, and it is strictly dominated by the
    /// allocation's block.
    pub sink_to: Option<BlockId>,
}

/// What is known at one load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadFact {
    /// What the field may hold, over every path.
    pub content: Content,
    /// The operand every run reads there, if the load is forwarded.
    pub forwarded: Option<Operand>,
}

/// The escape analysis's solution for one function and what it says.
#[derive(Clone, Debug)]
pub struct FunctionFacts<D> {
    /// The engine's solution.
    pub solution: Solution<States<D>>,
    /// The states before each statement of each block, then before its terminator (empty for an
    /// unreachable block).
    pub before: Vec<Vec<States<D>>>,
    /// Every reached load (`Rhs::Load` and `Rhs::Field`).
    pub loads: BTreeMap<Place, LoadFact>,
    /// Every reached store, and whether it replaces its field on every path.
    pub stores: BTreeMap<Place, bool>,
    /// Every reached allocation.
    pub allocations: Vec<Allocation>,
    /// The summary for callers.
    pub summary: Summary,
}

/// Solves `program` with callee summaries from `callees` and reads off the facts.
pub fn analyze<D: ValueDomain, P: Program + Cfg + ?Sized>(
    program: &P,
    callees: &dyn Callees,
    heaps: usize,
) -> FunctionFacts<D> {
    analyze_with(program, callees, heaps, super::MAX_EXPOSED)
}

/// [`analyze`] keeping at most `exposed` exposed objects of the function's own apart (see
/// [`Heap::fold_exposed`]).
pub fn analyze_with<D: ValueDomain, P: Program + Cfg + ?Sized>(
    program: &P,
    callees: &dyn Callees,
    heaps: usize,
    exposed: usize,
) -> FunctionFacts<D> {
    let analysis = EscapeAnalysis::<D>::new(callees)
        .with_heaps(heaps)
        .with_exposed(exposed);
    let solution = solve(program, &analysis, &EscapeAnalysis::<D>::limits());
    let mut before = Vec::with_capacity(program.block_count());
    let mut loads: BTreeMap<Place, LoadFact> = BTreeMap::new();
    let mut stores: BTreeMap<Place, bool> = BTreeMap::new();
    for b in 0..program.block_count() {
        let block = BlockId(b as u32);
        let entry = &solution.entry[b];
        if entry.disjuncts().is_empty() {
            before.push(Vec::new());
            continue;
        }
        let mut states = Vec::with_capacity(program.stmts(block).len() + 1);
        let mut current: Vec<super::Disjunct<D>> = entry.disjuncts().to_vec();
        for (index, stmt) in program.stmts(block).iter().enumerate() {
            states.push(States::of(current.clone(), heaps));
            let place = Place {
                block,
                index: index as u32,
            };
            for d in &mut current {
                match transfer::statement(&analysis, place, stmt, d) {
                    Step::Load(content, _) => match loads.get_mut(&place) {
                        Some(fact) => fact.content.join_with(&content),
                        None => {
                            loads.insert(
                                place,
                                LoadFact {
                                    content,
                                    forwarded: None,
                                },
                            );
                        }
                    },
                    Step::Store { strong, .. } => {
                        let all = stores.entry(place).or_insert(true);
                        *all &= strong;
                    }
                    Step::Other | Step::Call(_) => {}
                }
            }
        }
        states.push(States::of(current, heaps));
        before.push(states);
    }
    for fact in loads.values_mut() {
        fact.forwarded = fact.content.forwarded();
    }
    let exits = exit_heaps(program, &before);
    let summary = summarize(program, &before, &exits);
    let allocations = allocations(program, &before, &exits, &loads);
    FunctionFacts {
        solution,
        before,
        loads,
        stores,
        allocations,
        summary,
    }
}

/// A heap at a `ret` or `throw`, with what it returns or throws marked as escaping there.
struct Exit {
    heap: Heap,
    /// A `ret` (or a `throw`).
    returns: bool,
    /// Where the operand points.
    roots: BTreeSet<Loc>,
    /// What is reachable from it through fields.
    inside: BTreeSet<Loc>,
}

/// The heaps at every `ret` and `throw`.
fn exit_heaps<D: ValueDomain, P: Program + Cfg + ?Sized>(
    program: &P,
    before: &[Vec<States<D>>],
) -> Vec<Exit> {
    let mut out = Vec::new();
    for (b, states) in before.iter().enumerate() {
        let Some(last) = states.last() else {
            continue;
        };
        let block = BlockId(b as u32);
        let place = Place {
            block,
            index: program.stmts(block).len() as u32,
        };
        let (operand, returns) = match program.terminator(block) {
            Terminator::Return(o) => (*o, true),
            Terminator::Throw(o) => (*o, false),
            _ => continue,
        };
        for d in last.disjuncts() {
            let mut heap = d.heap.clone();
            let roots = operand.map(|o| heap.points_of(o)).unwrap_or_default();
            // What the caller learns only through the result: the insides of objects the
            // function made (a caller keeps track of its own objects' fields, and of the unknown
            // objects' it handed over, through the summary's writes).
            let made = roots
                .iter()
                .copied()
                .filter(|l| matches!(l, Loc::Recent(_) | Loc::Old(_)));
            let inside = heap.reachable_inside(made);
            if returns {
                heap.escape(roots.iter().copied(), place, |e| &mut e.returned);
            } else {
                heap.escape(roots.iter().copied(), place, |e| &mut e.thrown);
            }
            out.push(Exit {
                heap,
                returns,
                roots,
                inside,
            });
        }
    }
    out
}

fn summarize<D: ValueDomain, P: Program + ?Sized>(
    program: &P,
    before: &[Vec<States<D>>],
    exits: &[Exit],
) -> Summary {
    let n = super::inputs(program).len();
    let mut summary = Summary {
        inputs: vec![InputEffect::default(); n],
        ..Summary::default()
    };
    // Escapes to unknown code are noted where they happen, also on paths that never exit.
    let every_heap = before
        .iter()
        .flatten()
        .flat_map(|s| s.disjuncts().iter().map(|d| &d.heap))
        .chain(exits.iter().map(|e| &e.heap));
    for heap in every_heap {
        let n = summary.inputs.len();
        for i in 0..=n {
            let (loc, effect) = match summary.inputs.get_mut(i) {
                Some(effect) => (Loc::Param(i as u32), effect),
                None => (Loc::Unknown, &mut summary.others),
            };
            if let Some(o) = heap.objects.get(&loc) {
                effect.returned |= !o.escape.returned.is_empty();
                effect.thrown |= !o.escape.thrown.is_empty();
                effect.global |= !o.escape.global.is_empty();
            }
            if let Some(slots) = heap.effects.writes.get(&(i as u32)) {
                effect.writes.extend(slots.iter().copied());
            }
        }
        summary.writes_unknown |= heap.effects.writes_unknown;
        summary.calls_unknown |= heap.effects.calls_unknown;
    }
    for exit in exits {
        if !exit.returns {
            continue;
        }
        for loc in &exit.inside {
            match loc {
                Loc::Param(i) => {
                    if let Some(effect) = summary.inputs.get_mut(*i as usize) {
                        effect.returned_inside = true;
                    }
                }
                Loc::Unknown => summary.others.returned_inside = true,
                Loc::Recent(_) | Loc::Old(_) => {}
            }
        }
        for loc in &exit.roots {
            match loc {
                Loc::Param(i) => {
                    summary.returns_inputs.insert(*i);
                }
                _ => summary.returns_other = true,
            }
        }
    }
    summary
}

fn allocations<D: ValueDomain, P: Program + Cfg + ?Sized>(
    program: &P,
    before: &[Vec<States<D>>],
    exits: &[Exit],
    loads: &BTreeMap<Place, LoadFact>,
) -> Vec<Allocation> {
    let dominators = Dominators::new(program);
    // Where each site's objects escape, over every heap: one pass over the heaps, each object
    // (shared between heaps) read once.
    let mut escapes: BTreeMap<Site, Escape> = BTreeMap::new();
    let mut read: HashSet<*const Object> = HashSet::new();
    let heaps = before
        .iter()
        .flatten()
        .flat_map(|s| s.disjuncts().iter().map(|d| &d.heap))
        .chain(exits.iter().map(|e| &e.heap));
    for heap in heaps {
        for (loc, object) in &heap.objects {
            let Some(site) = loc.site() else {
                continue;
            };
            if read.insert(Arc::as_ptr(object)) {
                escapes.entry(site).or_default().join_with(&object.escape);
            }
        }
    }
    let uses = uses(program, before, loads);
    let mut out = Vec::new();
    for (b, states) in before.iter().enumerate() {
        if states.is_empty() {
            continue;
        }
        let block = BlockId(b as u32);
        for (index, stmt) in program.stmts(block).iter().enumerate() {
            let Stmt::Assign { dest, rhs } = stmt else {
                continue;
            };
            if !matches!(
                rhs,
                Rhs::New | Rhs::Block(..) | Rhs::Closure(..) | Rhs::Sibling(..)
            ) {
                continue;
            }
            let site = Site {
                block,
                index: index as u32,
            };
            let escape = escapes.remove(&site).unwrap_or_default();
            let uses = uses.get(&site);
            let other = uses.map(|u| &u.other);
            let scalar = escape.is_none() && other.is_none_or(BTreeSet::is_empty);
            let mut sink_to = None;
            if let Some(uses) = uses.filter(|u| !u.other.is_empty()) {
                let target = uses
                    .other
                    .iter()
                    .copied()
                    .reduce(|a, b| common_dominator(&dominators, a, b));
                if let Some(t) = target {
                    if t != block && dominators.strictly_dominates(block, t) && !uses.late_stores {
                        sink_to = Some(t);
                    }
                }
            }
            out.push(Allocation {
                site,
                dest: *dest,
                escape,
                scalar,
                sink_to,
            });
        }
    }
    out
}

/// The uses of a site's objects other than forwarded loads and stores into exactly its most
/// recent object, by block; and whether such a store is outside the allocation's block.
#[derive(Default)]
struct Uses {
    other: BTreeSet<BlockId>,
    late_stores: bool,
}

/// The uses of every site's objects, in one pass over the statements.
fn uses<D: ValueDomain, P: Program + Cfg + ?Sized>(
    program: &P,
    before: &[Vec<States<D>>],
    loads: &BTreeMap<Place, LoadFact>,
) -> BTreeMap<Site, Uses> {
    let sites =
        |set: &BTreeSet<Loc>| -> BTreeSet<Site> { set.iter().filter_map(|l| l.site()).collect() };
    let mut uses: BTreeMap<Site, Uses> = BTreeMap::new();
    let other = |uses: &mut BTreeMap<Site, Uses>, sites: &BTreeSet<Site>, block: BlockId| {
        for &s in sites {
            uses.entry(s).or_default().other.insert(block);
        }
    };
    for (b, states) in before.iter().enumerate() {
        let block = BlockId(b as u32);
        let Some(last) = states.last() else {
            continue;
        };
        let points = |state: &States<D>, o: Operand| -> BTreeSet<Loc> {
            state
                .disjuncts()
                .iter()
                .flat_map(|d| d.heap.points_of(o))
                .collect()
        };
        for (index, stmt) in program.stmts(block).iter().enumerate() {
            let state = &states[index];
            let place = Place {
                block,
                index: index as u32,
            };
            match stmt {
                Stmt::Assign {
                    rhs: Rhs::Load(o, _) | Rhs::Field(o, _),
                    ..
                } => {
                    if loads.get(&place).and_then(|f| f.forwarded).is_none() {
                        other(&mut uses, &sites(&points(state, *o)), block);
                    }
                }
                // Copies and selects move the reference between names; their uses count.
                Stmt::Assign {
                    rhs: Rhs::Use(_) | Rhs::Select(..),
                    ..
                } => {}
                Stmt::Store { object, value, .. } => {
                    let targets = points(state, *object);
                    let stored = sites(&points(state, *value));
                    other(&mut uses, &stored, block);
                    for site in sites(&targets) {
                        if stored.contains(&site) {
                            continue;
                        }
                        if targets == BTreeSet::from([Loc::Recent(site)]) {
                            uses.entry(site).or_default().late_stores |=
                                block != site.block || index < site.index as usize;
                        } else {
                            other(&mut uses, &BTreeSet::from([site]), block);
                        }
                    }
                }
                _ => {
                    let mut hit = BTreeSet::new();
                    stmt.for_each_use(|o| hit.extend(sites(&points(state, o))));
                    other(&mut uses, &hit, block);
                }
            }
        }
        let mut hit = BTreeSet::new();
        program
            .terminator(block)
            .for_each_use(|o| hit.extend(sites(&points(last, o))));
        other(&mut uses, &hit, block);
    }
    uses
}

fn common_dominator(dominators: &Dominators, mut a: BlockId, mut b: BlockId) -> BlockId {
    while a != b {
        let (da, db) = (dominators.depth(a), dominators.depth(b));
        if da >= db {
            match dominators.idom(a) {
                Some(p) => a = p,
                None => return b,
            }
        } else {
            match dominators.idom(b) {
                Some(p) => b = p,
                None => return a,
            }
        }
    }
    a
}

/// Every function of `module` solved callees first, each with its callees' summaries (a call
/// into a cycle of calls still being solved is unknown code).
///
/// `heaps` is how many heaps a point keeps apart ([`super::MAX_HEAPS`] by default).
pub fn solve_module<D: ValueDomain, M: Module>(module: &M, heaps: usize) -> Vec<FunctionFacts<D>>
where
    M::Function: Cfg,
{
    solve_module_with(module, heaps, super::MAX_EXPOSED)
}

/// [`solve_module`] keeping at most `exposed` exposed objects of a function's own apart (see
/// [`Heap::fold_exposed`]).
pub fn solve_module_with<D: ValueDomain, M: Module>(
    module: &M,
    heaps: usize,
    exposed: usize,
) -> Vec<FunctionFacts<D>>
where
    M::Function: Cfg,
{
    let solved = crate::interproc::callees_first(module.function_count(), &|f, callees| {
        let function = module.function(f)?;
        let facts = analyze_with::<D, _>(function, &callees, heaps, exposed);
        let summary = facts.summary.clone();
        Some((facts, summary))
    });
    solved
        .into_iter()
        .enumerate()
        .map(|(f, facts)| {
            facts.unwrap_or_else(|| match module.function(FuncId(f as u32)) {
                Some(function) => analyze_with::<D, _>(function, &super::NoCallees, heaps, exposed),
                None => unreachable_facts(),
            })
        })
        .collect()
}

fn unreachable_facts<D>() -> FunctionFacts<D> {
    FunctionFacts {
        solution: Solution {
            entry: Vec::new(),
            exit: Vec::new(),
            stop: crate::engine::StopReason::Stable,
            stats: Default::default(),
        },
        before: Vec::new(),
        loads: BTreeMap::new(),
        stores: BTreeMap::new(),
        allocations: Vec::new(),
        summary: Summary::default(),
    }
}
