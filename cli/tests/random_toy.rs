//! Random toy programs: `const` and `sccp` (both strategies) agree with an independent naive
//! implementation written here from the definitions, `sccp` is at least as precise as `const`,
//! and every analysis is sound against the concrete interpreter.

use absinthe::engine::Limits;
use absinthe::lattice::{Flat, Interval, Lattice};
use absinthe::program::{Cond, NameId, Op, Operand};
use absinthe::value::{Env, ValueDomain};
use absinthe_cli::driver::{Strategy, ToyAnalysis, analyze_toy};
use absinthe_ir::generate::{ToyGenConfig, random_toy};
use absinthe_ir::interp::run_toy;
use absinthe_ir::toy::{Instr, ToyExpr, ToyProgram};

const PROGRAMS: u64 = 1000;

/// The flat constant lattice of the reference, written independently of the runtime's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum V {
    Bot,
    C(i64),
    Top,
}

fn join(a: V, b: V) -> V {
    match (a, b) {
        (V::Bot, x) | (x, V::Bot) => x,
        (V::C(x), V::C(y)) if x == y => V::C(x),
        _ => V::Top,
    }
}

fn meet(a: V, b: V) -> V {
    match (a, b) {
        (V::Top, x) | (x, V::Top) => x,
        (V::C(x), V::C(y)) if x == y => V::C(x),
        _ => V::Bot,
    }
}

fn fold(op: Op, x: i64, y: i64) -> i64 {
    match op {
        Op::Add => x.wrapping_add(y),
        Op::Sub => x.wrapping_sub(y),
        Op::Mul => x.wrapping_mul(y),
        Op::Lt => (x < y) as i64,
        Op::Le => (x <= y) as i64,
        Op::Gt => (x > y) as i64,
        Op::Ge => (x >= y) as i64,
        Op::Eq => (x == y) as i64,
        Op::Ne => (x != y) as i64,
        other => panic!("the toy language has no `{other}`"),
    }
}

type State = Option<Vec<V>>;

fn value(s: &[V], o: Operand) -> V {
    match o {
        Operand::Name(n) => s[n.index()],
        Operand::Int(c) => V::C(c),
    }
}

fn binary(op: Op, a: V, b: V) -> V {
    match (a, b) {
        (V::Bot, _) | (_, V::Bot) => V::Bot,
        // Multiplying by zero gives zero whatever the other operand is.
        (V::Top, V::C(0)) | (V::C(0), V::Top) if op == Op::Mul => V::C(0),
        (V::Top, _) | (_, V::Top) => V::Top,
        (V::C(x), V::C(y)) => V::C(fold(op, x, y)),
    }
}

/// The state on the edge where `cond` is `outcome`, or `None` when that edge cannot be taken.
fn edge(cond: Cond, outcome: bool, s: &[V]) -> State {
    let (op, a, b) = match cond {
        Cond::NonZero(a) => (Op::Ne, a, Operand::Int(0)),
        Cond::Compare(op, a, b) => (op, a, b),
    };
    let holds = binary(op, value(s, a), value(s, b));
    let possible = match holds {
        V::Bot => false,
        V::C(c) => (c != 0) == outcome,
        V::Top => true,
    };
    if !possible {
        return None;
    }
    let mut out = s.to_vec();
    // Knowing two values equal makes each the meet of both.
    let equal = (op == Op::Eq && outcome) || (op == Op::Ne && !outcome);
    if equal {
        let both = meet(value(s, a), value(s, b));
        for o in [a, b] {
            if let Operand::Name(n) = o {
                out[n.index()] = both;
            }
        }
    }
    Some(out)
}

/// Round-robin over instructions until nothing changes; `states[n]` is the exit.
fn reference(program: &ToyProgram, conditional: bool) -> Vec<State> {
    let n = program.instrs.len();
    let mut states: Vec<State> = vec![None; n + 1];
    states[0] = Some(vec![V::Bot; program.names.len()]);
    let mut changed = true;
    while changed {
        changed = false;
        let mut flow = |states: &mut Vec<State>, target: usize, s: Vec<V>| {
            let slot = &mut states[target.min(n)];
            let new = match slot {
                None => s,
                Some(old) => old.iter().zip(&s).map(|(&a, &b)| join(a, b)).collect(),
            };
            if slot.as_ref() != Some(&new) {
                *slot = Some(new);
                changed = true;
            }
        };
        for pc in 0..n {
            let Some(s) = states[pc].clone() else {
                continue;
            };
            match &program.instrs[pc] {
                Instr::Assign { dest, rhs } => {
                    let v = match *rhs {
                        ToyExpr::Use(a) => value(&s, a),
                        ToyExpr::Binary(op, a, b) => binary(op, value(&s, a), value(&s, b)),
                    };
                    let mut out = s;
                    out[dest.index()] = v;
                    flow(&mut states, pc + 1, out);
                }
                Instr::Goto(target) => flow(&mut states, *target, s),
                Instr::CondGoto { cond, target } => {
                    if conditional {
                        if let Some(taken) = edge(*cond, true, &s) {
                            flow(&mut states, *target, taken);
                        }
                        if let Some(fall) = edge(*cond, false, &s) {
                            flow(&mut states, pc + 1, fall);
                        }
                    } else {
                        flow(&mut states, *target, s.clone());
                        flow(&mut states, pc + 1, s);
                    }
                }
            }
        }
    }
    states
}

