//! Tests of the concrete interpreters: the toy sample, traps, budgets, φs, calls and the depth
//! limit of the core IR interpreter.

use absinthe::program::{BlockId, FuncId, NameId};
use absinthe_ir::interp::{
    Limits, NoObserver, Outcome, ToyOutcome, TrapReason, Value, run, run_toy,
};
use absinthe_ir::{Module, parse_module, parse_toy, toy::prog0};

fn module(text: &str) -> Module {
    match parse_module("t.air", text) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    }
}

fn run_main(m: &Module, args: &[i64]) -> Outcome {
    let main = m.func_id("main").expect("a main function");
    run(m, main, args, &Limits::default(), &mut NoObserver).outcome
}

#[test]
fn prog0_exits_with_x_10_and_r_5() {
    let prog = prog0();
    let mut exits = Vec::new();
    let mut observed = 0;
    let n = prog.instrs.len();
    let result = run_toy(&prog, 10_000, |pc, env| {
        observed += 1;
        if pc == n {
            exits.push(env.to_vec());
        }
    });
    assert_eq!(result.outcome, ToyOutcome::Exit);
    let x = prog.name_id("x").unwrap();
    let r = prog.name_id("r").unwrap();
    assert_eq!(result.env[x.index()], Some(10));
    assert_eq!(result.env[r.index()], Some(5));
    assert_eq!(exits.len(), 1);
    assert_eq!(exits[0], result.env);
    // One observation per instruction executed, plus the exit.
    assert_eq!(observed, result.steps + 1);
    // I0..I3; then for x = 1..=3 the trip I8 I4 I5 I7, for x = 4..=9 the trip I8 I4 I5 I6 I7;
    // then the last I8.
    assert_eq!(result.steps, 4 + 3 * 4 + 6 * 5 + 1);
}

#[test]
fn toy_step_budget_stops_the_run() {
    let prog = prog0();
    let mut last_pc = None;
    let result = run_toy(&prog, 7, |pc, _| last_pc = Some(pc));
    assert_eq!(result.outcome, ToyOutcome::OutOfSteps);
    assert_eq!(result.steps, 7);
    assert_eq!(last_pc, Some(5));
}

#[test]
fn toy_unassigned_read_stops_without_further_observation() {
    let prog = parse_toy("t.toy", "x = 1\ny = x + z\nx = 2\n").unwrap();
    let mut pcs = Vec::new();
    let result = run_toy(&prog, 100, |pc, _| pcs.push(pc));
    assert_eq!(
        result.outcome,
        ToyOutcome::ReadUnassigned {
            pc: 1,
            name: prog.name_id("z").unwrap()
        }
    );
    assert_eq!(pcs, vec![0, 1]);
    assert_eq!(result.env[prog.name_id("y").unwrap().index()], None);
}

#[test]
fn toy_arithmetic_wraps_and_comparisons_give_0_or_1() {
    let prog = parse_toy(
        "t.toy",
        "a = 9223372036854775807\nb = a + 1\nc = b < a\nd = a ≥ b\n",
    )
    .unwrap();
    let result = run_toy(&prog, 100, |_, _| {});
    assert_eq!(result.outcome, ToyOutcome::Exit);
    assert_eq!(
        result.env,
        vec![Some(i64::MAX), Some(i64::MIN), Some(1), Some(1)]
    );
}

#[test]
fn counting_loop_returns_10() {
    let m = module(include_str!("../test_data/count.air"));
    assert_eq!(run_main(&m, &[]), Outcome::Returned(Some(Value::Int(10))));
}

#[test]
fn ssa_phis_sum_a_range() {
    let m = module(include_str!("../test_data/ssa_sum.air"));
    let sum = m.func_id("sum").unwrap();
    let out = run(&m, sum, &[100], &Limits::default(), &mut NoObserver);
    assert_eq!(out.outcome, Outcome::Returned(Some(Value::Int(5050))));
    let out = run(&m, sum, &[0], &Limits::default(), &mut NoObserver);
    assert_eq!(out.outcome, Outcome::Returned(Some(Value::Int(0))));
}

