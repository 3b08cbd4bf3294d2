//! Checking the escape analysis of `absinthe_heap::escape` against runs, in every frame:
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

use std::collections::{BTreeMap, BTreeSet, HashMap};

use absinthe::program::{BlockId, FuncId, NameId, Operand, Rhs, Stmt};
use absinthe::value::{Env, ValueDomain};
use absinthe_heap::Site;
use absinthe_heap::escape::{FunctionFacts, Heap, Loc, Place, States};

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
    /// Objects a frame made that were returned, thrown or left reachable from its caller's
    /// objects, compared with where the analysis says they escape.
    pub escapes: usize,
    /// Disagreements, described.
    pub violations: Vec<String>,
}

/// One frame of a run being watched.
struct Frame {
    func: FuncId,
    /// The objects the frame's inputs (parameters, then captures) held on entry.
    inputs: Vec<u32>,
    /// The objects the frame allocated, with their sites.
    born: BTreeMap<u32, Site>,
    /// Each site's most recent object in the frame.
    latest: BTreeMap<Site, u32>,
    /// The point the frame was last seen at.
    last: Option<(BlockId, usize)>,
}

/// Runs `entry` of `module` on `args` and checks `facts` (one per function) at every point of
/// every frame, and every frame's escapes when it returns; adds what it finds to `check`.
pub fn check_run<D: ValueDomain>(
    module: &Module,
    facts: &[FunctionFacts<D>],
    entry: FuncId,
    args: &[i64],
    limits: &Limits,
    check: &mut EscapeCheck,
) {
    let mut watch = Watch {
        module,
        facts,
        frames: Vec::new(),
        states: HashMap::new(),
        points: 0,
        loads: 0,
        escapes: 0,
        violations: Vec::new(),
    };
    let run = interp::run_all_frames(module, entry, args, limits, &mut watch);
    if matches!(run.outcome, Outcome::OutOfSteps | Outcome::TooDeep) {
        return;
    }
    check.runs += 1;
    check.points += watch.points;
    check.loads += watch.loads;
    check.escapes += watch.escapes;
    check.violations.extend(watch.violations);
    if let Outcome::Threw(Some(thrown)) = run.outcome {
        check.escapes += check_thrown(
            module,
            facts,
            &run,
            &watch.frames,
            thrown,
            &mut check.violations,
        );
    }
}

/// The objects reachable from `roots` in `heap`.
fn reachable(heap: &[Vec<Option<Value>>], roots: impl Iterator<Item = Value>) -> BTreeSet<u32> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<Value> = roots.collect();
    while let Some(v) = stack.pop() {
        let Value::Ref(r) = v else {
            continue;
        };
        if !seen.insert(r) {
            continue;
        }
        if let Some(fields) = heap.get(r as usize) {
            stack.extend(fields.iter().flatten().copied());
        }
    }
    seen
}

/// The run being watched: its frames and what was found so far.
struct Watch<'a, D> {
    module: &'a Module,
    facts: &'a [FunctionFacts<D>],
    frames: Vec<Frame>,
    /// The states inside each block reached so far, rebuilt from its entry once.
    states: HashMap<(FuncId, BlockId), Vec<States<D>>>,
    points: usize,
    loads: usize,
    escapes: usize,
    violations: Vec<String>,
}

