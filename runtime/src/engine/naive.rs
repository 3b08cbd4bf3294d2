//! The naive reference solver: round-robin iteration over every block in index order until
//! nothing changes.
//!
//! It exists to test the worklist solver against (same [`Solution`] shape, no widening, no
//! narrowing, no ordering cleverness), and is only correct for lattices of finite height.

use super::{Analysis, Direction, Limits, Solution, Stats, StopReason};
use crate::lattice::{Lattice, replace_if_changed};
use crate::program::{BlockId, Cfg};

/// Solves `analysis` over `graph` by recomputing every block until a full round changes nothing
/// (joins only), or until `limits.max_visits` block transfers have been made.
pub fn solve_naive<G, A>(graph: &G, analysis: &A, limits: &Limits) -> Solution<A::State>
where
    G: Cfg + ?Sized,
    A: Analysis<G>,
{
    let n = graph.block_count();
    let boundary = analysis.boundary_state(graph);
    let mut incoming = vec![A::State::bottom(); n];
    let mut outgoing = vec![A::State::bottom(); n];
    let mut stats = Stats::default();
    let forward = A::DIRECTION == Direction::Forward;
    let stop = 'rounds: loop {
        let mut changed = false;
        for b in (0..n).map(BlockId::new) {
            if stats.visits >= limits.max_visits {
                break 'rounds StopReason::Budget {
                    visits: stats.visits,
                };
            }
            let mut new = A::State::bottom();
            if forward && b == graph.entry() || !forward && graph.successors(b).is_empty() {
                new.join_with(&boundary);
            }
            if forward {
                let mut preds = graph.predecessors(b).to_vec();
                preds.sort_unstable();
                preds.dedup();
                for p in preds {
                    for (i, _) in graph.successors(p).iter().enumerate().filter(|e| *e.1 == b) {
                        new.join_with(&analysis.transfer_edge(graph, p, i, &outgoing[p.index()]));
                        stats.edge_transfers += 1;
                        stats.joins += 1;
                    }
                }
            } else {
                for (i, s) in graph.successors(b).iter().enumerate() {
                    new.join_with(&analysis.transfer_edge(graph, b, i, &outgoing[s.index()]));
                    stats.edge_transfers += 1;
                    stats.joins += 1;
                }
            }
            changed |= incoming[b.index()].join_with(&new).changed();
            let mut state = incoming[b.index()].clone();
            if !state.is_bottom() {
                analysis.transfer_block(graph, b, &mut state);
                stats.evaluations += analysis.transfer_evaluations(graph, b);
            }
            stats.visits += 1;
            changed |= replace_if_changed(&mut outgoing[b.index()], state).changed();
        }
        if !changed {
            break StopReason::Stable;
        }
    };
    let (entry, exit) = if forward {
        (incoming, outgoing)
    } else {
        (outgoing, incoming)
    };
    Solution {
        entry,
        exit,
        stop,
        stats,
    }
}