fn to_reference(env: &Env<Flat<i64>>) -> State {
    match env {
        Env::Unreachable => None,
        Env::Reachable(values) => Some(
            values
                .iter()
                .map(|v| match v {
                    Flat::Bottom => V::Bot,
                    Flat::Value(c) => V::C(*c),
                    Flat::Top => V::Top,
                })
                .collect(),
        ),
    }
}

fn config(seed: u64) -> ToyGenConfig {
    ToyGenConfig {
        instrs: 4 + (seed % 23) as usize,
        names: 2 + (seed % 4) as usize,
        jump_percent: 15 + (seed % 4) as u32 * 10,
        init_names: seed % 3 != 0,
    }
}

fn flat(program: &ToyProgram, conditional: bool, strategy: Strategy) -> ToyAnalysis<Flat<i64>> {
    let result = analyze_toy(program, conditional, strategy, &Limits::default());
    assert!(result.stop.is_stable(), "{program}");
    result
}

#[test]
fn const_and_sccp_agree_with_the_naive_reference() {
    for seed in 0..PROGRAMS {
        let program = random_toy(seed, &config(seed));
        for conditional in [false, true] {
            let expected = reference(&program, conditional);
            for strategy in [Strategy::Worklist, Strategy::GraphFree] {
                let result = flat(&program, conditional, strategy);
                let got: Vec<State> = result
                    .points
                    .iter()
                    .chain(std::iter::once(&result.exit))
                    .map(to_reference)
                    .collect();
                assert_eq!(
                    got, expected,
                    "seed {seed}, conditional {conditional}, {strategy:?}, program:\n{program}"
                );
            }
        }
    }
}

#[test]
fn sccp_is_at_least_as_precise_as_const() {
    let mut strictly_better = 0;
    for seed in 0..PROGRAMS {
        let program = random_toy(seed, &config(seed));
        let plain = flat(&program, false, Strategy::Worklist);
        let sccp = flat(&program, true, Strategy::Worklist);
        for (s, c) in sccp.points.iter().zip(&plain.points) {
            assert!(
                s.leq(c),
                "seed {seed}: sccp {s:?} is not below const {c:?}\n{program}"
            );
        }
        if sccp.points != plain.points {
            strictly_better += 1;
        }
    }
    // The comparison must exercise programs where the conditions matter.
    assert!(
        strictly_better > PROGRAMS / 20,
        "only {strictly_better} programs differ"
    );
}

/// Runs `program` concretely and checks every observed value against `points`/`exit`.
fn check_sound<D: ValueDomain>(program: &ToyProgram, result: &ToyAnalysis<D>, what: &str) -> u64 {
    let mut checked = 0;
    let n = program.instrs.len();
    run_toy(program, 2_000, |pc, env| {
        let abstract_env = if pc < n {
            &result.points[pc]
        } else {
            &result.exit
        };
        assert!(
            abstract_env.is_reachable(),
            "{what}: pc {pc} is reached but inferred unreachable\n{program}"
        );
        for (i, v) in env.iter().enumerate() {
            if let Some(v) = v {
                let a = abstract_env.get(NameId::new(i));
                assert!(
                    a.contains(*v),
                    "{what}: at pc {pc}, {} = {v} is not in {a}\n{program}",
                    program.names[i]
                );
                checked += 1;
            }
        }
    });
    checked
}

#[test]
fn every_analysis_is_sound_on_random_programs() {
    let mut checked = 0;
    for seed in 0..PROGRAMS {
        let program = random_toy(seed, &config(seed));
        for conditional in [false, true] {
            for strategy in [Strategy::Worklist, Strategy::GraphFree] {
                let result = flat(&program, conditional, strategy);
                checked += check_sound(&program, &result, &format!("seed {seed} flat"));
            }
        }
        let intervals: ToyAnalysis<Interval> =
            analyze_toy(&program, true, Strategy::Worklist, &Limits::default());
        assert!(intervals.stop.is_stable());
        checked += check_sound(&program, &intervals, &format!("seed {seed} interval"));
    }
    eprintln!("checked {checked} concrete values against abstract ones");
    assert!(checked > PROGRAMS * 10);
}

#[test]
fn declared_products_are_sound_on_random_programs() {
    use absinthe_dsl_examples::disjunctive::value::Disjunctive;
    use absinthe_dsl_examples::seed::value::SeedValue;
    use absinthe_dsl_examples::signs::value::{DirectSignals, Signals};
    fn one<D: ValueDomain>(program: &ToyProgram, what: &str) -> u64 {
        let result: ToyAnalysis<D> =
            analyze_toy(program, true, Strategy::Worklist, &Limits::default());
        assert!(result.stop.is_stable(), "{what}: {:?}", result.stop);
        check_sound(program, &result, what)
    }
    let programs = 500;
    let mut checked = 0;
    for seed in 0..programs {
        let program = random_toy(seed, &config(seed));
        checked += one::<SeedValue>(&program, &format!("seed {seed} seed"));
        checked += one::<Signals>(&program, &format!("seed {seed} signs"));
        checked += one::<DirectSignals>(&program, &format!("seed {seed} direct"));
        checked += one::<Disjunctive>(&program, &format!("seed {seed} disjunctive"));
    }
    eprintln!("checked {checked} concrete values against declared products");
    assert!(checked > programs * 10);
}
