//! Random modules of several functions: direct calls, recursion, closures applied directly and
//! through higher-order functions, and tagged blocks.
//!
//! Programs are typed by construction so that most runs compute rather than trap: integer names
//! only meet arithmetic, closure names only `apply`, block names only `a[i]`, `tag` and
//! `isblock`. Every function but `main` takes a `fuel` argument first, returns a literal when it
//! is not positive, and passes `fuel - 1` to every call it makes, so recursion always ends (loops
//! may still run into the interpreter's step budget).

use absinthe::program::{BlockId, Cond, FuncId, NameId, Op, Operand, Rhs, Stmt, Terminator};

use super::rng::{COMPARISONS, Rng};
use crate::function::{Block, Function, Module};

/// Parameters of [`random_module`].
#[derive(Clone, Debug)]
pub struct ModuleConfig {
    /// Functions besides `main` that take an integer (at least 1).
    pub int_functions: usize,
    /// Higher-order functions besides `main`, which take a closure.
    pub higher_order: usize,
    /// Blocks of each function body after its fuel test (at least 1).
    pub blocks: usize,
    /// Most statements in one block.
    pub max_stmts: usize,
    /// The largest fuel `main` passes.
    pub max_fuel: i64,
    /// Percentage of jumps that may go backwards.
    pub back_percent: u32,
    /// Whether closures are also made from function slots: `k = closure self` in a function
    /// that captures values, and `k = closure g of k` (a sibling sharing `k`'s captured
    /// values; it traps when the capture counts differ). Off by default, which keeps the
    /// modules every other seed gives.
    pub function_slots: bool,
}

impl Default for ModuleConfig {
    fn default() -> ModuleConfig {
        ModuleConfig {
            int_functions: 3,
            higher_order: 1,
            blocks: 4,
            max_stmts: 4,
            max_fuel: 3,
            back_percent: 10,
            function_slots: false,
        }
    }
}

/// Integer locals of every function.
const INTS: usize = 3;
/// Block tags used (each block has two fields).
const TAGS: u32 = 3;

/// The shape of one function, decided before any body is written.
#[derive(Clone, Copy)]
struct Sig {
    /// Takes a closure (of an integer function) rather than an integer.
    higher_order: bool,
    captures: usize,
}

/// The names of one function being written.
struct Names {
    /// `fuel` (absent in main), the argument, captures, integers, `k`, `b`, `fm1`.
    list: Vec<String>,
    ints: Vec<NameId>,
    /// The integer locals, the only names statements assign besides `k` and `b`.
    locals: Vec<NameId>,
    /// The closure argument of a higher-order function.
    closure_arg: Option<NameId>,
    closure: NameId,
    block: NameId,
    fuel_minus_one: Option<NameId>,
}

/// A random module: `main` with one or two integer parameters, `int_functions` functions
/// `(fuel, x)` over integers (all but the first capturing zero to two integers, and so called
/// only through closures), and `higher_order` functions
/// `(fuel, g)` that apply a closure `g`. Deterministic in `seed`; canonical.
pub fn random_module(seed: u64, config: &ModuleConfig) -> Module {
    let mut rng = Rng::new(seed);
    let n_int = config.int_functions.max(1);
    let mut sigs = vec![Sig {
        higher_order: false,
        captures: 0,
    }];
    for i in 0..n_int {
        // The first integer function captures nothing, so that it can be called directly.
        let captures = if i == 0 { 0 } else { rng.below(3) };
        sigs.push(Sig {
            higher_order: false,
            captures,
        });
    }
    for _ in 0..config.higher_order {
        sigs.push(Sig {
            higher_order: true,
            captures: 0,
        });
    }
    let int_funcs: Vec<FuncId> = (1..=n_int).map(FuncId::new).collect();
    let functions = (0..sigs.len())
        .map(|f| {
            let mut w = Writer {
                rng: &mut rng,
                config,
                sigs: &sigs,
                int_funcs: &int_funcs,
                me: f,
            };
            w.function()
        })
        .collect();
    let mut module = Module {
        functions,
        fields: Vec::new(),
        symbols: Vec::new(),
    };
    module.canonicalize();
    module
}

struct Writer<'a> {
    rng: &'a mut Rng,
    config: &'a ModuleConfig,
    sigs: &'a [Sig],
    int_funcs: &'a [FuncId],
    me: usize,
}

