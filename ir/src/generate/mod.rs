//! Deterministic program generators for tests and benchmarks: random toy programs, random core
//! IR functions, random modules with calls, closures and blocks ([`random_module`]), and large
//! core IR programs of fixed shapes.
//!
//! Everything is driven by [`Rng`], a small SplitMix64 generator, so a seed always gives the same
//! program on every platform. Generated modules are canonical: printing and parsing them gives
//! them back unchanged.

use absinthe::program::{
    BlockId, Cond, FieldId, FuncId, NameId, Op, Operand, Rhs, Stmt, SymbolId, Terminator,
};

use crate::function::{Block, Function, Module};
use crate::toy::{Instr, ToyExpr, ToyProgram};

mod heap;
mod modules;
mod rng;

pub use heap::{HeapGenConfig, random_heap_module};
pub use modules::{ModuleConfig, random_module};
use rng::COMPARISONS;
pub use rng::Rng;

/// Spellings used for generated names before falling back to `vN`.
const NAME_POOL: [&str; 12] = ["x", "y", "z", "r", "a", "b", "c", "d", "i", "j", "k", "n"];

fn pool_name(i: usize) -> String {
    NAME_POOL
        .get(i)
        .map_or_else(|| format!("v{i}"), |s| (*s).to_string())
}

/// Parameters of [`random_toy`].
#[derive(Clone, Debug)]
pub struct ToyGenConfig {
    /// Number of instructions.
    pub instrs: usize,
    /// Number of distinct names (at least 1 is used).
    pub names: usize,
    /// Percentage of instructions that are jumps (half unconditional, half conditional).
    pub jump_percent: u32,
    /// Whether the program starts by assigning a literal to every name, so that fewer runs stop
    /// at a read of an unassigned name.
    pub init_names: bool,
}

impl Default for ToyGenConfig {
    fn default() -> ToyGenConfig {
        ToyGenConfig {
            instrs: 12,
            names: 4,
            jump_percent: 25,
            init_names: true,
        }
    }
}

/// The operators the toy text format admits.
const TOY_OPS: [Op; 9] = [
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::Lt,
    Op::Le,
    Op::Gt,
    Op::Ge,
    Op::Eq,
    Op::Ne,
];

/// A random toy program: assignments of literals, names and binary operations, and forward and
/// backward jumps (targets in `0..=instrs`), so loops and unreachable code occur.
pub fn random_toy(seed: u64, config: &ToyGenConfig) -> ToyProgram {
    let mut rng = Rng::new(seed);
    let n = config.instrs;
    let names = config.names.max(1);
    let operand = |rng: &mut Rng| {
        if rng.percent(60) {
            Operand::Name(NameId::new(rng.below(names)))
        } else {
            Operand::Int(rng.literal())
        }
    };
    let mut instrs = Vec::with_capacity(n);
    for pc in 0..n {
        if config.init_names && pc < names {
            instrs.push(Instr::Assign {
                dest: NameId::new(pc),
                rhs: ToyExpr::Use(Operand::Int(rng.literal())),
            });
            continue;
        }
        let roll = rng.below(100) as u32;
        let target = rng.below(n + 1);
        let instr = if roll < config.jump_percent / 2 {
            Instr::Goto(target)
        } else if roll < config.jump_percent {
            let cond = if rng.percent(80) {
                Cond::Compare(
                    rng.pick(&COMPARISONS, Op::Lt),
                    operand(&mut rng),
                    operand(&mut rng),
                )
            } else {
                Cond::NonZero(operand(&mut rng))
            };
            Instr::CondGoto { cond, target }
        } else {
            let dest = NameId::new(rng.below(names));
            let rhs = if rng.percent(40) {
                ToyExpr::Use(operand(&mut rng))
            } else {
                ToyExpr::Binary(
                    rng.pick(&TOY_OPS, Op::Add),
                    operand(&mut rng),
                    operand(&mut rng),
                )
            };
            Instr::Assign { dest, rhs }
        };
        instrs.push(instr);
    }
    let mut prog = ToyProgram {
        instrs,
        names: (0..names).map(pool_name).collect(),
    };
    prog.canonicalize();
    prog
}

