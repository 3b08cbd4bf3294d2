//! The interprocedural solver: instances (function × context) analyzed by the dense worklist
//! engine, linked by summaries, queued by the strongly connected components of the discovered
//! call graph.

use super::scc::topological_ranks;
use super::value::{FuncSet, ProcValue};
use super::{CallSite, Context, ContextPolicy, Module};
use absinthe::engine::{self, Analysis, Direction, Limits, Solution, StopReason};
use absinthe::lattice::{Lattice, Thresholds, Top};
use absinthe::program::{BlockId, Cfg, FuncId, Operand, Program, Rhs, Stmt, Terminator};
use absinthe::value::{DeclaredAnalysis, Env, NonRelational, ValueDomain};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// Bounds on an interprocedural run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterprocLimits {
    /// The limits of each intraprocedural run; its `widening_delay` also delays the widening of
    /// summary inputs, outputs and captures.
    pub intra: Limits,
    /// How many intraprocedural runs in all before the solver gives up with
    /// [`StopReason::Budget`].
    pub max_runs: u64,
}

impl Default for InterprocLimits {
    fn default() -> InterprocLimits {
        InterprocLimits {
            intra: Limits::default(),
            max_runs: 1_000_000,
        }
    }
}

/// Counters of an interprocedural run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InterprocStats {
    /// Intraprocedural runs.
    pub runs: u64,
    /// Block visits over all runs.
    pub visits: u64,
    /// Summary inputs, outputs or captures that were widened.
    pub widenings: u64,
}

/// One analyzed instance: a function in a context, with its summary and its states.
#[derive(Clone, Debug)]
pub struct Instance<D> {
    /// The function.
    pub func: FuncId,
    /// The calls it stands for.
    pub context: Context,
    /// The join of the arguments it was called with (parameters only; captures are per
    /// function, see [`InterprocSolution::captures`]).
    pub inputs: Vec<ProcValue<D>>,
    /// Whether some call of it may return.
    pub returns: bool,
    /// The join of the values it returns.
    pub output: ProcValue<D>,
    /// Its states at block entries and exits.
    pub solution: Solution<Env<ProcValue<D>>>,
}

#[derive(Debug)]
struct Slot<D> {
    func: FuncId,
    context: Context,
    inputs: Vec<ProcValue<D>>,
    input_growths: u32,
    returns: bool,
    output: ProcValue<D>,
    output_growths: u32,
    callers: BTreeSet<usize>,
    callees: BTreeSet<usize>,
    solution: Option<Solution<Env<ProcValue<D>>>>,
}

impl<D: ValueDomain> Slot<D> {
    /// An instance not analyzed yet: it does not return (yet).
    fn new(func: FuncId, context: Context, inputs: Vec<ProcValue<D>>) -> Slot<D> {
        Slot {
            func,
            context,
            inputs,
            input_growths: 0,
            returns: false,
            output: ProcValue::bottom(),
            output_growths: 0,
            callers: BTreeSet::new(),
            callees: BTreeSet::new(),
            solution: None,
        }
    }
}

/// Everything the instances share: read during a run, changed between runs.
#[derive(Debug)]
struct Table<D> {
    slots: Vec<Slot<D>>,
    index: BTreeMap<(FuncId, Context), usize>,
    /// The distinct inputs seen per function under the functional policy.
    inputs_seen: BTreeMap<FuncId, Vec<Vec<ProcValue<D>>>>,
    /// Per function: the join of its captured values, and how often it grew.
    captures: Vec<(Vec<ProcValue<D>>, u32)>,
}

impl<D: ValueDomain> Table<D> {
    fn lookup(&self, func: FuncId, context: &Context) -> Option<usize> {
        self.index.get(&(func, context.clone())).copied()
    }

    fn instances_of(&self, func: FuncId) -> impl Iterator<Item = usize> + '_ {
        self.index
            .range((func, Context::All)..)
            .take_while(move |((f, _), _)| *f == func)
            .map(|(_, &i)| i)
    }
}

