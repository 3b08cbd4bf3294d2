//! Round-trip properties of both printers: for generated programs (and the same programs with
//! names and literals mutated) print → parse gives the program back, and print ∘ parse ∘ print
//! is the identity on text.

use absinthe::program::{Cond, Operand, Terminator};
use absinthe_ir::generate::{GenConfig, ToyGenConfig, random_function, random_toy};
use absinthe_ir::toy::{Instr, ToyExpr};
use absinthe_ir::{Function, Module, ToyProgram, parse_module, parse_toy, print_module};
use proptest::prelude::*;

const KEYWORDS: [&str; 11] = [
    "fn",
    "ssa",
    "phi",
    "new",
    "call",
    "goto",
    "br",
    "switch",
    "ret",
    "throw",
    "unreachable",
];

/// Distinct identifiers built from proptest's candidates (keywords and repeats get a suffix).
fn distinct_idents(candidates: &[String], n: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(n);
    for i in 0..n {
        let mut name = candidates
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("n{i}"));
        if KEYWORDS.contains(&name.as_str()) || out.contains(&name) {
            name = format!("{name}_{i}");
        }
        out.push(name);
    }
    out
}

fn ident() -> impl Strategy<Value = String> {
    "[A-Za-z_][A-Za-z0-9_]{0,6}"
}

/// Replaces every literal operand with successive values of `literals` (cyclically).
fn replace_literals(stmt_ops: &mut [&mut Operand], literals: &[i64], next: &mut usize) {
    if literals.is_empty() {
        return;
    }
    for o in stmt_ops.iter_mut() {
        if let Operand::Int(v) = o {
            *v = literals[*next % literals.len()];
            *next += 1;
        }
    }
}

fn mutate_function(func: Function, names: &[String], literals: &[i64]) -> Function {
    let name = func.name.clone();
    let ssa = func.ssa;
    let params = func.params.clone();
    let new_names = distinct_idents(names, func.names.len());
    let mut blocks = func.into_blocks();
    let mut next = 0;
    for block in &mut blocks {
        for stmt in &mut block.stmts {
            let mut literal_slots = Vec::new();
            stmt.for_each_use_mut(|o| literal_slots.push(*o));
            let mut ops: Vec<&mut Operand> = literal_slots.iter_mut().collect();
            replace_literals(&mut ops, literals, &mut next);
            let mut replaced = literal_slots.into_iter();
            stmt.for_each_use_mut(|o| *o = replaced.next().unwrap_or(*o));
        }
        let mut ops: Vec<&mut Operand> = match &mut block.term {
            Terminator::Branch { cond, .. } => match cond {
                Cond::NonZero(a) => vec![a],
                Cond::Compare(_, a, b) => vec![a, b],
            },
            Terminator::Switch { on, .. } => vec![on],
            Terminator::Return(Some(a)) | Terminator::Throw(Some(a)) => vec![a],
            _ => vec![],
        };
        replace_literals(&mut ops, literals, &mut next);
    }
    Function::new(name, ssa, params, new_names, blocks)
}

fn mutate_toy(mut prog: ToyProgram, names: &[String], literals: &[i64]) -> ToyProgram {
    prog.names = distinct_idents(names, prog.names.len());
    if literals.is_empty() {
        return prog;
    }
    let mut next = 0;
    let mut replace = |o: &mut Operand| {
        if let Operand::Int(v) = o {
            *v = literals[next % literals.len()];
            next += 1;
        }
    };
    for instr in &mut prog.instrs {
        match instr {
            Instr::Assign { rhs, .. } => match rhs {
                ToyExpr::Use(a) => replace(a),
                ToyExpr::Binary(_, a, b) => {
                    replace(a);
                    replace(b);
                }
            },
            Instr::Goto(_) => {}
            Instr::CondGoto { cond, .. } => match cond {
                Cond::NonZero(a) => replace(a),
                Cond::Compare(_, a, b) => {
                    replace(a);
                    replace(b);
                }
            },
        }
    }
    prog
}