impl<D: ValueDomain> interp::FrameObserver for Watch<'_, D> {
    fn before(
        &mut self,
        depth: usize,
        func: FuncId,
        block: BlockId,
        index: usize,
        env: &[Option<Value>],
    ) {
        let fresh =
            self.frames.len() < depth || self.frames.get(depth - 1).is_some_and(|f| f.func != func);
        if fresh {
            // A new frame: its inputs (parameters, then captures) are its caller's objects.
            let inputs: Vec<u32> = self
                .module
                .function(func)
                .map(|f| {
                    f.params
                        .iter()
                        .chain(&f.captures)
                        .filter_map(|n| match env.get(n.index()) {
                            Some(Some(Value::Ref(r))) => Some(*r),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            self.frames.truncate(depth - 1);
            self.frames.push(Frame {
                func,
                inputs,
                born: BTreeMap::new(),
                latest: BTreeMap::new(),
                last: None,
            });
        }
        self.point(depth, func, block, index, env);
    }

    fn returning(
        &mut self,
        depth: usize,
        func: FuncId,
        value: Option<Value>,
        heap: &[Vec<Option<Value>>],
    ) {
        let (Some(frame), Some(facts)) = (self.frames.get(depth - 1), self.facts.get(func.index()))
        else {
            return;
        };
        let name = self.module.function(func).map_or("?", |f| f.name.as_str());
        // What the frame returns may be its own objects only if they are said to be returned
        // (or to escape); what its inputs reach, only if they are said to escape.
        let returned = reachable(heap, value.into_iter());
        let kept = reachable(heap, frame.inputs.iter().map(|&r| Value::Ref(r)));
        for (r, site) in &frame.born {
            let Some(allocation) = facts.allocations.iter().find(|a| a.site == *site) else {
                continue;
            };
            if returned.contains(r) || kept.contains(r) {
                self.escapes += 1;
            }
            let e = &allocation.escape;
            let wrong = if returned.contains(r) && e.returned.is_empty() && e.global.is_empty() {
                Some("returned")
            } else if kept.contains(r) && e.global.is_empty() {
                Some("reachable from the caller's objects")
            } else {
                None
            };
            if let Some(how) = wrong {
                self.violations.push(format!(
                    "`{name}`: object {r}, made at bb{}:{}, is {how} when the function returns, \
                     but the analysis says: {e}",
                    site.block.index(),
                    site.index,
                ));
            }
        }
        self.frames.truncate(depth - 1);
    }
}

impl<D: ValueDomain> Watch<'_, D> {
    /// Checks the frame `depth` calls deep at a point.
    fn point(
        &mut self,
        depth: usize,
        func: FuncId,
        block: BlockId,
        index: usize,
        env: &[Option<Value>],
    ) {
        self.frames.truncate(depth);
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let (Some(function), Some(facts)) =
            (self.module.function(func), self.facts.get(func.index()))
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
                                self.loads += 1;
                                let expected = match o {
                                    Operand::Name(n) => env.get(n.index()).copied().flatten(),
                                    Operand::Int(c) => Some(Value::Int(c)),
                                };
                                if expected != value {
                                    self.violations.push(format!(
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
        self.points += 1;
        let state = self
            .states
            .entry((func, block))
            .or_insert_with(|| facts.states_before(function, block))
            .get(index);
        let Some(state) = state.filter(|s| !s.disjuncts().is_empty()) else {
            self.violations.push(format!(
                "{}: reached, but the analysis says it is unreachable",
                here(block, index)
            ));
            return;
        };
        // Names holding one object must be in one may-alias group.
        let mut holder: BTreeMap<u32, NameId> = BTreeMap::new();
        for (x, v) in env.iter().enumerate() {
            let (Some(Value::Ref(r)), name) = (v, NameId(x as u32)) else {
                continue;
            };
            let first = *holder.entry(*r).or_insert(name);
            if !facts.may_alias(first, name) {
                self.violations.push(format!(
                    "{}: `{}` and `{}` hold one object, but no may-alias group has both",
                    here(block, index),
                    function.names[first.index()],
                    function.names[name.index()]
                ));
            }
        }
        if !state
            .disjuncts()
            .iter()
            .any(|d| describes(&d.heap, env, frame, facts) && values_hold(&d.values, env))
        {
            self.violations.push(format!(
                "{}: no heap with its values describes the frame's names {}",
                here(block, index),
                refs_text(function, env, frame)
            ));
        }
    }
}

/// Whether every integer the frame's names hold lies in the name's abstract value.
fn values_hold<D: ValueDomain>(values: &Env<D>, env: &[Option<Value>]) -> bool {
    env.iter().enumerate().all(|(x, v)| match v {
        Some(Value::Int(c)) => values.get(NameId(x as u32)).contains(*c),
        _ => true,
    })
}

/// Whether `heap` describes the frame's names. A name may hold one of the frame's own objects
/// where it may point to an unknown object if that object is exposed in the heap, or if its
/// site's objects are said to escape to unknown code (the analysis drops objects no name
/// reaches; one that had escaped is an unknown object from then on).
fn describes<D>(
    heap: &Heap,
    env: &[Option<Value>],
    frame: &Frame,
    facts: &FunctionFacts<D>,
) -> bool {
    let escaped = |loc: Loc, site: Site| {
        heap.is_exposed(loc)
            || facts
                .allocations
                .iter()
                .any(|a| a.site == site && !a.escape.global.is_empty())
    };
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
                points.contains(&want) || (points.contains(&Loc::Unknown) && escaped(want, site))
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

/// A throw ends the run: the objects of every frame on the stack that the thrown value reaches
/// must be said to be thrown (or to escape). Returns how many were compared.
fn check_thrown<D>(
    module: &Module,
    facts: &[FunctionFacts<D>],
    run: &Run,
    frames: &[Frame],
    thrown: Value,
    violations: &mut Vec<String>,
) -> usize {
    let mut checked = 0;
    let seen = reachable(&run.heap, std::iter::once(thrown));
    for frame in frames {
        let name = module.function(frame.func).map_or("?", |f| f.name.as_str());
        let Some(facts) = facts.get(frame.func.index()) else {
            continue;
        };
        for (r, site) in &frame.born {
            if !seen.contains(r) {
                continue;
            }
            let Some(allocation) = facts.allocations.iter().find(|a| a.site == *site) else {
                continue;
            };
            checked += 1;
            let e = &allocation.escape;
            if e.thrown.is_empty() && e.global.is_empty() {
                violations.push(format!(
                    "`{name}`: object {r}, made at bb{}:{}, is thrown but the analysis says: {e}",
                    site.block.index(),
                    site.index,
                ));
            }
        }
    }
    checked
}
