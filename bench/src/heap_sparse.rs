//! The `heap-sparse` benchmark: the alias analysis's per-block entry heaps kept densely (one
//! disjunction of heaps per block) against the sparse store of `absinthe_heap::sparse` (a delta
//! against the immediate dominator's heaps per block), on generated functions of 10³ to 10^max
//! statements with many allocation sites and variables, in two shapes: long chains of blocks in
//! a loop nest, and a chain of wide switches. It prints the bytes each holds (counted by the
//! global allocator), the time to build the sparse store, and the time to rebuild every block's
//! state from it against reading (or cloning) the dense one.

use crate::alloc::Counting;
use crate::clock::Clock;
use absinthe::engine::{Solution, solve};
use absinthe::program::{BlockId, Cond, NameId, Op, Operand, Rhs, Stmt, Terminator};
use absinthe_heap::{AliasAnalysis, Heaps, SparseHeapSolution};
use absinthe_ir::function::{Block, Function, Module};
use absinthe_ir::generate::Rng;
use std::time::Duration;

/// Disjuncts of the analysis.
const N: usize = 4;
/// Reference variables of the generated functions.
const VARS: usize = 48;
/// Statements per block of a chain.
const CHUNK: usize = 24;

/// A function under construction: blocks over `VARS` variables, then two counters.
struct Gen {
    rng: Rng,
    blocks: Vec<Block>,
}

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen {
            rng: Rng::new(seed),
            blocks: Vec::new(),
        }
    }

    /// The outer loop's counter (also what `select` and `switch` look at).
    fn outer() -> NameId {
        NameId::new(VARS)
    }

    /// The inner loops' counter.
    fn inner() -> NameId {
        NameId::new(VARS + 1)
    }

    fn block(&mut self) -> BlockId {
        let id = BlockId::new(self.blocks.len());
        self.blocks.push(Block {
            label: format!("bb{}", self.blocks.len()),
            phis: Vec::new(),
            stmts: Vec::new(),
            term: Terminator::Unreachable,
        });
        id
    }

    fn push(&mut self, b: BlockId, stmt: Stmt) {
        if let Some(block) = self.blocks.get_mut(b.index()) {
            block.stmts.push(stmt);
        }
    }

    fn set_term(&mut self, b: BlockId, term: Terminator) {
        if let Some(block) = self.blocks.get_mut(b.index()) {
            block.term = term;
        }
    }

    fn var(&mut self) -> Operand {
        Operand::Name(NameId::new(self.rng.below(VARS)))
    }

    /// One statement over the variables: an allocation (a new site), a copy, a kill (an
    /// integer), rarely a `select` (which splits the heap in two).
    fn stmt(&mut self) -> Stmt {
        let dest = NameId::new(self.rng.below(VARS));
        self.stmt_to(dest, |g| g.var())
    }

    /// A statement of [`Gen::stmt`]'s kinds assigning `dest`, reading what `read` picks.
    fn stmt_to(&mut self, dest: NameId, read: impl Fn(&mut Gen) -> Operand) -> Stmt {
        let rhs = match self.rng.below(100) {
            0..=34 => Rhs::New,
            35..=69 => Rhs::Use(read(self)),
            70..=97 => Rhs::Use(Operand::Int(0)),
            _ => Rhs::Select(Operand::Name(Self::outer()), read(self), read(self)),
        };
        Stmt::Assign { dest, rhs }
    }

    /// `count` statements from `b` on, a new block every [`CHUNK`]; gives the last block.
    fn chain(&mut self, mut b: BlockId, count: usize) -> BlockId {
        for i in 0..count {
            if i > 0 && i % CHUNK == 0 {
                let next = self.block();
                self.set_term(b, Terminator::Goto(next));
                b = next;
            }
            let stmt = self.stmt();
            self.push(b, stmt);
        }
        b
    }

    fn assign(&mut self, b: BlockId, dest: NameId, rhs: Rhs) {
        self.push(b, Stmt::Assign { dest, rhs });
    }

    /// The entry block, every variable pointing to an object of its own.
    fn start(&mut self) -> BlockId {
        let entry = self.block();
        for v in 0..VARS {
            self.assign(entry, NameId::new(v), Rhs::New);
        }
        self.assign(entry, Self::outer(), Rhs::Use(Operand::Int(0)));
        entry
    }

    /// `counter = counter + 1`.
    fn step(&mut self, b: BlockId, counter: NameId) {
        self.assign(
            b,
            counter,
            Rhs::Binary(Op::Add, Operand::Name(counter), Operand::Int(1)),
        );
    }

    /// `br counter < trips, body, exit` at the end of `head`.
    fn loop_test(&mut self, head: BlockId, counter: NameId, trips: i64, body: BlockId) -> BlockId {
        let exit = self.block();
        self.set_term(
            head,
            Terminator::Branch {
                cond: Cond::Compare(Op::Lt, Operand::Name(counter), Operand::Int(trips)),
                then_to: body,
                else_to: exit,
            },
        );
        exit
    }

    fn finish(self) -> Module {
        let mut names: Vec<String> = (0..VARS).map(|v| format!("v{v}")).collect();
        names.push("i".to_owned());
        names.push("j".to_owned());
        let function = Function::new("main".to_owned(), false, Vec::new(), names, self.blocks);
        Module {
            functions: vec![function],
            fields: Vec::new(),
            symbols: Vec::new(),
        }
    }
}

