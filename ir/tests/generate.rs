//! Tests of the generators: determinism, validity, and that random programs exercise every kind
//! of statement, terminator and interpreter outcome.

use std::collections::BTreeSet;

use absinthe::program::{Cond, FuncId, Rhs, Stmt, Terminator};
use absinthe_ir::generate::{GenConfig, Rng, ToyGenConfig, random_function, random_toy};
use absinthe_ir::interp::{Limits, NoObserver, Outcome, ToyOutcome, run, run_toy};
use absinthe_ir::toy::Instr;

#[test]
fn rng_is_deterministic_and_spreads() {
    let a: Vec<u64> = {
        let mut r = Rng::new(42);
        (0..4).map(|_| r.next_u64()).collect()
    };
    let b: Vec<u64> = {
        let mut r = Rng::new(42);
        (0..4).map(|_| r.next_u64()).collect()
    };
    assert_eq!(a, b);
    assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    let mut r = Rng::new(9);
    let hits: BTreeSet<usize> = (0..200).map(|_| r.below(10)).collect();
    assert_eq!(hits.len(), 10);
    assert_eq!(r.below(0), 0);
}

#[test]
fn same_seed_same_program() {
    let c = GenConfig::default();
    assert_eq!(random_function(5, &c), random_function(5, &c));
    assert_ne!(random_function(5, &c), random_function(6, &c));
    let t = ToyGenConfig::default();
    assert_eq!(random_toy(5, &t), random_toy(5, &t));
}

#[test]
fn random_functions_cover_the_vocabulary_and_all_outcomes() {
    let mut kinds = BTreeSet::new();
    let mut outcomes = BTreeSet::new();
    let limits = Limits {
        max_steps: 500,
        max_depth: 4,
        ..Limits::default()
    };
    for seed in 0..400 {
        let module = random_function(seed, &GenConfig::default());
        let func = &module.functions[0];
        assert!(func.params.len() <= 3);
        for block in func.blocks() {
            for stmt in &block.stmts {
                kinds.insert(match stmt {
                    Stmt::Assign {
                        rhs: Rhs::Use(_), ..
                    } => "copy",
                    Stmt::Assign {
                        rhs: Rhs::Binary(op, ..),
                        ..
                    } if op.is_comparison() => "compare",
                    Stmt::Assign {
                        rhs: Rhs::Binary(..),
                        ..
                    } => "arith",
                    Stmt::Assign { rhs: Rhs::New, .. } => "new",
                    Stmt::Assign {
                        rhs: Rhs::Load(..), ..
                    } => "load",
                    Stmt::Assign {
                        rhs: Rhs::Call(..), ..
                    }
                    | Stmt::Call { .. } => "call",
                    Stmt::Assign {
                        rhs: Rhs::Select(..),
                        ..
                    } => "select",
                    Stmt::Store { .. } => "store",
                    Stmt::Assign { .. } | Stmt::Apply { .. } => "closures and blocks",
                });
            }
            kinds.insert(match block.term {
                Terminator::Goto(_) => "goto",
                Terminator::Branch {
                    cond: Cond::NonZero(_),
                    ..
                } => "br nonzero",
                Terminator::Branch {
                    cond: Cond::Compare(..),
                    ..
                } => "br compare",
                Terminator::Switch { .. } => "switch",
                Terminator::Return(_) => "ret",
                Terminator::Throw(_) => "throw",
                Terminator::Unreachable => "unreachable",
            });
        }
        let args = vec![3; func.params.len()];
        let out = run(&module, FuncId(0), &args, &limits, &mut NoObserver);
        outcomes.insert(match out.outcome {
            Outcome::Returned(_) => "returned".to_string(),
            Outcome::Threw(_) => "threw".to_string(),
            Outcome::Trap { reason, .. } => format!("trap {reason:?}"),
            Outcome::ReadUnassigned { .. } => "unassigned".to_string(),
            Outcome::OutOfSteps => "out of steps".to_string(),
            Outcome::TooDeep => "too deep".to_string(),
        });
    }
    let kinds: Vec<&str> = kinds.into_iter().collect();
    assert_eq!(
        kinds,
        [
            "arith",
            "br compare",
            "br nonzero",
            "compare",
            "copy",
            "goto",
            "load",
            "new",
            "ret",
            "store",
            "switch",
            "throw",
            "unreachable"
        ]
    );
    for expected in [
        "returned",
        "threw",
        "out of steps",
        "trap DivisionByZero",
        "trap UnsetField",
        "trap NotAnObject",
        "trap ArithmeticOnRef",
        "trap Unreachable",
    ] {
        assert!(
            outcomes.contains(expected),
            "{expected} missing from {outcomes:?}"
        );
    }
}

