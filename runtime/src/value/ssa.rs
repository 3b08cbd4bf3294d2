//! Conditional propagation along def-use chains, for programs in strict SSA form (every name
//! defined once, every use dominated by its definition): the Wegman–Zadeck algorithm over any
//! [`ValueDomain`], as LLVM's SCCP runs it.
//!
//! Each name has one value for the whole function, so a statement is re-evaluated only when a
//! name it reads changes, and nothing is stored per block but whether it may run. Branch
//! conditions refine values the way LLVM's predicate information does: the edge into a block
//! with no other incoming edge gives each compared name a *version* (the name's value met with
//! what the condition says), and every use in the blocks that edge dominates reads the version.
//! The uses are renamed once, before the run, by a walk of the dominator tree.
//!
//! Values only grow: each update is joined with the previous value, and φs at the heads of loops
//! (blocks that dominate one of their predecessors) widen after the delay of
//! [`Limits::widening_delay`]; any value updated very often widens too, wherever it is, so that
//! neither an irreducible loop nor an order of evaluation can climb an infinite chain. There is
//! no descending phase.
//!
//! Against the dense and sparse engines, which keep a value per name and block: the result is
//! sound and has the same reachable blocks and constants on finite-height domains without
//! branch refinement, but it is not step-for-step the same. It can be less precise where a
//! refined edge enters a block that other edges also enter (the refinement then holds on that
//! edge's φ operands only), and widening sees values in a different order.

use super::nonrel::{Bindings, BindingsMut};
use super::{Env, NonRelational, ValueDomain};
use crate::cfg::Dominators;
use crate::engine::{Limits, Solution, Stats, StopReason};
use crate::lattice::Lattice;
use crate::program::{BlockId, Cfg, Cond, NameId, Operand, Phi, Program, Stmt, Terminator};

/// Updates of one value after which it widens wherever it is (the widening delay applies at the
/// φs of loop heads).
const WIDEN_AFTER: u32 = 64;

/// The solution of [`solve`]: one value per name and per version, and which blocks may run.
#[derive(Debug)]
pub struct SsaSolution<D> {
    /// Values of the names, then of the versions.
    values: Vec<D>,
    /// Whether each block may run.
    reach: Vec<bool>,
    /// The versions made at the entry of each block: `(name, version id)`.
    made: Vec<Vec<(NameId, u32)>>,
    /// Per edge (numbered as in `first_edge`), whether the run found it feasible.
    feasible: Vec<bool>,
    /// Per block, the number of its first edge.
    first_edge: Vec<u32>,
    /// Per name, whether some block makes a version of it (most names have none: their value
    /// is the same everywhere).
    versioned: Vec<bool>,
    /// Immediate dominators (`u32::MAX` for the entry and unreachable blocks).
    idom: Vec<u32>,
    /// Names of the program (versions are numbered from here).
    names: usize,
    /// Why the engine stopped.
    pub stop: StopReason,
    /// What it did.
    pub stats: Stats,
}