fn gen_config() -> impl Strategy<Value = GenConfig> {
    (
        1usize..14,
        0usize..7,
        1usize..7,
        1usize..4,
        0u32..60,
        any::<bool>(),
        0usize..3,
    )
        .prop_map(
            |(blocks, max_stmts, names, fields, back_percent, init_names, symbols)| GenConfig {
                blocks,
                max_stmts,
                names,
                fields,
                max_params: 3,
                back_percent,
                init_names,
                symbols,
            },
        )
}

fn toy_config() -> impl Strategy<Value = ToyGenConfig> {
    (0usize..30, 1usize..8, 0u32..60, any::<bool>()).prop_map(
        |(instrs, names, jump_percent, init_names)| ToyGenConfig {
            instrs,
            names,
            jump_percent,
            init_names,
        },
    )
}

fn assert_module_round_trips(module: &Module) -> Result<(), TestCaseError> {
    let text = print_module(module);
    let parsed =
        parse_module("gen.air", &text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(&parsed, module, "{}", text);
    prop_assert_eq!(print_module(&parsed), text);
    Ok(())
}

fn assert_toy_round_trips(prog: &ToyProgram) -> Result<(), TestCaseError> {
    let text = prog.to_string();
    let parsed =
        parse_toy("gen.toy", &text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(&parsed, prog, "{}", text);
    prop_assert_eq!(parsed.to_string(), text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_modules_round_trip(seed in any::<u64>(), config in gen_config()) {
        assert_module_round_trips(&random_function(seed, &config))?;
    }

    #[test]
    fn mutated_modules_round_trip(
        seed in any::<u64>(),
        config in gen_config(),
        names in prop::collection::vec(ident(), 0..12),
        literals in prop::collection::vec(any::<i64>(), 0..8),
    ) {
        let mut module = random_function(seed, &config);
        module.functions = module
            .functions
            .into_iter()
            .map(|f| mutate_function(f, &names, &literals))
            .collect();
        assert_module_round_trips(&module)?;
    }

    #[test]
    fn generated_toy_programs_round_trip(seed in any::<u64>(), config in toy_config()) {
        assert_toy_round_trips(&random_toy(seed, &config))?;
    }

    #[test]
    fn mutated_toy_programs_round_trip(
        seed in any::<u64>(),
        config in toy_config(),
        names in prop::collection::vec(ident(), 0..8),
        literals in prop::collection::vec(any::<i64>(), 0..8),
    ) {
        let prog = mutate_toy(random_toy(seed, &config), &names, &literals);
        assert_toy_round_trips(&prog)?;
    }

    #[test]
    fn lowered_toy_programs_print_and_parse(seed in any::<u64>(), config in toy_config()) {
        let (func, _) = random_toy(seed, &config).lower();
        // Lowering keeps the toy program's name order, which is already canonical.
        let module = Module { functions: vec![func], fields: Vec::new(), symbols: Vec::new() };
        assert_module_round_trips(&module)?;
    }
}

#[test]
fn shape_generators_round_trip_and_scale() {
    use absinthe_ir::generate::{diamonds, nested_loops, straight_line};
    for module in [straight_line(500, 10), nested_loops(500, 3), diamonds(500)] {
        let n = module.functions[0].stmt_count();
        assert!((450..=560).contains(&n), "{n} statements");
        let text = print_module(&module);
        assert_eq!(parse_module("shape.air", &text).unwrap(), module);
    }
    let start = std::time::Instant::now();
    let big = [
        straight_line(100_000, 64),
        nested_loops(100_000, 4),
        diamonds(100_000),
    ];
    let elapsed = start.elapsed();
    for m in &big {
        assert!(m.functions[0].stmt_count() >= 99_000);
    }
    assert!(
        elapsed.as_secs_f64() < 3.0,
        "{elapsed:?} for 3 × 10^5 statements"
    );
}

#[test]
fn the_new_keywords_stay_usable_as_names() {
    let text = "fn f(tag, block, closure, apply, isblock) {\nbb0:\n    a = tag ult block\n    b = isblock + closure\n    c = block[0]\n    d = closure.x\n    apply.y = tag\n    e = tag tag\n    g = isblock apply\n    ret a\n}\n";
    let module = parse_module("t.air", text).expect("parses");
    assert_eq!(print_module(&module), text);
}
