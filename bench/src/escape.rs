//! `escape`: the escape and alias analysis (every function solved callees first with
//! intervals, as `absinthe_heap::escape::solve_module` does, each function's facts read as
//! they are made and then dropped) on generated core-IR programs of 10³ to 10⁶ statements with many objects, in two
//! shapes. `many-functions` grows by adding functions of about 10³ statements each (branchy,
//! no loops) that allocate, store, load, copy references and call earlier functions, so each
//! call applies a summary; `one-function` grows one function made of a chain of small loops
//! with a diamond in each, over 32 object names, with an allocation site for about every tenth
//! statement, so the heap holds more and more objects as the function grows.
//!
//! For each size it prints the time (the median of a few runs where a run is cheap), the
//! statements per second, the peak bytes the analysis held from its start to its result
//! (counted by the global allocator), the loads it forwards, and the growth of the time from
//! the size ten times smaller. A size the previous one predicts to take too long or too much
//! memory is skipped with the reason.

use crate::alloc::Counting;
use crate::clock::Clock;
use absinthe::lattice::Interval;
use absinthe::program::{
    BlockId, Cond, FieldId, FuncId, NameId, Op, Operand, Rhs, Stmt, Terminator,
};
use absinthe_heap::escape::{MAX_EXPOSED, MAX_HEAPS, analyze_with};
use absinthe_interproc::callees_first;
use absinthe_ir::function::{Block, Function, Module};
use absinthe_ir::generate::Rng;
use std::time::Duration;

/// Statements per function of the `many-functions` shape, and the smallest size.
const FUNCTION_STMTS: usize = 1_000;
/// Statements per block (about: an allocation with its field stores is not split).
const BLOCK_STMTS: usize = 10;
/// Integer and object locals of a `many-functions` function.
const FEW_INTS: usize = 8;
const FEW_OBJS: usize = 16;
/// Integer and object locals of the `one-function` shape.
const BIG_INTS: usize = 8;
const BIG_OBJS: usize = 32;
/// How many earlier functions a function of `many-functions` may call.
const CALLEE_WINDOW: usize = 8;
/// A size predicted to run longer than this is skipped.
const TIME_BUDGET: Duration = Duration::from_secs(180);
/// A size predicted to hold more than this many bytes is skipped.
const BYTES_BUDGET: f64 = 6e9;

/// The fields every object has: two integers and a reference.
const INT_FIELDS: [FieldId; 2] = [FieldId(0), FieldId(1)];
const OBJ_FIELD: FieldId = FieldId(2);

/// Writes the statements of one function: names, the random source, and whether it may call.
struct Writer<'r> {
    rng: &'r mut Rng,
    ints: Vec<NameId>,
    objs: Vec<NameId>,
    /// The parameters `(a, b)`: an integer and a caller object.
    a: NameId,
    b: NameId,
    /// Functions it may call (each takes an integer and an object and returns an object).
    callees: Vec<FuncId>,
}

