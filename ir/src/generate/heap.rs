//! Random modules for heap analyses: functions that allocate objects, store into and load from
//! their fields, copy references around, call one another directly and through closures that
//! capture references, loop, branch, return and throw.
//!
//! Names are untyped (any name may hold an integer or a reference), so runs trap on a load from
//! an integer or an unset field as often as they finish; either way every point a run passes
//! before stopping is checked.

use absinthe::program::{
    BlockId, Cond, FieldId, FuncId, NameId, Op, Operand, Rhs, Stmt, Terminator,
};

use super::rng::{COMPARISONS, Rng};
use crate::function::{Block, Function, Module};

/// The shape of the modules [`random_heap_module`] writes.
#[derive(Clone, Debug)]
pub struct HeapGenConfig {
    /// Functions besides `main` (each takes two arguments; every other one also captures one
    /// value and is reached only through closures).
    pub functions: usize,
    /// Blocks per function (at least 1).
    pub blocks: usize,
    /// Most statements in one block.
    pub max_stmts: usize,
    /// Local names per function, half integers and half objects (at least 2).
    pub locals: usize,
    /// Percentage of jumps that may go backwards.
    pub back_percent: u32,
    /// Percentage of direct calls that may go to any function (recursion); the others go to a
    /// later function, so most runs finish.
    pub recursive_percent: u32,
}

impl Default for HeapGenConfig {
    fn default() -> HeapGenConfig {
        HeapGenConfig {
            functions: 4,
            blocks: 6,
            max_stmts: 5,
            locals: 5,
            back_percent: 15,
            recursive_percent: 5,
        }
    }
}

