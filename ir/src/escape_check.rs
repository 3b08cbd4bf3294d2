//! Checking the escape analysis of `absinthe::heap::escape` against runs, in every frame:
//!
//! - every object a name holds is in the name's points-to set: an object the frame allocated as
//!   its site's most recent or older location (or, once that location has escaped to unknown
//!   code, as an unknown object), any other as a parameter's or an unknown object;
//! - names that must alias (all pointing to exactly one parameter's object) hold one object;
//! - a forwarded load reads the value of the operand it is forwarded to;
//! - every integer a name holds lies in the name's value in the same heap's values (a
//!   forwarded load's value is the stored operand's, met with the domain's);
//! - a point the analysis calls unreachable is never reached;
//! - when the run's top-level function returns or throws, every object it allocated that is
//!   reachable from the value returned or thrown is said to escape (returned or thrown there,
//!   or to unknown code).

use std::collections::{BTreeMap, BTreeSet};

use absinthe::heap::Site;
use absinthe::heap::escape::{Allocation, FunctionFacts, Heap, Loc, Place};
use absinthe::program::{BlockId, FuncId, NameId, Operand, Rhs, Stmt};
use absinthe::value::{Env, ValueDomain};

use crate::function::Module;
use crate::interp::{self, Limits, Outcome, Run, Value};

/// What checking the escape analysis against runs found.
#[derive(Clone, Debug, Default)]
pub struct EscapeCheck {
    /// Runs made (runs that ran out of steps or depth are left out).
    pub runs: usize,
    /// Points of all frames compared with the heaps there.
    pub points: usize,
    /// Forwarded loads executed and compared.
    pub loads: usize,
    /// Disagreements, described.
    pub violations: Vec<String>,
}

/// One frame of a run being watched.
struct Frame {
    func: FuncId,
    /// The objects the frame allocated, with their sites.
    born: BTreeMap<u32, Site>,
    /// Each site's most recent object in the frame.
    latest: BTreeMap<Site, u32>,
    /// The point the frame was last seen at.
    last: Option<(BlockId, usize)>,
}