impl<D: ValueDomain> SsaSolution<D> {
    /// Whether `b` may run.
    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.reach.get(b.index()).copied().unwrap_or(false)
    }

    /// Whether the run took the edge from `b` to its `index`-th successor: `b` may run and the
    /// edge's condition may hold. (Values only grow, so an edge found feasible stays so, and one
    /// never found feasible was last evaluated on the final values.)
    pub fn edge_feasible(&self, b: BlockId, index: usize) -> bool {
        let edge = self.first_edge.get(b.index()).map(|&e| e as usize + index);
        let in_block = self
            .first_edge
            .get(b.index() + 1)
            .zip(edge)
            .is_some_and(|(&end, e)| e < end as usize);
        in_block && edge.is_some_and(|e| self.feasible[e])
    }

    /// The value `name` has in `b` (its innermost version there), bottom where `b` cannot run.
    pub fn value_at_exit(&self, b: BlockId, name: NameId) -> D {
        if !self.is_reachable(b) {
            return D::bottom();
        }
        if !self.versioned.get(name.index()).copied().unwrap_or(false) {
            return self
                .values
                .get(name.index())
                .cloned()
                .unwrap_or_else(D::bottom);
        }
        let mut at = b.index();
        loop {
            if let Some(&(_, v)) = self.made[at].iter().find(|(n, _)| *n == name) {
                return self.values[v as usize].clone();
            }
            match self.idom[at] {
                u32::MAX => break,
                d => at = d as usize,
            }
        }
        self.values
            .get(name.index())
            .cloned()
            .unwrap_or_else(D::bottom)
    }

    /// The state at the end of `b`: every name at its innermost version there.
    pub fn exit(&self, b: BlockId) -> Env<D> {
        if !self.is_reachable(b) {
            return Env::Unreachable;
        }
        let mut env = Env::reachable(self.names);
        for (n, value) in self.values[..self.names].iter().enumerate() {
            env.set(NameId::new(n), value.clone());
        }
        // Innermost first: a name set by a deeper version keeps it.
        let mut seen = vec![false; self.names];
        let mut at = b.index();
        loop {
            for &(name, v) in &self.made[at] {
                if !seen[name.index()] {
                    seen[name.index()] = true;
                    env.set(name, self.values[v as usize].clone());
                }
            }
            match self.idom[at] {
                u32::MAX => break,
                d => at = d as usize,
            }
        }
        env
    }

    /// The states at the entry and exit of every block (the entry as the exit: one value per
    /// name holds in the whole block).
    pub fn into_dense(self) -> Solution<Env<D>> {
        let exit: Vec<Env<D>> = (0..self.reach.len())
            .map(|b| self.exit(BlockId::new(b)))
            .collect();
        Solution {
            entry: exit.clone(),
            exit,
            stop: self.stop,
            stats: self.stats,
        }
    }
}

/// The program with every use renamed to the version it reads; versions are numbered after the
/// program's names.
struct Renamed<'a, P: ?Sized> {
    program: &'a P,
    /// Per block, its statements with renamed uses (`None`: none renamed, the program's own).
    stmts: Vec<Option<Vec<Stmt>>>,
    /// Per block, its terminator with renamed uses (`None`: the program's own).
    terminators: Vec<Option<Terminator>>,
    /// Per block, its φs with renamed operands (`None`: the program's own).
    phis: Vec<Option<Vec<Phi>>>,
    /// The name each version refines (index: version id − names).
    origin: Vec<NameId>,
}

impl<P: Program + ?Sized> Cfg for Renamed<'_, P> {
    fn block_count(&self) -> usize {
        self.program.block_count()
    }

    fn entry(&self) -> BlockId {
        self.program.entry()
    }

    fn successors(&self, b: BlockId) -> &[BlockId] {
        self.program.successors(b)
    }

    fn predecessors(&self, b: BlockId) -> &[BlockId] {
        self.program.predecessors(b)
    }
}

impl<P: Program + ?Sized> Program for Renamed<'_, P> {
    fn name_count(&self) -> usize {
        self.program.name_count() + self.origin.len()
    }

    fn name(&self, n: NameId) -> &str {
        match n.index().checked_sub(self.program.name_count()) {
            Some(v) => self.program.name(self.origin[v]),
            None => self.program.name(n),
        }
    }

    fn params(&self) -> &[NameId] {
        self.program.params()
    }

    fn captures(&self) -> &[NameId] {
        self.program.captures()
    }

    fn phis(&self, b: BlockId) -> &[Phi] {
        match &self.phis[b.index()] {
            Some(phis) => phis,
            None => self.program.phis(b),
        }
    }

    fn stmts(&self, b: BlockId) -> &[Stmt] {
        match &self.stmts[b.index()] {
            Some(stmts) => stmts,
            None => self.program.stmts(b),
        }
    }

    fn terminator(&self, b: BlockId) -> &Terminator {
        match &self.terminators[b.index()] {
            Some(t) => t,
            None => self.program.terminator(b),
        }
    }

    fn is_ssa(&self) -> bool {
        true
    }
}

/// Values read through a slice indexed by id.
struct Values<'a, D>(&'a [D]);

impl<D: Lattice> Bindings<D> for Values<'_, D> {
    fn get(&self, name: NameId) -> D {
        self.0.get(name.index()).cloned().unwrap_or_else(D::bottom)
    }
}

/// An edge's writes (refinements and φs) over the values it reads.
struct Overlay<'a, D> {
    base: &'a [D],
    writes: Vec<(NameId, D)>,
}

