//! Running a value analysis on a lowered LLVM module and counting what it proves: values proven
//! constant, branches decided, blocks proven unreachable, and the time spent in the fixpoint
//! engine alone.
//!
//! The analysis is the runtime's generic [`absinthe::value::NonRelational`] over any
//! [`ValueDomain`] (flat constants for `sccp`, intervals for `interval`), or, for a domain with
//! a relational component ([`ValueDomain::relation`], `octagon`), the runtime's
//! [`absinthe::relational::WithRelation`] with the relation it declares (`crate::solved`),
//! solved per function by the worklist engine; nothing here is specific to LLVM except the
//! bookkeeping that maps results back to LLVM names and `getelementptr` indices.
//!
//! An index counts as proven within `[0, n)` when the state where its `getelementptr` is
//! computed allows only indices in that range ([`crate::lower::IndexBound`] says what `n` is);
//! one in a block proven unreachable counts as proven too (it is never computed).

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use absinthe::engine::{Limits, StopReason};
use absinthe::lattice::Lattice;
use absinthe::program::{BlockId, Cfg, Operand, Program, SymbolId, Terminator};
use absinthe::value::{StateRepr, ValueDomain};
use absinthe_ir::Function;

use crate::lower::{GepIndex, Home, IndexBound, Lowered, LoweredFunction};
use crate::solved::solve;

/// What the analysis says about one LLVM value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    /// Its block is proven unreachable.
    Unreachable,
    /// It is always this value (in the core IR's 64-bit form: sign-extended, `i1` as 0 or 1).
    Constant(i64),
    /// It is always this address: a symbol of the lowered module (a global or function) plus
    /// a byte offset.
    Address(SymbolId, i64),
    /// Its block may run but it never gets a value (it comes from `undef` or `poison`).
    Undefined,
    /// Nothing more precise is known.
    Unknown,
}

/// The counts for one function.
#[derive(Clone, Debug)]
pub struct FunctionCounts {
    /// The LLVM name.
    pub name: String,
    /// Basic blocks.
    pub blocks: usize,
    /// Blocks the control-flow graph reaches from the entry.
    pub graph_reachable: usize,
    /// Blocks the graph reaches but the analysis proves unreachable.
    pub unreachable: usize,
    /// Integer values defined in the function.
    pub values: usize,
    /// Integer values proven constant (in blocks that may run).
    pub constants: usize,
    /// Two-way and multi-way branches with at least two distinct targets, in blocks the graph
    /// reaches.
    pub branches: usize,
    /// Of those, the ones in blocks that may run with only one feasible target.
    pub decided: usize,
    /// `getelementptr` indices that are not constants, in blocks the graph reaches.
    pub indices: usize,
    /// Of those, the ones whose length `n` is known ([`IndexBound::Length`] or
    /// [`IndexBound::Count`]).
    pub bounded: usize,
    /// Of those, the ones proven within `[0, n)` (or in a block proven unreachable).
    pub in_bounds: usize,
    /// The representation the states were kept in.
    pub repr: StateRepr,
    /// Why the engine stopped.
    pub stop: StopReason,
    /// Time in the fixpoint engine (wall clock).
    pub time: Duration,
    /// CPU time of this thread in the fixpoint engine (less sensitive to a busy machine).
    pub cpu: Duration,
}

/// The analysis of one function: counts and, per LLVM value (in [`LoweredFunction::values`]
/// order), what was proven.
#[derive(Clone, Debug)]
pub struct FunctionAnalysis {
    /// The counts.
    pub counts: FunctionCounts,
    /// One fact per value of the lowered function.
    pub facts: Vec<Fact>,
    /// Per block: proven unreachable although the graph reaches it.
    pub dead: Vec<bool>,
}