/// Parameters of [`random_function`].
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Number of blocks (at least 1).
    pub blocks: usize,
    /// Most statements in one block.
    pub max_stmts: usize,
    /// Number of local names besides the parameters (at least 1).
    pub names: usize,
    /// Number of distinct fields.
    pub fields: usize,
    /// Most parameters (the count is random in `0..=max_params`).
    pub max_params: usize,
    /// Percentage of jumps that may go backwards (any block); the others go forwards.
    pub back_percent: u32,
    /// Whether the entry block starts by assigning a literal to every local name.
    pub init_names: bool,
    /// Number of symbols whose address the function may take (`addr @g0`, …); 0 takes none,
    /// and reads no constant table (`table [..] i`) either.
    pub symbols: usize,
}

impl Default for GenConfig {
    fn default() -> GenConfig {
        GenConfig {
            blocks: 8,
            max_stmts: 5,
            names: 5,
            fields: 2,
            max_params: 3,
            back_percent: 25,
            init_names: true,
            symbols: 0,
        }
    }
}

/// A random valid module with one non-SSA function `main` of 0 to `max_params` parameters:
/// arithmetic that overflows and divides (by zero too), copies, heap objects with loads and
/// stores, branches on comparisons and on non-zero, switches, loops, returns, throws.
pub fn random_function(seed: u64, config: &GenConfig) -> Module {
    let mut rng = Rng::new(seed);
    let n_blocks = config.blocks.max(1);
    let n_params = rng.below(config.max_params + 1);
    let n_locals = config.names.max(1);
    let total = n_params + n_locals;
    let n_fields = config.fields.max(1);
    let mut names: Vec<String> = (0..n_params).map(|i| format!("p{i}")).collect();
    names.extend((0..n_locals).map(pool_name));
    let name = |rng: &mut Rng| NameId::new(rng.below(total));
    let local = |rng: &mut Rng| NameId::new(n_params + rng.below(n_locals));
    let operand = |rng: &mut Rng| {
        if rng.percent(65) {
            Operand::Name(name(rng))
        } else {
            Operand::Int(rng.literal())
        }
    };
    let target = |rng: &mut Rng, from: usize| {
        if from + 1 >= n_blocks || rng.percent(config.back_percent) {
            BlockId::new(rng.below(n_blocks))
        } else {
            BlockId::new(from + 1 + rng.below(n_blocks - from - 1))
        }
    };

    let mut blocks = Vec::with_capacity(n_blocks);
    for b in 0..n_blocks {
        let mut stmts = Vec::new();
        if b == 0 && config.init_names {
            for i in 0..n_locals {
                stmts.push(Stmt::Assign {
                    dest: NameId::new(n_params + i),
                    rhs: Rhs::Use(Operand::Int(rng.literal())),
                });
            }
        }
        for _ in 0..rng.below(config.max_stmts + 1) {
            let field = FieldId::new(rng.below(n_fields));
            let stmt = match rng.below(12) {
                0..=4 => Stmt::Assign {
                    dest: local(&mut rng),
                    rhs: Rhs::Binary(
                        rng.pick(&Op::ALL, Op::Add),
                        operand(&mut rng),
                        operand(&mut rng),
                    ),
                },
                5 | 6 if config.symbols > 0 && rng.percent(50) => Stmt::Assign {
                    dest: local(&mut rng),
                    rhs: if rng.percent(50) {
                        Rhs::Address(SymbolId::new(rng.below(config.symbols)))
                    } else {
                        let entries: Vec<i64> =
                            (0..1 + rng.below(5)).map(|_| rng.literal()).collect();
                        Rhs::Table(entries.into(), operand(&mut rng))
                    },
                },
                5 | 6 => Stmt::Assign {
                    dest: local(&mut rng),
                    rhs: Rhs::Use(operand(&mut rng)),
                },
                7 | 8 => Stmt::Assign {
                    dest: local(&mut rng),
                    rhs: Rhs::New,
                },
                9 | 10 => Stmt::Store {
                    object: Operand::Name(name(&mut rng)),
                    field,
                    value: operand(&mut rng),
                },
                _ => Stmt::Assign {
                    dest: local(&mut rng),
                    rhs: Rhs::Load(Operand::Name(name(&mut rng)), field),
                },
            };
            stmts.push(stmt);
        }
        let term = if b + 1 == n_blocks {
            Terminator::Return(Some(operand(&mut rng)))
        } else {
            match rng.below(20) {
                0..=5 => Terminator::Goto(target(&mut rng, b)),
                6..=12 => {
                    let cond = if rng.percent(70) {
                        Cond::Compare(
                            rng.pick(&COMPARISONS, Op::Lt),
                            operand(&mut rng),
                            operand(&mut rng),
                        )
                    } else {
                        Cond::NonZero(operand(&mut rng))
                    };
                    Terminator::Branch {
                        cond,
                        then_to: target(&mut rng, b),
                        else_to: target(&mut rng, b),
                    }
                }
                13..=15 => {
                    let cases = (0..1 + rng.below(3))
                        .map(|_| (rng.below(5) as i64 - 1, target(&mut rng, b)))
                        .collect();
                    Terminator::Switch {
                        on: operand(&mut rng),
                        cases,
                        default: target(&mut rng, b),
                    }
                }
                16 | 17 => Terminator::Return(if rng.percent(80) {
                    Some(operand(&mut rng))
                } else {
                    None
                }),
                18 => Terminator::Throw(Some(operand(&mut rng))),
                _ => Terminator::Unreachable,
            }
        };
        blocks.push(Block {
            label: format!("bb{b}"),
            phis: Vec::new(),
            stmts,
            term,
        });
    }
    let params = (0..n_params).map(NameId::new).collect();
    let func = Function::new("main".to_string(), false, params, names, blocks);
    let mut module = Module {
        functions: vec![func],
        fields: (0..n_fields).map(|i| format!("f{i}")).collect(),
        symbols: (0..config.symbols).map(|i| format!("g{i}")).collect(),
    };
    module.canonicalize();
    module
}