#[test]
fn memory_and_calls() {
    let m = module(include_str!("../test_data/memory.air"));
    assert_eq!(run_main(&m, &[7]), Outcome::Returned(Some(Value::Int(14))));
    assert_eq!(run_main(&m, &[0]), Outcome::Returned(Some(Value::Int(0))));
    assert_eq!(run_main(&m, &[1]), Outcome::Threw(Some(Value::Int(2))));
}

#[test]
fn observer_sees_top_level_statements_and_terminators_only() {
    let m = module(include_str!("../test_data/memory.air"));
    let main = m.func_id("main").unwrap();
    let mut seen = Vec::new();
    let mut observer = |b: BlockId, i: usize, env: &[Option<Value>]| seen.push((b.0, i, env.len()));
    let out = run(&m, main, &[7], &Limits::default(), &mut observer);
    assert_eq!(out.outcome, Outcome::Returned(Some(Value::Int(14))));
    // bb0: four statements and the switch; then `fourteen`: one load and the return.
    let places: Vec<(u32, usize)> = seen.iter().map(|&(b, i, _)| (b, i)).collect();
    assert_eq!(
        places,
        vec![(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (2, 0), (2, 1)]
    );
    // Seven top-level steps, and the callee's three statements and `ret`.
    assert_eq!(out.steps, 7 + 4);
}

#[test]
fn division_by_zero_traps() {
    let m = module("fn main(a) {\nbb0:\n    x = 1\n    y = x / a\n    ret y\n}\n");
    assert_eq!(run_main(&m, &[2]), Outcome::Returned(Some(Value::Int(0))));
    assert_eq!(
        run_main(&m, &[0]),
        Outcome::Trap {
            reason: TrapReason::DivisionByZero,
            func: FuncId(0),
            block: BlockId(0),
            index: 1
        }
    );
}

#[test]
fn memory_traps() {
    let unset = module("fn main() {\nbb0:\n    o = new\n    x = o.f\n    ret x\n}\n");
    let int_object = module("fn main() {\nbb0:\n    o = 3\n    o.f = 1\n    ret\n}\n");
    let arith_on_ref = module("fn main() {\nbb0:\n    o = new\n    x = o + 1\n    ret x\n}\n");
    let branch_on_ref = module("fn main() {\nbb0:\n    o = new\n    br o, bb0, bb0\n}\n");
    let unreachable = module("fn main() {\nbb0:\n    unreachable\n}\n");
    let reason = |m: &Module| match run_main(m, &[]) {
        Outcome::Trap { reason, .. } => Some(reason),
        _ => None,
    };
    assert_eq!(reason(&unset), Some(TrapReason::UnsetField));
    assert_eq!(reason(&int_object), Some(TrapReason::NotAnObject));
    assert_eq!(reason(&arith_on_ref), Some(TrapReason::ArithmeticOnRef));
    assert_eq!(reason(&branch_on_ref), Some(TrapReason::BranchOnRef));
    assert_eq!(reason(&unreachable), Some(TrapReason::Unreachable));
}

#[test]
fn unassigned_read_stops() {
    let m = module("fn main() {\nbb0:\n    x = 1\n    y = x + z\n    ret y\n}\n");
    assert_eq!(
        run_main(&m, &[]),
        Outcome::ReadUnassigned {
            func: FuncId(0),
            block: BlockId(0),
            index: 1,
            name: NameId(2)
        }
    );
}

#[test]
fn step_budget_stops_an_infinite_loop() {
    let m = module(
        "fn main() {\nbb0:\n    x = 0\n    goto bb1\nbb1:\n    x = x + 1\n    goto bb1\n}\n",
    );
    let limits = Limits {
        max_steps: 1000,
        max_depth: 8,
        ..Limits::default()
    };
    let out = run(&m, FuncId(0), &[], &limits, &mut NoObserver);
    assert_eq!(out.outcome, Outcome::OutOfSteps);
    assert_eq!(out.steps, 1000);
}

#[test]
fn recursion_depth_is_limited() {
    let m = module(
        "fn main(n) {\nbb0:\n    br n == 0, done, more\ndone:\n    ret 0\nmore:\n    m = n - 1\n    r = call main(m)\n    s = r + 1\n    ret s\n}\n",
    );
    let limits = |max_depth| Limits {
        max_steps: 1_000_000,
        max_depth,
        ..Limits::default()
    };
    let at = |n, d| run(&m, FuncId(0), &[n], &limits(d), &mut NoObserver).outcome;
    assert_eq!(at(9, 10), Outcome::Returned(Some(Value::Int(9))));
    assert_eq!(at(10, 10), Outcome::TooDeep);
    // Deep recursion does not use the native stack.
    assert_eq!(
        at(100_000, 200_000),
        Outcome::Returned(Some(Value::Int(100_000)))
    );
}

#[test]
fn wrong_arguments_and_missing_functions_trap() {
    let m = module(include_str!("../test_data/count.air"));
    let bad = |f, args: &[i64]| match run(&m, f, args, &Limits::default(), &mut NoObserver).outcome
    {
        Outcome::Trap { reason, .. } => reason == TrapReason::BadCall,
        _ => false,
    };
    assert!(bad(FuncId(0), &[1]));
    assert!(bad(FuncId(5), &[]));
}

#[test]
fn lowered_prog0_agrees_with_the_toy_interpreter() {
    let prog = prog0();
    let (func, pcs) = prog.lower();
    let m = Module {
        functions: vec![func],
        fields: Vec::new(),
        symbols: Vec::new(),
    };
    let mut toy_trace = Vec::new();
    run_toy(&prog, 10_000, |pc, env| toy_trace.push((pc, env.to_vec())));
    let mut ir_trace = Vec::new();
    let mut observer = |b: BlockId, i: usize, env: &[Option<Value>]| {
        if let Some(pc) = pcs.pc_at(b, i) {
            let env = env
                .iter()
                .map(|v| match v {
                    Some(Value::Int(v)) => Some(*v),
                    _ => None,
                })
                .collect::<Vec<_>>();
            ir_trace.push((pc, env));
        }
    };
    let out = run(&m, FuncId(0), &[], &Limits::default(), &mut observer);
    assert_eq!(out.outcome, Outcome::Returned(None));
    assert_eq!(ir_trace, toy_trace);
}

#[test]
fn phis_are_a_parallel_copy() {
    // `a` and `b` swap on every trip; a sequential copy would make them equal.
    let m = module(
        "fn main() ssa {\nentry:\n    goto head\nhead:\n    a = phi [entry: 1, body: b]\n    b = phi [entry: 2, body: a]\n    k = phi [entry: 0, body: k2]\n    br k < 3, body, done\nbody:\n    k2 = k + 1\n    goto head\ndone:\n    r = a * 10\n    s = r + b\n    ret s\n}\n",
    );
    assert_eq!(run_main(&m, &[]), Outcome::Returned(Some(Value::Int(21))));
}

mod differential {
    //! The core IR interpreter on a lowered toy program observes the same environments at the
    //! same instructions as the toy interpreter, and stops the same way.

    use super::*;
    use absinthe_ir::generate::{ToyGenConfig, random_toy};
    use proptest::prelude::*;

    fn ints(env: &[Option<Value>]) -> Vec<Option<i64>> {
        env.iter()
            .map(|v| match v {
                Some(Value::Int(v)) => Some(*v),
                _ => None,
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn lowered_toy_programs_run_alike(
            seed in any::<u64>(),
            instrs in 0usize..25,
            names in 1usize..5,
            jump_percent in 0u32..60,
            init_names in any::<bool>(),
        ) {
            let config = ToyGenConfig { instrs, names, jump_percent, init_names };
            let prog = random_toy(seed, &config);
            let budget = 300;
            let mut toy_trace = Vec::new();
            let toy = run_toy(&prog, budget, |pc, env| toy_trace.push((pc, env.to_vec())));

            let (func, pcs) = prog.lower();
            let module = Module { functions: vec![func], fields: Vec::new(), symbols: Vec::new() };
            let mut ir_trace = Vec::new();
            let mut observer = |b: BlockId, i: usize, env: &[Option<Value>]| {
                if let Some(pc) = pcs.pc_at(b, i) {
                    ir_trace.push((pc, ints(env)));
                }
            };
            // A lowered instruction costs one step, plus at most one fall-through `goto`.
            let limits = Limits {
                max_steps: 2 * budget + 2,
                max_depth: 1,
                ..Limits::default()
            };
            let ir = run(&module, FuncId(0), &[], &limits, &mut observer);

            let common = toy_trace.len().min(ir_trace.len());
            prop_assert_eq!(&toy_trace[..common], &ir_trace[..common]);
            match toy.outcome {
                ToyOutcome::Exit => {
                    prop_assert_eq!(ir.outcome, Outcome::Returned(None));
                    prop_assert_eq!(toy_trace, ir_trace);
                }
                ToyOutcome::ReadUnassigned { pc, name } => {
                    let Outcome::ReadUnassigned { block, index, name: ir_name, .. } = ir.outcome else {
                        return Err(TestCaseError::fail(format!("{:?}", ir.outcome)));
                    };
                    prop_assert_eq!(pcs.pc_at(block, index), Some(pc));
                    prop_assert_eq!(ir_name, name);
                    prop_assert_eq!(toy_trace, ir_trace);
                }
                ToyOutcome::OutOfSteps => prop_assert!(ir_trace.len() >= toy_trace.len()),
            }
        }
    }
}

#[test]
fn closures_blocks_and_apply_run_the_sample() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/test_data/closures.air"
    ))
    .expect("the sample exists");
    let m = module(&text);
    // [n, [3, nil]] folded with `acc + 2x`, then `twice(+1)`: 2n + 6 + 2.
    for n in [-4, 0, 5, 100] {
        assert_eq!(
            run_main(&m, &[n]),
            Outcome::Returned(Some(Value::Int(2 * n + 8))),
            "n = {n}"
        );
    }
}