impl Writer<'_> {
    fn int(&mut self) -> Operand {
        if self.rng.percent(75) {
            Operand::Name(self.rng.pick(&self.ints, self.a))
        } else {
            Operand::Int(self.rng.below(9) as i64 - 3)
        }
    }

    fn int_local(&mut self) -> NameId {
        self.rng.pick(&self.ints, self.a)
    }

    fn obj(&mut self) -> NameId {
        self.rng.pick(&self.objs, self.b)
    }

    fn obj_op(&mut self) -> Operand {
        Operand::Name(self.obj())
    }

    /// `dest = new` and its three fields set (a reference to another object, or itself).
    fn allocate(&mut self, dest: NameId, stmts: &mut Vec<Stmt>) {
        stmts.push(Stmt::Assign {
            dest,
            rhs: Rhs::New,
        });
        for field in INT_FIELDS {
            let value = self.int();
            stmts.push(Stmt::Store {
                object: Operand::Name(dest),
                field,
                value,
            });
        }
        let inner = if self.rng.percent(40) {
            dest
        } else {
            self.obj()
        };
        stmts.push(Stmt::Store {
            object: Operand::Name(dest),
            field: OBJ_FIELD,
            value: Operand::Name(inner),
        });
    }

    /// One event (one statement, four for an allocation). An allocation is one event in seven,
    /// so about every tenth statement allocates.
    fn event(&mut self, stmts: &mut Vec<Stmt>) {
        let roll = self.rng.below(100);
        let stmt = match roll {
            0..=13 => {
                let dest = self.obj();
                self.allocate(dest, stmts);
                return;
            }
            14..=31 => Stmt::Store {
                object: self.obj_op(),
                field: self.rng.pick(&INT_FIELDS, FieldId(0)),
                value: self.int(),
            },
            32..=37 => Stmt::Store {
                object: self.obj_op(),
                field: OBJ_FIELD,
                value: self.obj_op(),
            },
            38..=59 => Stmt::Assign {
                dest: self.int_local(),
                rhs: Rhs::Load(self.obj_op(), self.rng.pick(&INT_FIELDS, FieldId(0))),
            },
            60..=65 => Stmt::Assign {
                dest: self.obj(),
                rhs: Rhs::Load(self.obj_op(), OBJ_FIELD),
            },
            66..=73 => Stmt::Assign {
                dest: self.obj(),
                rhs: Rhs::Use(self.obj_op()),
            },
            74..=85 => Stmt::Assign {
                dest: self.int_local(),
                rhs: Rhs::Binary(
                    self.rng.pick(&[Op::Add, Op::Sub, Op::Mul, Op::Lt], Op::Add),
                    self.int(),
                    self.int(),
                ),
            },
            86..=91 if !self.callees.is_empty() => {
                let callee = self.rng.pick(&self.callees, self.callees[0]);
                let args: Box<[Operand]> = Box::new([self.int(), self.obj_op()]);
                if self.rng.percent(70) {
                    Stmt::Assign {
                        dest: self.obj(),
                        rhs: Rhs::Call(callee, args),
                    }
                } else {
                    Stmt::Call { callee, args }
                }
            }
            86..=95 => Stmt::Assign {
                dest: self.obj(),
                rhs: Rhs::Select(self.int(), self.obj_op(), self.obj_op()),
            },
            // A store into the caller's object: what it stores escapes.
            _ => Stmt::Store {
                object: Operand::Name(self.b),
                field: OBJ_FIELD,
                value: self.obj_op(),
            },
        };
        stmts.push(stmt);
    }

    /// A block's statements: about [`BLOCK_STMTS`].
    fn body(&mut self) -> Vec<Stmt> {
        let mut stmts = Vec::with_capacity(BLOCK_STMTS + 3);
        while stmts.len() < BLOCK_STMTS {
            self.event(&mut stmts);
        }
        stmts
    }

    /// The integers set to literals and every object name made (the entry block's start).
    fn prologue(&mut self) -> Vec<Stmt> {
        let mut stmts = Vec::new();
        for i in self.ints.clone() {
            let value = self.rng.below(5) as i64;
            stmts.push(Stmt::Assign {
                dest: i,
                rhs: Rhs::Use(Operand::Int(value)),
            });
        }
        for o in self.objs.clone() {
            self.allocate(o, &mut stmts);
        }
        stmts
    }

    fn cond(&mut self) -> Cond {
        Cond::Compare(
            self.rng.pick(&[Op::Lt, Op::Le, Op::Gt, Op::Ne], Op::Lt),
            Operand::Name(self.int_local()),
            Operand::Int(self.rng.below(7) as i64 - 3),
        )
    }
}

/// The names of a function `(a, b)` with `ints` integer and `objs` object locals.
fn names(ints: usize, objs: usize) -> (Vec<String>, Vec<NameId>, Vec<NameId>) {
    let mut names = vec!["a".to_owned(), "b".to_owned()];
    let ids = |prefix: &str, n: usize, names: &mut Vec<String>| -> Vec<NameId> {
        (0..n)
            .map(|i| {
                names.push(format!("{prefix}{i}"));
                NameId::new(names.len() - 1)
            })
            .collect()
    };
    let int_ids = ids("i", ints, &mut names);
    let obj_ids = ids("o", objs, &mut names);
    (names, int_ids, obj_ids)
}

fn block(b: usize, stmts: Vec<Stmt>, term: Terminator) -> Block {
    Block {
        label: format!("bb{b}"),
        phis: Vec::new(),
        stmts,
        term,
    }
}

fn module(functions: Vec<Function>) -> Module {
    let mut module = Module {
        functions,
        fields: vec!["f0".to_owned(), "f1".to_owned(), "f2".to_owned()],
        symbols: Vec::new(),
    };
    module.canonicalize();
    module
}