impl FunctionAnalysis {
    /// Whether `self` and `other` say the same: the same facts, dead blocks and counts, the
    /// times aside (what a parallel run must reproduce of a sequential one).
    pub fn same_as(&self, other: &FunctionAnalysis) -> bool {
        let (a, b) = (&self.counts, &other.counts);
        self.facts == other.facts
            && self.dead == other.dead
            && (
                a.name.as_str(),
                a.blocks,
                a.graph_reachable,
                a.unreachable,
                a.values,
            ) == (
                b.name.as_str(),
                b.blocks,
                b.graph_reachable,
                b.unreachable,
                b.values,
            )
            && (a.constants, a.branches, a.decided) == (b.constants, b.branches, b.decided)
            && (a.indices, a.bounded, a.in_bounds) == (b.indices, b.bounded, b.in_bounds)
            && a.stop == b.stop
    }
}

/// Totals over a module.
#[derive(Clone, Debug, Default)]
pub struct ModuleCounts {
    /// Functions analyzed.
    pub functions: usize,
    /// Functions whose analysis did not reach a fixpoint.
    pub unstable: usize,
    /// Sums of the per-function counts.
    pub blocks: usize,
    /// See [`FunctionCounts::unreachable`].
    pub unreachable: usize,
    /// See [`FunctionCounts::values`].
    pub values: usize,
    /// See [`FunctionCounts::constants`].
    pub constants: usize,
    /// See [`FunctionCounts::branches`].
    pub branches: usize,
    /// See [`FunctionCounts::decided`].
    pub decided: usize,
    /// See [`FunctionCounts::indices`].
    pub indices: usize,
    /// See [`FunctionCounts::bounded`].
    pub bounded: usize,
    /// See [`FunctionCounts::in_bounds`].
    pub in_bounds: usize,
    /// Time in the fixpoint engine, over all functions.
    pub time: Duration,
}

impl ModuleCounts {
    /// Adds one function's counts.
    pub fn add(&mut self, c: &FunctionCounts) {
        self.functions += 1;
        self.unstable += usize::from(!c.stop.is_stable());
        self.blocks += c.blocks;
        self.unreachable += c.unreachable;
        self.values += c.values;
        self.constants += c.constants;
        self.branches += c.branches;
        self.decided += c.decided;
        self.indices += c.indices;
        self.bounded += c.bounded;
        self.in_bounds += c.in_bounds;
        self.time += c.time;
    }
}

/// How the states of each function's analysis are kept. Dense and sparse states give the same
/// facts (the runtime's representations take the same steps); SSA propagation gives sound facts
/// that may be less precise in places (see [`StateRepr::Ssa`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum States {
    /// Every function with this representation.
    Fixed(StateRepr),
    /// Per function: see [`States::for_function`].
    Auto,
}

impl States {
    /// The representation for `function`: with [`States::Auto`], SSA propagation for functions
    /// in SSA form (every LLVM function after `mem2reg`; the engine falls back to sparse states
    /// when a use is not dominated by its definition), otherwise dense states for functions with
    /// few blocks or few names (an environment per block is then small and its copies cheap) and
    /// sparse states for the others, whose dense states would cost blocks × names.
    pub fn for_function(self, function: &Function) -> StateRepr {
        match self {
            States::Fixed(repr) => repr,
            States::Auto if function.is_ssa() => StateRepr::Ssa,
            States::Auto => {
                let blocks = function.block_count();
                let names = function.name_count();
                if blocks.saturating_mul(names) < DENSE_BELOW {
                    StateRepr::Dense
                } else {
                    StateRepr::Sparse
                }
            }
        }
    }
}

/// [`States::Auto`] keeps dense states for functions not in SSA form for functions whose blocks × names is below this.
pub const DENSE_BELOW: usize = 2_000;

/// With the number of threads left to [`analyze_module`], modules with fewer statements and
/// blocks than this are analyzed on one thread: starting threads costs more than they save.
pub const PARALLEL_FROM: usize = 20_000;

