//! The worklist solver: chaotic iteration in weak topological order, widening at component heads,
//! then a few descending passes with narrowing.
//!
//! This is the engine generated analyses run on. It handles both directions by iterating the
//! weak topological order of the graph (forward) or of its [`Reversed`] graph (backward), and
//! keeps its hot loop free of hashing and of allocation other than cloning states.

use super::schedule::{self, Schedule, Visits, incoming_edges};
use super::{Analysis, Direction, Event, Limits, Solution, Stats, StopReason, Tracer};
use crate::cfg::{Reversed, Wto};
use crate::lattice::{Lattice, Thresholds, replace_if_changed};
use crate::program::{BlockId, Cfg};

/// How many times the widening at one head may change its state before the engine concludes
/// that the widening does not stabilise (a broken domain) and stops.
pub const MAX_WIDENINGS_PER_HEAD: u32 = 10_000;

/// Solves `analysis` over `graph` within `limits`.
///
/// The result is a post-fixpoint of the analysis' equations when [`Solution::stop`] is
/// [`StopReason::Stable`], even if the transfers are not monotone; it is the least fixpoint
/// when the lattice has finite height, its widening is the join and the transfers are monotone.
///
/// Relying on the law that transfers map bottom to bottom, the engine never calls a transfer on
/// bottom: blocks the flow does not reach keep bottom at both ends, and edges whose source
/// state is bottom are skipped.
pub fn solve<G, A>(graph: &G, analysis: &A, limits: &Limits) -> Solution<A::State>
where
    G: Cfg + ?Sized,
    A: Analysis<G>,
{
    solve_traced(graph, analysis, limits, &mut ())
}

/// [`solve`], reporting every step to `tracer` (states are cloned for events only when
/// [`Tracer::enabled`] says so).
pub fn solve_traced<G, A>(
    graph: &G,
    analysis: &A,
    limits: &Limits,
    tracer: &mut impl Tracer<A::State>,
) -> Solution<A::State>
where
    G: Cfg + ?Sized,
    A: Analysis<G>,
{
    let mut engine = Engine::new(graph, analysis, limits, tracer);
    let stop = match engine.run() {
        Ok(()) => StopReason::Stable,
        Err(stop) => stop,
    };
    let Engine {
        incoming,
        outgoing,
        stats,
        ..
    } = engine;
    let (entry, exit) = match A::DIRECTION {
        Direction::Forward => (incoming, outgoing),
        Direction::Backward => (outgoing, incoming),
    };
    Solution {
        entry,
        exit,
        stop,
        stats,
    }
}

/// What the engine remembers about one component head.
struct Head {
    /// Joins that grew this head's state so far (widening starts after
    /// `Limits::widening_delay` of them).
    joins: u32,
    /// Widenings that changed the state.
    widenings: u32,
    /// The thresholds of the component, computed at its first widening.
    thresholds: Option<Thresholds>,
}

struct Engine<'a, G: Cfg + ?Sized, A: Analysis<G>, T> {
    graph: &'a G,
    analysis: &'a A,
    limits: &'a Limits,
    tracer: &'a mut T,
    /// The weak topological order of the flow graph (the reversed graph when backward), whose
    /// positions leave out the virtual exit of a backward analysis, and the queue.
    schedule: Schedule,
    heads: Vec<Head>,
    /// Forward only: the incoming edges `(source, successor index)` of each block, as ranges of
    /// `in_edges` delimited by `in_offsets`.
    in_offsets: Vec<u32>,
    in_edges: Vec<(BlockId, u32)>,
    boundary: A::State,
    /// The state flowing into each block's transfer (entry state when forward, exit state when
    /// backward) and the state it produces.
    incoming: Vec<A::State>,
    outgoing: Vec<A::State>,
    stats: Stats,
}