#[test]
fn the_all_frames_observer_sees_callees() {
    use absinthe_ir::interp::run_all_frames;
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/test_data/closures.air"
    ))
    .expect("the sample exists");
    let m = module(&text);
    let main = m.func_id("main").expect("main");
    let scaled = m.func_id("scaled_add").expect("scaled_add");
    let factor = m
        .function(scaled)
        .and_then(|f| f.name_id("factor"))
        .expect("factor");
    let mut frames = std::collections::BTreeSet::new();
    let mut factors = Vec::new();
    let mut deepest = 0;
    let mut observer = |depth: usize, func: FuncId, _: BlockId, _: usize, env: &[Option<Value>]| {
        frames.insert(func);
        deepest = deepest.max(depth);
        if func == scaled {
            factors.push(env[factor.index()]);
        }
    };
    let result = run_all_frames(&m, main, &[1], &Limits::default(), &mut observer);
    assert_eq!(result.outcome, Outcome::Returned(Some(Value::Int(10))));
    assert_eq!(frames.len(), m.functions.len());
    assert!(deepest >= 3, "fold calls itself and applies the closure");
    // The capture is bound in every frame of the closure's function.
    assert!(!factors.is_empty());
    assert!(factors.iter().all(|f| *f == Some(Value::Int(2))));
}