/// An outer loop whose body is a chain of blocks of about `n` statements in all; after every
/// eight blocks of the chain, an inner loop of one block.
fn loop_chain(n: usize) -> Module {
    let mut g = Gen::new(0x10_0c4a);
    let entry = g.start();
    let head = g.block();
    g.set_term(entry, Terminator::Goto(head));
    let body = g.block();
    let exit = g.loop_test(head, Gen::outer(), 5, body);
    let mut at = body;
    let mut left = n.saturating_sub(VARS);
    while left > 0 {
        let run = left.min(8 * CHUNK);
        at = g.chain(at, run);
        left -= run;
        if left == 0 {
            break;
        }
        let run = left.min(CHUNK);
        g.assign(at, Gen::inner(), Rhs::Use(Operand::Int(0)));
        let inner_head = g.block();
        g.set_term(at, Terminator::Goto(inner_head));
        let inner_body = g.block();
        let after = g.loop_test(inner_head, Gen::inner(), 3, inner_body);
        let end = g.chain(inner_body, run);
        g.step(end, Gen::inner());
        g.set_term(end, Terminator::Goto(inner_head));
        left -= run;
        at = after;
    }
    g.step(at, Gen::outer());
    g.set_term(at, Terminator::Goto(head));
    g.set_term(exit, Terminator::Return(None));
    g.finish()
}

/// A chain of four-way switches, each arm and each join six statements, about `n` statements in
/// all. As compiled code does, statements assign the variables in rotation and read recently
/// assigned ones; the four arms of a switch assign the same six variables (differently), so that
/// every variable is assigned again on every path within a few switches.
fn switches(n: usize) -> Module {
    const ARM: usize = 6;
    /// Reads go to one of the variables assigned this many statements before.
    const WINDOW: usize = 16;
    let mut g = Gen::new(0x5_1c4e5);
    let mut at = g.start();
    let mut next = 0usize;
    let mut left = n.saturating_sub(VARS);
    let segment = |g: &mut Gen, b: BlockId, first: usize| {
        for k in 0..ARM {
            let dest = NameId::new((first + k) % VARS);
            let stmt = g.stmt_to(dest, |g| {
                let back = 1 + g.rng.below(WINDOW);
                Operand::Name(NameId::new((first + k + VARS * WINDOW - back) % VARS))
            });
            g.push(b, stmt);
        }
    };
    while left > 0 {
        let arms: Vec<BlockId> = (0..4).map(|_| g.block()).collect();
        let join = g.block();
        g.set_term(
            at,
            Terminator::Switch {
                on: Operand::Name(Gen::outer()),
                cases: arms[..3]
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| (i as i64, b))
                    .collect(),
                default: arms[3],
            },
        );
        for &arm in &arms {
            segment(&mut g, arm, next);
            g.set_term(arm, Terminator::Goto(join));
        }
        segment(&mut g, join, next + ARM);
        next = (next + 2 * ARM) % VARS;
        at = join;
        left = left.saturating_sub(5 * ARM);
    }
    g.set_term(at, Terminator::Return(None));
    g.finish()
}