impl<'a, G, A, T> Engine<'a, G, A, T>
where
    G: Cfg + ?Sized,
    A: Analysis<G>,
    T: Tracer<A::State>,
{
    fn new(graph: &'a G, analysis: &'a A, limits: &'a Limits, tracer: &'a mut T) -> Self {
        let n = graph.block_count();
        let (wto, skip) = match A::DIRECTION {
            Direction::Forward => (Wto::new(graph), 0),
            // The virtual exit is the entry of the reversed graph, hence first in its order.
            Direction::Backward => (Wto::new(&Reversed::new(graph)), 1),
        };
        let schedule = Schedule::new(wto, skip, n);
        let heads = (0..schedule.heads())
            .map(|_| Head {
                joins: 0,
                widenings: 0,
                thresholds: None,
            })
            .collect();
        let (in_offsets, in_edges) = match A::DIRECTION {
            Direction::Forward => incoming_edges(graph),
            Direction::Backward => (Vec::new(), Vec::new()),
        };
        Engine {
            graph,
            analysis,
            limits,
            tracer,
            schedule,
            heads,
            in_offsets,
            in_edges,
            boundary: analysis.boundary_state(graph),
            incoming: vec![A::State::bottom(); n],
            outgoing: vec![A::State::bottom(); n],
            stats: Stats::default(),
        }
    }

    fn run(&mut self) -> Result<(), StopReason> {
        if self.graph.block_count() == 0 {
            return Ok(());
        }
        match A::DIRECTION {
            Direction::Forward => self.schedule.push(self.graph.entry()),
            Direction::Backward => {
                for b in (0..self.graph.block_count()).map(BlockId::new) {
                    if self.graph.successors(b).is_empty() {
                        self.schedule.push(b);
                    }
                }
            }
        }
        schedule::run(self, self.limits.narrowing_passes)
    }

    /// Joins or widens `new` into the incoming state of the head `b`; reports whether it changed.
    fn update_head(&mut self, b: BlockId, slot: usize, new: A::State) -> Result<bool, StopReason> {
        let head = &mut self.heads[slot];
        let old = &mut self.incoming[b.index()];
        if new.leq(old) {
            self.trace_join(b, false);
            return Ok(false);
        }
        if head.joins < self.limits.widening_delay {
            head.joins += 1;
            self.stats.joins += 1;
            let changed = old.join_with(&new).changed();
            self.trace_join(b, changed);
            return Ok(changed);
        }
        let (graph, analysis, wto) = (self.graph, self.analysis, &self.schedule.wto);
        let thresholds = head.thresholds.get_or_insert_with(|| {
            analysis.loop_thresholds(graph, wto.component(b).unwrap_or_default())
        });
        let widened = old.widen_with_thresholds(&new, thresholds);
        self.stats.widenings += 1;
        if !(old.leq(&widened) && new.leq(&widened)) {
            return Err(StopReason::LawViolation {
                block: b,
                message: format!(
                    "widening is not an upper bound of its arguments: previous {old:?}, new {new:?}, \
                     widened {widened:?}"
                ),
            });
        }
        if widened == *old {
            return Ok(false);
        }
        head.widenings += 1;
        if head.widenings > MAX_WIDENINGS_PER_HEAD {
            return Err(StopReason::LawViolation {
                block: b,
                message: format!(
                    "widening did not stabilise after {MAX_WIDENINGS_PER_HEAD} changes; \
                     last: previous {old:?}, new {new:?}, widened {widened:?}"
                ),
            });
        }
        if self.tracer.enabled() {
            self.tracer.event(Event::Widen {
                block: b,
                before: old.clone(),
                after: widened.clone(),
            });
        }
        *old = widened;
        Ok(true)
    }

    /// Narrows the incoming state of the head `b` by `new`; reports whether it changed.
    fn narrow_head(&mut self, b: BlockId, new: A::State) -> Result<bool, StopReason> {
        let old = &self.incoming[b.index()];
        if !new.leq(old) {
            // Not a post-fixpoint here (the transfers are not monotone, or a join is inexact):
            // leave the state alone and let the ascending phase repair it after the pass.
            self.schedule.push(b);
            return Ok(false);
        }
        let old = &mut self.incoming[b.index()];
        let narrowed = old.narrow(&new);
        self.stats.narrowings += 1;
        if !(new.leq(&narrowed) && narrowed.leq(old)) {
            return Err(StopReason::LawViolation {
                block: b,
                message: format!(
                    "narrowing left the interval between its arguments: previous {old:?}, \
                     new {new:?}, narrowed {narrowed:?}"
                ),
            });
        }
        if narrowed == *old {
            return Ok(false);
        }
        if self.tracer.enabled() {
            self.tracer.event(Event::Narrow {
                block: b,
                before: old.clone(),
                after: narrowed.clone(),
            });
        }
        *old = narrowed;
        Ok(true)
    }

    /// Runs the block transfer of `b` on its incoming state; reports whether its outgoing state
    /// changed.
    fn apply_transfer(&mut self, b: BlockId) -> Result<bool, StopReason> {
        if self.stats.visits >= self.limits.max_visits {
            return Err(StopReason::Budget {
                visits: self.stats.visits,
            });
        }
        self.stats.visits += 1;
        let before = &self.incoming[b.index()];
        let mut state = before.clone();
        if !state.is_bottom() {
            self.analysis.transfer_block(self.graph, b, &mut state);
            self.stats.evaluations += self.analysis.transfer_evaluations(self.graph, b);
        }
        if self.tracer.enabled() {
            self.tracer.event(Event::Transfer {
                block: b,
                before: before.clone(),
                after: state.clone(),
            });
        }
        Ok(replace_if_changed(&mut self.outgoing[b.index()], state).changed())
    }

    /// The blocks the outgoing state of `b` flows into.
    fn flow_successors(&self, b: BlockId) -> &'a [BlockId] {
        let graph: &'a G = self.graph;
        match A::DIRECTION {
            Direction::Forward => graph.successors(b),
            Direction::Backward => graph.predecessors(b),
        }
    }

    /// The join of everything flowing into `b`: the boundary state if `b` is on the boundary,
    /// and the edge transfers of the outgoing states of its flow predecessors.
    fn flow_into(&mut self, b: BlockId) -> A::State {
        let (graph, analysis) = (self.graph, self.analysis);
        let mut acc: Option<A::State> = None;
        let on_boundary = match A::DIRECTION {
            Direction::Forward => b == graph.entry(),
            Direction::Backward => graph.successors(b).is_empty(),
        };
        if on_boundary {
            acc = Some(self.boundary.clone());
        }
        match A::DIRECTION {
            Direction::Forward => {
                let range =
                    self.in_offsets[b.index()] as usize..self.in_offsets[b.index() + 1] as usize;
                for &(from, index) in &self.in_edges[range] {
                    let source = &self.outgoing[from.index()];
                    if source.is_bottom() {
                        continue;
                    }
                    let t = analysis.transfer_edge(graph, from, index as usize, source);
                    merge(&mut acc, t, &mut self.stats);
                }
            }
            Direction::Backward => {
                for (index, &to) in graph.successors(b).iter().enumerate() {
                    let source = &self.outgoing[to.index()];
                    if source.is_bottom() {
                        continue;
                    }
                    let t = analysis.transfer_edge(graph, b, index, source);
                    merge(&mut acc, t, &mut self.stats);
                }
            }
        }
        acc.unwrap_or_else(A::State::bottom)
    }

    /// A visit of `b` begins: it is traced, and what flows into it computed.
    fn visit(&mut self, b: BlockId) -> A::State {
        if self.tracer.enabled() {
            self.tracer.event(Event::Visit { block: b });
        }
        self.flow_into(b)
    }

    /// A block that is no head takes what flows into it; whether its state changed.
    fn replace_incoming(&mut self, b: BlockId, new: A::State) -> bool {
        let changed = replace_if_changed(&mut self.incoming[b.index()], new).changed();
        self.trace_join(b, changed);
        changed
    }

    fn trace_join(&mut self, b: BlockId, changed: bool) {
        if self.tracer.enabled() {
            self.tracer.event(Event::Join {
                block: b,
                result: self.incoming[b.index()].clone(),
                changed,
            });
        }
    }
}