#[test]
fn closures_and_blocks_trap_where_they_must() {
    let trap = |body: &str, extra: &str| {
        let m = module(&format!(
            "fn main(a) {{\nbb0:\n{body}\n    ret 0\n}}\n{extra}"
        ));
        match run_main(&m, &[7]) {
            Outcome::Trap { reason, .. } => Some(reason),
            _ => None,
        }
    };
    let id = "fn id(x) {\nbb0:\n    ret x\n}\n";
    assert_eq!(
        trap("    r = apply a(1)", ""),
        Some(TrapReason::NotAClosure)
    );
    assert_eq!(
        trap("    c = closure id []\n    r = apply c(1, 2)", id),
        Some(TrapReason::BadCall)
    );
    assert_eq!(trap("    t = tag a", ""), Some(TrapReason::NotABlock));
    assert_eq!(
        trap("    b = block 2 [a]\n    f = b[1]", ""),
        Some(TrapReason::NotABlock)
    );
    assert_eq!(
        trap("    c = closure id []\n    f = c[0]", id),
        Some(TrapReason::NotABlock)
    );
    assert_eq!(
        trap("    o = new\n    t = tag o", ""),
        Some(TrapReason::NotABlock)
    );
    assert_eq!(
        trap("    b = block 2 [a]\n    b.x = 1", ""),
        Some(TrapReason::NotAnObject)
    );
    assert_eq!(
        trap("    b = block 2 [a]\n    x = b + 1", ""),
        Some(TrapReason::ArithmeticOnRef)
    );
    assert_eq!(
        trap("    c = closure id []\n    br c, bb1, bb1\nbb1:", id),
        Some(TrapReason::BranchOnRef)
    );
    // `isblock`, `tag` and `a[i]` on what they accept never trap.
    assert_eq!(
        trap(
            "    b = block 2 [a, 5]\n    i = isblock b\n    j = isblock a\n    t = tag b\n    f = b[1]",
            ""
        ),
        None
    );
}

