//! What the escape analysis's solution says about a function: which loads are forwarded to
//! which operand, which stores replace their field, where each allocation escapes, which
//! allocations can be replaced by scalars or sunk, and the function's [`Summary`] for its
//! callers (the seed's `ArgEscapeCache`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use super::place::{Escape, Place};
use super::places::{EscapeKind, Escapes};
use super::replay::{Collect, Recording, Seen, Visit, replay};
use super::state::{Content, Heap, Loc, Object};
use super::summary::{InputEffect, Summary};
use super::transfer::Step;
use super::{Callees, Disjunct, EscapeAnalysis, States};
use crate::Site;
use absinthe::cfg::Dominators;
use absinthe::disjoint_sets::DisjointSets;
use absinthe::engine::{Solution, solve};
use absinthe::program::{BlockId, Cfg, FuncId, NameId, Operand, Program, Rhs, Stmt, Terminator};
use absinthe::value::ValueDomain;
use absinthe_interproc::Module;

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
    /// The engine's solution: the states at each block's entry, and why the engine stopped.
    /// The exit states are not kept (they were half of the memory the facts hold); the states
    /// inside a block, up to before its terminator, are rebuilt on demand by
    /// [`FunctionFacts::states_before`].
    pub solution: Solution<States<D>>,
    /// Every reached load (`Rhs::Load` and `Rhs::Field`).
    pub loads: BTreeMap<Place, LoadFact>,
    /// Every reached store, and whether it replaces its field on every path.
    pub stores: BTreeMap<Place, bool>,
    /// Every reached allocation.
    pub allocations: Vec<Allocation>,
    /// The summary for callers.
    pub summary: Summary,
    /// The may-alias groups: names that may refer to one object at some point, joined into
    /// classes (a disjoint-set forest, flow-insensitive, as the seed's alias sets are). Objects
    /// code outside the function may reach (inputs, unknown objects, own objects that escaped
    /// there) may all be one. Each group has two names or more, in increasing order.
    pub alias_groups: Vec<Vec<NameId>>,
    /// The callee summaries the analysis was given, for a replay.
    callees: Seen,
    heaps: usize,
    exposed: usize,
}

impl<D: ValueDomain> FunctionFacts<D> {
    /// Whether `a` and `b` may refer to one object at some point: one name, or one of the
    /// [`FunctionFacts::alias_groups`].
    pub fn may_alias(&self, a: NameId, b: NameId) -> bool {
        a == b
            || self
                .alias_groups
                .iter()
                .any(|g| g.binary_search(&a).is_ok() && g.binary_search(&b).is_ok())
    }

    /// The states before each statement of `block`, then before its terminator; empty for an
    /// unreachable block. `program` is the function these facts are of: the block's statements
    /// run again from its entry state, with the callee summaries the analysis was given, so the
    /// states are the ones the facts were read from.
    pub fn states_before<P: Program + ?Sized>(
        &self,
        program: &P,
        block: BlockId,
    ) -> Vec<States<D>> {
        let Some(entry) = self.solution.entry.get(block.index()) else {
            return Vec::new();
        };
        let analysis = EscapeAnalysis::<D>::new(&self.callees)
            .with_heaps(self.heaps)
            .with_exposed(self.exposed);
        let mut collect = Collect {
            heaps: self.heaps,
            states: Vec::new(),
        };
        replay(&analysis, program, entry, block, &mut collect);
        collect.states
    }
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
    let recording = Recording::new(callees);
    let analysis = EscapeAnalysis::<D>::new(&recording)
        .with_heaps(heaps)
        .with_exposed(exposed);
    let mut solution = solve(program, &analysis, &EscapeAnalysis::<D>::limits());
    solution.exit = Vec::new();
    let mut gather = Gather::new(program);
    for (b, entry) in solution.entry.iter().enumerate() {
        replay(&analysis, program, entry, BlockId(b as u32), &mut gather);
    }
    let heaps = analysis.heaps();
    let Read {
        loads,
        stores,
        allocations,
        summary,
        alias_groups,
    } = gather.finish();
    FunctionFacts {
        solution,
        loads,
        stores,
        allocations,
        summary,
        alias_groups,
        callees: recording.into_seen(),
        heaps,
        exposed,
    }
}