/// A random module: `main(p0, p1)` over integers and `f1 … fn`, each `(a, b)` with `a` an
/// integer and `b` an object; the even-numbered ones capture an object `c` and are made into
/// closures, which the other functions apply. Names are typed (integers `i…`, objects `o…`) so
/// that runs go far: every new object gets its fields at once (`f0`, `f1` integers, `f2` an
/// object), loads read integers from integer fields and objects from object fields, and
/// functions other than `main` return or throw objects.
pub fn random_heap_module(seed: u64, config: &HeapGenConfig) -> Module {
    let mut rng = Rng::new(seed);
    let n = config.functions + 1;
    let captures = |f: usize| f > 0 && f % 2 == 0;
    let fields: Vec<String> = vec!["f0".to_owned(), "f1".to_owned(), "f2".to_owned()];
    let (int_fields, obj_field) = ([FieldId(0), FieldId(1)], FieldId(2));
    let direct: Vec<FuncId> = (1..n).filter(|&f| !captures(f)).map(FuncId::new).collect();
    let closures: Vec<FuncId> = (1..n).filter(|&f| captures(f)).map(FuncId::new).collect();
    let mut functions = Vec::with_capacity(n);
    for me in 0..n {
        let mut names: Vec<String> = Vec::new();
        let mut push = |name: String| {
            names.push(name);
            NameId::new(names.len() - 1)
        };
        let (params, mut ints, mut objs) = if me == 0 {
            let (p0, p1) = (push("p0".to_owned()), push("p1".to_owned()));
            (vec![p0, p1], vec![p0, p1], Vec::new())
        } else {
            let (a, b) = (push("a".to_owned()), push("b".to_owned()));
            (vec![a, b], vec![a], vec![b])
        };
        let mut capture_list = Vec::new();
        if captures(me) {
            let c = push("c".to_owned());
            capture_list.push(c);
            objs.push(c);
        }
        let locals = config.locals.max(2);
        let int_locals: Vec<NameId> = (0..locals / 2).map(|i| push(format!("i{i}"))).collect();
        let obj_locals: Vec<NameId> = (0..locals - locals / 2)
            .map(|i| push(format!("o{i}")))
            .collect();
        let k = push("k".to_owned());
        ints.extend(&int_locals);
        objs.extend(&obj_locals);
        let int_operand = |rng: &mut Rng| {
            if rng.percent(70) {
                Operand::Name(rng.pick(&ints, ints[0]))
            } else {
                Operand::Int(rng.below(7) as i64 - 2)
            }
        };
        let obj = |rng: &mut Rng| rng.pick(&objs, objs[0]);
        let obj_local = |rng: &mut Rng| rng.pick(&obj_locals, obj_locals[0]);
        let int_local = |rng: &mut Rng| rng.pick(&int_locals, int_locals[0]);
        // A new object with every field set (`f2` to an object already made, or itself).
        let make = |rng: &mut Rng, dest: NameId, ready: &[NameId], stmts: &mut Vec<Stmt>| {
            stmts.push(Stmt::Assign {
                dest,
                rhs: Rhs::New,
            });
            for &f in &int_fields {
                stmts.push(Stmt::Store {
                    object: Operand::Name(dest),
                    field: f,
                    value: int_operand(rng),
                });
            }
            let inner = if ready.is_empty() || rng.percent(30) {
                dest
            } else {
                rng.pick(ready, dest)
            };
            stmts.push(Stmt::Store {
                object: Operand::Name(dest),
                field: obj_field,
                value: Operand::Name(inner),
            });
        };
        let callee = |rng: &mut Rng| -> Option<FuncId> {
            let later: Vec<FuncId> = direct.iter().copied().filter(|f| f.index() > me).collect();
            if !later.is_empty() && !rng.percent(config.recursive_percent) {
                Some(rng.pick(&later, later[0]))
            } else if rng.percent(config.recursive_percent) {
                direct.first().map(|&d| rng.pick(&direct, d))
            } else {
                None
            }
        };
        let n_blocks = config.blocks.max(1);
        let mut blocks = Vec::with_capacity(n_blocks);
        for b in 0..n_blocks {
            let mut stmts = Vec::new();
            if b == 0 {
                for &i in &int_locals {
                    stmts.push(Stmt::Assign {
                        dest: i,
                        rhs: Rhs::Use(Operand::Int(rng.below(5) as i64)),
                    });
                }
                let mut ready: Vec<NameId> = objs
                    .iter()
                    .copied()
                    .filter(|o| !obj_locals.contains(o))
                    .collect();
                for &o in &obj_locals {
                    make(&mut rng, o, &ready, &mut stmts);
                    ready.push(o);
                }
                let rhs = match closures.first() {
                    Some(&f) => Rhs::Closure(
                        rng.pick(&closures, f),
                        Box::new([Operand::Name(obj(&mut rng))]),
                    ),
                    None => Rhs::New,
                };
                stmts.push(Stmt::Assign { dest: k, rhs });
            }
            for _ in 0..rng.below(config.max_stmts + 1) {
                match rng.below(20) {
                    0..=2 => stmts.push(Stmt::Assign {
                        dest: int_local(&mut rng),
                        rhs: Rhs::Binary(
                            rng.pick(&[Op::Add, Op::Sub, Op::Mul, Op::Lt, Op::Eq], Op::Add),
                            int_operand(&mut rng),
                            int_operand(&mut rng),
                        ),
                    }),
                    3 | 4 => stmts.push(Stmt::Assign {
                        dest: obj_local(&mut rng),
                        rhs: Rhs::Use(Operand::Name(obj(&mut rng))),
                    }),
                    5 | 6 => {
                        let dest = obj_local(&mut rng);
                        let ready = objs.clone();
                        make(&mut rng, dest, &ready, &mut stmts);
                    }
                    7 | 8 => stmts.push(Stmt::Store {
                        object: Operand::Name(obj(&mut rng)),
                        field: rng.pick(&int_fields, FieldId(0)),
                        value: int_operand(&mut rng),
                    }),
                    9 => stmts.push(Stmt::Store {
                        object: Operand::Name(obj(&mut rng)),
                        field: obj_field,
                        value: Operand::Name(obj(&mut rng)),
                    }),
                    10 | 11 => stmts.push(Stmt::Assign {
                        dest: int_local(&mut rng),
                        rhs: Rhs::Load(
                            Operand::Name(obj(&mut rng)),
                            rng.pick(&int_fields, FieldId(0)),
                        ),
                    }),
                    12 => stmts.push(Stmt::Assign {
                        dest: obj_local(&mut rng),
                        rhs: Rhs::Load(Operand::Name(obj(&mut rng)), obj_field),
                    }),
                    13 | 14 => {
                        let args = Box::new([int_operand(&mut rng), Operand::Name(obj(&mut rng))]);
                        match callee(&mut rng) {
                            Some(f) if rng.percent(70) => stmts.push(Stmt::Assign {
                                dest: obj_local(&mut rng),
                                rhs: Rhs::Call(f, args),
                            }),
                            Some(f) => stmts.push(Stmt::Call { callee: f, args }),
                            None => stmts.push(Stmt::Assign {
                                dest: obj_local(&mut rng),
                                rhs: Rhs::Select(
                                    int_operand(&mut rng),
                                    Operand::Name(obj(&mut rng)),
                                    Operand::Name(obj(&mut rng)),
                                ),
                            }),
                        }
                    }
                    15 => {
                        let rhs = match closures.first() {
                            Some(&f) => Rhs::Closure(
                                rng.pick(&closures, f),
                                Box::new([Operand::Name(obj(&mut rng))]),
                            ),
                            None => Rhs::New,
                        };
                        stmts.push(Stmt::Assign { dest: k, rhs });
                    }
                    16 if !closures.is_empty() && (me == 0 || rng.percent(40)) => {
                        stmts.push(Stmt::Assign {
                            dest: obj_local(&mut rng),
                            rhs: Rhs::Apply(
                                Operand::Name(k),
                                Box::new([int_operand(&mut rng), Operand::Name(obj(&mut rng))]),
                            ),
                        });
                    }
                    _ => stmts.push(Stmt::Assign {
                        dest: int_local(&mut rng),
                        rhs: Rhs::Use(int_operand(&mut rng)),
                    }),
                }
            }
            let target = |rng: &mut Rng| {
                if b + 1 >= n_blocks || rng.percent(config.back_percent) {
                    BlockId::new(rng.below(n_blocks))
                } else {
                    BlockId::new(b + 1 + rng.below(n_blocks - b - 1))
                }
            };
            let result = |rng: &mut Rng| {
                if me == 0 && rng.percent(30) {
                    int_operand(rng)
                } else {
                    Operand::Name(obj(rng))
                }
            };
            let term = if b + 1 == n_blocks {
                Terminator::Return(Some(result(&mut rng)))
            } else {
                match rng.below(14) {
                    0..=3 => Terminator::Goto(target(&mut rng)),
                    4..=10 => Terminator::Branch {
                        cond: Cond::Compare(
                            rng.pick(&COMPARISONS, Op::Lt),
                            int_operand(&mut rng),
                            Operand::Int(rng.below(5) as i64 - 2),
                        ),
                        then_to: target(&mut rng),
                        else_to: target(&mut rng),
                    },
                    11 | 12 => Terminator::Return(Some(result(&mut rng))),
                    _ => Terminator::Throw(Some(Operand::Name(obj(&mut rng)))),
                }
            };
            blocks.push(Block {
                label: format!("bb{b}"),
                phis: Vec::new(),
                stmts,
                term,
            });
        }
        let name = if me == 0 {
            "main".to_owned()
        } else {
            format!("f{me}")
        };
        let mut function = Function::new(name, false, params, names, blocks);
        function.captures = capture_list;
        functions.push(function);
    }
    let mut module = Module {
        functions,
        fields,
        symbols: Vec::new(),
    };
    module.canonicalize();
    module
}