/// What a run found to pass on: arguments for a callee, values captured by a closure.
enum Request<D> {
    Call {
        callee: FuncId,
        /// `None`: a functional context not yet numbered.
        context: Option<Context>,
        args: Vec<ProcValue<D>>,
    },
    Capture {
        func: FuncId,
        values: Vec<ProcValue<D>>,
    },
}

/// One instance's body as an [`Analysis`] for the dense worklist engine.
struct Body<'a, M, D> {
    module: &'a M,
    table: &'a Table<D>,
    func: FuncId,
    context: &'a Context,
    inputs: &'a [ProcValue<D>],
    policy: ContextPolicy,
    base: NonRelational<ProcValue<D>>,
    /// Collects requests while replaying the final states; `None` during the run itself.
    requests: Option<RefCell<Vec<Request<D>>>>,
}

impl<M: Module, D: ValueDomain> Body<'_, M, D> {
    fn record(&self, request: Request<D>) {
        if let Some(requests) = &self.requests {
            requests.borrow_mut().push(request);
        }
    }

    /// The context of a call from this instance at `site` to `callee` with `args`; `None` for a
    /// functional input that has no instance yet.
    fn callee_context(
        &self,
        site: CallSite,
        callee: FuncId,
        args: &[ProcValue<D>],
    ) -> Option<Context> {
        match self.policy {
            ContextPolicy::Insensitive | ContextPolicy::CallStrings(0) => Some(Context::All),
            ContextPolicy::CallStrings(k) => {
                let mut sites: Vec<CallSite> = match self.context {
                    Context::Sites(s) => s.to_vec(),
                    _ => Vec::new(),
                };
                sites.push(site);
                let skip = sites.len().saturating_sub(k);
                Some(Context::Sites(sites.split_off(skip).into_boxed_slice()))
            }
            ContextPolicy::Functional { max_per_function } => {
                let seen = self.table.inputs_seen.get(&callee);
                match seen.and_then(|s| s.iter().position(|i| i.as_slice() == args)) {
                    Some(n) => Some(Context::Input(n as u32)),
                    None if seen.map_or(0, Vec::len) < max_per_function => None,
                    None => Some(Context::Merged),
                }
            }
        }
    }

    /// Calls `callee` with `args`: whether it may return, and what.
    fn call(
        &self,
        site: CallSite,
        callee: FuncId,
        args: Vec<ProcValue<D>>,
    ) -> (bool, ProcValue<D>) {
        let Some(function) = self.module.function(callee) else {
            return (false, ProcValue::bottom());
        };
        if function.params().len() != args.len() {
            return (false, ProcValue::bottom());
        }
        let context = self.callee_context(site, callee, &args);
        let found = context
            .as_ref()
            .and_then(|c| self.table.lookup(callee, c))
            .map(|i| &self.table.slots[i]);
        let result = match found {
            Some(slot) => (slot.returns, slot.output.clone()),
            None => (false, ProcValue::bottom()),
        };
        self.record(Request::Call {
            callee,
            context,
            args,
        });
        result
    }

    /// Calls every function `callee` may be a closure of.
    fn apply(
        &self,
        site: CallSite,
        callee: &ProcValue<D>,
        args: Vec<ProcValue<D>>,
    ) -> (bool, ProcValue<D>) {
        let targets: Vec<FuncId> = match &callee.funcs {
            FuncSet::Some(set) => set.iter().copied().collect(),
            FuncSet::Any => (0..self.module.function_count())
                .map(FuncId::new)
                .filter(|&f| {
                    self.module
                        .function(f)
                        .is_some_and(|func| func.params().len() == args.len())
                })
                .collect(),
        };
        let mut returns = false;
        let mut value = ProcValue::bottom();
        for f in targets {
            let (r, v) = self.call(site, f, args.clone());
            returns |= r;
            value = value.join(&v);
        }
        (returns, value)
    }

    fn operand(env: &Env<ProcValue<D>>, o: Operand) -> ProcValue<D> {
        NonRelational::<ProcValue<D>>::operand(env, o)
    }

    fn operands(env: &Env<ProcValue<D>>, ops: &[Operand]) -> Vec<ProcValue<D>> {
        ops.iter().map(|&o| Self::operand(env, o)).collect()
    }

    /// Applies statement `index` of `block` to `env`.
    fn transfer_stmt(
        &self,
        block: BlockId,
        index: usize,
        stmt: &Stmt,
        env: &mut Env<ProcValue<D>>,
    ) {
        if !env.is_reachable() {
            return;
        }
        let site = CallSite {
            func: self.func,
            block,
            index: index as u32,
        };
        let (returns, dest, value) = match stmt {
            Stmt::Assign { dest, rhs } => {
                let (returns, value) = match rhs {
                    Rhs::Call(f, args) => {
                        self.direct_call_captures(*f);
                        let (r, v) = self.call(site, *f, Self::operands(env, args));
                        // Assigning the result of a call that returns nothing traps.
                        (r && !v.is_bottom(), v)
                    }
                    Rhs::Apply(c, args) => {
                        let (r, v) =
                            self.apply(site, &Self::operand(env, *c), Self::operands(env, args));
                        (r && !v.is_bottom(), v)
                    }
                    Rhs::Closure(f, captured) => {
                        self.record(Request::Capture {
                            func: *f,
                            values: Self::operands(env, captured),
                        });
                        (true, ProcValue::closure(*f))
                    }
                    // A sibling shares the value slots of closures this analysis does not
                    // follow by set: its function's captures become top (sound, not precise).
                    Rhs::Sibling(_, g) => {
                        self.direct_call_captures(*g);
                        (true, ProcValue::closure(*g))
                    }
                    // The running function's own closure: its captures are already its inputs.
                    Rhs::MyClosure => (true, ProcValue::closure(self.func)),
                    Rhs::Block(..) | Rhs::New => (true, ProcValue::block()),
                    Rhs::Load(..) | Rhs::Field(..) => (true, ProcValue::top()),
                    Rhs::Tag(_) => (true, ProcValue::int(D::top())),
                    Rhs::Address(s) => (true, ProcValue::int(D::address(*s))),
                    Rhs::Table(entries, i) => {
                        let index = Self::operand(env, *i);
                        (true, ProcValue::int(D::table(entries, &index.int)))
                    }
                    Rhs::IsBlock(a) => {
                        let a = Self::operand(env, *a);
                        let mut v = D::bottom();
                        if !a.int.is_bottom() {
                            v = v.join(&D::constant(0));
                        }
                        if a.block || !a.funcs.is_empty() {
                            v = v.join(&D::constant(1));
                        }
                        (true, ProcValue::int(v))
                    }
                    Rhs::Use(_) | Rhs::Binary(..) | Rhs::Select(..) => {
                        (true, NonRelational::<ProcValue<D>>::eval_rhs(rhs, env))
                    }
                };
                (returns, Some(*dest), value)
            }
            Stmt::Call { callee, args } => {
                self.direct_call_captures(*callee);
                let (r, _) = self.call(site, *callee, Self::operands(env, args));
                (r, None, ProcValue::bottom())
            }
            Stmt::Apply { callee, args } => {
                let (r, _) = self.apply(
                    site,
                    &Self::operand(env, *callee),
                    Self::operands(env, args),
                );
                (r, None, ProcValue::bottom())
            }
            Stmt::Store { .. } => (true, None, ProcValue::bottom()),
        };
        if !returns {
            *env = Env::Unreachable;
        } else if let Some(dest) = dest {
            env.set(dest, value);
        }
    }

    /// A direct call of a function with captures (or a sibling closure of it) binds them to
    /// nothing we track: top.
    fn direct_call_captures(&self, f: FuncId) {
        if let Some(func) = self.module.function(f)
            && !func.captures().is_empty()
        {
            self.record(Request::Capture {
                func: f,
                values: vec![ProcValue::top(); func.captures().len()],
            });
        }
    }
}