impl<D: Lattice> Bindings<D> for Overlay<'_, D> {
    fn get(&self, name: NameId) -> D {
        match self.writes.iter().rev().find(|(n, _)| *n == name) {
            Some((_, v)) => v.clone(),
            None => Values(self.base).get(name),
        }
    }
}

impl<D: Lattice> BindingsMut<D> for Overlay<'_, D> {
    fn set(&mut self, name: NameId, value: D) {
        self.writes.push((name, value));
    }
}

/// Where a value is read: a statement (block, index), or an edge out of a block (numbered over
/// the function: its block's condition, the φ operands it passes, the versions it makes).
#[derive(Clone, Copy, Debug)]
enum Site {
    Stmt(u32, u32),
    Edge(u32),
    /// The φ (its name) an edge passes the id to, as an operand its condition does not refine.
    Phi(u32, u32),
}

/// The operands a statement reads.
fn stmt_operands(stmt: &Stmt, out: &mut Vec<Operand>) {
    stmt.for_each_use(|o| out.push(o));
}

/// The operands a terminator reads.
fn terminator_operands(t: &Terminator, out: &mut Vec<Operand>) {
    match t {
        Terminator::Branch { cond, .. } => match cond {
            Cond::NonZero(a) => out.push(*a),
            Cond::Compare(_, a, b) => out.extend([*a, *b]),
        },
        Terminator::Switch { on, .. } => out.push(*on),
        Terminator::Return(Some(a)) | Terminator::Throw(Some(a)) => out.push(*a),
        Terminator::Goto(_)
        | Terminator::Return(None)
        | Terminator::Throw(None)
        | Terminator::Unreachable => {}
    }
}

/// Whether renaming changes one of `operands`.
fn renames(operands: &[Operand], current: &[u32]) -> bool {
    operands.iter().any(|o| match o {
        Operand::Name(n) => current[n.index()] as usize != n.index(),
        Operand::Int(_) => false,
    })
}

fn rename_operand(o: &mut Operand, current: &[u32]) {
    if let Operand::Name(n) = o {
        *n = NameId::new(current[n.index()] as usize);
    }
}

fn rename_stmt(stmt: &mut Stmt, current: &[u32]) {
    stmt.for_each_use_mut(|o| rename_operand(o, current));
}

fn rename_terminator(t: &mut Terminator, current: &[u32]) {
    let r = |o: &mut Operand| rename_operand(o, current);
    match t {
        Terminator::Branch { cond, .. } => match cond {
            Cond::NonZero(a) => r(a),
            Cond::Compare(_, a, b) => {
                r(a);
                r(b);
            }
        },
        Terminator::Switch { on, .. } => r(on),
        Terminator::Return(Some(a)) | Terminator::Throw(Some(a)) => r(a),
        Terminator::Goto(_)
        | Terminator::Return(None)
        | Terminator::Throw(None)
        | Terminator::Unreachable => {}
    }
}

/// What [`rename`] finds.
struct Plan<'a, P: ?Sized> {
    renamed: Renamed<'a, P>,
    /// The versions each block makes: `(name, version id, the id it refines at the end of the
    /// block's single predecessor)`.
    made: Vec<Vec<(NameId, u32, u32)>>,
    /// Immediate dominators (`u32::MAX` for the entry and unreachable blocks).
    idom: Vec<u32>,
    /// Loop heads: blocks that dominate one of their predecessors.
    heads: Vec<bool>,
}

