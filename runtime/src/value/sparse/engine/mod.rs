//! The sparse engine: the worklist solver's schedule, step for step, over the sparse map.
//!
//! The engine visits blocks in exactly the order the dense worklist solver
//! ([`crate::engine::solve`]) does, and takes exactly its decisions (which block changed, when to
//! join, widen or narrow), so both compute the same states. What differs is what a visit costs:
//! instead of copying and comparing an environment of every name, a visit recomputes the few
//! head entries of the block, re-evaluates its statements (all of them, or with temporal sparsity
//! only those reading a name that changed) and tells its successors which names changed at its
//! exit. (A name reported has changed as long as values at a point change monotonically between
//! two visits, which they do in each phase when transfers are monotone; otherwise the engine may
//! revisit more blocks than the dense solver, which changes no result.)
//!
//! Why the results are the same: when the dense solver takes a block from its worklist, every
//! block before it in the weak topological order holds exactly what flows into it, so the states
//! it reads along forward edges are functions of the loop heads' states, and so are the values the
//! sparse lookups find. Only back edges may carry a stale state (the source was visited before the
//! head changed); the sparse engine keeps, for each back-edge source, a snapshot of its exit state
//! taken at its last visit. Widening and narrowing act on every name at a loop head, so loop heads
//! (and the blocks on their iterated dominance frontier) keep a value for every name.

mod evaluate;
mod flow;

use super::store::{NONE, Store};
use crate::cfg::{DominanceFrontiers, Dominators, Wto};
use crate::engine::schedule::{self, Schedule, Visits, incoming_edges};
use crate::engine::{Analysis, Limits, MAX_WIDENINGS_PER_HEAD, Stats, StopReason};
use crate::lattice::{Lattice, Thresholds};
use crate::program::{BlockId, NameId, Operand, Program, Rhs, Stmt};
use crate::value::nonrel::{Bindings, BindingsMut};
use crate::value::{Env, NonRelational, ValueDomain};

/// How the state flowing into a block's statements changed at a visit.
#[derive(Debug)]
enum EntryChange {
    /// Nothing changed.
    Unchanged,
    /// The block became reachable.
    Reached,
    /// The block became unreachable.
    Unreached,
    /// The block stayed reachable and any name may have changed.
    All,
    /// These names changed (each once, in no particular order).
    Names(Vec<NameId>),
}

/// How a block's exit state changed, as its successors learn it.
#[derive(Clone, Debug)]
enum ExitChange {
    /// Nothing changed.
    Nothing,
    /// The block became reachable for the first time, or unreachable: the edges out of it must be
    /// recomputed, but the values that pass through its successors are not affected.
    Reach,
    /// Any name may have changed.
    All,
    /// These names changed (each once, in no particular order).
    Names(Vec<NameId>),
}

/// What a block has been told since its last visit.
#[derive(Debug, Default)]
struct Pending {
    /// A predecessor became reachable for the first time, or unreachable.
    reach: bool,
    /// A predecessor's exit state may have changed in any name.
    all: bool,
    /// Names whose value changed at a predecessor's exit (each once).
    names: Vec<NameId>,
    /// Names with a new definition site whose iterated dominance frontier holds this block: they
    /// need a head entry here.
    requests: Vec<NameId>,
}

impl Pending {
    /// Adds what a predecessor reports. `marks` is a scratch table over the names.
    fn absorb(&mut self, change: ExitChange, marks: &mut Marks) {
        let names = match change {
            ExitChange::Nothing => return,
            ExitChange::Reach => {
                self.reach = true;
                return;
            }
            ExitChange::All => {
                self.all = true;
                return;
            }
            ExitChange::Names(names) => names,
        };
        if self.names.is_empty() {
            self.names = names;
            return;
        }
        let stamp = marks.fresh();
        for n in &self.names {
            marks.stamps[n.index()] = stamp;
        }
        for n in names {
            if marks.stamps[n.index()] != stamp {
                marks.stamps[n.index()] = stamp;
                self.names.push(n);
            }
        }
    }
}