/// `many-functions`: `n / 1000` functions of about 1000 statements each, in blocks of about ten
/// that branch forward (to the next block, or past it); each function may call the eight before
/// it.
fn many_functions(n: usize) -> Module {
    let count = (n / FUNCTION_STMTS).max(1);
    let mut rng = Rng::new(0xE5C_A9E ^ n as u64);
    let mut functions = Vec::with_capacity(count);
    for me in 0..count {
        let (names, ints, objs) = names(FEW_INTS, FEW_OBJS);
        // Callees come earlier in the module, so the solve, which goes in order, finds
        // their summaries done (a deep chain of first visits would recurse as deep).
        let callees: Vec<FuncId> = (me.saturating_sub(CALLEE_WINDOW)..me)
            .map(FuncId::new)
            .collect();
        let mut w = Writer {
            rng: &mut rng,
            ints,
            objs,
            a: NameId::new(0),
            b: NameId::new(1),
            callees,
        };
        let mut bodies = vec![w.prologue()];
        let mut total = bodies[0].len();
        while total < FUNCTION_STMTS {
            let body = w.body();
            total += body.len();
            bodies.push(body);
        }
        let last = bodies.len() - 1;
        let mut blocks = Vec::with_capacity(bodies.len());
        for (b, stmts) in bodies.into_iter().enumerate() {
            let term = if b == last {
                Terminator::Return(Some(w.obj_op()))
            } else if w.rng.percent(50) {
                Terminator::Goto(BlockId::new(b + 1))
            } else {
                Terminator::Branch {
                    cond: w.cond(),
                    then_to: BlockId::new(b + 1),
                    else_to: BlockId::new((b + 2).min(last)),
                }
            };
            blocks.push(block(b, stmts, term));
        }
        let name = if me == 0 {
            "main".to_owned()
        } else {
            format!("f{me}")
        };
        let params = vec![NameId::new(0), NameId::new(1)];
        functions.push(Function::new(name, false, params, names, blocks));
    }
    module(functions)
}

/// `one-function`: one function of about `n` statements, a chain of loops of six blocks each
/// (a head that leaves or enters the body, a diamond in the body, the latch jumping back, and
/// the exit falling into the next loop), over 32 object names.
fn one_function(n: usize) -> Module {
    let mut rng = Rng::new(0x0B_1C ^ n as u64);
    let (mut names, ints, objs) = names(BIG_INTS, BIG_OBJS);
    // The loops' counter: read from the caller's object at each head, so both ways out of the
    // head are taken.
    names.push("k".to_owned());
    let k = NameId::new(names.len() - 1);
    let mut w = Writer {
        rng: &mut rng,
        ints,
        objs,
        a: NameId::new(0),
        b: NameId::new(1),
        callees: Vec::new(),
    };
    let mut bodies = vec![w.prologue()];
    let mut total = bodies[0].len();
    while total < n {
        for j in 0..6 {
            let mut body = Vec::new();
            if j == 0 {
                body.push(Stmt::Assign {
                    dest: k,
                    rhs: Rhs::Load(Operand::Name(w.b), INT_FIELDS[0]),
                });
            }
            body.extend(w.body());
            total += body.len();
            bodies.push(body);
        }
    }
    // bodies[0] is the entry; loop `l` is blocks 1+6l … 6+6l; the last block returns.
    bodies.push(Vec::new());
    let last = bodies.len() - 1;
    let mut blocks = Vec::with_capacity(bodies.len());
    for (b, stmts) in bodies.into_iter().enumerate() {
        let id = BlockId::new;
        let term = if b == last {
            Terminator::Return(Some(w.obj_op()))
        } else if b == 0 {
            Terminator::Goto(id(1))
        } else {
            let head = b - (b - 1) % 6;
            match (b - 1) % 6 {
                // The head: into the body, or out to the exit.
                0 => Terminator::Branch {
                    cond: Cond::Compare(Op::Lt, Operand::Name(k), Operand::Int(0)),
                    then_to: id(head + 1),
                    else_to: id(head + 5),
                },
                // The diamond.
                1 => Terminator::Branch {
                    cond: w.cond(),
                    then_to: id(head + 2),
                    else_to: id(head + 3),
                },
                2 | 3 => Terminator::Goto(id(head + 4)),
                // The latch.
                4 => Terminator::Goto(id(head)),
                // The exit, into the next loop's head (or the last block).
                _ => Terminator::Goto(id((head + 6).min(last))),
            }
        };
        blocks.push(block(b, stmts, term));
    }
    let params = vec![NameId::new(0), NameId::new(1)];
    module(vec![Function::new(
        "main".to_owned(),
        false,
        params,
        names,
        blocks,
    )])
}