/// Builds the big benchmark shapes block by block.
struct Shape {
    blocks: Vec<Block>,
    names: usize,
    rng: Rng,
    /// The name the next local statement defines (the wide shapes assign names in rotation).
    next_dest: usize,
}

/// Statements per block when a long run of statements is split.
const CHUNK: usize = 24;
/// Names the loop and diamond shapes compute with.
const SHAPE_NAMES: usize = 8;
/// Iterations of each loop of [`nested_loops`].
const TRIP_COUNT: i64 = 5;
/// How far back the statements of the wide shapes read.
const WINDOW: usize = 16;

impl Shape {
    fn new(names: usize) -> Shape {
        let mut shape = Shape {
            blocks: Vec::new(),
            names: names.max(1),
            rng: Rng::new(0x5eed),
            next_dest: 0,
        };
        let entry = shape.block();
        for i in 0..shape.names {
            shape.blocks[entry.index()].stmts.push(Stmt::Assign {
                dest: NameId::new(i),
                rhs: Rhs::Use(Operand::Int(i as i64 + 1)),
            });
        }
        shape
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

    fn set_term(&mut self, b: BlockId, term: Terminator) {
        if let Some(block) = self.blocks.get_mut(b.index()) {
            block.term = term;
        }
    }

    fn push(&mut self, b: BlockId, stmt: Stmt) {
        if let Some(block) = self.blocks.get_mut(b.index()) {
            block.stmts.push(stmt);
        }
    }

    /// One arithmetic statement over the shape's names (never traps).
    fn arith(&mut self) -> Stmt {
        const OPS: [Op; 6] = [Op::Add, Op::Sub, Op::Mul, Op::Xor, Op::And, Op::Or];
        let dest = NameId::new(self.rng.below(self.names));
        let a = Operand::Name(NameId::new(self.rng.below(self.names)));
        let b = if self.rng.percent(50) {
            Operand::Name(NameId::new(self.rng.below(self.names)))
        } else {
            Operand::Int(self.rng.below(100) as i64)
        };
        Stmt::Assign {
            dest,
            rhs: Rhs::Binary(self.rng.pick(&OPS, Op::Add), a, b),
        }
    }

    /// A name defined by one of the last [`WINDOW`] local statements.
    fn recent(&mut self) -> Operand {
        let back = 1 + self.rng.below(WINDOW);
        Operand::Name(NameId::new(
            (self.next_dest + self.names * WINDOW - back) % self.names,
        ))
    }

    /// One arithmetic statement with locality, as compiled code has it: it defines the next name
    /// in rotation and reads names defined shortly before (one read in 32 goes anywhere).
    fn local_arith(&mut self) -> Stmt {
        const OPS: [Op; 6] = [Op::Add, Op::Sub, Op::Mul, Op::Xor, Op::And, Op::Or];
        let a = if self.rng.percent(3) {
            Operand::Name(NameId::new(self.rng.below(self.names)))
        } else {
            self.recent()
        };
        let b = if self.rng.percent(50) {
            Operand::Int(self.rng.below(100) as i64)
        } else {
            self.recent()
        };
        let dest = NameId::new(self.next_dest);
        self.next_dest = (self.next_dest + 1) % self.names;
        Stmt::Assign {
            dest,
            rhs: Rhs::Binary(self.rng.pick(&OPS, Op::Add), a, b),
        }
    }

    /// Appends `count` statements (local ones when `local`) starting in `b`, chaining new blocks
    /// every [`CHUNK`] statements; gives the last block, still to be terminated.
    fn fill_with(&mut self, mut b: BlockId, count: usize, local: bool) -> BlockId {
        for i in 0..count {
            if i > 0 && i % CHUNK == 0 {
                let next = self.block();
                self.set_term(b, Terminator::Goto(next));
                b = next;
            }
            let stmt = if local {
                self.local_arith()
            } else {
                self.arith()
            };
            self.push(b, stmt);
        }
        b
    }

    fn finish(self, names: Vec<String>) -> Module {
        let func = Function::new("main".to_string(), false, Vec::new(), names, self.blocks);
        let mut module = Module {
            functions: vec![func],
            fields: Vec::new(),
            symbols: Vec::new(),
        };
        module.canonicalize();
        module
    }
}

fn shape_names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("v{i}")).collect()
}