/// What the engine remembers about one component head.
#[derive(Debug)]
struct Head<D> {
    /// Joins that grew this head's state so far.
    joins: u32,
    /// Widenings that changed the state.
    widenings: u32,
    /// The thresholds of the component, computed at its first widening.
    thresholds: Option<Thresholds>,
    /// Whether anything flowed in at the last evaluation of the incoming edges.
    new_reach: bool,
    /// What flowed in then, for every name (valid when `fresh`).
    new_values: Box<[D]>,
    /// Whether `new_values` is up to date but for the names pending since.
    fresh: bool,
}

/// The exit state of a back-edge source at its last visit: what the head reads along the back
/// edge, as the dense solver's stored state would give it.
#[derive(Debug)]
struct Snapshot<D> {
    reach: bool,
    values: Box<[D]>,
}

/// One edge into a block, at one evaluation.
#[derive(Debug)]
enum EdgeFlow<D> {
    /// The source is unreachable.
    Dead,
    /// The source is reachable but the edge cannot be taken.
    Infeasible,
    /// The edge carries the source's exit state, with these names written (refined or φ).
    Feasible(Vec<(NameId, D)>),
}

/// The edges into a block, at one evaluation.
#[derive(Debug)]
struct Incoming<D> {
    /// Whether the function's boundary state flows in (the entry block).
    boundary: bool,
    /// One per incoming edge, in the order of `Engine::in_edges`.
    edges: Vec<EdgeFlow<D>>,
}

impl<D> Incoming<D> {
    fn reachable(&self) -> bool {
        self.boundary
            || self
                .edges
                .iter()
                .any(|e| matches!(e, EdgeFlow::Feasible(_)))
    }
}

/// Where an edge reads its source's values.
#[derive(Clone, Copy, Debug)]
enum Source<'s, D> {
    /// The current exit state of a block (forward edges).
    Exit(BlockId),
    /// A snapshot (back edges).
    Snapshot(&'s [D]),
}

/// The source of an edge with the edge's own writes on top: what the transfer of the edge reads
/// and writes.
struct EdgeView<'s, D> {
    store: &'s Store<D>,
    source: Source<'s, D>,
    defs: Vec<(NameId, D)>,
}

impl<D: ValueDomain> EdgeView<'_, D> {
    fn source_value(&self, name: NameId) -> D {
        match self.source {
            Source::Exit(b) => self.store.value_at_exit(b, name),
            Source::Snapshot(values) => values.get(name.index()).cloned().unwrap_or_else(D::bottom),
        }
    }
}

impl<D: ValueDomain> Bindings<D> for EdgeView<'_, D> {
    fn get(&self, name: NameId) -> D {
        match self.defs.iter().find(|d| d.0 == name) {
            Some((_, value)) => value.clone(),
            None => self.source_value(name),
        }
    }
}

impl<D: ValueDomain> BindingsMut<D> for EdgeView<'_, D> {
    fn set(&mut self, name: NameId, value: D) {
        match self.defs.iter_mut().find(|d| d.0 == name) {
            Some(slot) => slot.1 = value,
            None => self.defs.push((name, value)),
        }
    }
}

/// The values statements of block `block` read: earlier definitions of the block (marked in
/// `stamps` with `stamp`, at the slots in `slots`), else the block's head. Definitions of the
/// immediate dominator are marked with `above` (a shortcut for the most common walk).
struct BlockView<'s, D> {
    store: &'s Store<D>,
    block: BlockId,
    stamps: &'s [u32],
    slots: &'s [u32],
    stamp: u32,
    above: u32,
}

impl<D: ValueDomain> Bindings<D> for BlockView<'_, D> {
    fn get(&self, name: NameId) -> D {
        match self.stamps.get(name.index()) {
            Some(&s) if s == self.stamp => {
                self.store.slot(self.slots[name.index()] as usize).clone()
            }
            Some(&s) if s == self.above && !self.store.has_entry(self.block, name) => {
                self.store.slot(self.slots[name.index()] as usize).clone()
            }
            _ => self.store.value_at_entry(self.block, name),
        }
    }
}