/// A heap at a `ret` or `throw`: what it returns or throws.
struct Exit {
    /// A `ret` (or a `throw`).
    returns: bool,
    /// Where the operand points.
    roots: BTreeSet<Loc>,
    /// What is reachable from it through fields.
    inside: BTreeSet<Loc>,
}

/// The uses of a site's objects other than forwarded loads and stores into exactly its most
/// recent object, by block; and whether such a store is outside the allocation's block.
#[derive(Default)]
struct Uses {
    other: BTreeSet<BlockId>,
    late_stores: bool,
}

/// What the pass over the states read off.
struct Read {
    loads: BTreeMap<Place, LoadFact>,
    stores: BTreeMap<Place, bool>,
    allocations: Vec<Allocation>,
    summary: Summary,
    alias_groups: Vec<Vec<NameId>>,
}

/// Everything the facts need, gathered in one pass over every block's states.
struct Gather<'p, P: ?Sized> {
    program: &'p P,
    loads: BTreeMap<Place, LoadFact>,
    stores: BTreeMap<Place, bool>,
    /// Where each site's objects escape, over every heap.
    escapes: BTreeMap<Site, Escapes>,
    /// The object last read at each location: an object shared between heaps is read once.
    read: HashMap<Loc, Arc<Object>>,
    summary: Summary,
    exits: Vec<Exit>,
    uses: BTreeMap<Site, Uses>,
    /// The sites a load's operand may point to, by load: an other use unless the load is
    /// forwarded, which is known only once every path is seen.
    loaded: BTreeMap<Place, BTreeSet<Site>>,
    /// The blocks a state reaches, in order.
    reached: BTreeSet<BlockId>,
    /// Names that may refer to one object, and the first name seen at each location (`None`:
    /// any object outside code may reach).
    aliases: DisjointSets,
    holder: HashMap<Option<Loc>, usize>,
}

fn sites(set: &BTreeSet<Loc>) -> BTreeSet<Site> {
    set.iter().filter_map(|l| l.site()).collect()
}

fn points_all<D>(disjuncts: &[&Disjunct<D>], o: Operand) -> BTreeSet<Loc> {
    disjuncts.iter().flat_map(|d| d.heap.points_of(o)).collect()
}

impl<'p, P: Program + Cfg + ?Sized> Gather<'p, P> {
    fn new(program: &'p P) -> Self {
        let n = super::inputs(program).len();
        Gather {
            program,
            loads: BTreeMap::new(),
            stores: BTreeMap::new(),
            escapes: BTreeMap::new(),
            read: HashMap::new(),
            summary: Summary {
                inputs: vec![InputEffect::default(); n],
                ..Summary::default()
            },
            exits: Vec::new(),
            uses: BTreeMap::new(),
            loaded: BTreeMap::new(),
            reached: BTreeSet::new(),
            aliases: DisjointSets::new(program.name_count()),
            holder: HashMap::new(),
        }
    }