impl<M: Module, D: ValueDomain> Analysis<M::Function> for Body<'_, M, D> {
    type State = Env<ProcValue<D>>;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, program: &M::Function) -> Env<ProcValue<D>> {
        let mut env = Env::reachable(program.name_count());
        for (i, &p) in program.params().iter().enumerate() {
            env.set(
                p,
                self.inputs.get(i).cloned().unwrap_or_else(ProcValue::top),
            );
        }
        let captured = &self.table.captures[self.func.index()].0;
        for (i, &c) in program.captures().iter().enumerate() {
            env.set(
                c,
                captured.get(i).cloned().unwrap_or_else(ProcValue::bottom),
            );
        }
        env
    }

    fn transfer_block(&self, program: &M::Function, block: BlockId, state: &mut Self::State) {
        for (i, stmt) in program.stmts(block).iter().enumerate() {
            self.transfer_stmt(block, i, stmt, state);
        }
    }

    fn transfer_edge(
        &self,
        program: &M::Function,
        from: BlockId,
        succ_index: usize,
        state: &Self::State,
    ) -> Self::State {
        Analysis::<M::Function>::transfer_edge(&self.base, program, from, succ_index, state)
    }

    fn loop_thresholds(&self, program: &M::Function, blocks: &[BlockId]) -> Thresholds {
        Analysis::<M::Function>::loop_thresholds(&self.base, program, blocks)
    }

    fn transfer_evaluations(&self, program: &M::Function, block: BlockId) -> u64 {
        program.stmts(block).len() as u64
    }
}