#[test]
fn random_toy_programs_loop_jump_and_exit() {
    let config = ToyGenConfig {
        instrs: 16,
        names: 3,
        jump_percent: 30,
        init_names: true,
    };
    let (mut exits, mut loops, mut backward, mut to_exit) = (0, 0, 0, 0);
    for seed in 0..300 {
        let prog = random_toy(seed, &config);
        assert_eq!(prog.instrs.len(), 16);
        for (pc, instr) in prog.instrs.iter().enumerate() {
            match instr.target() {
                Some(t) if t <= pc => backward += 1,
                Some(16) => to_exit += 1,
                Some(t) => assert!(t < 16),
                None => {}
            }
            if let Instr::Assign { dest, .. } = instr {
                assert!(dest.index() < prog.names.len());
            }
        }
        match run_toy(&prog, 1000, |_, _| {}).outcome {
            ToyOutcome::Exit => exits += 1,
            ToyOutcome::OutOfSteps => loops += 1,
            ToyOutcome::ReadUnassigned { .. } => {}
        }
    }
    assert!(exits > 30 && loops > 30, "{exits} exits, {loops} loops");
    assert!(
        backward > 100 && to_exit > 10,
        "{backward} backward, {to_exit} to exit"
    );
}

#[test]
fn shapes_run_to_completion() {
    use absinthe_ir::generate::{diamonds, nested_loops, straight_line};
    let limits = Limits {
        max_steps: 10_000_000,
        max_depth: 4,
        ..Limits::default()
    };
    for module in [
        straight_line(2000, 16),
        nested_loops(2000, 3),
        diamonds(2000),
    ] {
        let out = run(&module, FuncId(0), &[], &limits, &mut NoObserver);
        assert!(
            matches!(out.outcome, Outcome::Returned(Some(_))),
            "{:?}",
            out.outcome
        );
    }
    // Three loops of five trips: the innermost body runs 125 times.
    let out = run(
        &nested_loops(300, 3),
        FuncId(0),
        &[],
        &limits,
        &mut NoObserver,
    );
    assert!(out.steps > 125 * 100, "{} steps", out.steps);
}

#[test]
fn random_modules_round_trip_and_mostly_return() {
    use absinthe_ir::generate::{ModuleConfig, random_module};
    use absinthe_ir::{parse_module, print_module};
    let mut outcomes = std::collections::BTreeMap::<String, u32>::new();
    let mut kinds = std::collections::HashSet::new();
    let total = 500;
    for seed in 0..total {
        let config = ModuleConfig {
            int_functions: 1 + (seed % 4) as usize,
            higher_order: (seed % 3) as usize,
            function_slots: seed % 2 == 1,
            ..ModuleConfig::default()
        };
        let module = random_module(seed, &config);
        assert_eq!(
            module,
            random_module(seed, &config),
            "seed {seed}: deterministic"
        );
        let printed = print_module(&module);
        let again = parse_module("random.air", &printed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{printed}"));
        assert_eq!(again, module, "seed {seed}");
        for f in &module.functions {
            for block in f.blocks() {
                for stmt in &block.stmts {
                    if let Stmt::Assign { rhs, .. } = stmt {
                        kinds.insert(std::mem::discriminant(rhs));
                    }
                }
            }
        }
        let main = module.func_id("main").expect("main");
        let args = vec![seed as i64 % 7 - 3; module.functions[0].params.len()];
        let limits = Limits {
            max_steps: 20_000,
            max_depth: 64,
            ..Limits::default()
        };
        let outcome = run(&module, main, &args, &limits, &mut NoObserver).outcome;
        let key = match outcome {
            Outcome::Returned(_) => "returned".to_owned(),
            Outcome::Trap { reason, .. } => format!("trap {reason:?}"),
            other => format!("{other:?}"),
        };
        *outcomes.entry(key).or_default() += 1;
    }
    eprintln!("random modules: {outcomes:?}");
    let returned = outcomes.get("returned").copied().unwrap_or(0);
    assert!(returned * 10 >= total as u32 * 7, "{outcomes:?}");
    // Every kind of right-hand side occurs but `new`, field loads and `select` (the
    // single-function generator's business): copies, arithmetic, calls, closures, function
    // slots (`closure self`, `closure g of c`), `apply`, blocks, positions, tags and `isblock`.
    assert_eq!(kinds.len(), 11);
}