/// The renamed program and what the run needs of the dominator tree; `None` unless the program
/// is in strict SSA form.
fn rename<'a, D, P: Program + ?Sized>(
    analysis: &NonRelational<D>,
    program: &'a P,
) -> Option<Plan<'a, P>>
where
    D: ValueDomain,
{
    // A program without blocks (a declaration) has no entry for its definitions to dominate.
    if !program.is_ssa() || program.block_count() == 0 {
        return None;
    }
    let n = program.block_count();
    let names = program.name_count();
    let dominators = Dominators::new(program);
    let idom: Vec<u32> = (0..n)
        .map(|b| {
            dominators
                .idom(BlockId::new(b))
                .map_or(u32::MAX, |d| d.index() as u32)
        })
        .collect();
    let mut in_degree = vec![0u32; n];
    let mut heads = vec![false; n];
    for b in (0..n).map(BlockId::new) {
        for &s in program.successors(b) {
            in_degree[s.index()] += 1;
            if dominators.dominates(s, b) {
                heads[s.index()] = true;
            }
        }
    }

    let mut renamed = Renamed {
        program,
        stmts: vec![None; n],
        terminators: vec![None; n],
        phis: vec![None; n],
        origin: Vec::new(),
    };
    let mut made: Vec<Vec<(NameId, u32, u32)>> = vec![Vec::new(); n];
    let mut current: Vec<u32> = (0..names as u32).collect();
    // Parameters are defined on entry; a name defined nowhere (LLVM's `undef`) is bottom
    // everywhere, as in the other engines.
    let mut in_scope = vec![true; names];
    for b in (0..n).map(BlockId::new) {
        for phi in program.phis(b) {
            in_scope[phi.dest.index()] = false;
        }
        for stmt in program.stmts(b) {
            if let Stmt::Assign { dest, .. } = stmt {
                in_scope[dest.index()] = false;
            }
        }
    }
    for &p in program.params().iter().chain(program.captures()) {
        in_scope[p.index()] = true;
    }
    let mut operands = Vec::new();
    let mut refined = Vec::new();
    let in_scope_all = |ops: &[Operand], in_scope: &[bool]| {
        ops.iter().all(|o| match o {
            Operand::Name(x) => in_scope.get(x.index()).copied().unwrap_or(false),
            Operand::Int(_) => true,
        })
    };

    // Enter a block: its versions, its φ definitions; rename its uses; leave: undo.
    enum Step {
        Enter(BlockId),
        Leave(BlockId, usize),
    }
    let mut undo: Vec<(usize, u32)> = Vec::new();
    let mut stack = vec![Step::Enter(program.entry())];
    while let Some(step) = stack.pop() {
        match step {
            Step::Enter(b) => {
                let mark = undo.len();
                let bi = b.index();
                // The edge from the only predecessor refines the names its condition compares.
                if b != program.entry() && in_degree[bi] == 1 && idom[bi] != u32::MAX {
                    let from = BlockId::new(idom[bi] as usize);
                    if let Some(index) = program.successors(from).iter().position(|&s| s == b) {
                        refined.clear();
                        analysis.edge_defs(program, from, index, &mut refined);
                        let phis = program.phis(b);
                        refined.retain(|x| !phis.iter().any(|phi| phi.dest == *x));
                        refined.sort_unstable();
                        refined.dedup();
                        for &x in &refined {
                            let version = (names + renamed.origin.len()) as u32;
                            renamed.origin.push(x);
                            made[bi].push((x, version, current[x.index()]));
                            undo.push((x.index(), current[x.index()]));
                            current[x.index()] = version;
                        }
                    }
                }
                for phi in program.phis(b) {
                    in_scope[phi.dest.index()] = true;
                }
                for (i, stmt) in program.stmts(b).iter().enumerate() {
                    operands.clear();
                    stmt_operands(stmt, &mut operands);
                    if !in_scope_all(&operands, &in_scope) {
                        return None;
                    }
                    if renames(&operands, &current) {
                        let stmts =
                            renamed.stmts[bi].get_or_insert_with(|| program.stmts(b).to_vec());
                        rename_stmt(&mut stmts[i], &current);
                    }
                    if let Stmt::Assign { dest, .. } = stmt {
                        in_scope[dest.index()] = true;
                    }
                }
                operands.clear();
                terminator_operands(program.terminator(b), &mut operands);
                if !in_scope_all(&operands, &in_scope) {
                    return None;
                }
                if renames(&operands, &current) {
                    let mut t = program.terminator(b).clone();
                    rename_terminator(&mut t, &current);
                    renamed.terminators[bi] = Some(t);
                }
                // The φ operands this block passes are read at its end.
                for &s in program.successors(b) {
                    for (k, phi) in program.phis(s).iter().enumerate() {
                        for (j, &(pred, operand)) in phi.incoming.iter().enumerate() {
                            if pred != b {
                                continue;
                            }
                            if !in_scope_all(&[operand], &in_scope) {
                                return None;
                            }
                            if !renames(&[operand], &current) {
                                continue;
                            }
                            let mut o = operand;
                            rename_operand(&mut o, &current);
                            if let Some(slot) = renamed.phis[s.index()]
                                .get_or_insert_with(|| program.phis(s).to_vec())
                                .get_mut(k)
                                .and_then(|p| p.incoming.get_mut(j))
                            {
                                slot.1 = o;
                            }
                        }
                    }
                }
                stack.push(Step::Leave(b, mark));
                for &c in dominators.children(b).iter().rev() {
                    stack.push(Step::Enter(c));
                }
            }
            Step::Leave(b, mark) => {
                for phi in program.phis(b) {
                    in_scope[phi.dest.index()] = false;
                }
                for stmt in program.stmts(b) {
                    if let Stmt::Assign { dest, .. } = stmt {
                        in_scope[dest.index()] = false;
                    }
                }
                while undo.len() > mark {
                    if let Some((x, id)) = undo.pop() {
                        current[x] = id;
                    }
                }
            }
        }
    }
    Some(Plan {
        renamed,
        made,
        idom,
        heads,
    })
}