type Generator = fn(usize) -> Module;

fn shapes() -> [(&'static str, Generator); 2] {
    [
        ("many-functions", many_functions),
        ("one-function", one_function),
    ]
}

/// What one solve of a module gave.
struct Measure {
    time: Duration,
    bytes: usize,
    loads: usize,
    forwarded: usize,
    sites: usize,
}

/// What one function's facts say, counted as they are read; the facts are then dropped.
#[derive(Clone, Copy, Default)]
struct Counts {
    loads: usize,
    forwarded: usize,
    sites: usize,
}

/// Solves every function callees first, as `solve_module` does, but reads each function's
/// facts as they are made and keeps only its summary and counts: what a compiler pass using the
/// facts one function at a time holds. (`solve_module` keeps every function's facts, about
/// 8 kB per statement more.)
fn solve_once(module: &Module, counter: &Counting) -> Measure {
    let base = counter.reset_peak();
    let start = Clock::start();
    let counts = callees_first(module.functions.len(), &|f, callees| {
        let function = module.functions.get(f.index())?;
        let facts = analyze_with::<Interval, _>(function, &callees, MAX_HEAPS, MAX_EXPOSED);
        let counts = Counts {
            loads: facts.loads.len(),
            forwarded: facts
                .loads
                .values()
                .filter(|l| l.forwarded.is_some())
                .count(),
            sites: facts.allocations.len(),
        };
        Some((counts, facts.summary))
    });
    let time = start.elapsed();
    let bytes = counter.peak().saturating_sub(base);
    let total = counts
        .iter()
        .flatten()
        .fold(Counts::default(), |a, c| Counts {
            loads: a.loads + c.loads,
            forwarded: a.forwarded + c.forwarded,
            sites: a.sites + c.sites,
        });
    Measure {
        time,
        bytes,
        loads: total.loads,
        forwarded: total.forwarded,
        sites: total.sites,
    }
}

fn human(bytes: f64) -> String {
    if bytes >= 1e9 {
        format!("{:.2} GB", bytes / 1e9)
    } else if bytes >= 1e6 {
        format!("{:.1} MB", bytes / 1e6)
    } else {
        format!("{:.1} kB", bytes / 1e3)
    }
}

/// The hidden subcommand `escape-size SHAPE N` the benchmark runs each size in, as a child
/// process, so that a size that takes too long or holds too much is stopped from outside (or
/// stops itself) rather than hanging the benchmark or the machine. Prints one line: statements,
/// functions, sites, runs, median nanoseconds, peak bytes, loads, forwarded loads.
pub fn one_size(shape: &str, n: usize, counter: &'static Counting) {
    let Some((_, generate)) = shapes().into_iter().find(|(name, _)| *name == shape) else {
        eprintln!("unknown shape `{shape}`");
        std::process::exit(2);
    };
    let module = generate(n);
    let stmts: usize = module.functions.iter().map(Function::stmt_count).sum();
    // A watchdog: past the byte budget the process stops itself (exit code 3).
    let base = counter.reset_peak();
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(Duration::from_millis(20));
            if counter.peak().saturating_sub(base) as f64 > BYTES_BUDGET {
                std::process::exit(3);
            }
        }
    });
    let first = solve_once(&module, counter);
    // More runs when a run is cheap: five under a second, three under five seconds.
    let runs = match first.time.as_secs_f64() {
        t if t < 1.0 => 5,
        t if t < 5.0 => 3,
        _ => 1,
    };
    let mut times = vec![first.time];
    for _ in 1..runs {
        times.push(solve_once(&module, counter).time);
    }
    times.sort();
    println!(
        "{stmts} {} {} {runs} {} {} {} {}",
        module.functions.len(),
        first.sites,
        times[times.len() / 2].as_nanos(),
        first.bytes,
        first.loads,
        first.forwarded
    );
}

/// What a child measured, or why it did not.
enum Outcome {
    Done {
        stmts: usize,
        funcs: usize,
        sites: usize,
        runs: usize,
        time: Duration,
        bytes: usize,
        loads: usize,
        forwarded: usize,
    },
    Failed(String),
}