/// Calls `f` on the names the value of `rhs` depends on (loads, calls, closures and block
/// operations give top whatever they read).
fn value_reads(rhs: &Rhs, mut f: impl FnMut(NameId)) {
    let mut name = |o: Operand| {
        if let Operand::Name(n) = o {
            f(n);
        }
    };
    match rhs {
        Rhs::Use(a) | Rhs::Table(_, a) => name(*a),
        Rhs::Binary(_, a, b) => {
            name(*a);
            name(*b);
        }
        Rhs::Select(c, a, b) => {
            name(*c);
            name(*a);
            name(*b);
        }
        Rhs::New
        | Rhs::Load(..)
        | Rhs::Call(..)
        | Rhs::Closure(..)
        | Rhs::Sibling(..)
        | Rhs::MyClosure
        | Rhs::Apply(..)
        | Rhs::Block(..)
        | Rhs::Field(..)
        | Rhs::Tag(..)
        | Rhs::IsBlock(..)
        | Rhs::Address(_) => {}
    }
}

/// A dense `u32` marking table reused across blocks: a slot is marked when it holds the current
/// stamp, so clearing is a stamp increment.
#[derive(Debug)]
struct Marks {
    stamps: Vec<u32>,
    current: u32,
}

impl Marks {
    fn new(len: usize) -> Marks {
        Marks {
            stamps: vec![0; len],
            current: 0,
        }
    }

    /// A stamp no slot holds yet.
    fn fresh(&mut self) -> u32 {
        if self.current == u32::MAX {
            self.stamps.fill(0);
            self.current = 0;
        }
        self.current += 1;
        self.current
    }
}

/// Which phase of the solver a visit belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Ascend,
    Descend,
}

pub(crate) struct Engine<'a, D, P: ?Sized> {
    program: &'a P,
    analysis: &'a NonRelational<D>,
    limits: &'a Limits,
    temporal: bool,
    pub(crate) store: Store<D>,
    /// The weak topological order, each block's position in it, and the queue.
    schedule: Schedule,
    heads: Vec<Head<D>>,
    /// The incoming edges `(source, successor index)` of each block, as ranges of `in_edges`
    /// delimited by `in_offsets`.
    in_offsets: Vec<u32>,
    in_edges: Vec<(BlockId, u32)>,
    /// Per incoming edge: whether its source was reachable at the target's last visit.
    edge_live: Vec<bool>,
    /// Per incoming edge: whether it could be taken at the target's last visit.
    edge_feasible: Vec<bool>,
    /// Dominance frontiers, `df_targets[df_offsets[b]..df_offsets[b + 1]]`.
    df_offsets: Vec<u32>,
    df_targets: Vec<BlockId>,
    /// Per block: index into `snapshots` when the block is the source of a back edge.
    snapshot_slot: Vec<u32>,
    snapshots: Vec<Snapshot<D>>,
    pending: Vec<Option<Box<Pending>>>,
    /// Cleared `Pending` records and edge lists, reused so that visits do not allocate.
    #[expect(
        clippy::vec_box,
        reason = "the boxes themselves are recycled into `pending`, which holds boxes"
    )]
    spare: Vec<Box<Pending>>,
    edges_buf: Vec<EdgeFlow<D>>,
    /// Whether the block's definition sites were recorded (at its first evaluation).
    registered: Vec<bool>,
    /// Whether the block was ever reachable.
    ever_reached: Vec<bool>,
    /// Temporal sparsity: the names each block reads before defining them.
    uses: Vec<Box<[NameId]>>,
    pub(crate) stats: Stats,
    /// Scratch: definitions of the block being evaluated (name → slot).
    defs: Marks,
    def_slot: Vec<u32>,
    /// Scratch: names changed so far in the block being evaluated (temporal sparsity).
    changed: Marks,
    /// Scratch: names written by a materialization.
    seen: Marks,
    /// Scratch: names of a pending list, to merge another into it.
    index_marks: Marks,
    /// Scratch: the slots whose value an evaluation changed.
    changed_slots: Vec<usize>,
    /// Scratch: blocks visited by an iterated-frontier walk.
    visited: Marks,
    /// Scratch: one value per name.
    buf: Box<[D]>,
    buf_new: Box<[D]>,
}