    /// Where the objects of `heap` escape (by site), and what it did to the inputs (escapes
    /// to unknown code are noted where they happen, also on paths that never exit).
    fn heap(&mut self, heap: &Heap) {
        for (loc, object) in &heap.objects {
            if self.read.get(loc).is_some_and(|o| Arc::ptr_eq(o, object)) {
                continue;
            }
            self.read.insert(*loc, Arc::clone(object));
            let effect = match loc {
                Loc::Recent(site) | Loc::Old(site) => {
                    self.escapes
                        .entry(*site)
                        .or_default()
                        .join_with(&object.escape);
                    continue;
                }
                Loc::Param(i) => match self.summary.inputs.get_mut(*i as usize) {
                    Some(effect) => effect,
                    None => continue,
                },
                Loc::Unknown => &mut self.summary.others,
            };
            effect.returned |= !object.escape.returned().is_empty();
            effect.thrown |= !object.escape.thrown().is_empty();
            effect.global |= !object.escape.global().is_empty();
        }
        for (name, locs) in &heap.points {
            for &loc in locs {
                let key = (!heap.is_exposed(loc)).then_some(loc);
                let first = *self.holder.entry(key).or_insert(name.index());
                self.aliases.union(first, name.index());
            }
        }
        let n = self.summary.inputs.len();
        for (i, slots) in &heap.effects.writes {
            let effect = match self.summary.inputs.get_mut(*i as usize) {
                Some(effect) => effect,
                None if *i as usize == n => &mut self.summary.others,
                None => continue,
            };
            effect.writes.extend(slots.iter().copied());
        }
        self.summary.writes_unknown |= heap.effects.writes_unknown;
        self.summary.calls_unknown |= heap.effects.calls_unknown;
    }

    fn other(&mut self, sites: &BTreeSet<Site>, block: BlockId) {
        for &s in sites {
            self.uses.entry(s).or_default().other.insert(block);
        }
    }

    /// The uses of sites' objects by the statement at `place`.
    fn uses<D>(&mut self, place: Place, stmt: &Stmt, state: &[&Disjunct<D>]) {
        let block = place.block;
        match stmt {
            Stmt::Assign {
                rhs: Rhs::Load(o, _) | Rhs::Field(o, _),
                ..
            } => {
                let hit = sites(&points_all(state, *o));
                self.loaded.entry(place).or_default().extend(hit);
            }
            // Copies and selects move the reference between names; their uses count.
            Stmt::Assign {
                rhs: Rhs::Use(_) | Rhs::Select(..),
                ..
            } => {}
            Stmt::Store { object, value, .. } => {
                let targets = points_all(state, *object);
                let stored = sites(&points_all(state, *value));
                self.other(&stored, block);
                for site in sites(&targets) {
                    if stored.contains(&site) {
                        continue;
                    }
                    if targets == BTreeSet::from([Loc::Recent(site)]) {
                        self.uses.entry(site).or_default().late_stores |=
                            block != site.block || place.index < site.index;
                    } else {
                        self.other(&BTreeSet::from([site]), block);
                    }
                }
            }
            _ => {
                let mut hit = BTreeSet::new();
                stmt.for_each_use(|o| hit.extend(sites(&points_all(state, o))));
                self.other(&hit, block);
            }
        }
    }