/// A module whose `main` returns `call ext(a) + 1`, where `ext` has no body (as a declaration
/// of a lowered LLVM module has none).
fn calls_a_declaration() -> Module {
    let mut m = module(
        "fn ext(p) {\nb0:\n    ret p\n}\n\
         fn main(a) {\nb0:\n    x = call ext(a)\n    y = x + 1\n    ret y\n}\n",
    );
    let ext = m.func_id("ext").expect("ext");
    m.functions[ext.index()] =
        absinthe_ir::function::Function::new("ext".into(), true, vec![], vec![], vec![]);
    m
}

#[test]
fn a_call_of_a_function_without_body_traps_or_returns_a_drawn_value() {
    use absinthe_ir::interp::Bodyless;
    let m = calls_a_declaration();
    let main = m.func_id("main").expect("main");
    // By default a module calls only functions it defines.
    assert!(matches!(
        run_main(&m, &[3]),
        Outcome::Trap {
            reason: TrapReason::BadCall,
            ..
        }
    ));
    let returned = |seed: u64| {
        let limits = Limits {
            bodyless: Bodyless::Draw(seed),
            ..Limits::default()
        };
        match run(&m, main, &[3], &limits, &mut NoObserver).outcome {
            Outcome::Returned(Some(Value::Int(v))) => v,
            other => panic!("seed {seed}: {other:?}"),
        }
    };
    // The same seed draws the same value; seeds draw different ones, mostly small.
    let drawn: Vec<i64> = (0..64).map(returned).collect();
    assert_eq!(drawn, (0..64).map(returned).collect::<Vec<_>>());
    let distinct: std::collections::BTreeSet<i64> = drawn.iter().copied().collect();
    assert!(distinct.len() > 8, "{drawn:?}");
    assert!(
        drawn.iter().filter(|v| (-10..=30).contains(*v)).count() > 32,
        "{drawn:?}"
    );
    // The arguments are read: a call on an unassigned name stops the run as any call does.
    let mut unassigned = module(
        "fn ext(p) {\nb0:\n    ret p\n}\n\
         fn main(a) {\nb0:\n    x = call ext(z)\n    ret x\n}\n",
    );
    let ext = unassigned.func_id("ext").expect("ext");
    unassigned.functions[ext.index()] =
        absinthe_ir::function::Function::new("ext".into(), true, vec![], vec![], vec![]);
    let main = unassigned.func_id("main").expect("main");
    let limits = Limits {
        bodyless: Bodyless::Draw(1),
        ..Limits::default()
    };
    let outcome = run(&unassigned, main, &[3], &limits, &mut NoObserver).outcome;
    assert!(
        matches!(outcome, Outcome::ReadUnassigned { .. }),
        "{outcome:?}"
    );
}

/// `new stack`: the object lives while its frame runs (a callee may store into it), dies when
/// the frame returns (a load from it afterwards traps), and the text says so both ways.
#[test]
fn a_stack_object_dies_with_its_frame() {
    let text = "fn main(n) {
bb0:
    o = call make(n)
    v = o.f
    ret v
}

fn make(n) {
bb0:
    box = new stack
    call fill(box, n)
    v = box.f
    o = new
    o.f = v
    ret o
}

fn fill(b, n) {
bb0:
    b.f = n
    ret
}
";
    let m = module(text);
    assert_eq!(absinthe_ir::print_module(&m), text);
    let make = m.function_named("make").expect("make");
    assert!(make.is_stack_allocation(BlockId(0), 0));
    assert!(!make.is_stack_allocation(BlockId(0), 3));
    assert_eq!(run_main(&m, &[7]), Outcome::Returned(Some(Value::Int(7))));
    let escaping = module(&text.replace(
        "    v = box.f\n    o = new\n    o.f = v\n    ret o",
        "    ret box",
    ));
    assert!(matches!(
        run_main(&escaping, &[7]),
        Outcome::Trap {
            reason: TrapReason::DeadStackObject,
            ..
        }
    ));
}