/// The result of [`solve_module`].
#[derive(Debug)]
pub struct InterprocSolution<D> {
    instances: Vec<Instance<D>>,
    /// The final summaries, for replaying blocks (slots hold no solutions).
    table: Table<D>,
    callees: Vec<BTreeSet<usize>>,
    policy: ContextPolicy,
    conditional: bool,
    stop: StopReason,
    stats: InterprocStats,
}

impl<D: ValueDomain> InterprocSolution<D> {
    /// Every instance, in order of creation (the entry first).
    pub fn instances(&self) -> &[Instance<D>] {
        &self.instances
    }

    /// The instances of `func`, in order of creation; none when it is never called.
    pub fn instances_of(&self, func: FuncId) -> impl Iterator<Item = &Instance<D>> + '_ {
        self.instances.iter().filter(move |i| i.func == func)
    }

    /// Whether `func` was analyzed at all (reached from the entry).
    pub fn is_reached(&self, func: FuncId) -> bool {
        self.instances_of(func).next().is_some()
    }

    /// The join of the values closures of `func` capture, one per capture.
    pub fn captures(&self, func: FuncId) -> &[ProcValue<D>] {
        self.table
            .captures
            .get(func.index())
            .map_or(&[], |(c, _)| c.as_slice())
    }

    /// Why the solver stopped: [`StopReason::Stable`] unless a budget ran out or a domain broke
    /// its laws in some instance.
    pub fn stop(&self) -> &StopReason {
        &self.stop
    }

    /// Counters.
    pub fn stats(&self) -> &InterprocStats {
        &self.stats
    }

    /// The call graph found, between functions: `(caller, callee)` pairs, sorted.
    pub fn call_graph(&self) -> Vec<(FuncId, FuncId)> {
        let mut edges = BTreeSet::new();
        for (i, callees) in self.callees.iter().enumerate() {
            for &j in callees {
                edges.insert((self.instances[i].func, self.instances[j].func));
            }
        }
        edges.into_iter().collect()
    }

    /// Whether some call of `func` may return, and the join of what it returns.
    pub fn summary(&self, func: FuncId) -> (bool, ProcValue<D>) {
        self.instances_of(func)
            .fold((false, ProcValue::bottom()), |(r, v), i| {
                (r || i.returns, v.join(&i.output))
            })
    }

    /// The state at the entry of `block` of `func`, joined over its contexts.
    pub fn entry_state(&self, func: FuncId, block: BlockId) -> Env<ProcValue<D>> {
        self.join_over(func, |s| s.entry.get(block.index()))
    }

    /// The state at the exit of `block` of `func`, joined over its contexts.
    pub fn exit_state(&self, func: FuncId, block: BlockId) -> Env<ProcValue<D>> {
        self.join_over(func, |s| s.exit.get(block.index()))
    }

    fn join_over<'s>(
        &'s self,
        func: FuncId,
        pick: impl Fn(&'s Solution<Env<ProcValue<D>>>) -> Option<&'s Env<ProcValue<D>>>,
    ) -> Env<ProcValue<D>> {
        self.instances_of(func)
            .filter_map(|i| pick(&i.solution))
            .fold(Env::Unreachable, |acc, s| acc.join(s))
    }

    /// The state before each statement of `block` of `func` and before its terminator, joined
    /// over its contexts (`stmts.len() + 1` states).
    pub fn block_states<M: Module>(
        &self,
        module: &M,
        func: FuncId,
        block: BlockId,
    ) -> Vec<Env<ProcValue<D>>> {
        let Some(program) = module.function(func) else {
            return Vec::new();
        };
        let stmts = program.stmts(block);
        let mut states = vec![Env::Unreachable; stmts.len() + 1];
        for instance in self.instances_of(func) {
            let body = Body {
                module,
                table: &self.table,
                func,
                context: &instance.context,
                inputs: &instance.inputs,
                policy: self.policy,
                base: NonRelational::new(self.conditional),
                requests: None,
            };
            let mut env = instance
                .solution
                .entry
                .get(block.index())
                .cloned()
                .unwrap_or(Env::Unreachable);
            for (i, stmt) in stmts.iter().enumerate() {
                states[i] = states[i].join(&env);
                body.transfer_stmt(block, i, stmt, &mut env);
            }
            states[stmts.len()] = states[stmts.len()].join(&env);
        }
        states
    }
}