/// Analyzes every function of `lowered` with `NonRelational<D>` (`conditional` evaluates branch
/// conditions), keeping states as `states` says, on `threads` threads (`None`: one per core, or
/// one for modules smaller than [`PARALLEL_FROM`]); `progress(done, total)` is called on the calling
/// thread after each function it analyzes (on one thread, after every function) and once with
/// `done == total` at the end.
///
/// Functions are independent (each one's callees are unknown), so they are analyzed in parallel:
/// each worker takes the next function, largest first, and the results come back in the
/// module's order. Every function's analysis is deterministic, so the results (all but the
/// times) are the same whatever the number of threads.
pub fn analyze_module<D: ValueDomain>(
    lowered: &Lowered,
    conditional: bool,
    states: States,
    limits: &Limits,
    threads: Option<NonZeroUsize>,
    mut progress: impl FnMut(usize, usize),
) -> Vec<FunctionAnalysis> {
    let total = lowered.functions.len();
    let one = |i: usize| {
        let info = &lowered.functions[i];
        let function = &lowered.module.functions[info.func.index()];
        analyze_function::<D>(info, function, conditional, states, limits)
    };
    let size = |i: usize| {
        let function = &lowered.module.functions[lowered.functions[i].func.index()];
        function.stmt_count() + function.block_count()
    };
    let threads = match threads {
        // Threads cost more than they save on small modules.
        None if (0..total).map(size).sum::<usize>() < PARALLEL_FROM => 1,
        None => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        Some(n) => n.get(),
    }
    .min(total);
    if threads <= 1 {
        return (0..total)
            .map(|i| {
                let result = one(i);
                progress(i + 1, total);
                result
            })
            .collect();
    }
    // Largest first, so that no big function starts last and keeps one thread busy alone.
    let mut order: Vec<usize> = (0..total).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(size(i)));
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    // Each worker keeps its results until it ends (no channel: waking the calling thread once
    // per function cost more than small functions take), and the calling thread works too;
    // `analyzed(done)` is called after each function with how many all workers have done.
    let work = |analyzed: &mut dyn FnMut(usize)| {
        let mut mine = Vec::new();
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            mine.push((i, one(i)));
            analyzed(done.fetch_add(1, Ordering::Relaxed) + 1);
        }
        mine
    };
    let mut results: Vec<Option<FunctionAnalysis>> = (0..total).map(|_| None).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (1..threads)
            .map(|_| scope.spawn(|| work(&mut |_| {})))
            .collect();
        let mut reported = 0;
        let mine = work(&mut |now| {
            if now > reported {
                reported = now;
                progress(now, total);
            }
        });
        for (i, result) in workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .chain(mine)
        {
            results[i] = Some(result);
        }
        if reported < total {
            progress(total, total);
        }
    });
    results.into_iter().flatten().collect()
}