impl<'a, D: ValueDomain, P: Program + ?Sized> Engine<'a, D, P> {
    pub(crate) fn new(
        program: &'a P,
        analysis: &'a NonRelational<D>,
        limits: &'a Limits,
        temporal: bool,
    ) -> Self {
        let n = program.block_count();
        let names = program.name_count();
        let wto = Wto::new(program);
        let schedule = Schedule::new(wto, 0, n);
        let heads = (0..schedule.heads())
            .map(|_| Head {
                joins: 0,
                widenings: 0,
                thresholds: None,
                new_reach: false,
                new_values: vec![D::bottom(); names].into_boxed_slice(),
                fresh: false,
            })
            .collect();
        let position = &schedule.position;

        let (idom, df_offsets, df_targets, complete) = {
            let dominators = Dominators::new(program);
            let frontiers = DominanceFrontiers::new(program, &dominators);
            let idom: Vec<u32> = (0..n)
                .map(|b| dominators.idom(BlockId::new(b)).map_or(NONE, |d| d.0))
                .collect();
            let mut df_offsets = Vec::with_capacity(n + 1);
            let mut df_targets = Vec::new();
            df_offsets.push(0);
            for b in (0..n).map(BlockId::new) {
                df_targets.extend_from_slice(frontiers.frontier(b));
                df_offsets.push(df_targets.len() as u32);
            }
            // Loop heads widen and narrow every name: they keep a value for every name, and so
            // do the blocks where their values merge with others.
            let heads: Vec<BlockId> = schedule.wto.heads().collect();
            let mut complete = frontiers.iterated(heads.iter().copied());
            complete.extend(heads);
            complete.sort_unstable();
            complete.dedup();
            (idom, df_offsets, df_targets, complete)
        };

        let slots: Vec<u32> = (0..n)
            .map(|b| {
                program
                    .stmts(BlockId::new(b))
                    .iter()
                    .filter(|s| matches!(s, Stmt::Assign { .. }))
                    .count() as u32
            })
            .collect();
        let inputs: Vec<NameId> = program
            .params()
            .iter()
            .chain(program.captures())
            .copied()
            .collect();
        let store = Store::new(names, &idom, &slots, &complete, &inputs);

        let (in_offsets, in_edges) = incoming_edges(program);
        let mut snapshot_slot = vec![NONE; n];
        let mut snapshots = Vec::new();
        for &(from, index) in &in_edges {
            let to = program.successors(from)[index as usize];
            let (pf, pt) = (position[from.index()], position[to.index()]);
            if pf != NONE && pt != NONE && pt <= pf && snapshot_slot[from.index()] == NONE {
                snapshot_slot[from.index()] = snapshots.len() as u32;
                snapshots.push(Snapshot {
                    reach: false,
                    values: vec![D::bottom(); names].into_boxed_slice(),
                });
            }
        }
        let edges = in_edges.len();
        Engine {
            program,
            analysis,
            limits,
            temporal,
            store,
            schedule,
            heads,
            in_offsets,
            in_edges,
            edge_live: vec![false; edges],
            edge_feasible: vec![false; edges],
            df_offsets,
            df_targets,
            snapshot_slot,
            snapshots,
            pending: (0..n).map(|_| None).collect(),
            spare: Vec::new(),
            edges_buf: Vec::new(),
            registered: vec![false; n],
            ever_reached: vec![false; n],
            uses: if temporal {
                (0..n).map(|_| Box::default()).collect()
            } else {
                Vec::new()
            },
            stats: Stats::default(),
            defs: Marks::new(names),
            def_slot: vec![0; names],
            changed: Marks::new(names),
            seen: Marks::new(names),
            index_marks: Marks::new(names),
            changed_slots: Vec::new(),
            visited: Marks::new(n),
            buf: vec![D::bottom(); names].into_boxed_slice(),
            buf_new: vec![D::bottom(); names].into_boxed_slice(),
        }
    }

