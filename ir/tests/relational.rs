//! Intervals with a packed octagon or zone beside them, against concrete runs of random
//! functions: every state a run reaches is within the analysis's state there (each name's
//! interval, every constraint of the relation), on 1,000 functions per domain.

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

/// Checks `R` on `functions` random functions; the number of points checked and of states
/// with a relation between two names.
fn sound_on_random_functions<R: Relational + Clone>(functions: u64) -> (u64, u64) {
    let mut rng = Rng::new(35);
    let (mut points, mut relational) = (0u64, 0u64);
    for seed in 0..functions {
        let config = GenConfig {
            back_percent: 10 + (seed % 5) as u32 * 15,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
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
    let (points, relational) = sound_on_random_functions::<Octagon>(1000);
    assert!(points > 50_000, "only {points} points checked");
    assert!(
        relational > 1_000,
        "only {relational} states relate two names"
    );
}

#[test]
fn intervals_with_zones_hold_every_concrete_state() {
    let (points, relational) = sound_on_random_functions::<Zone>(1000);
    assert!(points > 50_000, "only {points} points checked");
    assert!(
        relational > 1_000,
        "only {relational} states relate two names"
    );
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