/// Analyzes one lowered function, keeping states as `states` says (dense states, whatever it
/// says, for a domain with a relational component: see [`crate::solved::solve`]).
pub fn analyze_function<D: ValueDomain>(
    info: &LoweredFunction,
    function: &Function,
    conditional: bool,
    states: States,
    limits: &Limits,
) -> FunctionAnalysis {
    let repr = states.for_function(function);
    // Descending passes cannot improve a least fixpoint of a finite-height lattice: skip them.
    let limits = if <D as Lattice>::has_finite_height() && D::relation().is_none() {
        Limits {
            narrowing_passes: 0,
            ..limits.clone()
        }
    } else {
        limits.clone()
    };
    let cpu_start = cpu_time::ThreadTime::try_now().ok();
    let start = Instant::now();
    let solution = solve::<D>(function, &info.shared, conditional, repr, &limits);
    let time = start.elapsed();
    let cpu = cpu_start.map_or(time, |c| c.elapsed());

    let n = function.block_count();
    let reachable = graph_reachable(function);
    let runs = |b: BlockId| solution.is_reachable(b);
    let dead: Vec<bool> = (0..n)
        .map(|b| reachable[b] && !runs(BlockId::new(b)))
        .collect();

    let mut branches = 0;
    let mut decided = 0;
    for b in (0..n).map(BlockId::new).filter(|b| reachable[b.index()]) {
        let multiway = matches!(
            function.terminator(b),
            Terminator::Branch { .. } | Terminator::Switch { .. }
        );
        let successors = function.successors(b);
        if !multiway || successors.iter().all(|&t| t == successors[0]) {
            continue;
        }
        branches += 1;
        if !runs(b) {
            continue;
        }
        // Decided: the feasible edges (if any) all go to one block.
        let mut only: Option<BlockId> = None;
        let one_target = successors.iter().enumerate().all(|(i, &t)| {
            if only.is_some_and(|o| o == t) || !solution.edge_feasible(function, b, i) {
                return true;
            }
            only.get_or_insert(t) == &t
        });
        if one_target {
            decided += 1;
        }
    }

    let (indices, bounded, in_bounds) =
        count_indices(&info.indices, function, &reachable, &*solution);

    let facts: Vec<Fact> = info
        .values
        .iter()
        .map(|v| {
            if !solution.is_reachable(v.block) {
                return Fact::Unreachable;
            }
            let of = |o: Operand| match o {
                Operand::Int(c) => D::constant(c),
                Operand::Name(name) => solution.value_at_exit(v.block, name),
            };
            let value = match v.home {
                Home::Operand(Operand::Int(c)) => return Fact::Constant(c),
                Home::Operand(o) => of(o),
                Home::Compare(op, a, b) => D::binary(op, &of(a), &of(b)),
            };
            if value.is_bottom() {
                Fact::Undefined
            } else if let Some(c) = value.as_constant() {
                Fact::Constant(c)
            } else if let Some((s, offset)) = value.as_address() {
                Fact::Address(s, offset)
            } else {
                Fact::Unknown
            }
        })
        .collect();
    let values = info.values.iter().filter(|v| v.integer).count();
    let constants = info
        .values
        .iter()
        .zip(&facts)
        .filter(|(v, f)| v.integer && matches!(f, Fact::Constant(_)))
        .count();
    let counts = FunctionCounts {
        name: info.name.clone(),
        blocks: n,
        graph_reachable: reachable.iter().filter(|&&r| r).count(),
        unreachable: dead.iter().filter(|&&d| d).count(),
        values,
        constants,
        branches,
        decided,
        indices,
        bounded,
        in_bounds,
        repr: solution.repr(),
        stop: solution.stop().clone(),
        time,
        cpu,
    };
    FunctionAnalysis {
        counts,
        facts,
        dead,
    }
}

/// The `getelementptr` indices of `all` in blocks the graph reaches, those with a known bound,
/// and those proven within it (or in a block proven unreachable).
fn count_indices<D: ValueDomain>(
    all: &[GepIndex],
    function: &Function,
    reachable: &[bool],
    solution: &dyn crate::solved::Solved<D>,
) -> (usize, usize, usize) {
    let mut indices = 0;
    let mut bounded = 0;
    let mut in_bounds = 0;
    // The indices of a block are consecutive and in order of their points.
    for block in all.chunk_by(|a, b| a.block == b.block) {
        let b = block[0].block;
        if !reachable[b.index()] {
            continue;
        }
        indices += block.len();
        let known: Vec<&GepIndex> = block
            .iter()
            .filter(|x| !matches!(x.bound, IndexBound::Unknown))
            .collect();
        bounded += known.len();
        in_bounds += if solution.is_reachable(b) {
            let proven = solution.in_bounds(function, b, &known);
            proven.iter().filter(|&&p| p).count()
        } else {
            known.len()
        };
    }
    (indices, bounded, in_bounds)
}

/// Which blocks the control-flow graph reaches from the entry.
pub fn graph_reachable(function: &Function) -> Vec<bool> {
    let n = function.block_count();
    let mut seen = vec![false; n];
    if n == 0 {
        return seen;
    }
    let mut stack = vec![function.entry()];
    seen[function.entry().index()] = true;
    while let Some(b) = stack.pop() {
        for &s in function.successors(b) {
            if let Some(slot) = seen.get_mut(s.index()) {
                if !*slot {
                    *slot = true;
                    stack.push(s);
                }
            }
        }
    }
    seen
}