    /// Runs the solver on the one schedule the dense solver runs on, so that the two take the
    /// same steps.
    pub(crate) fn run(&mut self) -> Result<(), StopReason> {
        if self.program.block_count() == 0 {
            return Ok(());
        }
        self.schedule.push(self.program.entry());
        schedule::run(self, self.limits.narrowing_passes)
    }

    /// What `b` was told since its last visit (cleared there).
    fn take_pending(&mut self, b: BlockId) -> Box<Pending> {
        match self.pending[b.index()].take() {
            Some(p) => p,
            None => self.spare.pop().unwrap_or_default(),
        }
    }

    fn pending_mut(&mut self, b: BlockId) -> &mut Pending {
        let slot = &mut self.pending[b.index()];
        if slot.is_none() {
            *slot = Some(self.spare.pop().unwrap_or_default());
        }
        slot.get_or_insert_with(Box::default)
    }

    /// Tells the successors of `b` how its exit changed; whether it did.
    fn notify(&mut self, b: BlockId, mut exit: ExitChange) -> bool {
        if matches!(exit, ExitChange::Nothing) {
            return false;
        }
        let program: &'a P = self.program;
        let succs = program.successors(b);
        for (i, &s) in succs.iter().enumerate() {
            if self
                .schedule
                .position
                .get(s.index())
                .is_none_or(|&p| p == NONE)
            {
                continue;
            }
            let change = if i + 1 == succs.len() {
                std::mem::replace(&mut exit, ExitChange::Nothing)
            } else {
                exit.clone()
            };
            self.pending_mut(s);
            if let Some(pending) = self.pending[s.index()].as_mut() {
                pending.absorb(change, &mut self.index_marks);
            }
        }
        true
    }

    /// Records the names the edges into `b` write as head entries of `b` (first evaluation).
    fn register_head(&mut self, b: BlockId) {
        if self.registered[b.index()] {
            return;
        }
        let names = self.edge_defs(b);
        for name in names {
            self.store.add_entry(b, name, D::bottom());
        }
    }

    /// The names the edges into `b` may write, sorted.
    fn edge_defs(&self, b: BlockId) -> Vec<NameId> {
        let range = self.in_offsets[b.index()] as usize..self.in_offsets[b.index() + 1] as usize;
        let mut names = Vec::new();
        for &(from, index) in &self.in_edges[range] {
            self.analysis
                .edge_defs(self.program, from, index as usize, &mut names);
        }
        names.sort_unstable();
        names.dedup();
        names
    }

    /// Records the definitions of `b` (first evaluation): its slots, the head entries its
    /// definitions need on their iterated dominance frontier, and (temporal sparsity) the names it
    /// reads from its head.
    fn register_body(&mut self, b: BlockId) {
        if std::mem::replace(&mut self.registered[b.index()], true) {
            return;
        }
        let program: &'a P = self.program;
        let mut slot = self.store.slots(b).start;
        let stamp = self.defs.fresh();
        let mut uses = Vec::new();
        for stmt in program.stmts(b) {
            if let Stmt::Assign { dest, rhs } = stmt {
                if self.temporal {
                    value_reads(rhs, |n| {
                        if self.defs.stamps[n.index()] != stamp {
                            uses.push(n);
                        }
                    });
                }
                self.defs.stamps[dest.index()] = stamp;
                self.store.define(b, slot, *dest);
                slot += 1;
            }
        }
        if self.temporal {
            uses.sort_unstable();
            uses.dedup();
            self.uses[b.index()] = uses.into_boxed_slice();
        }
        if self.store.is_complete(b) || self.df_offsets[b.index()] == self.df_offsets[b.index() + 1]
        {
            // The frontier is empty, or made of complete blocks, which keep every name already.
            return;
        }
        let mut defined: Vec<NameId> = self
            .store
            .slots(b)
            .filter_map(|s| self.store.slot_name(s))
            .collect();
        defined.extend(self.edge_defs(b));
        defined.sort_unstable();
        defined.dedup();
        for s in self.frontier_targets(b) {
            let missing: Vec<NameId> = defined
                .iter()
                .copied()
                .filter(|&n| !self.store.has_entry(s, n))
                .collect();
            if !missing.is_empty() {
                self.pending_mut(s).requests.extend(missing);
            }
        }
    }