/// Runs `analysis` over `program` along its def-use chains; `None` when the program is not in
/// strict SSA form, or has no blocks (the caller then uses another engine).
pub fn solve<D: ValueDomain, P: Program + ?Sized>(
    analysis: &NonRelational<D>,
    program: &P,
    limits: &Limits,
) -> Option<SsaSolution<D>> {
    let Plan {
        renamed,
        made,
        idom,
        heads: is_head,
    } = rename(analysis, program)?;
    let n = program.block_count();
    let names = program.name_count();
    let ids = names + renamed.origin.len();

    // What each edge passes to the φs of its target: `(φ, operand)`, in the φs' order, the
    // operands renamed; grouped by edge as `edge_phis[edge_offsets[e]..edge_offsets[e + 1]]`,
    // where the edges of `b` are numbered from `first_edge[b]`, and `edge_block[e]` is the
    // block an edge leaves.
    let mut first_edge = Vec::with_capacity(n + 1);
    let mut edge_block = Vec::new();
    let mut edge_offsets = vec![0u32];
    let mut edge_phis: Vec<(NameId, Operand)> = Vec::new();
    for b in 0..n {
        let block = BlockId::new(b);
        first_edge.push(edge_block.len() as u32);
        for &s in program.successors(block) {
            // A φ with no operand for the edge receives nothing (bottom) from it.
            edge_phis.extend(renamed.phis(s).iter().filter_map(|phi| {
                let operand = phi.incoming.iter().find(|(pred, _)| *pred == block)?;
                Some((phi.dest, operand.1))
            }));
            edge_offsets.push(edge_phis.len() as u32);
            edge_block.push(b as u32);
        }
    }
    first_edge.push(edge_block.len() as u32);

    // Who reads each id, as one array grouped by id: `sites[offsets[id]..offsets[id + 1]]`.
    // An edge reads its block's condition, the operands it passes to φs and the ids its
    // target's versions refine: a change re-evaluates only the edges that read it.
    let mut pairs: Vec<(u32, Site)> = Vec::new();
    let mut operands = Vec::new();
    let mut condition = Vec::new();
    for (b, &first) in first_edge.iter().take(n).enumerate() {
        let block = BlockId::new(b);
        for (i, stmt) in renamed.stmts(block).iter().enumerate() {
            operands.clear();
            stmt_operands(stmt, &mut operands);
            for o in &operands {
                if let Operand::Name(x) = o {
                    pairs.push((x.index() as u32, Site::Stmt(b as u32, i as u32)));
                }
            }
        }
        condition.clear();
        terminator_operands(renamed.terminator(block), &mut condition);
        for (index, &s) in program.successors(block).iter().enumerate() {
            let edge = first as usize + index;
            operands.clear();
            operands.extend_from_slice(&condition);
            let phis = edge_offsets[edge] as usize..edge_offsets[edge + 1] as usize;
            // A version made at `s` reads the refined name's id at the end of `block`.
            for &(_, _, source) in &made[s.index()] {
                operands.push(Operand::Name(NameId::new(source as usize)));
            }
            let first = pairs.len();
            for o in &operands {
                if let Operand::Name(x) = o {
                    let id = x.index() as u32;
                    if !pairs[first..].iter().any(|&(y, _)| y == id) {
                        pairs.push((id, Site::Edge(edge as u32)));
                    }
                }
            }
            // An operand only φs read (not the condition, nor a version) needs only those φs
            // updated, while the edge is feasible: one site per φ, even when several φs of the
            // target receive the same name.
            let whole_edge = pairs.len();
            for k in phis {
                if let (dest, Operand::Name(x)) = edge_phis[k] {
                    let id = x.index() as u32;
                    if !pairs[first..whole_edge].iter().any(|&(y, _)| y == id) {
                        pairs.push((id, Site::Phi(edge as u32, dest.index() as u32)));
                    }
                }
            }
        }
    }

    let mut offsets = vec![0u32; ids + 1];
    for &(id, _) in &pairs {
        offsets[id as usize + 1] += 1;
    }
    for i in 0..ids {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut sites = vec![Site::Edge(0); pairs.len()];
    for (id, site) in pairs {
        sites[fill[id as usize] as usize] = site;
        fill[id as usize] += 1;
    }

    let mut engine = Engine {
        analysis,
        program: &renamed,
        made: &made,
        is_head: &is_head,
        first_edge: &first_edge,
        edge_offsets: &edge_offsets,
        edge_phis: &edge_phis,
        values: vec![D::bottom(); ids],
        updates: vec![0; ids],
        reach: vec![false; n],
        feasible: vec![false; edge_block.len()],
        blocks: Vec::new(),
        queued: vec![false; ids],
        work: Vec::new(),
        delay: limits.widening_delay,
        stats: Stats::default(),
        writes: Vec::new(),
        received: Vec::new(),
    };
    for &p in program.params().iter().chain(program.captures()) {
        engine.values[p.index()] = D::top();
    }
    let entry = program.entry();
    if n > 0 {
        engine.reach[entry.index()] = true;
        engine.blocks.push(entry);
    }
    let budget = limits.max_visits.saturating_mul(8);
    let mut stop = StopReason::Stable;
    loop {
        if engine.stats.evaluations + engine.stats.edge_transfers > budget {
            stop = StopReason::Budget {
                visits: engine.stats.visits,
            };
            break;
        }
        if let Some(b) = engine.blocks.pop() {
            engine.stats.visits += 1;
            for i in 0..renamed.stmts(b).len() {
                engine.statement(b, i);
            }
            engine.edges(b);
            continue;
        }
        if let Some(id) = engine.work.pop() {
            engine.queued[id as usize] = false;
            let range = offsets[id as usize] as usize..offsets[id as usize + 1] as usize;
            for &site in &sites[range] {
                match site {
                    Site::Stmt(b, i) if engine.reach[b as usize] => {
                        engine.statement(BlockId::new(b as usize), i as usize);
                    }
                    Site::Edge(e) if engine.reach[edge_block[e as usize] as usize] => {
                        let b = edge_block[e as usize] as usize;
                        let index = e as usize - first_edge[b] as usize;
                        engine.edge(BlockId::new(b), index);
                    }
                    Site::Phi(e, dest) if engine.feasible[e as usize] => {
                        let b = edge_block[e as usize] as usize;
                        let to = program.successors(BlockId::new(b))
                            [e as usize - first_edge[b] as usize];
                        let value = engine.values[id as usize].clone();
                        engine.update(NameId::new(dest as usize), value, is_head[to.index()]);
                    }
                    _ => {}
                }
            }
            continue;
        }
        break;
    }
    let Engine {
        values,
        reach,
        feasible,
        stats,
        ..
    } = engine;
    let mut versioned = vec![false; names];
    for &x in &renamed.origin {
        versioned[x.index()] = true;
    }
    Some(SsaSolution {
        values,
        reach,
        feasible,
        first_edge,
        versioned,
        made: made
            .into_iter()
            .map(|m| m.into_iter().map(|(x, v, _)| (x, v)).collect())
            .collect(),
        idom,
        names,
        stop,
        stats,
    })
}

struct Engine<'a, D, P: ?Sized> {
    analysis: &'a NonRelational<D>,
    program: &'a Renamed<'a, P>,
    made: &'a [Vec<(NameId, u32, u32)>],
    is_head: &'a [bool],
    /// Per block, the number of its first edge (see `edge_phis`).
    first_edge: &'a [u32],
    /// Per edge, where its φ operands start in `edge_phis`.
    edge_offsets: &'a [u32],
    /// Per edge, each φ of its target with the operand the edge passes.
    edge_phis: &'a [(NameId, Operand)],
    values: Vec<D>,
    updates: Vec<u32>,
    reach: Vec<bool>,
    /// Per edge, whether it was found feasible (it stays so: values only grow).
    feasible: Vec<bool>,
    blocks: Vec<BlockId>,
    queued: Vec<bool>,
    work: Vec<u32>,
    delay: u32,
    stats: Stats,
    /// Scratch: an edge's writes.
    writes: Vec<(NameId, D)>,
    /// Scratch: what an edge gives φs and versions (`id`, value, whether at a loop head).
    received: Vec<(NameId, D, bool)>,
}