impl Writer<'_> {
    fn function(&mut self) -> Function {
        let sig = self.sigs[self.me];
        let main = self.me == 0;
        let mut list: Vec<String> = Vec::new();
        let mut params = Vec::new();
        let push = |list: &mut Vec<String>, name: String| {
            list.push(name);
            NameId::new(list.len() - 1)
        };
        let fuel = (!main).then(|| push(&mut list, "fuel".to_owned()));
        let mut ints = Vec::new();
        let mut closure_arg = None;
        if main {
            for i in 0..1 + self.rng.below(2) {
                let p = push(&mut list, format!("p{i}"));
                params.push(p);
                ints.push(p);
            }
        } else {
            params.push(fuel.unwrap_or(NameId(0)));
            let arg = push(
                &mut list,
                if sig.higher_order { "g" } else { "x" }.to_owned(),
            );
            params.push(arg);
            if sig.higher_order {
                closure_arg = Some(arg);
            } else {
                ints.push(arg);
            }
        }
        let mut captures = Vec::new();
        for i in 0..sig.captures {
            let c = push(&mut list, format!("c{i}"));
            captures.push(c);
            ints.push(c);
        }
        let locals: Vec<NameId> = (0..INTS)
            .map(|i| push(&mut list, format!("v{i}")))
            .collect();
        ints.extend(&locals);
        let closure = push(&mut list, "k".to_owned());
        let block = push(&mut list, "b".to_owned());
        let fuel_minus_one = fuel.map(|_| push(&mut list, "fm1".to_owned()));
        if let Some(f) = fuel {
            ints.push(f);
        }
        let names = Names {
            list,
            ints,
            locals: locals.clone(),
            closure_arg,
            closure,
            block,
            fuel_minus_one,
        };

        // bb0: initialise the locals, then (not in main) test the fuel.
        let mut entry = Vec::new();
        for &v in &locals {
            entry.push(assign(v, Rhs::Use(Operand::Int(self.small()))));
        }
        let target = self.rng.pick(self.int_funcs, FuncId(1));
        entry.push(assign(names.closure, self.closure_of(target, &names)));
        entry.push(assign(names.block, self.block(&names)));
        let mut blocks = Vec::new();
        let body_start = if main { 1 } else { 2 };
        let n_body = self.config.blocks.max(1);
        let entry_term = match (fuel, names.fuel_minus_one) {
            (Some(f), Some(fm1)) => {
                entry.push(assign(
                    fm1,
                    Rhs::Binary(Op::Sub, Operand::Name(f), Operand::Int(1)),
                ));
                Terminator::Branch {
                    cond: Cond::Compare(Op::Le, Operand::Name(f), Operand::Int(0)),
                    then_to: BlockId(1),
                    else_to: BlockId(2),
                }
            }
            _ => Terminator::Goto(BlockId(1)),
        };
        blocks.push(block_of(0, entry, entry_term));
        if !main {
            let value = self.int_operand(&names);
            blocks.push(block_of(1, Vec::new(), Terminator::Return(Some(value))));
        }
        for i in 0..n_body {
            let b = body_start + i;
            let stmts = (0..self.rng.below(self.config.max_stmts + 1))
                .map(|_| self.stmt(&names))
                .collect();
            let last = i + 1 == n_body;
            let term = if last {
                Terminator::Return(Some(self.int_operand(&names)))
            } else {
                self.terminator(&names, b, body_start, body_start + n_body)
            };
            blocks.push(block_of(b, stmts, term));
        }
        let name = if main {
            "main".to_owned()
        } else if sig.higher_order {
            format!("h{}", self.me)
        } else {
            format!("f{}", self.me)
        };
        let mut function = Function::new(name, false, params, names.list, blocks);
        function.captures = captures;
        function
    }

    fn small(&mut self) -> i64 {
        self.rng.below(11) as i64 - 3
    }

    fn int_operand(&mut self, names: &Names) -> Operand {
        if self.rng.percent(70) {
            Operand::Name(self.rng.pick(&names.ints, NameId(0)))
        } else {
            Operand::Int(self.small())
        }
    }

    /// The fuel a call passes: `fuel - 1`, or in main a small literal.
    fn fuel(&mut self, names: &Names) -> Operand {
        match names.fuel_minus_one {
            Some(fm1) => Operand::Name(fm1),
            None => Operand::Int(self.rng.below(self.config.max_fuel.max(0) as usize + 1) as i64),
        }
    }

    fn closure_of(&mut self, f: FuncId, names: &Names) -> Rhs {
        let captured = (0..self.sigs[f.index()].captures)
            .map(|_| self.int_operand(names))
            .collect();
        Rhs::Closure(f, captured)
    }

    fn block(&mut self, names: &Names) -> Rhs {
        let tag = self.rng.below(TAGS as usize) as u32;
        Rhs::Block(
            tag,
            Box::new([self.int_operand(names), self.int_operand(names)]),
        )
    }

    fn stmt(&mut self, names: &Names) -> Stmt {
        // Parameters and captures are never reassigned: statements define locals.
        let local = |w: &mut Writer<'_>| w.rng.pick(&names.locals, NameId(0));
        match self.rng.below(16) {
            0..=4 => {
                const OPS: [Op; 9] = [
                    Op::Add,
                    Op::Sub,
                    Op::Mul,
                    Op::Add,
                    Op::Sub,
                    Op::Lt,
                    Op::Eq,
                    Op::Div,
                    Op::Rem,
                ];
                let op = self.rng.pick(&OPS, Op::Add);
                let a = self.int_operand(names);
                let b = self.int_operand(names);
                assign(local(self), Rhs::Binary(op, a, b))
            }
            5 | 6 => {
                // A direct call: only functions without captures can be called so.
                let direct: Vec<FuncId> = self
                    .int_funcs
                    .iter()
                    .copied()
                    .filter(|f| self.sigs[f.index()].captures == 0)
                    .collect();
                let f = self.rng.pick(&direct, FuncId(1));
                let fuel = self.fuel(names);
                let x = self.int_operand(names);
                assign(local(self), Rhs::Call(f, Box::new([fuel, x])))
            }
            7 => {
                // A higher-order function, if any, called with this function's closure.
                let higher: Vec<FuncId> = (0..self.sigs.len())
                    .filter(|&f| self.sigs[f].higher_order)
                    .map(FuncId::new)
                    .collect();
                match higher.first() {
                    Some(_) => {
                        let h = self.rng.pick(&higher, higher[0]);
                        let fuel = self.fuel(names);
                        assign(
                            local(self),
                            Rhs::Call(h, Box::new([fuel, Operand::Name(names.closure)])),
                        )
                    }
                    None => assign(local(self), Rhs::Use(Operand::Int(self.small()))),
                }
            }
            8 if self.config.function_slots && self.rng.percent(50) => {
                let mine = self.sigs[self.me].captures;
                if mine > 0 && self.rng.percent(40) {
                    return assign(names.closure, Rhs::MyClosure);
                }
                // A sibling with as many captures as this function has (so that one made from
                // `closure self` never traps), or any.
                let same: Vec<FuncId> = self
                    .int_funcs
                    .iter()
                    .copied()
                    .filter(|f| mine == 0 || self.sigs[f.index()].captures == mine)
                    .collect();
                let g = self.rng.pick(&same, FuncId(1));
                assign(names.closure, Rhs::Sibling(Operand::Name(names.closure), g))
            }
            8 => {
                let f = self.rng.pick(self.int_funcs, FuncId(1));
                assign(names.closure, self.closure_of(f, names))
            }
            9 | 10 => {
                // Apply this function's closure, or in a higher-order function its argument.
                let callee = match names.closure_arg {
                    Some(g) if self.rng.percent(60) => g,
                    _ => names.closure,
                };
                let fuel = self.fuel(names);
                let x = self.int_operand(names);
                assign(
                    local(self),
                    Rhs::Apply(Operand::Name(callee), Box::new([fuel, x])),
                )
            }
            11 => assign(names.block, self.block(names)),
            12 => {
                let i = self.rng.below(2) as u32;
                assign(local(self), Rhs::Field(Operand::Name(names.block), i))
            }
            13 => assign(local(self), Rhs::Tag(Operand::Name(names.block))),
            14 => {
                let what = if self.rng.percent(50) {
                    Operand::Name(names.block)
                } else {
                    self.int_operand(names)
                };
                assign(local(self), Rhs::IsBlock(what))
            }
            _ => {
                let a = self.int_operand(names);
                assign(local(self), Rhs::Use(a))
            }
        }
    }

    fn terminator(&mut self, names: &Names, b: usize, first: usize, end: usize) -> Terminator {
        let target = |w: &mut Writer<'_>| {
            if b + 1 >= end || w.rng.percent(w.config.back_percent) {
                BlockId::new(first + w.rng.below(end - first))
            } else {
                BlockId::new(b + 1 + w.rng.below(end - b - 1))
            }
        };
        match self.rng.below(10) {
            0..=3 => Terminator::Goto(target(self)),
            4..=7 => {
                let op = self.rng.pick(&COMPARISONS, Op::Lt);
                let cond = Cond::Compare(op, self.int_operand(names), self.int_operand(names));
                Terminator::Branch {
                    cond,
                    then_to: target(self),
                    else_to: target(self),
                }
            }
            8 => {
                // A switch on a block's tag, through an integer local.
                let cases = (0..TAGS as i64).map(|t| (t, target(self))).collect();
                Terminator::Switch {
                    on: self.int_operand(names),
                    cases,
                    default: target(self),
                }
            }
            _ => Terminator::Return(Some(self.int_operand(names))),
        }
    }
}

fn assign(dest: NameId, rhs: Rhs) -> Stmt {
    Stmt::Assign { dest, rhs }
}

fn block_of(b: usize, stmts: Vec<Stmt>, term: Terminator) -> Block {
    Block {
        label: format!("bb{b}"),
        phis: Vec::new(),
        stmts,
        term,
    }
}