    /// The terminator of `place.block`: its uses, and at a `ret` or `throw` the exit with what
    /// it returns or throws marked as escaping there.
    fn terminator<D>(&mut self, place: Place, state: &[&Disjunct<D>]) {
        let terminator = self.program.terminator(place.block);
        let mut hit = BTreeSet::new();
        terminator.for_each_use(|o| hit.extend(sites(&points_all(state, o))));
        self.other(&hit, place.block);
        let (operand, returns) = match terminator {
            Terminator::Return(o) => (*o, true),
            Terminator::Throw(o) => (*o, false),
            _ => return,
        };
        for d in state {
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
                heap.escape(roots.iter().copied(), place, EscapeKind::Returned);
            } else {
                heap.escape(roots.iter().copied(), place, EscapeKind::Thrown);
            }
            self.heap(&heap);
            self.exits.push(Exit {
                returns,
                roots,
                inside,
            });
        }
    }

    fn finish(mut self) -> Read {
        for fact in self.loads.values_mut() {
            fact.forwarded = fact.content.forwarded();
        }
        for (place, hit) in std::mem::take(&mut self.loaded) {
            if self.loads.get(&place).and_then(|f| f.forwarded).is_none() {
                self.other(&hit, place.block);
            }
        }
        for exit in std::mem::take(&mut self.exits) {
            self.exit(&exit);
        }
        let allocations = self.allocations();
        let alias_groups = self
            .aliases
            .classes(|_| true)
            .into_iter()
            .filter(|class| class.len() > 1)
            .map(|class| class.into_iter().map(|n| NameId(n as u32)).collect())
            .collect();
        Read {
            loads: self.loads,
            stores: self.stores,
            allocations,
            summary: self.summary,
            alias_groups,
        }
    }

    /// What the summary learns from an exit: which inputs are returned, as themselves or
    /// inside the result.
    fn exit(&mut self, exit: &Exit) {
        if !exit.returns {
            return;
        }
        for loc in &exit.inside {
            match loc {
                Loc::Param(i) => {
                    if let Some(effect) = self.summary.inputs.get_mut(*i as usize) {
                        effect.returned_inside = true;
                    }
                }
                Loc::Unknown => self.summary.others.returned_inside = true,
                Loc::Recent(_) | Loc::Old(_) => {}
            }
        }
        for loc in &exit.roots {
            match loc {
                Loc::Param(i) => {
                    self.summary.returns_inputs.insert(*i);
                }
                _ => self.summary.returns_other = true,
            }
        }
    }

    fn allocations(&mut self) -> Vec<Allocation> {
        let program = self.program;
        let dominators = Dominators::new(program);
        let mut out = Vec::new();
        let reached = std::mem::take(&mut self.reached);
        for block in reached {
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
                let escape = self
                    .escapes
                    .remove(&site)
                    .map_or_else(Escape::default, |e| e.to_escape());
                let uses = self.uses.get(&site);
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
                        if t != block
                            && dominators.strictly_dominates(block, t)
                            && !uses.late_stores
                        {
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
}

impl<D: ValueDomain, P: Program + Cfg + ?Sized> Visit<D> for Gather<'_, P> {
    fn before(&mut self, place: Place, stmt: Option<&Stmt>, disjuncts: &[Disjunct<D>]) {
        self.reached.insert(place.block);
        // The disjuncts the states would keep: the reachable ones.
        let state: Vec<&Disjunct<D>> = disjuncts
            .iter()
            .filter(|d| d.values.is_reachable())
            .collect();
        for d in &state {
            self.heap(&d.heap);
        }
        match stmt {
            Some(stmt) => self.uses(place, stmt, &state),
            None => self.terminator(place, &state),
        }
    }

    fn step(&mut self, place: Place, step: Step) {
        match step {
            Step::Load(content, _) => match self.loads.get_mut(&place) {
                Some(fact) => fact.content.join_with(&content),
                None => {
                    self.loads.insert(
                        place,
                        LoadFact {
                            content,
                            forwarded: None,
                        },
                    );
                }
            },
            Step::Store { strong, .. } => {
                let all = self.stores.entry(place).or_insert(true);
                *all &= strong;
            }
            Step::Other | Step::Call(_) => {}
        }
    }
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
    let solved = absinthe_interproc::callees_first(module.function_count(), &|f, callees| {
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
            stop: absinthe::engine::StopReason::Stable,
            stats: Default::default(),
        },
        loads: BTreeMap::new(),
        stores: BTreeMap::new(),
        allocations: Vec::new(),
        summary: Summary::default(),
        alias_groups: Vec::new(),
        callees: Seen::default(),
        heaps: 1,
        exposed: 0,
    }
}

/// Runs the escape and alias analysis (the engine `escape`) for declared analysis `A` over every
/// function of `module`, callees first, keeping up to `A`'s declared number of heaps apart at a
/// point, with `A`'s domain as the values of names.
pub fn solve_declared<A: absinthe::value::DeclaredAnalysis, M: Module>(
    module: &M,
) -> Vec<FunctionFacts<A::Domain>>
where
    M::Function: Cfg,
{
    solve_module(module, A::spec().heaps as usize)
}
