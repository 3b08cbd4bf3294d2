//! Intervals with a packed octagon or zone beside them, against concrete runs of random
//! functions: every state a run reaches is within the analysis's state there (each name's
//! interval, every constraint of the relation), on 1,000 functions per domain, and on 1,000
//! more made to look like fixed-width code (wraps, masks, unsigned comparisons).

use absinthe::engine::{Limits as EngineLimits, StopReason, solve};
use absinthe::lattice::Interval;
use absinthe::program::{BlockId, Cfg, FuncId, NameId, Program};
use absinthe::relational::{
    Constraint, IntervalBounds, Octagon, RelState, Relational, WithRelation, Zone,
};
use absinthe_ir::function::Function;
use absinthe_ir::generate::{GenConfig, Rng, random_function};
use absinthe_ir::interp::{Limits, Value, run};

/// The state before each statement of each block (and before its terminator), replayed from
/// the block's entry state.
fn states_before<R: Relational + Clone>(
    func: &Function,
    analysis: &WithRelation<Interval, R, IntervalBounds>,
    entry: &[RelState<Interval, R>],
) -> Vec<Vec<RelState<Interval, R>>> {
    (0..func.block_count())
        .map(|b| {
            let mut state = entry[b].clone();
            let mut out = vec![state.clone()];
            for stmt in func.stmts(BlockId(b as u32)) {
                analysis.transfer_stmt(stmt, &mut state);
                out.push(state.clone());
            }
            out
        })
        .collect()
}

/// `module`'s function made to look like fixed-width code lowered to 64 bits: each
/// multiplication by a constant `c` becomes a wrap `trunc N` (N from 2 to 41, some below the
/// values the function computes, some above), each `xor` with a constant `c` the mask
/// `and 2^k - 1`, and every signed comparison of a branch the unsigned one, so that the
/// relation's wraps-as-copies ([`absinthe::relational::copy_within`]) and unsigned guards are
/// checked against runs.
fn fixed_width(module: absinthe_ir::function::Module) -> absinthe_ir::function::Module {
    use absinthe::program::{Cond, Op, Operand, Rhs, Stmt, Terminator};
    let mut module = module;
    let func = module.functions.remove(0);
    let (name, ssa, params, names) = (
        func.name.clone(),
        func.ssa,
        func.params.clone(),
        func.names.clone(),
    );
    let mut blocks = func.into_blocks();
    for block in &mut blocks {
        for stmt in &mut block.stmts {
            if let Stmt::Assign { rhs, .. } = stmt {
                match *rhs {
                    Rhs::Binary(Op::Mul, a @ Operand::Name(_), Operand::Int(c)) => {
                        *rhs = Rhs::Binary(Op::Trunc, a, Operand::Int(2 + c.rem_euclid(40)));
                    }
                    Rhs::Binary(Op::Xor, a @ Operand::Name(_), Operand::Int(c)) => {
                        *rhs = Rhs::Binary(
                            Op::And,
                            a,
                            Operand::Int((1i64 << (1 + c.rem_euclid(40))) - 1),
                        );
                    }
                    _ => {}
                }
            }
        }
        if let Terminator::Branch {
            cond: Cond::Compare(op, _, _),
            ..
        } = &mut block.term
        {
            *op = match *op {
                Op::Lt => Op::ULt,
                Op::Le => Op::ULe,
                Op::Gt => Op::UGt,
                Op::Ge => Op::UGe,
                other => other,
            };
        }
    }
    module
        .functions
        .insert(0, Function::new(name, ssa, params, names, blocks));
    module
}