/// One block of `n_stmts` arithmetic statements over `n_names` names (the first `n_names`
/// statements initialise them), then `ret v0`.
pub fn straight_line(n_stmts: usize, n_names: usize) -> Module {
    let mut shape = Shape::new(n_names);
    let names = shape.names;
    let rest = n_stmts.saturating_sub(names);
    let entry = BlockId(0);
    shape.blocks[0].stmts.reserve(rest);
    for _ in 0..rest {
        let stmt = shape.arith();
        shape.push(entry, stmt);
    }
    shape.set_term(entry, Terminator::Return(Some(Operand::Name(NameId(0)))));
    shape.finish(shape_names(names))
}

/// A chain of blocks of 24 statements, `n_stmts` in all, over `n_names` names (the first
/// `n_names` statements initialise them): straight-line code with many names. Statements assign
/// the names in rotation and read names assigned shortly before, as compiled code does.
pub fn wide_straight_line(n_stmts: usize, n_names: usize) -> Module {
    let mut shape = Shape::new(n_names);
    let names = shape.names;
    let end = shape.fill_with(BlockId(0), n_stmts.saturating_sub(names), true);
    shape.set_term(end, Terminator::Return(Some(Operand::Name(NameId(0)))));
    shape.finish(shape_names(names))
}

/// [`nested_loops`] over `n_names` names, with the statements of [`wide_straight_line`].
pub fn wide_nested_loops(n_stmts: usize, depth: usize, n_names: usize) -> Module {
    loops(n_stmts, depth, n_names.max(1), true)
}