impl<D: ValueDomain, P: Program + ?Sized> Engine<'_, D, P> {
    /// Joins `new` into the value of `id` (widening when `widen` says so, or after very many
    /// updates); queues its readers when it changed.
    fn update(&mut self, id: NameId, new: D, at_head: bool) {
        let i = id.index();
        let old = &self.values[i];
        if new.leq(old) {
            return;
        }
        self.updates[i] += 1;
        let widen = !D::has_finite_height()
            && ((at_head && self.updates[i] > self.delay) || self.updates[i] > WIDEN_AFTER);
        let next = if widen {
            self.stats.widenings += 1;
            old.widen(&new)
        } else {
            self.stats.joins += 1;
            old.join(&new)
        };
        if next == *old {
            return;
        }
        self.values[i] = next;
        if !self.queued[i] {
            self.queued[i] = true;
            self.work.push(i as u32);
        }
    }

    fn statement(&mut self, b: BlockId, i: usize) {
        let Some(Stmt::Assign { dest, rhs }) = self.program.stmts(b).get(i) else {
            return;
        };
        self.stats.evaluations += 1;
        let value = NonRelational::<D>::eval_rhs(rhs, &Values(&self.values));
        self.update(*dest, value, false);
    }

    /// Evaluates every edge out of `b`.
    fn edges(&mut self, b: BlockId) {
        for index in 0..self.program.successors(b).len() {
            self.edge(b, index);
        }
    }

    /// Re-evaluates the edge `b → successors(b)[index]`: whether it is feasible, what its φs
    /// and versions receive.
    fn edge(&mut self, b: BlockId, index: usize) {
        let program = self.program;
        let to = program.successors(b)[index];
        {
            self.stats.edge_transfers += 1;
            // The edge's refinements (at most the names its condition compares) over the
            // values; the φs read through them, all before any φ is written (a parallel copy),
            // as do the versions, which refine no φ of `to`.
            let mut overlay = Overlay {
                base: &self.values,
                writes: std::mem::take(&mut self.writes),
            };
            overlay.writes.clear();
            let feasible = self
                .analysis
                .refine_edge_in(program, b, index, &mut overlay);
            let mut received = std::mem::take(&mut self.received);
            received.clear();
            if feasible {
                let at_head = self.is_head[to.index()];
                let edge = self.first_edge[b.index()] as usize + index;
                let phis = self.edge_offsets[edge] as usize..self.edge_offsets[edge + 1] as usize;
                received.extend(self.edge_phis[phis].iter().map(|&(dest, operand)| {
                    let value = match operand {
                        Operand::Name(x) => overlay.get(x),
                        Operand::Int(c) => D::constant(c),
                    };
                    (dest, value, at_head)
                }));
                received.extend(self.made[to.index()].iter().map(|&(_, v, source)| {
                    (
                        NameId::new(v as usize),
                        overlay.get(NameId::new(source as usize)),
                        false,
                    )
                }));
            }
            self.writes = overlay.writes;
            if feasible {
                self.feasible[self.first_edge[b.index()] as usize + index] = true;
            }
            if feasible && !self.reach[to.index()] {
                self.reach[to.index()] = true;
                self.blocks.push(to);
            }
            for (id, value, at_head) in received.drain(..) {
                self.update(id, value, at_head);
            }
            self.received = received;
        }
    }
}