/// Joins the edge state `t` into the accumulator, counting the work.
fn merge<S: Lattice>(acc: &mut Option<S>, t: S, stats: &mut Stats) {
    stats.edge_transfers += 1;
    if t.is_bottom() {
        return;
    }
    match acc {
        None => *acc = Some(t),
        Some(a) => {
            stats.joins += 1;
            a.join_with(&t);
        }
    }
}

impl<'a, G, A, T> Visits<'a> for Engine<'a, G, A, T>
where
    G: Cfg + ?Sized,
    A: Analysis<G>,
    T: Tracer<A::State>,
{
    fn schedule(&mut self) -> &mut Schedule {
        &mut self.schedule
    }

    fn successors(&self, b: BlockId) -> &'a [BlockId] {
        self.flow_successors(b)
    }

    #[inline]
    fn ascend_visit(&mut self, b: BlockId, head: Option<usize>) -> Result<bool, StopReason> {
        let new = self.visit(b);
        let changed = match head {
            None => self.replace_incoming(b, new),
            Some(slot) => self.update_head(b, slot, new)?,
        };
        Ok(changed && self.apply_transfer(b)?)
    }

    #[inline]
    fn descend_visit(
        &mut self,
        b: BlockId,
        head: Option<usize>,
    ) -> Result<(bool, bool), StopReason> {
        let new = self.visit(b);
        let changed = match head {
            None => self.replace_incoming(b, new),
            Some(_) => self.narrow_head(b, new)?,
        };
        Ok((changed, changed && self.apply_transfer(b)?))
    }

    fn below_inflow(&mut self, b: BlockId, _head: Option<usize>) -> bool {
        let new = self.flow_into(b);
        !new.leq(&self.incoming[b.index()])
    }
}
