//! Runs of every function of a module on random arguments, for the checks of the analyses with
//! drivers of their own (the typing environment, the alias heap): each run with the variables
//! it held before every statement and terminator of the top-level frame.

use absinthe::program::{BlockId, FuncId};
use absinthe_ir::function::Module;
use absinthe_ir::interp::{self, Outcome, Run, Value};

/// One finished run: the function, its arguments, what the interpreter returned and the
/// variables before each point (block, statement index) it passed, in order.
#[derive(Debug)]
pub struct Observed<'a> {
    /// The function run.
    pub function: FuncId,
    /// Its arguments.
    pub args: &'a [i64],
    /// The run (outcome, heap, objects' kinds and allocation sites).
    pub run: &'a Run,
    /// The variables before each point.
    pub points: &'a [(BlockId, usize, Vec<Option<Value>>)],
}

/// Runs every function of `module` `runs` times on arguments from -10 to 10 drawn from `seed`
/// (runs that exceed `max_steps` or the depth are left out) and gives each to `check`; returns
/// how many runs were checked.
pub fn each_run(
    module: &Module,
    runs: usize,
    seed: u64,
    max_steps: u64,
    check: &mut dyn FnMut(Observed<'_>),
) -> usize {
    let limits = interp::Limits {
        max_steps,
        ..interp::Limits::default()
    };
    let mut checked = 0;
    for (function, args) in arguments(module, runs, seed) {
        let mut points: Vec<(BlockId, usize, Vec<Option<Value>>)> = Vec::new();
        let mut observe = |b: BlockId, i: usize, env: &[Option<Value>]| {
            points.push((b, i, env.to_vec()));
        };
        let run = interp::run(module, function, &args, &limits, &mut observe);
        if matches!(run.outcome, Outcome::OutOfSteps | Outcome::TooDeep) {
            continue;
        }
        checked += 1;
        check(Observed {
            function,
            args: &args,
            run: &run,
            points: &points,
        });
    }
    checked
}

/// The functions of `module` each `runs` times, with arguments from -10 to 10 drawn from `seed`:
/// the runs every check with a driver of its own makes.
pub fn arguments(module: &Module, runs: usize, seed: u64) -> Vec<(FuncId, Vec<i64>)> {
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut out = Vec::new();
    for (f, function) in module.functions.iter().enumerate() {
        for _ in 0..runs {
            let args: Vec<i64> = function
                .params
                .iter()
                .map(|_| (next() % 21) as i64 - 10)
                .collect();
            out.push((FuncId(f as u32), args));
        }
    }
    out
}
