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

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::store::{NONE, Store};
use crate::cfg::{DominanceFrontiers, Dominators, Wto};
use crate::engine::{Analysis, Limits, MAX_WIDENINGS_PER_HEAD, Stats, StopReason};
use crate::lattice::{Lattice, Thresholds};
use crate::program::{BlockId, Cfg, NameId, Operand, Program, Rhs, Stmt};
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
        Rhs::Use(a) => name(*a),
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
        | Rhs::Apply(..)
        | Rhs::Block(..)
        | Rhs::Field(..)
        | Rhs::Tag(..)
        | Rhs::IsBlock(..) => {}
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
    wto: Wto,
    /// Flow-order position per block (`NONE` when the flow never reaches it).
    position: Vec<u32>,
    /// The blocks by position.
    order: Vec<BlockId>,
    /// Per position: index into `heads`, or `NONE`.
    head_slot: Vec<u32>,
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
    worklist: BinaryHeap<Reverse<u32>>,
    queued: Vec<bool>,
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
        let order: Vec<BlockId> = wto.order().to_vec();
        let mut position = vec![NONE; n];
        let mut head_slot = vec![NONE; order.len()];
        let mut heads = Vec::new();
        for (pos, &b) in order.iter().enumerate() {
            position[b.index()] = pos as u32;
            if wto.is_head(b) {
                head_slot[pos] = heads.len() as u32;
                heads.push(Head {
                    joins: 0,
                    widenings: 0,
                    thresholds: None,
                    new_reach: false,
                    new_values: vec![D::bottom(); names].into_boxed_slice(),
                    fresh: false,
                });
            }
        }

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
            let heads: Vec<BlockId> = wto.heads().collect();
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
            wto,
            position,
            queued: vec![false; order.len()],
            order,
            head_slot,
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
            worklist: BinaryHeap::new(),
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

    /// Runs the solver: the ascending phase, then the descending passes, as the dense solver.
    pub(crate) fn run(&mut self) -> Result<(), StopReason> {
        if self.program.block_count() == 0 {
            return Ok(());
        }
        self.push(self.program.entry());
        self.ascend()?;
        for _ in 0..self.limits.narrowing_passes {
            let changed = self.descend()?;
            if !self.worklist.is_empty() {
                self.ascend()?;
                break;
            }
            if !changed {
                break;
            }
        }
        Ok(())
    }

    fn push(&mut self, b: BlockId) {
        let pos = self.position.get(b.index()).copied().unwrap_or(NONE);
        if pos != NONE && !self.queued[pos as usize] {
            self.queued[pos as usize] = true;
            self.worklist.push(Reverse(pos));
        }
    }

    fn ascend(&mut self) -> Result<(), StopReason> {
        while let Some(Reverse(pos)) = self.worklist.pop() {
            self.queued[pos as usize] = false;
            let b = self.order[pos as usize];
            let change = self.flow_in(b, Phase::Ascend)?;
            if matches!(change, EntryChange::Unchanged) {
                continue;
            }
            let exit = self.transfer(b, change)?;
            if self.notify(b, exit) {
                for &s in self.program.successors(b) {
                    self.push(s);
                }
            }
        }
        Ok(())
    }

    /// One descending pass, visiting what the dense solver's pass visits.
    fn descend(&mut self) -> Result<bool, StopReason> {
        let mut dirty: Vec<bool> = self.head_slot.iter().map(|&slot| slot != NONE).collect();
        let mut any_changed = false;
        for pos in 0..self.order.len() {
            if !dirty[pos] {
                continue;
            }
            dirty[pos] = false;
            let b = self.order[pos];
            let change = self.flow_in(b, Phase::Descend)?;
            if matches!(change, EntryChange::Unchanged) {
                continue;
            }
            any_changed = true;
            let exit = self.transfer(b, change)?;
            if self.notify(b, exit) {
                for &s in self.program.successors(b) {
                    if let Some(&p) = self.position.get(s.index()).filter(|&&p| p != NONE) {
                        dirty[p as usize] = true;
                    }
                }
            }
        }
        // Blocks still dirty were reached by a back edge after their visit: they are heads.
        let still_dirty: Vec<usize> = (0..dirty.len()).filter(|&pos| dirty[pos]).collect();
        for pos in still_dirty {
            let b = self.order[pos];
            let slot = self.head_slot[pos];
            if slot == NONE {
                // Not a head (the weak topological order rules it out): revisit it to be safe.
                self.push(b);
                continue;
            }
            let pending = self.take_pending(b);
            let incoming = self.incoming(b);
            self.refresh_head(b, slot as usize, &incoming, &pending);
            self.recycle(pending, incoming);
            let head = &self.heads[slot as usize];
            if !env_leq(
                head.new_reach,
                &head.new_values,
                self.store.is_reachable(b),
                self.store.complete(b),
            ) {
                self.push(b);
            }
        }
        Ok(any_changed)
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
            if self.position.get(s.index()).is_none_or(|&p| p == NONE) {
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

    /// Evaluates the edges into `b`, counting the work as the dense solver's `flow_into` does.
    fn incoming(&mut self, b: BlockId) -> Incoming<D> {
        let range = self.in_offsets[b.index()] as usize..self.in_offsets[b.index() + 1] as usize;
        let target = self.position[b.index()];
        let boundary = b == self.program.entry();
        let mut edges = std::mem::take(&mut self.edges_buf);
        let mut flowing = u64::from(boundary);
        for &(from, index) in &self.in_edges[range] {
            let pf = self.position[from.index()];
            let source = if pf == NONE {
                None
            } else if pf >= target {
                let snapshot = &self.snapshots[self.snapshot_slot[from.index()] as usize];
                snapshot
                    .reach
                    .then_some(Source::Snapshot(&snapshot.values[..]))
            } else {
                self.store.is_reachable(from).then_some(Source::Exit(from))
            };
            let Some(source) = source else {
                edges.push(EdgeFlow::Dead);
                continue;
            };
            self.stats.edge_transfers += 1;
            let mut view = EdgeView {
                store: &self.store,
                source,
                defs: Vec::new(),
            };
            let (program, index) = (self.program, index as usize);
            if self
                .analysis
                .refine_edge_in(program, from, index, &mut view)
            {
                NonRelational::<D>::phis_in(program, from, index, &mut view);
                edges.push(EdgeFlow::Feasible(view.defs));
                flowing += 1;
            } else {
                edges.push(EdgeFlow::Infeasible);
            }
        }
        self.stats.joins += flowing.saturating_sub(1);
        Incoming { boundary, edges }
    }

    /// The value of `name` flowing in along incoming edge `i` of `b` (which is feasible with the
    /// writes `defs`).
    fn edge_value(&self, b: BlockId, i: usize, defs: &[(NameId, D)], name: NameId) -> D {
        if let Some((_, value)) = defs.iter().find(|d| d.0 == name) {
            return value.clone();
        }
        let (from, _) = self.in_edges[self.in_offsets[b.index()] as usize + i];
        if self.position[from.index()] >= self.position[b.index()] {
            let snapshot = &self.snapshots[self.snapshot_slot[from.index()] as usize];
            snapshot.values[name.index()].clone()
        } else {
            self.store.value_at_exit(from, name)
        }
    }

    /// The join of what flows into `b` for `name` (the block is reachable).
    fn flow_value(&self, b: BlockId, incoming: &Incoming<D>, name: NameId) -> D {
        let mut acc = incoming.boundary.then(|| self.store.boundary(name));
        for (i, edge) in incoming.edges.iter().enumerate() {
            if let EdgeFlow::Feasible(defs) = edge {
                let value = self.edge_value(b, i, defs, name);
                match &mut acc {
                    None => acc = Some(value),
                    Some(a) => {
                        a.join_with(&value);
                    }
                }
            }
        }
        acc.unwrap_or_else(D::bottom)
    }

    /// Visits the head of `b`: recomputes what flows in and updates its entry state as the dense
    /// solver would; reports what changed.
    fn flow_in(&mut self, b: BlockId, phase: Phase) -> Result<EntryChange, StopReason> {
        let mut pending = self.take_pending(b);
        let incoming = self.incoming(b);
        let slot = self.head_slot[self.position[b.index()] as usize];
        let change = if slot != NONE {
            self.refresh_head(b, slot as usize, &incoming, &pending);
            match phase {
                Phase::Ascend => self.update_head(b, slot as usize),
                Phase::Descend => self.narrow_head(b, slot as usize),
            }
        } else if self.store.is_complete(b) {
            Ok(self.flow_complete(b, &incoming, &pending))
        } else {
            Ok(self.flow_entries(b, &incoming, &mut pending))
        };
        self.recycle(pending, incoming);
        change
    }

    /// Gives back the buffers a visit used, for the next visits.
    fn recycle(&mut self, mut pending: Box<Pending>, incoming: Incoming<D>) {
        pending.reach = false;
        pending.all = false;
        pending.names.clear();
        pending.requests.clear();
        self.spare.push(pending);
        let mut edges = incoming.edges;
        edges.clear();
        self.edges_buf = edges;
    }

    /// Recomputes, into `out`, what flows into the complete block `b`: every name when `full`
    /// (or when an edge's feasibility changed), else the names `pending` reports and the names the
    /// edges write. Returns whether anything flows in, and the recomputed names (`None`: all).
    fn complete_flow(
        &mut self,
        b: BlockId,
        incoming: &Incoming<D>,
        pending: &Pending,
        out: &mut [D],
        full: bool,
    ) -> (bool, Option<Vec<NameId>>) {
        let base = self.in_offsets[b.index()] as usize;
        let mut feasibility_changed = false;
        for (i, edge) in incoming.edges.iter().enumerate() {
            let feasible = matches!(edge, EdgeFlow::Feasible(_));
            if self.edge_feasible[base + i] != feasible {
                self.edge_feasible[base + i] = feasible;
                feasibility_changed = true;
            }
            self.edge_live[base + i] = !matches!(edge, EdgeFlow::Dead);
        }
        if !incoming.reachable() {
            return (false, Some(Vec::new()));
        }
        if full || feasibility_changed || pending.reach || pending.all {
            self.flow_all(b, incoming, out);
            return (true, None);
        }
        let mut names: Vec<NameId> = pending.names.clone();
        for edge in &incoming.edges {
            if let EdgeFlow::Feasible(defs) = edge {
                names.extend(defs.iter().map(|d| d.0));
            }
        }
        names.sort_unstable();
        names.dedup();
        for &name in &names {
            out[name.index()] = self.flow_value(b, incoming, name);
        }
        (true, Some(names))
    }

    /// Writes into `out` what flows into `b` for every name.
    fn flow_all(&mut self, b: BlockId, incoming: &Incoming<D>, out: &mut [D]) {
        let mut started = false;
        if incoming.boundary {
            for (name, slot) in out.iter_mut().enumerate() {
                *slot = self.store.boundary(NameId::new(name));
            }
            started = true;
        }
        let base = self.in_offsets[b.index()] as usize;
        let mut buf = std::mem::take(&mut self.buf);
        for (i, edge) in incoming.edges.iter().enumerate() {
            let EdgeFlow::Feasible(defs) = edge else {
                continue;
            };
            let (from, _) = self.in_edges[base + i];
            if self.position[from.index()] >= self.position[b.index()] {
                let snapshot = &self.snapshots[self.snapshot_slot[from.index()] as usize];
                buf.clone_from_slice(&snapshot.values);
            } else {
                let stamp = self.seen.fresh();
                self.store
                    .materialize_exit(from, &mut buf, &mut self.seen.stamps, stamp);
            }
            for (name, value) in defs {
                buf[name.index()] = value.clone();
            }
            if started {
                for (acc, value) in out.iter_mut().zip(buf.iter()) {
                    acc.join_with(value);
                }
            } else {
                out.clone_from_slice(&buf);
                started = true;
            }
        }
        self.buf = buf;
    }

    /// Brings the head `b`'s record of what flows in up to date.
    fn refresh_head(&mut self, b: BlockId, slot: usize, incoming: &Incoming<D>, pending: &Pending) {
        let full = !self.heads[slot].fresh;
        let mut out = std::mem::take(&mut self.heads[slot].new_values);
        let (reach, _) = self.complete_flow(b, incoming, pending, &mut out, full);
        let head = &mut self.heads[slot];
        head.new_values = out;
        head.new_reach = reach;
        head.fresh = reach;
    }

    /// The dense solver's `update_head` on the complete state of the head `b`.
    fn update_head(&mut self, b: BlockId, slot: usize) -> Result<EntryChange, StopReason> {
        let old_reach = self.store.is_reachable(b);
        let head = &self.heads[slot];
        if env_leq(
            head.new_reach,
            &head.new_values,
            old_reach,
            self.store.complete(b),
        ) {
            return Ok(EntryChange::Unchanged);
        }
        if head.joins < self.limits.widening_delay {
            self.heads[slot].joins += 1;
            self.stats.joins += 1;
            let new = std::mem::take(&mut self.heads[slot].new_values);
            let change = self.join_into_complete(b, &new);
            self.heads[slot].new_values = new;
            return Ok(change);
        }
        let (program, analysis) = (self.program, self.analysis);
        let wto = &self.wto;
        let head = &mut self.heads[slot];
        let thresholds = head.thresholds.get_or_insert_with(|| {
            analysis.loop_thresholds(program, wto.component(b).unwrap_or_default())
        });
        let new = &head.new_values;
        let old = self.store.complete(b);
        // The widened state; `None` when the widening gives back the previous state.
        let widened: Vec<D> = if old_reach {
            old.iter()
                .zip(new.iter())
                .map(|(a, n)| a.widen_with_thresholds(n, thresholds))
                .collect()
        } else {
            new.to_vec()
        };
        self.stats.widenings += 1;
        if !(env_leq(old_reach, old, true, &widened)
            && env_leq(head.new_reach, new, true, &widened))
        {
            return Err(StopReason::LawViolation {
                block: b,
                message: format!(
                    "widening is not an upper bound of its arguments: previous {:?}, new {:?}, \
                     widened {:?}",
                    env(old_reach, old),
                    env(head.new_reach, new),
                    env(true, &widened)
                ),
            });
        }
        if old_reach && widened[..] == old[..] {
            return Ok(EntryChange::Unchanged);
        }
        head.widenings += 1;
        if head.widenings > MAX_WIDENINGS_PER_HEAD {
            return Err(StopReason::LawViolation {
                block: b,
                message: format!(
                    "widening did not stabilise after {MAX_WIDENINGS_PER_HEAD} changes; last: \
                     previous {:?}, new {:?}, widened {:?}",
                    env(old_reach, old),
                    env(head.new_reach, new),
                    env(true, &widened)
                ),
            });
        }
        Ok(self.replace_complete(b, widened))
    }

    /// The dense solver's `narrow_head` on the complete state of the head `b`.
    fn narrow_head(&mut self, b: BlockId, slot: usize) -> Result<EntryChange, StopReason> {
        let old_reach = self.store.is_reachable(b);
        let head = &self.heads[slot];
        let old = self.store.complete(b);
        if !env_leq(head.new_reach, &head.new_values, old_reach, old) {
            // Not a post-fixpoint here: leave the state and let the ascending phase repair it.
            self.push(b);
            return Ok(EntryChange::Unchanged);
        }
        let narrowed_reach = old_reach && head.new_reach;
        let narrowed: Vec<D> = if narrowed_reach {
            old.iter()
                .zip(head.new_values.iter())
                .map(|(a, n)| a.narrow(n))
                .collect()
        } else {
            Vec::new()
        };
        self.stats.narrowings += 1;
        let lower = env_leq(head.new_reach, &head.new_values, narrowed_reach, &narrowed);
        if !(lower && env_leq(narrowed_reach, &narrowed, old_reach, old)) {
            return Err(StopReason::LawViolation {
                block: b,
                message: format!(
                    "narrowing left the interval between its arguments: previous {:?}, \
                     new {:?}, narrowed {:?}",
                    env(old_reach, old),
                    env(head.new_reach, &head.new_values),
                    env(narrowed_reach, &narrowed)
                ),
            });
        }
        if narrowed_reach == old_reach && (!old_reach || narrowed[..] == old[..]) {
            return Ok(EntryChange::Unchanged);
        }
        if !narrowed_reach {
            self.store.set_reachable(b, false);
            return Ok(EntryChange::Unreached);
        }
        Ok(self.replace_complete(b, narrowed))
    }

    /// Joins `new` into the complete state of `b`, as `Env::join_with` does.
    fn join_into_complete(&mut self, b: BlockId, new: &[D]) -> EntryChange {
        if !self.store.is_reachable(b) {
            self.store.complete_mut(b).clone_from_slice(new);
            self.store.set_reachable(b, true);
            return EntryChange::Reached;
        }
        let mut changes = Vec::new();
        for (name, (value, n)) in self
            .store
            .complete_mut(b)
            .iter_mut()
            .zip(new.iter())
            .enumerate()
        {
            if value.join_with(n).changed() {
                changes.push(NameId::new(name));
            }
        }
        names_change(changes)
    }

    /// Replaces the complete state of `b` by `values` (reachable), reporting what changed.
    fn replace_complete(&mut self, b: BlockId, values: Vec<D>) -> EntryChange {
        let was_reachable = self.store.is_reachable(b);
        self.store.set_reachable(b, true);
        let stored = self.store.complete_mut(b);
        if !was_reachable {
            for (slot, value) in stored.iter_mut().zip(values) {
                *slot = value;
            }
            return EntryChange::Reached;
        }
        let mut changes = Vec::new();
        for (name, (slot, value)) in stored.iter_mut().zip(values).enumerate() {
            if *slot != value {
                *slot = value;
                changes.push(NameId::new(name));
            }
        }
        names_change(changes)
    }

    /// Visits the head of the complete block `b` that is not a loop head: its state is what flows
    /// in.
    fn flow_complete(
        &mut self,
        b: BlockId,
        incoming: &Incoming<D>,
        pending: &Pending,
    ) -> EntryChange {
        let old_reach = self.store.is_reachable(b);
        let mut out = std::mem::take(&mut self.buf_new);
        let (reach, names) = self.complete_flow(b, incoming, pending, &mut out, !old_reach);
        let change = if !reach {
            if old_reach {
                self.store.set_reachable(b, false);
                EntryChange::Unreached
            } else {
                EntryChange::Unchanged
            }
        } else if !old_reach {
            self.store.complete_mut(b).clone_from_slice(&out);
            self.store.set_reachable(b, true);
            EntryChange::Reached
        } else {
            let stored = self.store.complete_mut(b);
            let mut changes = Vec::new();
            let mut compare = |name: usize| {
                if stored[name] != out[name] {
                    stored[name] = out[name].clone();
                    changes.push(NameId::new(name));
                }
            };
            match names {
                None => (0..out.len()).for_each(&mut compare),
                Some(names) => names.iter().for_each(|n| compare(n.index())),
            }
            names_change(changes)
        };
        self.buf_new = out;
        change
    }

    /// Visits the head of a block that is not complete: recomputes its entries, and checks the
    /// names passing through it that changed above it.
    fn flow_entries(
        &mut self,
        b: BlockId,
        incoming: &Incoming<D>,
        pending: &mut Pending,
    ) -> EntryChange {
        let reach_old = self.store.is_reachable(b);
        let reach_new = incoming.reachable();
        // The values passing through `b` come from its immediate dominator; every change of them
        // reaches `b` through each predecessor that stayed reachable.
        let base = self.in_offsets[b.index()] as usize;
        let mut kept_live = incoming.boundary;
        for (i, edge) in incoming.edges.iter().enumerate() {
            let live = !matches!(edge, EdgeFlow::Dead);
            kept_live |= live && self.edge_live[base + i];
            self.edge_live[base + i] = live;
            self.edge_feasible[base + i] = matches!(edge, EdgeFlow::Feasible(_));
        }
        if !reach_new || !reach_old {
            // The entries' values do not matter while the block is unreachable; they are all
            // recomputed when it becomes reachable.
            for &name in &pending.requests {
                self.store.add_entry(b, name, D::bottom());
            }
        }
        if !reach_new {
            if reach_old {
                self.store.set_reachable(b, false);
                return EntryChange::Unreached;
            }
            return EntryChange::Unchanged;
        }
        if !reach_old {
            self.register_head(b);
            self.recompute_entries(b, incoming);
            self.store.set_reachable(b, true);
            return EntryChange::Reached;
        }
        // A new entry starts with the value the name had passing through `b`. If that value
        // changed since the last visit (a predecessor reports it), the name changed at `b`'s head
        // whatever the entry's value now.
        let mut moved = Vec::new();
        for &name in &pending.requests {
            if !self.store.has_entry(b, name) {
                self.store
                    .add_entry(b, name, self.store.value_above(b, name));
                if pending.names.contains(&name) {
                    moved.push(name);
                }
            }
        }
        let mut changes = self.recompute_entries(b, incoming);
        if pending.all || (pending.reach && !kept_live) {
            return EntryChange::All;
        }
        for name in moved {
            if !changes.contains(&name) {
                changes.push(name);
            }
        }
        // A name without an entry passes through `b`: it changed as its predecessors report.
        let mut passing = std::mem::take(&mut pending.names);
        if !self.store.entries(b).is_empty() {
            passing.retain(|&n| !self.store.has_entry(b, n));
        }
        passing.extend(changes);
        names_change(passing)
    }

    /// Recomputes the head entries of `b` from its incoming edges; gives the entries that changed.
    fn recompute_entries(&mut self, b: BlockId, incoming: &Incoming<D>) -> Vec<NameId> {
        let new: Vec<D> = self
            .store
            .entries(b)
            .iter()
            .map(|&(name, _)| self.flow_value(b, incoming, name))
            .collect();
        let mut changes = Vec::new();
        for (entry, value) in self.store.entries_mut(b).iter_mut().zip(new) {
            if entry.1 != value {
                entry.1 = value;
                changes.push(entry.0);
            }
        }
        changes
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

    /// Applies the statements of `b` after its head changed by `change`; reports how its exit
    /// changed.
    fn transfer(&mut self, b: BlockId, change: EntryChange) -> Result<ExitChange, StopReason> {
        if self.stats.visits >= self.limits.max_visits {
            return Err(StopReason::Budget {
                visits: self.stats.visits,
            });
        }
        self.stats.visits += 1;
        let stmts = self.program.stmts(b).len() as u64;
        let exit = match change {
            EntryChange::Unchanged => ExitChange::Nothing,
            EntryChange::Unreached => ExitChange::Reach,
            EntryChange::Reached => {
                let first = !std::mem::replace(&mut self.ever_reached[b.index()], true);
                self.register_body(b);
                self.evaluate_all(b, None);
                self.stats.evaluations += stmts;
                if first {
                    ExitChange::Reach
                } else {
                    ExitChange::All
                }
            }
            EntryChange::All => {
                self.evaluate_all(b, None);
                self.stats.evaluations += stmts;
                ExitChange::All
            }
            EntryChange::Names(names) if self.temporal => self.evaluate_changed(b, names),
            EntryChange::Names(names) => {
                self.stats.evaluations += stmts;
                self.evaluate_all(b, Some(names))
            }
        };
        self.update_snapshot(b, &exit);
        Ok(exit)
    }

    /// Marks in `self.defs` the last definition of each name in the immediate dominator of `b`
    /// (when `b` has no value of its own for every name), with the stamp returned.
    fn mark_above(&mut self, b: BlockId) -> u32 {
        let above = self.defs.fresh();
        if self.store.is_complete(b) {
            return above;
        }
        if let Some(d) = self.store.idom(b) {
            for slot in self.store.slots(d) {
                if let Some(name) = self.store.slot_name(slot) {
                    self.defs.stamps[name.index()] = above;
                    self.def_slot[name.index()] = slot as u32;
                }
            }
        }
        above
    }

    /// Evaluates every statement of `b`. With `entry_changes` (the names that changed at its
    /// head) reports the names whose exit value changed; without, reports nothing (the caller
    /// knows everything may have changed).
    fn evaluate_all(&mut self, b: BlockId, entry_changes: Option<Vec<NameId>>) -> ExitChange {
        let program: &'a P = self.program;
        let above = self.mark_above(b);
        let stamp = self.defs.fresh();
        let mut slot = self.store.slots(b).start;
        let mut changed_slots = std::mem::take(&mut self.changed_slots);
        for stmt in program.stmts(b) {
            let Stmt::Assign { dest, rhs } = stmt else {
                continue;
            };
            let value = {
                let view = BlockView {
                    store: &self.store,
                    block: b,
                    stamps: &self.defs.stamps,
                    slots: &self.def_slot,
                    stamp,
                    above,
                };
                NonRelational::<D>::eval_rhs(rhs, &view)
            };
            let old = self.store.set_slot(slot, value);
            if entry_changes.is_some() && old != *self.store.slot(slot) {
                changed_slots.push(slot);
            }
            self.defs.stamps[dest.index()] = stamp;
            self.def_slot[dest.index()] = slot as u32;
            slot += 1;
        }
        let Some(entry_changes) = entry_changes else {
            self.changed_slots = changed_slots;
            return ExitChange::Nothing;
        };
        self.exit_changes(stamp, entry_changes, changed_slots)
    }

    /// Temporal sparsity: evaluates only the statements of `b` that read a name whose value
    /// changed (at the head, as `entry_changes` says, or earlier in the block); reports the names
    /// whose exit value changed.
    fn evaluate_changed(&mut self, b: BlockId, entry_changes: Vec<NameId>) -> ExitChange {
        let changed = self.changed.fresh();
        for n in &entry_changes {
            self.changed.stamps[n.index()] = changed;
        }
        let uses = &self.uses[b.index()];
        if !uses
            .iter()
            .any(|n| self.changed.stamps[n.index()] == changed)
        {
            // No statement reads a changed name: only the names passing through change.
            let stamp = self.defs.fresh();
            for slot in self.store.slots(b) {
                if let Some(name) = self.store.slot_name(slot) {
                    self.defs.stamps[name.index()] = stamp;
                }
            }
            let mut names = entry_changes;
            names.retain(|n| self.defs.stamps[n.index()] != stamp);
            return names_exit(names);
        }
        let program: &'a P = self.program;
        let above = self.mark_above(b);
        let stamp = self.defs.fresh();
        let mut slot = self.store.slots(b).start;
        let mut changed_slots = std::mem::take(&mut self.changed_slots);
        for stmt in program.stmts(b) {
            let Stmt::Assign { dest, rhs } = stmt else {
                continue;
            };
            let mut stale = false;
            value_reads(rhs, |n| stale |= self.changed.stamps[n.index()] == changed);
            let mut now_changed = false;
            if stale {
                let value = {
                    let view = BlockView {
                        store: &self.store,
                        block: b,
                        stamps: &self.defs.stamps,
                        slots: &self.def_slot,
                        stamp,
                        above,
                    };
                    NonRelational::<D>::eval_rhs(rhs, &view)
                };
                self.stats.evaluations += 1;
                let old = self.store.set_slot(slot, value);
                if old != *self.store.slot(slot) {
                    changed_slots.push(slot);
                    now_changed = true;
                }
            }
            self.changed.stamps[dest.index()] = if now_changed { changed } else { 0 };
            self.defs.stamps[dest.index()] = stamp;
            self.def_slot[dest.index()] = slot as u32;
            slot += 1;
        }
        self.exit_changes(stamp, entry_changes, changed_slots)
    }

    /// The names whose value at the exit of the block just evaluated changed: those whose last
    /// definition in it changed (slots in `changed_slots`), and those that changed at its head and
    /// are not defined in it. `stamp` marks the names the block defines in
    /// `self.defs`.
    fn exit_changes(
        &mut self,
        stamp: u32,
        entry_changes: Vec<NameId>,
        mut changed_slots: Vec<usize>,
    ) -> ExitChange {
        let mut passing = entry_changes;
        passing.retain(|n| self.defs.stamps[n.index()] != stamp);
        passing.reserve(changed_slots.len());
        for slot in changed_slots.drain(..) {
            let Some(name) = self.store.slot_name(slot) else {
                continue;
            };
            if self.def_slot[name.index()] as usize == slot {
                passing.push(name);
            }
        }
        self.changed_slots = changed_slots;
        names_exit(passing)
    }

    /// Keeps the snapshot of a back-edge source equal to its exit state.
    fn update_snapshot(&mut self, b: BlockId, exit: &ExitChange) {
        let slot = self.snapshot_slot[b.index()];
        if slot == NONE {
            return;
        }
        let reachable = self.store.is_reachable(b);
        let snapshot = &mut self.snapshots[slot as usize];
        match exit {
            ExitChange::Nothing => {}
            ExitChange::Names(names) => {
                for &name in names {
                    snapshot.values[name.index()] = self.store.value_at_exit(b, name);
                }
            }
            ExitChange::Reach | ExitChange::All => {
                snapshot.reach = reachable;
                if reachable {
                    let stamp = self.seen.fresh();
                    self.store.materialize_exit(
                        b,
                        &mut snapshot.values,
                        &mut self.seen.stamps,
                        stamp,
                    );
                }
            }
        }
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

/// The incoming edges of every block as `(source, successor index)`, grouped by target:
/// block `b`'s edges are `edges[offsets[b]..offsets[b + 1]]` (the dense solver's order).
fn incoming_edges<G: Cfg + ?Sized>(graph: &G) -> (Vec<u32>, Vec<(BlockId, u32)>) {
    let n = graph.block_count();
    let mut offsets = vec![0u32; n + 1];
    for b in (0..n).map(BlockId::new) {
        for &s in graph.successors(b) {
            if s.index() < n {
                offsets[s.index() + 1] += 1;
            }
        }
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut edges = vec![(BlockId(0), 0u32); offsets[n] as usize];
    for b in (0..n).map(BlockId::new) {
        for (index, &s) in graph.successors(b).iter().enumerate() {
            if s.index() < n {
                let slot = &mut fill[s.index()];
                edges[*slot as usize] = (b, index as u32);
                *slot += 1;
            }
        }
    }
    (offsets, edges)
}