/// [`diamonds`] over `n_names` names, with the statements of [`wide_straight_line`]: each arm and
/// each join assigns three names, and the condition compares two recently assigned names.
pub fn wide_diamonds(n_stmts: usize, n_names: usize) -> Module {
    branches(n_stmts, n_names.max(1), true)
}

/// `depth` nested counting loops (each runs 5 times) with about `n_stmts` arithmetic statements
/// spread over the loop bodies in blocks of at most 24 statements.
pub fn nested_loops(n_stmts: usize, depth: usize) -> Module {
    loops(n_stmts, depth, SHAPE_NAMES, false)
}

fn loops(n_stmts: usize, depth: usize, n_names: usize, local: bool) -> Module {
    let depth = depth.max(1);
    let mut shape = Shape::new(n_names);
    let counter = |level: usize| NameId::new(n_names + level);
    let per_level = n_stmts / depth;
    let mut current = BlockId(0);
    let mut heads = Vec::with_capacity(depth);
    let mut exits = Vec::with_capacity(depth);
    for level in 0..depth {
        shape.push(
            current,
            Stmt::Assign {
                dest: counter(level),
                rhs: Rhs::Use(Operand::Int(0)),
            },
        );
        let head = shape.block();
        let body = shape.block();
        let exit = shape.block();
        shape.set_term(current, Terminator::Goto(head));
        shape.set_term(
            head,
            Terminator::Branch {
                cond: Cond::Compare(
                    Op::Lt,
                    Operand::Name(counter(level)),
                    Operand::Int(TRIP_COUNT),
                ),
                then_to: body,
                else_to: exit,
            },
        );
        let extra = if level + 1 == depth {
            n_stmts - per_level * depth
        } else {
            0
        };
        current = shape.fill_with(body, per_level + extra, local);
        heads.push(head);
        exits.push(exit);
    }
    // Close the loops from the inside out: each body end (or inner exit) is the latch.
    for level in (0..depth).rev() {
        shape.push(
            current,
            Stmt::Assign {
                dest: counter(level),
                rhs: Rhs::Binary(Op::Add, Operand::Name(counter(level)), Operand::Int(1)),
            },
        );
        shape.set_term(current, Terminator::Goto(heads[level]));
        current = exits[level];
    }
    shape.set_term(current, Terminator::Return(Some(Operand::Name(NameId(0)))));
    let mut names = shape_names(n_names);
    names.extend((0..depth).map(|l| format!("i{l}")));
    shape.finish(names)
}

/// A chain of if-then-else diamonds, each a condition block, two arms and a join, with about
/// `n_stmts` arithmetic statements overall (three per block).
pub fn diamonds(n_stmts: usize) -> Module {
    branches(n_stmts, SHAPE_NAMES, false)
}

fn branches(n_stmts: usize, n_names: usize, local: bool) -> Module {
    const PER_BLOCK: usize = 3;
    let mut shape = Shape::new(n_names);
    let mut current = BlockId(0);
    let mut emitted = n_names;
    while emitted < n_stmts {
        let (a, b) = if local {
            (shape.recent(), shape.recent())
        } else {
            (
                Operand::Name(NameId::new(shape.rng.below(n_names))),
                Operand::Name(NameId::new(shape.rng.below(n_names))),
            )
        };
        let then_to = shape.block();
        let else_to = shape.block();
        let join = shape.block();
        shape.set_term(
            current,
            Terminator::Branch {
                cond: Cond::Compare(Op::Lt, a, b),
                then_to,
                else_to,
            },
        );
        for arm in [then_to, else_to] {
            let end = shape.fill_with(arm, PER_BLOCK, local);
            shape.set_term(end, Terminator::Goto(join));
        }
        current = shape.fill_with(join, PER_BLOCK, local);
        emitted += 3 * PER_BLOCK;
    }
    shape.set_term(current, Terminator::Return(Some(Operand::Name(NameId(0)))));
    shape.finish(shape_names(n_names))
}

/// The callee id `main` has in generated modules.
pub const MAIN: FuncId = FuncId(0);
