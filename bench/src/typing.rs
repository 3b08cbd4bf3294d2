//! `typing-join`: how the typing environment's join scales. An ancestor environment of 10³ to
//! 10⁶ names; two branches derived from it, each refining the same `k` names differently (one to
//! the constructor `A`, the other to `B`) and passing one argument; the join of the two. The
//! time should follow `k`, not the size of the environment: a join reads only what the branches
//! changed since their common ancestor, and the environment's tables are shared, not copied.

use crate::clock::Clock;
use absinthe_typing_env::{Approx, Branch, Name, TypingEnv};
use std::time::Duration;

/// The ancestor: `n` variables, every fourth a pair of its two predecessors (so that the
/// environment holds relations, not only unknowns).
fn ancestor(n: usize) -> (TypingEnv, Vec<Name>) {
    let mut env = TypingEnv::new();
    let mut names = Vec::with_capacity(n);
    for i in 0..n {
        let approx = if i >= 2 && i % 4 == 0 {
            Approx::tuple(vec![
                Approx::Alias(names[i - 1]),
                Approx::Alias(names[i - 2]),
            ])
        } else {
            Approx::Top
        };
        names.push(env.define(&format!("x{i}"), approx));
    }
    (env, names)
}

/// A branch refining `k` names spread over the environment (odd positions: unknowns, not pairs)
/// to the constructor `ctor`.
fn branch(ancestor: &TypingEnv, names: &[Name], k: usize, ctor: &str) -> TypingEnv {
    let step = (names.len() / k).max(2);
    let mut env = ancestor.clone();
    for name in (0..k).map(|j| names[((j * step) | 1).min(names.len() - 1)]) {
        env = env
            .refine(name, &Approx::ctor(ctor))
            .expect("an unknown name takes any constructor");
    }
    env
}

/// Runs the benchmark for sizes 10³ to 10^`max_exp`.
pub fn run(max_exp: u32) {
    println!(
        "{:>9} {:>6} {:>9} {:>12} {:>14}",
        "names", "k", "runs", "join (µs)", "vs 10x fewer"
    );
    for k in [1, 16, 256] {
        let mut previous: Option<Duration> = None;
        for exp in 3..=max_exp.max(3) {
            let n = 10usize.pow(exp);
            let (env, names) = ancestor(n);
            let a = branch(&env, &names, k, "A");
            let b = branch(&env, &names, k, "B");
            let args_a = [Approx::ctor("A")];
            let args_b = [Approx::ctor("B")];
            let branches = [
                Branch {
                    env: &a,
                    args: &args_a,
                },
                Branch {
                    env: &b,
                    args: &args_b,
                },
            ];
            let runs = 51;
            let mut times = Vec::with_capacity(runs);
            let mut joined_len = 0;
            for _ in 0..runs {
                let start = Clock::start();
                let (joined, _) = env.join(&branches, &["p"]);
                times.push(start.elapsed());
                joined_len = joined.len();
            }
            assert!(joined_len > n, "the join defines the parameter");
            times.sort();
            let median = times[runs / 2];
            let growth = previous.map_or_else(
                || "-".to_owned(),
                |p| format!("{:.2}x", median.as_secs_f64() / p.as_secs_f64().max(1e-12)),
            );
            println!(
                "{n:>9} {k:>6} {runs:>9} {:>12.1} {growth:>14}",
                median.as_secs_f64() * 1e6
            );
            previous = Some(median);
        }
    }
    println!(
        "join: median of the runs; vs 10x fewer: this size's time over the time with ten times \
         fewer names and the same k (1.00x: the join does not grow with the environment)"
    );
}