/// Checks `R` on `functions` random functions (made [`fixed_width`] when `wraps`); the number
/// of points checked and of states with a relation between two names.
fn sound_on_random_functions<R: Relational + Clone>(functions: u64, wraps: bool) -> (u64, u64) {
    let mut rng = Rng::new(35);
    let (mut points, mut relational) = (0u64, 0u64);
    for seed in 0..functions {
        let config = GenConfig {
            back_percent: 10 + (seed % 5) as u32 * 15,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
        let module = if wraps { fixed_width(module) } else { module };
        let func = &module.functions[0];
        let analysis = WithRelation::<Interval, R, _>::new(true, 8, IntervalBounds);
        let solution = solve(func, &analysis, &EngineLimits::default());
        assert_eq!(solution.stop, StopReason::Stable, "seed {seed}\n{module}");
        let states = states_before(func, &analysis, &solution.entry);
        relational += states
            .iter()
            .flatten()
            .filter(|s| {
                s.rel
                    .constraints()
                    .iter()
                    .any(|c| !matches!(c, Constraint::Upper(..) | Constraint::Lower(..)))
            })
            .count() as u64;
        for _ in 0..4 {
            let args: Vec<i64> = func.params.iter().map(|_| rng.literal()).collect();
            let limits = Limits {
                max_steps: 2_000,
                ..Limits::default()
            };
            let mut observe = |block: BlockId, index: usize, env: &[Option<Value>]| {
                let state = &states[block.0 as usize][index];
                let value = |x: usize| match env.get(x) {
                    Some(Some(Value::Int(v))) => Some(*v),
                    _ => None,
                };
                let context = || {
                    format!(
                        "seed {seed}, arguments {args:?}, block {block:?} before {index}: {}\n{module}",
                        state.text_with(&func.names)
                    )
                };
                assert!(
                    state.is_reachable(),
                    "reached an unreachable state: {}",
                    context()
                );
                for x in 0..env.len() {
                    if let Some(v) = value(x) {
                        assert!(
                            state.env.get(NameId::new(x)).contains(v),
                            "{} = {v} outside its interval: {}",
                            func.names[x],
                            context()
                        );
                    }
                }
                if let Some(c) = state.rel.violated(&value) {
                    panic!(
                        "{} violated: {}",
                        c.text(&|x| func.names[x].clone()),
                        context()
                    );
                }
                points += 1;
            };
            run(&module, FuncId(0), &args, &limits, &mut observe);
        }
    }
    (points, relational)
}

#[test]
fn intervals_with_octagons_hold_every_concrete_state() {
    let (points, relational) = sound_on_random_functions::<Octagon>(1000, false);
    assert!(points > 50_000, "only {points} points checked");
    assert!(
        relational > 1_000,
        "only {relational} states relate two names"
    );
}

#[test]
fn intervals_with_zones_hold_every_concrete_state() {
    let (points, relational) = sound_on_random_functions::<Zone>(1000, false);
    assert!(points > 50_000, "only {points} points checked");
    assert!(
        relational > 1_000,
        "only {relational} states relate two names"
    );
}

/// The same on fixed-width code: wraps to a width, masks and unsigned comparisons.
#[test]
fn wraps_masks_and_unsigned_comparisons_hold_every_concrete_state() {
    for (points, relational) in [
        sound_on_random_functions::<Octagon>(1000, true),
        sound_on_random_functions::<Zone>(1000, true),
    ] {
        assert!(points > 50_000, "only {points} points checked");
        assert!(
            relational > 1_000,
            "only {relational} states relate two names"
        );
    }
}

/// The analysis of `text`'s function `main`, and the state before each point, by block name.
fn analyze<R: Relational + Clone>(text: &str) -> (Function, Vec<Vec<RelState<Interval, R>>>) {
    let module = absinthe_ir::air::parse_module("test.air", text).expect("the example parses");
    let func = module.functions[0].clone();
    let analysis = WithRelation::<Interval, R, _>::new(true, 8, IntervalBounds);
    let solution = solve(&func, &analysis, &EngineLimits::default());
    assert_eq!(solution.stop, StopReason::Stable);
    let states = states_before(&func, &analysis, &solution.entry);
    (func, states)
}

/// `for (i = 0; i < n; i++)` with `n ≥ 0` a parameter: in the body `0 ≤ i < n`, at the exit
/// `i = n` (intervals alone know `i ≥ 0` only). An access `a[i]` with `a` of length `n` is in
/// bounds.
#[test]
fn a_loop_up_to_a_parameter_stays_below_it() {
    let (func, states) = analyze::<Octagon>(
        "fn main(n) {
bb0:
    br n >= 0, start, out
start:
    i = 0
    goto head
head:
    br i < n, body, done
body:
    i = i + 1
    goto head
done:
    ret i
out:
    ret 0
}",
    );
    let block = |name: &str| func.block_id(name).expect("the block exists").0 as usize;
    let body = &states[block("body")][0];
    assert_eq!(
        body.text_with(&func.names),
        "n = [1, +∞], i = [0, 9223372036854775806] | i - n ≤ -1"
    );
    let done = &states[block("done")][0];
    assert_eq!(
        done.text_with(&func.names),
        "n = [0, +∞], i = [0, +∞] | n - i ≤ 0, i - n ≤ 0"
    );
}

/// `x = y; x = x + 1` decides `x > y` when the increment cannot wrap (`y < 1000`): the branch
/// that would contradict it is unreachable, with octagons and zones alike (intervals cannot:
/// `y` has no lower bound). Without the guard the increment may wrap and nothing is decided.
#[test]
fn a_copy_and_an_increment_decide_a_comparison() {
    let text = "fn main(y) {
bb0:
    br y < 1000, go, ok
go:
    x = y
    x = x + 1
    br x > y, ok, bad
ok:
    ret y
bad:
    ret y
}";
    fn check<R: Relational + Clone>(text: &str) {
        let (func, states) = analyze::<R>(text);
        let block = |name: &str| func.block_id(name).expect("the block exists").0 as usize;
        assert!(!states[block("bad")][0].is_reachable());
        assert!(states[block("ok")][0].is_reachable());
    }
    check::<Octagon>(text);
    check::<Zone>(text);
    let (func, states) = analyze::<Octagon>(&text.replace("br y < 1000, go, ok", "goto go"));
    let bad = func.block_id("bad").expect("the block exists").0 as usize;
    assert!(states[bad][0].is_reachable());
}