/// Runs `entry` of `module` on `args` and checks `facts` (one per function) at every point of
/// every frame; adds what it finds to `check`.
pub fn check_run<D: ValueDomain>(
    module: &Module,
    facts: &[FunctionFacts<D>],
    entry: FuncId,
    args: &[i64],
    limits: &Limits,
    check: &mut EscapeCheck,
) {
    let mut frames: Vec<Frame> = Vec::new();
    let mut points = 0;
    let mut loads = 0;
    let mut violations = Vec::new();
    let mut observe =
        |depth: usize, func: FuncId, block: BlockId, index: usize, env: &[Option<Value>]| {
            frames.truncate(depth);
            while frames.len() < depth {
                frames.push(Frame {
                    func,
                    born: BTreeMap::new(),
                    latest: BTreeMap::new(),
                    last: None,
                });
            }
            let Some(frame) = frames.last_mut() else {
                return;
            };
            if frame.func != func {
                *frame = Frame {
                    func,
                    born: BTreeMap::new(),
                    latest: BTreeMap::new(),
                    last: None,
                };
            }
            let (Some(function), Some(facts)) = (module.function(func), facts.get(func.index()))
            else {
                return;
            };
            let here = |b: BlockId, i: usize| {
                let label = function
                    .blocks()
                    .get(b.index())
                    .map_or("?", |b| b.label.as_str());
                format!("`{}` at {label}:{i}", function.name)
            };
            if let Some((b, i)) = frame.last {
                if let Some(Stmt::Assign { dest, rhs }) = function
                    .blocks()
                    .get(b.index())
                    .and_then(|blk| blk.stmts.get(i))
                {
                    let value = env.get(dest.index()).copied().flatten();
                    match rhs {
                        Rhs::New | Rhs::Block(..) | Rhs::Closure(..) | Rhs::Sibling(..) => {
                            if let Some(Value::Ref(r)) = value {
                                let site = Site {
                                    block: b,
                                    index: i as u32,
                                };
                                frame.born.insert(r, site);
                                frame.latest.insert(site, r);
                            }
                        }
                        Rhs::Load(..) | Rhs::Field(..) => {
                            let place = Place {
                                block: b,
                                index: i as u32,
                            };
                            let forwarded = facts.loads.get(&place).and_then(|f| f.forwarded);
                            if let Some(o) = forwarded {
                                if o != Operand::Name(*dest) {
                                    loads += 1;
                                    let expected = match o {
                                        Operand::Name(n) => env.get(n.index()).copied().flatten(),
                                        Operand::Int(c) => Some(Value::Int(c)),
                                    };
                                    if expected != value {
                                        violations.push(format!(
                                            "{}: the load is forwarded, but it read {value:?} \
                                             where the operand holds {expected:?}",
                                            here(b, i)
                                        ));
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            frame.last = Some((block, index));
            points += 1;
            let state = facts
                .before
                .get(block.index())
                .and_then(|states| states.get(index));
            let Some(state) = state.filter(|s| !s.disjuncts().is_empty()) else {
                violations.push(format!(
                    "{}: reached, but the analysis says it is unreachable",
                    here(block, index)
                ));
                return;
            };
            if !state
                .disjuncts()
                .iter()
                .any(|d| describes(&d.heap, env, frame) && values_hold(&d.values, env))
            {
                violations.push(format!(
                    "{}: no heap with its values describes the frame's names {}",
                    here(block, index),
                    refs_text(function, env, frame)
                ));
            }
        };
    let run = interp::run_all_frames(module, entry, args, limits, &mut observe);
    if matches!(run.outcome, Outcome::OutOfSteps | Outcome::TooDeep) {
        return;
    }
    check.runs += 1;
    check.points += points;
    check.loads += loads;
    check.violations.extend(violations);
    if let (Some(top), Some(facts)) = (frames.first(), facts.get(entry.index())) {
        check_escapes(
            module,
            &facts.allocations,
            &run,
            top,
            entry,
            &mut check.violations,
        );
    }
}

/// Whether every integer the frame's names hold lies in the name's abstract value.
fn values_hold<D: ValueDomain>(values: &Env<D>, env: &[Option<Value>]) -> bool {
    env.iter().enumerate().all(|(x, v)| match v {
        Some(Value::Int(c)) => values.get(NameId(x as u32)).contains(*c),
        _ => true,
    })
}

/// Whether `heap` describes the frame's names.
fn describes(heap: &Heap, env: &[Option<Value>], frame: &Frame) -> bool {
    let mut must: BTreeMap<u32, u32> = BTreeMap::new();
    for (x, v) in env.iter().enumerate() {
        let Some(Value::Ref(r)) = v else {
            continue;
        };
        let empty = BTreeSet::new();
        let points = heap.points.get(&NameId(x as u32)).unwrap_or(&empty);
        let ok = match frame.born.get(r) {
            Some(&site) => {
                let want = if frame.latest.get(&site) == Some(r) {
                    Loc::Recent(site)
                } else {
                    Loc::Old(site)
                };
                points.contains(&want) || (points.contains(&Loc::Unknown) && heap.is_exposed(want))
            }
            None => points
                .iter()
                .any(|l| matches!(l, Loc::Param(_) | Loc::Unknown)),
        };
        if !ok {
            return false;
        }
        if let [Loc::Param(i)] = points.iter().copied().collect::<Vec<_>>()[..] {
            if *must.entry(i).or_insert(*r) != *r {
                return false;
            }
        }
    }
    true
}

fn refs_text(function: &crate::function::Function, env: &[Option<Value>], frame: &Frame) -> String {
    let parts: Vec<String> = env
        .iter()
        .enumerate()
        .filter_map(|(x, v)| match v {
            Some(Value::Ref(r)) => Some(format!(
                "{} = object {r}{}",
                function.names.get(x).map_or("?", String::as_str),
                frame.born.get(r).map_or(String::new(), |s| format!(
                    " (made at bb{}:{})",
                    s.block.index(),
                    s.index
                ))
            )),
            _ => None,
        })
        .collect();
    parts.join(", ")
}

/// The top-level frame's objects reachable from what the run returned or threw must escape.
fn check_escapes(
    module: &Module,
    allocations: &[Allocation],
    run: &Run,
    top: &Frame,
    entry: FuncId,
    violations: &mut Vec<String>,
) {
    let (value, returned) = match run.outcome {
        Outcome::Returned(Some(v)) => (v, true),
        Outcome::Threw(Some(v)) => (v, false),
        _ => return,
    };
    let mut seen = BTreeSet::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        let Value::Ref(r) = v else {
            continue;
        };
        if !seen.insert(r) {
            continue;
        }
        if let Some(fields) = run.heap.get(r as usize) {
            stack.extend(fields.iter().flatten().copied());
        }
    }
    let name = module.function(entry).map_or("?", |f| f.name.as_str());
    for r in seen {
        let Some(site) = top.born.get(&r) else {
            continue;
        };
        let Some(allocation) = allocations.iter().find(|a| a.site == *site) else {
            continue;
        };
        let e = &allocation.escape;
        let said = !e.global.is_empty()
            || if returned {
                !e.returned.is_empty()
            } else {
                !e.thrown.is_empty()
            };
        if !said {
            violations.push(format!(
                "`{name}`: object {r}, made at bb{}:{}, is {} but the analysis says: {}",
                site.block.index(),
                site.index,
                if returned { "returned" } else { "thrown" },
                e
            ));
        }
    }
}
