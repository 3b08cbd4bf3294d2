//! The lock: going under a lambda. A closure's body runs with its value slots bound to what its
//! creator captured, and what the creator knew of those values holds in the body too (the
//! values are immutable). But the creator's names are out of the body's scope: under the lock
//! they become existentials. `f = closure body [k, y]` where the creator knows
//! `{x : ?(=y, …); y : 0; k : (=y, =x)}` starts `body` from `{k : (0, =∃x); y : 0; ∃x : ?(0, …)}`:
//! only the names the captured values reach are kept, constants stay constants.
//!
//! A module's closures are created at known places, so after every function is solved, each
//! function whose closures are only ever created by `closure g […]` (never by `closure g of c`,
//! which reuses another closure's slots) is solved again from the join of what its creators
//! knew at each creation: locked environments built from one empty ancestor and joined over it,
//! so what every creator says alike survives, with existentials where they agree. Callers keep
//! the summary of the first solution (made from nothing known of the slots, so true of every
//! run).

use super::approx::{Approx, Name};
use super::env::TypingEnv;
use super::flow::{EnvSolution, analyze_from, operand};
use super::join::Branch;
use super::summary::{Exporter, Summary};
use absinthe::program::{BlockId, Cfg, FuncId, Operand, Program, Rhs, Stmt};

/// A closure body's starting environment under the lock: existentials for what its creators
/// knew, and one name per value slot.
struct Locked {
    env: TypingEnv,
    slots: Vec<Name>,
}

/// Locks `env` (the creator's environment where it builds the closure) for a body whose value
/// slots, labelled `labels`, hold `captured`: a fresh environment from `base` with the slots,
/// then the names of `env` the captured values reach, as existentials. `None` if re-stating what
/// `env` says makes a contradiction (it never should: `env` says it without one), in which case
/// the body is not locked.
fn lock(env: &TypingEnv, base: &TypingEnv, captured: &[Approx], labels: &[&str]) -> Option<Locked> {
    // Each captured value as a name of the creator's environment: the slots are its inputs.
    let mut env = env.clone();
    let inputs: Vec<Name> = captured
        .iter()
        .zip(labels)
        .map(|(value, label)| match value {
            Approx::Alias(name) => *name,
            other => env.define(label, other.clone()),
        })
        .collect();
    let (constraints, existentials) = Exporter::new(&env, &inputs).inputs();
    let mut locked = base.clone();
    let names: Vec<Name> = existentials
        .iter()
        .enumerate()
        .map(|(i, label)| match labels.get(i) {
            Some(slot) => locked.define(slot, Approx::Top),
            None => locked.define_existential(label, Approx::Top),
        })
        .collect();
    let rename = |n: Name| names[n.index()];
    for (position, constraint) in constraints {
        locked = locked.refine(rename(position), &constraint.rename(&rename))?;
    }
    Some(Locked {
        env: locked,
        slots: names[..labels.len()].to_vec(),
    })
}

/// A place that makes closures of a function: `closure g […]` in function `creator`, statement
/// `index` of block `block`, capturing `captured`.
struct Creation {
    creator: FuncId,
    block: BlockId,
    index: usize,
    captured: Vec<Operand>,
}

/// Where closures of each function are created, per function; and whether some `closure g of
/// c` makes closures of it from another's slots.
fn creations<M: absinthe_interproc::Module>(module: &M) -> (Vec<Vec<Creation>>, Vec<bool>)
where
    M::Function: Cfg,
{
    let n = module.function_count();
    let mut sites: Vec<Vec<Creation>> = (0..n).map(|_| Vec::new()).collect();
    let mut shared = vec![false; n];
    for f in (0..n).map(|f| FuncId(f as u32)) {
        // A function without a body (a declaration) runs no statement, so it makes no
        // closure (a call of it draws an integer at most).
        let Some(function) = module.function(f) else {
            continue;
        };
        for b in (0..function.block_count()).map(|b| BlockId(b as u32)) {
            for (i, stmt) in function.stmts(b).iter().enumerate() {
                match stmt {
                    Stmt::Assign {
                        rhs: Rhs::Closure(g, captured),
                        ..
                    } => sites[g.index()].push(Creation {
                        creator: f,
                        block: b,
                        index: i,
                        captured: captured.to_vec(),
                    }),
                    Stmt::Assign {
                        rhs: Rhs::Sibling(_, g),
                        ..
                    } => shared[g.index()] = true,
                    _ => {}
                }
            }
        }
    }
    (sites, shared)
}

/// Solves again, under the lock, every function of `module` whose closures are all created by
/// `closure g […]` at reachable places, replacing its solution in `solved` (its summary stays).
pub(super) fn under_the_lock<M: absinthe_interproc::Module>(
    module: &M,
    start: &TypingEnv,
    solved: &mut [(EnvSolution, Option<Summary>)],
) where
    M::Function: Cfg,
{
    let (sites, shared) = creations(module);
    let base = start.emptied();
    for (g, sites) in sites.iter().enumerate() {
        let code = FuncId(g as u32);
        let Some(body) = module.function(code) else {
            continue;
        };
        if shared[g] || sites.is_empty() || body.captures().is_empty() {
            continue;
        }
        let labels: Vec<&str> = body.captures().iter().map(|&c| body.name(c)).collect();
        let mut locked: Vec<Locked> = Vec::new();
        for site in sites {
            let Some(envs) = &solved[site.creator.index()].0.blocks[site.block.index()] else {
                continue;
            };
            let mut env = envs.before(site.index).clone();
            if env.is_bottom() {
                continue;
            }
            let captured: Vec<Approx> = site
                .captured
                .iter()
                .map(|&o| operand(&mut env, &envs.names, o))
                .collect();
            match lock(&env, &base, &captured, &labels) {
                Some(one) => locked.push(one),
                // Not locked: the first solution stands.
                None => {
                    locked.clear();
                    break;
                }
            }
        }
        let places = locked.len();
        let entry = match places {
            0 => continue,
            1 => locked.pop().expect("one locked environment"),
            _ => {
                let args: Vec<Vec<Approx>> = locked
                    .iter()
                    .map(|l| l.slots.iter().map(|&s| Approx::Alias(s)).collect())
                    .collect();
                let branches: Vec<Branch<'_>> = locked
                    .iter()
                    .zip(&args)
                    .map(|(l, args)| Branch { env: &l.env, args })
                    .collect();
                let (env, slots) = base.join(&branches, &labels);
                Locked { env, slots }
            }
        };
        let mut inputs: Vec<Option<Name>> = vec![None; body.params().len()];
        inputs.extend(entry.slots.iter().map(|&s| Some(s)));
        let summaries: Vec<Option<Summary>> = solved.iter().map(|(_, s)| s.clone()).collect();
        let solution = analyze_from(body, &entry.env, &inputs, Some(code), &mut |f| {
            summaries[f.index()].clone()
        });
        solved[g].0 = EnvSolution {
            locked: places,
            ..solution
        };
    }
}