/// Joins `new` into `old`, widening after `delay` growths; whether it grew.
fn grow<T: Lattice>(
    old: &mut T,
    new: &T,
    growths: &mut u32,
    delay: u32,
    stats: &mut InterprocStats,
) -> bool {
    if new.leq(old) {
        return false;
    }
    let joined = old.join(new);
    *growths += 1;
    *old = if *growths > delay {
        stats.widenings += 1;
        old.widen(&joined)
    } else {
        joined
    };
    true
}

fn grow_all<D: ValueDomain>(
    old: &mut [ProcValue<D>],
    new: &[ProcValue<D>],
    growths: &mut u32,
    delay: u32,
    stats: &mut InterprocStats,
) -> bool {
    if old.iter().zip(new).all(|(o, n)| n.leq(o)) {
        return false;
    }
    *growths += 1;
    let widen = *growths > delay;
    if widen {
        stats.widenings += 1;
    }
    for (o, n) in old.iter_mut().zip(new) {
        let joined = o.join(n);
        *o = if widen { o.widen(&joined) } else { joined };
    }
    true
}

/// Runs the value domain `D` over `module` interprocedurally.
///
/// With `entry` set, analysis starts at that function, its parameters holding any integer
/// (what a concrete run passes) and its captures anything; functions never reached from it
/// have no instance. With `entry` `None`, every function is an entry whose parameters and
/// captures may hold anything, so every function is analyzed. `conditional` selects whether
/// branch conditions are evaluated, as for [`NonRelational::new`].
pub fn solve_module<M: Module, D: ValueDomain>(
    module: &M,
    entry: Option<FuncId>,
    conditional: bool,
    policy: ContextPolicy,
    limits: &InterprocLimits,
) -> InterprocSolution<D> {
    let n = module.function_count();
    let captures = (0..n)
        .map(|f| {
            let count = module
                .function(FuncId::new(f))
                .map_or(0, |func| func.captures().len());
            let value = if entry.is_none() || entry == Some(FuncId::new(f)) {
                ProcValue::top()
            } else {
                ProcValue::bottom()
            };
            (vec![value; count], 0)
        })
        .collect();
    let mut table = Table {
        slots: Vec::new(),
        index: BTreeMap::new(),
        inputs_seen: BTreeMap::new(),
        captures,
    };
    let roots: Vec<FuncId> = match entry {
        Some(f) => vec![f],
        None => (0..n).map(FuncId::new).collect(),
    };
    for f in roots {
        let Some(func) = module.function(f) else {
            continue;
        };
        let input = if entry.is_some() {
            ProcValue::int(D::top())
        } else {
            ProcValue::top()
        };
        let id = table.slots.len();
        table.index.insert((f, Context::All), id);
        table
            .slots
            .push(Slot::new(f, Context::All, vec![input; func.params().len()]));
    }
    let mut solver = Solver {
        module,
        table,
        policy,
        conditional,
        limits,
        queue: BTreeSet::new(),
        queued: Vec::new(),
        ranks: Vec::new(),
        ranks_stale: true,
        stats: InterprocStats::default(),
        stop: StopReason::Stable,
    };
    solver.run();
    solver.finish()
}