    /// The blocks of the iterated dominance frontier of `b` that are not complete.
    fn frontier_targets(&mut self, b: BlockId) -> Vec<BlockId> {
        let stamp = self.visited.fresh();
        let mut work = vec![b];
        let mut result = Vec::new();
        while let Some(x) = work.pop() {
            let range =
                self.df_offsets[x.index()] as usize..self.df_offsets[x.index() + 1] as usize;
            for &y in &self.df_targets[range] {
                if self.visited.stamps[y.index()] == stamp {
                    continue;
                }
                self.visited.stamps[y.index()] = stamp;
                if !self.store.is_complete(y) {
                    result.push(y);
                    work.push(y);
                }
            }
        }
        result.sort_unstable();
        result
    }
}

/// `Env::leq` on states given as a reachability flag and values.
fn env_leq<D: Lattice>(a_reach: bool, a: &[D], b_reach: bool, b: &[D]) -> bool {
    match (a_reach, b_reach) {
        (false, _) => true,
        (true, false) => false,
        (true, true) => a.iter().zip(b).all(|(x, y)| x.leq(y)),
    }
}

/// The dense state a reachability flag and values stand for (for messages).
fn env<D: Clone>(reach: bool, values: &[D]) -> Env<D> {
    if reach {
        Env::Reachable(values.to_vec())
    } else {
        Env::Unreachable
    }
}

fn names_change(changes: Vec<NameId>) -> EntryChange {
    if changes.is_empty() {
        EntryChange::Unchanged
    } else {
        EntryChange::Names(changes)
    }
}

fn names_exit(names: Vec<NameId>) -> ExitChange {
    if names.is_empty() {
        ExitChange::Nothing
    } else {
        ExitChange::Names(names)
    }
}

impl<'a, D: ValueDomain, P: Program + ?Sized> Visits<'a> for Engine<'a, D, P> {
    fn schedule(&mut self) -> &mut Schedule {
        &mut self.schedule
    }

    fn successors(&self, b: BlockId) -> &'a [BlockId] {
        let program: &'a P = self.program;
        program.successors(b)
    }

    fn ascend_visit(&mut self, b: BlockId, _head: Option<usize>) -> Result<bool, StopReason> {
        let change = self.flow_in(b, Phase::Ascend)?;
        if matches!(change, EntryChange::Unchanged) {
            return Ok(false);
        }
        let exit = self.transfer(b, change)?;
        Ok(self.notify(b, exit))
    }

    fn descend_visit(
        &mut self,
        b: BlockId,
        _head: Option<usize>,
    ) -> Result<(bool, bool), StopReason> {
        let change = self.flow_in(b, Phase::Descend)?;
        if matches!(change, EntryChange::Unchanged) {
            return Ok((false, false));
        }
        let exit = self.transfer(b, change)?;
        Ok((true, self.notify(b, exit)))
    }

    fn below_inflow(&mut self, b: BlockId, head: Option<usize>) -> bool {
        let Some(slot) = head else {
            // Not a head (the weak topological order rules it out): revisit it to be safe.
            return true;
        };
        let pending = self.take_pending(b);
        let incoming = self.incoming(b);
        self.refresh_head(b, slot, &incoming, &pending);
        self.recycle(pending, incoming);
        let head = &self.heads[slot];
        !env_leq(
            head.new_reach,
            &head.new_values,
            self.store.is_reachable(b),
            self.store.complete(b),
        )
    }
}