type Generator = fn(usize) -> Module;

fn shapes() -> [(&'static str, Generator); 2] {
    [("loop-chain", loop_chain), ("switches", switches)]
}

/// What one function gave.
#[derive(Clone, Debug, Default)]
struct Measure {
    stmts: usize,
    blocks: usize,
    sites: usize,
    disjuncts: usize,
    objects: usize,
    solve: Duration,
    dense_bytes: usize,
    sparse_bytes: usize,
    build_peak: usize,
    build: Duration,
    dense_read: Duration,
    dense_clone: Duration,
    sparse_walk: Duration,
    sparse_get: Duration,
    full_blocks: usize,
    identities: usize,
    mismatches: usize,
}

/// The bytes allocated now (this also restarts the peak).
fn current(counter: &Counting) -> usize {
    counter.reset_peak()
}

/// The fastest of `runs` runs of `f`.
fn fastest(runs: usize, mut f: impl FnMut() -> usize) -> Duration {
    let mut best = Duration::MAX;
    let mut sink = 0usize;
    for _ in 0..runs.max(1) {
        let start = Clock::start();
        sink = sink.wrapping_add(f());
        best = best.min(start.elapsed());
    }
    std::hint::black_box(sink);
    best
}

/// Objects in a block's heaps: what the readers below add up, so that nothing is optimized away.
fn objects(heaps: &Heaps<N>) -> usize {
    heaps.values().iter().map(|h| h.objects().count()).sum()
}

fn measure(module: &Module, counter: &Counting) -> Measure {
    let function = &module.functions[0];
    let mut m = Measure {
        stmts: function.stmt_count(),
        blocks: function.blocks().len(),
        sites: function
            .blocks()
            .iter()
            .flat_map(|b| &b.stmts)
            .filter(|s| matches!(s, Stmt::Assign { rhs: Rhs::New, .. }))
            .count(),
        ..Measure::default()
    };
    let start = Clock::start();
    let solution: Solution<Heaps<N>> =
        solve(function, &AliasAnalysis::<N>, &AliasAnalysis::<N>::limits());
    m.solve = start.elapsed();
    m.disjuncts = solution.entry.iter().map(|h| h.values().len()).sum();
    m.objects = solution.entry.iter().map(objects).sum();

    // The dense states: the bytes of a copy of the solution's entry states.
    let base = current(counter);
    let dense: Vec<Heaps<N>> = solution.entry.clone();
    m.dense_bytes = current(counter).saturating_sub(base);

    let base = current(counter);
    let start = Clock::start();
    let sparse = SparseHeapSolution::from_dense(function, &solution);
    m.build = start.elapsed();
    m.build_peak = counter.peak().saturating_sub(base);
    m.sparse_bytes = current(counter).saturating_sub(base);
    let summary = sparse.store().summary();
    m.full_blocks = summary.full;
    m.identities = summary.identities;

    let runs = (3_000 / m.stmts.max(1)).clamp(1, 3);
    m.dense_read = fastest(runs, || dense.iter().map(objects).sum());
    m.dense_clone = fastest(runs, || dense.iter().map(|h| objects(&h.clone())).sum());
    m.sparse_walk = fastest(runs, || {
        let mut total = 0;
        sparse.for_each_entry(|_, h| total += objects(h));
        total
    });
    m.sparse_get = fastest(runs, || {
        (0..dense.len())
            .map(|b| objects(&sparse.entry(BlockId::new(b))))
            .sum()
    });
    sparse.for_each_entry(|b, h| {
        if dense.get(b.index()) != Some(h) {
            m.mismatches += 1;
        }
    });
    m
}

fn human(bytes: usize) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.2} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.1} kB", b / 1e3)
    } else {
        format!("{bytes} B")
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn ratio(a: f64, b: f64) -> f64 {
    a / b.max(f64::MIN_POSITIVE)
}

/// Runs the benchmark for sizes 10³ to 10^`max_exp`, counting bytes with `counter` (the global
/// allocator).
pub fn run(max_exp: u32, counter: &Counting) {
    run_measures(max_exp, counter);
}

/// [`run`], giving back what each function gave.
fn run_measures(max_exp: u32, counter: &Counting) -> Vec<Measure> {
    let mut all = Vec::new();
    println!(
        "heap-sparse: alias analysis ({N} disjuncts, {VARS} variables), entry heaps per block \
         dense vs sparse (a delta against the immediate dominator's)"
    );
    println!(
        "bytes: held by the states (counted by the allocator); time: {}, fastest of a few runs",
        if Clock::is_cpu_time() {
            "CPU time of the thread"
        } else {
            "wall clock"
        }
    );
    println!(
        "{:<10} {:>8} {:>6} {:>7} {:>8} {:>10} {:>10} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} \
         {:>9} {:>9} {:>6} {:>6}",
        "shape",
        "stmts",
        "blocks",
        "sites",
        "objects",
        "solve ms",
        "dense",
        "sparse",
        "build pk",
        "build ms",
        "read ms",
        "clone ms",
        "walk ms",
        "get ms",
        "bytes x",
        "whole",
        "same"
    );
    let mut summary = Vec::new();
    for (shape, generate) in shapes() {
        let mut last = None;
        for exp in 3..=max_exp {
            let module = generate(10usize.pow(exp));
            let m = measure(&module, counter);
            println!(
                "{shape:<10} {:>8} {:>6} {:>7} {:>8} {:>10.1} {:>10} {:>10} {:>10} {:>9.2} \
                 {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.1} {:>6} {:>6}",
                m.stmts,
                m.blocks,
                m.sites,
                m.objects,
                ms(m.solve),
                human(m.dense_bytes),
                human(m.sparse_bytes),
                human(m.build_peak),
                ms(m.build),
                ms(m.dense_read),
                ms(m.dense_clone),
                ms(m.sparse_walk),
                ms(m.sparse_get),
                ratio(m.dense_bytes as f64, m.sparse_bytes as f64),
                m.full_blocks,
                m.identities,
            );
            if m.mismatches > 0 {
                println!(
                    "{shape}: {} blocks differ between the dense and the sparse states",
                    m.mismatches
                );
            }
            all.push(m.clone());
            last = Some(m);
        }
        if let Some(m) = last {
            summary.push(format!(
                "{shape:<10} {} statements, {:.1} disjuncts per block: bytes dense/sparse {:.1}x; \
                 build {:.2}x the dense clone; every state rebuilt: walk {:.1}x, get {:.1}x \
                 the dense read, walk {:.2}x, get {:.2}x the dense clone",
                m.stmts,
                ratio(m.disjuncts as f64, m.blocks as f64),
                ratio(m.dense_bytes as f64, m.sparse_bytes as f64),
                ratio(ms(m.build), ms(m.dense_clone)),
                ratio(ms(m.sparse_walk), ms(m.dense_read)),
                ratio(ms(m.sparse_get), ms(m.dense_read)),
                ratio(ms(m.sparse_walk), ms(m.dense_clone)),
                ratio(ms(m.sparse_get), ms(m.dense_clone)),
            ));
        }
    }
    println!(
        "columns: dense/sparse = bytes the states hold; build pk = peak bytes while building the \
         sparse store; read = visit every dense state by reference, clone = copy each one, \
         walk = rebuild every state once along the dominator tree, get = look up every block in \
         order; whole = blocks kept whole, same = blocks whose heaps equal their dominator's"
    );
    println!("at 10^{max_exp} statements:");
    for line in summary {
        println!("{line}");
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_sizes_run_and_agree() {
        let measures = run_measures(3, &Counting::new());
        assert_eq!(measures.len(), 2);
        for m in measures {
            assert_eq!(m.mismatches, 0);
            assert!(m.blocks > 40 && m.sites > 300, "{m:?}");
        }
    }
}