/// Runs `escape-size shape n` in a child process, stopped after [`TIME_BUDGET`].
fn in_child(shape: &str, n: usize) -> Outcome {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return Outcome::Failed(format!("cannot find the bench binary: {e}")),
    };
    let mut child = match std::process::Command::new(exe)
        .args(["escape-size", shape, &n.to_string()])
        .stdout(std::process::Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => return Outcome::Failed(format!("cannot start: {e}")),
    };
    let started = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > TIME_BUDGET => {
                // Our own child, by its handle.
                let _ = child.kill();
                let _ = child.wait();
                return Outcome::Failed(format!(
                    "stopped after {} s (all runs of one size must fit in the budget)",
                    TIME_BUDGET.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Outcome::Failed(format!("cannot wait: {e}")),
        }
    };
    if status.code() == Some(3) {
        return Outcome::Failed(format!(
            "stopped: the analysis held more than {}",
            human(BYTES_BUDGET)
        ));
    }
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        let _ = std::io::Read::read_to_string(&mut stdout, &mut out);
    }
    let fields: Vec<u128> = out
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    match fields[..] {
        [stmts, funcs, sites, runs, nanos, bytes, loads, forwarded] if status.success() => {
            Outcome::Done {
                stmts: stmts as usize,
                funcs: funcs as usize,
                sites: sites as usize,
                runs: runs as usize,
                time: Duration::from_nanos(nanos as u64),
                bytes: bytes as usize,
                loads: loads as usize,
                forwarded: forwarded as usize,
            }
        }
        _ => Outcome::Failed(format!("the child failed ({status})")),
    }
}

/// Runs the benchmark for sizes 10³ to 10^`max_exp`, on every shape or `only` one; each size
/// in a child process.
pub fn run(max_exp: u32, only: Option<&str>) {
    println!(
        "escape analysis (intervals, {MAX_HEAPS} heaps per point); time: median of the runs, {}",
        if Clock::is_cpu_time() {
            "CPU time of the thread"
        } else {
            "wall clock"
        }
    );
    println!(
        "{:<15} {:>8} {:>6} {:>7} {:>5} {:>11} {:>11} {:>10} {:>8} {:>9} {:>7}",
        "shape",
        "stmts",
        "funcs",
        "sites",
        "runs",
        "time (ms)",
        "stmts/s",
        "peak",
        "loads",
        "forwarded",
        "growth"
    );
    for (shape, _) in shapes() {
        if only.is_some_and(|only| only != shape) {
            continue;
        }
        let mut previous: Option<(Duration, usize, f64)> = None;
        for exp in 3..=max_exp.max(3) {
            let n = 10usize.pow(exp);
            if let Some((time, bytes, growth)) = previous {
                // Predict from the last tenfold step (at least linear growth).
                let factor = growth.max(10.0);
                let time = time.as_secs_f64() * factor;
                let bytes = bytes as f64 * factor;
                if time > TIME_BUDGET.as_secs_f64() || bytes > BYTES_BUDGET {
                    println!(
                        "{shape:<15} {n:>8} skipped: the last tenfold step predicts {time:.0} s \
                         and {} (budget {} s, {})",
                        human(bytes),
                        TIME_BUDGET.as_secs(),
                        human(BYTES_BUDGET)
                    );
                    break;
                }
            }
            let (stmts, funcs, sites, runs, time, bytes, loads, forwarded) =
                match in_child(shape, n) {
                    Outcome::Done {
                        stmts,
                        funcs,
                        sites,
                        runs,
                        time,
                        bytes,
                        loads,
                        forwarded,
                    } => (stmts, funcs, sites, runs, time, bytes, loads, forwarded),
                    Outcome::Failed(why) => {
                        println!("{shape:<15} {n:>8} {why}");
                        break;
                    }
                };
            let growth = previous.map(|(p, _, _)| time.as_secs_f64() / p.as_secs_f64().max(1e-9));
            println!(
                "{shape:<15} {stmts:>8} {funcs:>6} {sites:>7} {runs:>5} {:>11.1} {:>11.0} {:>10} \
                 {loads:>8} {forwarded:>9} {:>7}",
                time.as_secs_f64() * 1e3,
                stmts as f64 / time.as_secs_f64().max(1e-9),
                human(bytes as f64),
                growth.map_or_else(|| "-".to_owned(), |g| format!("{g:.1}x")),
            );
            previous = Some((time, bytes, growth.unwrap_or(10.0)));
        }
    }
    println!(
        "growth: time at this size over time at the size ten times smaller (10.0x: linear); \
         peak: bytes held from the start of the solve to its result"
    );
}