struct Solver<'a, M, D> {
    module: &'a M,
    table: Table<D>,
    policy: ContextPolicy,
    conditional: bool,
    limits: &'a InterprocLimits,
    queue: BTreeSet<(u32, usize)>,
    queued: Vec<bool>,
    ranks: Vec<u32>,
    ranks_stale: bool,
    stats: InterprocStats,
    stop: StopReason,
}

impl<M: Module, D: ValueDomain> Solver<'_, M, D> {
    fn enqueue(&mut self, id: usize) {
        if self.queued.len() <= id {
            self.queued.resize(id + 1, false);
        }
        if !self.queued[id] {
            self.queued[id] = true;
            let rank = self.ranks.get(id).copied().unwrap_or(u32::MAX);
            self.queue.insert((rank, id));
        }
    }

    fn rerank(&mut self) {
        let succs: Vec<Vec<usize>> = self
            .table
            .slots
            .iter()
            .map(|s| s.callees.iter().copied().collect())
            .collect();
        self.ranks = topological_ranks(&succs);
        let pending: Vec<usize> = self.queue.iter().map(|&(_, id)| id).collect();
        self.queue = pending.into_iter().map(|id| (self.ranks[id], id)).collect();
        self.ranks_stale = false;
    }

    fn run(&mut self) {
        for id in 0..self.table.slots.len() {
            self.enqueue(id);
        }
        loop {
            if self.ranks_stale {
                self.rerank();
            }
            let Some((_, id)) = self.queue.pop_first() else {
                break;
            };
            self.queued[id] = false;
            if self.stats.runs >= self.limits.max_runs {
                self.stop = StopReason::Budget {
                    visits: self.stats.visits,
                };
                break;
            }
            self.analyze(id);
        }
    }

    fn analyze(&mut self, id: usize) {
        self.stats.runs += 1;
        let func = self.table.slots[id].func;
        let Some(program) = self.module.function(func) else {
            return;
        };
        let (solution, requests) = {
            let slot = &self.table.slots[id];
            let mut body = Body {
                module: self.module,
                table: &self.table,
                func,
                context: &slot.context,
                inputs: &slot.inputs,
                policy: self.policy,
                base: NonRelational::new(self.conditional),
                requests: None,
            };
            let solution = engine::solve(program, &body, &self.limits.intra);
            // Replay the final states to collect what this instance passes on: values of
            // intermediate iterations never become contexts or inputs.
            body.requests = Some(RefCell::new(Vec::new()));
            for b in 0..program.block_count() {
                let mut env = solution.entry[b].clone();
                for (i, stmt) in program.stmts(BlockId::new(b)).iter().enumerate() {
                    body.transfer_stmt(BlockId::new(b), i, stmt, &mut env);
                }
            }
            let requests = body
                .requests
                .take()
                .map(RefCell::into_inner)
                .unwrap_or_default();
            (solution, requests)
        };
        self.stats.visits += solution.stats.visits;
        if !solution.stop.is_stable() && self.stop.is_stable() {
            self.stop = solution.stop.clone();
        }
        let (returns, output) = outputs(program, &solution);
        let delay = self.limits.intra.widening_delay;
        let slot = &mut self.table.slots[id];
        slot.solution = Some(solution);
        let mut changed = returns && !slot.returns;
        slot.returns |= returns;
        changed |= grow(
            &mut slot.output,
            &output,
            &mut slot.output_growths,
            delay,
            &mut self.stats,
        );
        if changed {
            let callers: Vec<usize> = slot.callers.iter().copied().collect();
            for caller in callers {
                self.enqueue(caller);
            }
        }
        for request in requests {
            self.apply_request(id, request);
        }
    }

    fn apply_request(&mut self, caller: usize, request: Request<D>) {
        let delay = self.limits.intra.widening_delay;
        match request {
            Request::Call {
                callee,
                context,
                args,
            } => {
                let context = context.unwrap_or_else(|| self.number_input(callee, &args));
                let (id, created) = match self.table.lookup(callee, &context) {
                    Some(id) => (id, false),
                    None => {
                        let id = self.table.slots.len();
                        self.table.index.insert((callee, context.clone()), id);
                        self.table
                            .slots
                            .push(Slot::new(callee, context, args.clone()));
                        (id, true)
                    }
                };
                let slot = &mut self.table.slots[id];
                let grew = grow_all(
                    &mut slot.inputs,
                    &args,
                    &mut slot.input_growths,
                    delay,
                    &mut self.stats,
                );
                let new_edge = slot.callers.insert(caller);
                if new_edge {
                    self.table.slots[caller].callees.insert(id);
                    self.ranks_stale = true;
                }
                if created || grew {
                    self.enqueue(id);
                }
                if new_edge && !created {
                    // The caller now reads this instance's summary, which may already hold.
                    self.enqueue(caller);
                }
            }
            Request::Capture { func, values } => {
                let Some((old, growths)) = self.table.captures.get_mut(func.index()) else {
                    return;
                };
                if grow_all(old, &values, growths, delay, &mut self.stats) {
                    let ids: Vec<usize> = self.table.instances_of(func).collect();
                    for id in ids {
                        self.enqueue(id);
                    }
                }
            }
        }
    }

    /// The functional context for a new input of `callee`.
    fn number_input(&mut self, callee: FuncId, args: &[ProcValue<D>]) -> Context {
        let ContextPolicy::Functional { max_per_function } = self.policy else {
            return Context::All;
        };
        let seen = self.table.inputs_seen.entry(callee).or_default();
        if let Some(n) = seen.iter().position(|i| i.as_slice() == args) {
            return Context::Input(n as u32);
        }
        if seen.len() < max_per_function {
            seen.push(args.to_vec());
            Context::Input(seen.len() as u32 - 1)
        } else {
            Context::Merged
        }
    }

    fn finish(mut self) -> InterprocSolution<D> {
        let mut callees = Vec::new();
        let mut instances = Vec::new();
        for slot in &mut self.table.slots {
            callees.push(std::mem::take(&mut slot.callees));
            slot.callers.clear();
            let solution = slot.solution.take().unwrap_or_else(|| Solution {
                entry: Vec::new(),
                exit: Vec::new(),
                stop: StopReason::Stable,
                stats: Default::default(),
            });
            instances.push(Instance {
                func: slot.func,
                context: slot.context.clone(),
                inputs: slot.inputs.clone(),
                returns: slot.returns,
                output: slot.output.clone(),
                solution,
            });
        }
        InterprocSolution {
            instances,
            table: self.table,
            callees,
            policy: self.policy,
            conditional: self.conditional,
            stop: self.stop,
            stats: self.stats,
        }
    }
}

/// Whether some `ret` of the solved function is reachable, and the join of what they return.
fn outputs<P: Program + ?Sized, D: ValueDomain>(
    program: &P,
    solution: &Solution<Env<ProcValue<D>>>,
) -> (bool, ProcValue<D>) {
    let mut returns = false;
    let mut value = ProcValue::bottom();
    for b in 0..program.block_count() {
        let exit = &solution.exit[b];
        if !exit.is_reachable() {
            continue;
        }
        if let Terminator::Return(result) = program.terminator(BlockId::new(b)) {
            returns = true;
            if let Some(o) = result {
                value = value.join(&NonRelational::<ProcValue<D>>::operand(exit, *o));
            }
        }
    }
    (returns, value)
}

/// Runs declared analysis `A` across the functions of `module` from `entry` (every function when
/// `None`) with its declared conditions, context policy and limits.
pub fn solve_declared<A: DeclaredAnalysis, M: Module>(
    module: &M,
    entry: Option<FuncId>,
) -> InterprocSolution<A::Domain> {
    solve_module(
        module,
        entry,
        A::spec().conditional,
        A::spec().context,
        &InterprocLimits {
            intra: A::limits(),
            ..Default::default()
        },
    )
}
