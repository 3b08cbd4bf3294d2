//! The transfer of statements and edges on one disjunct (a graph with its values), and the
//! reductions between the two sides:
//!
//! - values → shape: an operand a statement or a branch reads as an integer (arithmetic, a
//!   `select`'s or a branch's condition, a switch) holds no object once the run goes on, since
//!   reading an object there traps: it labels no node afterwards; an edge whose values are
//!   unreachable drops its graph.
//! - shape → values: a name that the statement reads as an object (a field's owner, a store's
//!   target, a closure applied) and that labels no node traps the run, which drops the disjunct;
//!   once read as an object it holds no integer (its value is bottom), as does a name just
//!   given a new object or a loaded object. `x = isblock y` is 1 where `y` labels nodes and
//!   holds no integer, 0 where `y` labels no node.
//!
//! A load whose field may hold objects keeps apart the runs where it read each of them (the
//! name then holds no integer) and the runs where it read an integer (the name labels no node).

use super::analysis::ShapeAnalysis;
use super::order::ShapeGraph;
use super::states::ShapeDisjunct;
use super::states::ShapeStates;
use super::transfer;
use crate::Site;
use crate::inputs;
use absinthe::engine::{Analysis, Direction};
use absinthe::lattice::Thresholds;
use absinthe::program::Cfg;
use absinthe::program::{BlockId, Cond, NameId, Operand, Program, Rhs, Stmt, Terminator};
use absinthe::value::{Env, NonRelational, ValueDomain};

/// The graph with `names` pointing to no node.
fn unbind_all(graph: &ShapeGraph, names: &[NameId]) -> ShapeGraph {
    let Some(g) = &graph.graph else {
        return graph.clone();
    };
    if names.iter().all(|&x| g.labelled(x).is_empty()) {
        return graph.clone();
    }
    let mut g = g.clone();
    for &x in names {
        g.unbind(x);
    }
    ShapeGraph::of(g)
}

fn names_of(operands: &[Operand]) -> Vec<NameId> {
    operands
        .iter()
        .filter_map(|o| match o {
            Operand::Name(n) => Some(*n),
            Operand::Int(_) => None,
        })
        .collect()
}

/// What a statement reads as integers and as objects (either traps the run otherwise).
fn demands(stmt: &Stmt) -> (Vec<Operand>, Option<Operand>) {
    match stmt {
        Stmt::Assign { rhs, .. } => match rhs {
            Rhs::Binary(_, a, b) => (vec![*a, *b], None),
            Rhs::Select(c, _, _) => (vec![*c], None),
            Rhs::Load(o, _) | Rhs::Field(o, _) | Rhs::Tag(o) => (Vec::new(), Some(*o)),
            _ => (Vec::new(), None),
        },
        Stmt::Store { object, .. } => (Vec::new(), Some(*object)),
        Stmt::Call { .. } | Stmt::Apply { .. } => (Vec::new(), None),
    }
}

/// The disjuncts after statement `index` of `block` from `d` (none when it traps on every run
/// `d` describes).
pub fn statement<D: ValueDomain>(
    analysis: &ShapeAnalysis<'_, D>,
    d: &ShapeDisjunct<D>,
    block: BlockId,
    index: usize,
    stmt: &Stmt,
) -> Vec<ShapeDisjunct<D>> {
    let (ints, object) = demands(stmt);
    let mut values = d.values.clone();
    // An integer operand holding no integer, or an object operand labelling no node: the
    // statement traps.
    if ints
        .iter()
        .any(|&o| NonRelational::<D>::operand(&values, o).is_bottom())
    {
        return Vec::new();
    }
    if let Some(o) = object {
        match o {
            Operand::Int(_) => return Vec::new(),
            Operand::Name(x) => {
                if d.graph.points_to(x).is_empty() {
                    return Vec::new();
                }
                values.set(x, D::bottom());
            }
        }
    }
    let before = unbind_all(&d.graph, &names_of(&ints));
    let site = Site {
        block,
        index: index as u32,
    };
    let graphs = transfer::statement(&before, site, stmt, analysis.callees());
    let Stmt::Assign { dest, rhs } = stmt else {
        analysis.values().transfer_stmt(stmt, &mut values);
        return pair(graphs, &values);
    };
    let dest = *dest;
    match rhs {
        Rhs::Select(c, a, b) => {
            // The graph-level transfer gives `dest = a`'s graph, then `dest = b`'s.
            let mut out = Vec::with_capacity(2);
            for (graph, (outcome, chosen)) in graphs.into_iter().zip([(true, *a), (false, *b)]) {
                let mut v = analysis
                    .values()
                    .assume_cond(Cond::NonZero(*c), outcome, &values);
                let value = NonRelational::<D>::operand(&v, chosen);
                v.set(dest, value);
                out.push(ShapeDisjunct { graph, values: v });
            }
            out
        }
        Rhs::IsBlock(y) => {
            let value = match *y {
                Operand::Int(_) => D::constant(0),
                Operand::Name(y) if d.graph.points_to(y).is_empty() => D::constant(0),
                Operand::Name(y) if values.get(y).is_bottom() => D::constant(1),
                Operand::Name(_) => D::constant(0).join(&D::constant(1)),
            };
            values.set(dest, value);
            pair(graphs, &values)
        }
        Rhs::New | Rhs::Block(..) | Rhs::Closure(..) | Rhs::Sibling(..) | Rhs::MyClosure => {
            values.set(dest, D::bottom());
            pair(graphs, &values)
        }
        Rhs::Load(..) | Rhs::Field(..) => {
            analysis.values().transfer_stmt(stmt, &mut values);
            let mut objects = values.clone();
            objects.set(dest, D::bottom());
            let mut out: Vec<ShapeDisjunct<D>> = Vec::with_capacity(graphs.len() + 1);
            let mut read_object = false;
            for graph in graphs {
                if graph.points_to(dest).is_empty() {
                    out.push(ShapeDisjunct {
                        graph,
                        values: values.clone(),
                    });
                } else {
                    read_object = true;
                    out.push(ShapeDisjunct {
                        graph,
                        values: objects.clone(),
                    });
                }
            }
            if read_object {
                // The runs where the field held an integer.
                out.push(ShapeDisjunct {
                    graph: unbind_all(&before, &[dest]),
                    values,
                });
            }
            out
        }
        _ => {
            analysis.values().transfer_stmt(stmt, &mut values);
            pair(graphs, &values)
        }
    }
}

fn pair<D: Clone>(graphs: Vec<ShapeGraph>, values: &Env<D>) -> Vec<ShapeDisjunct<D>> {
    graphs
        .into_iter()
        .map(|graph| ShapeDisjunct {
            graph,
            values: values.clone(),
        })
        .collect()
}

/// The disjunct along the edge `from → successors(from)[succ_index]`, `None` when its values
/// cannot take it: the condition's values refined, the names the terminator read as integers
/// unbound, then the φs copied in parallel on both sides.
pub fn edge<D: ValueDomain, P: Program + Cfg + ?Sized>(
    analysis: &ShapeAnalysis<'_, D>,
    program: &P,
    from: BlockId,
    succ_index: usize,
    d: &ShapeDisjunct<D>,
) -> Option<ShapeDisjunct<D>> {
    use absinthe::engine::Analysis;
    let values =
        Analysis::<P>::transfer_edge(analysis.values(), program, from, succ_index, &d.values);
    if !values.is_reachable() {
        return None;
    }
    let ints: Vec<Operand> = match program.terminator(from) {
        Terminator::Branch { cond, .. } => match *cond {
            Cond::NonZero(a) => vec![a],
            Cond::Compare(_, a, b) => vec![a, b],
        },
        Terminator::Switch { on, .. } => vec![*on],
        Terminator::Goto(_)
        | Terminator::Return(_)
        | Terminator::Throw(_)
        | Terminator::Unreachable => Vec::new(),
    };
    let graph = unbind_all(&d.graph, &names_of(&ints));
    let graph = match program.successors(from).get(succ_index) {
        Some(&to) if !program.phis(to).is_empty() => {
            let copies: Vec<(NameId, Option<NameId>)> =
                program
                    .phis(to)
                    .iter()
                    .map(|phi| {
                        let source = phi.incoming.iter().find(|(b, _)| *b == from).and_then(
                            |(_, o)| match o {
                                Operand::Name(n) => Some(*n),
                                Operand::Int(_) => None,
                            },
                        );
                        (phi.dest, source)
                    })
                    .collect();
            phi_copies(&graph, &copies)
        }
        _ => graph,
    };
    Some(ShapeDisjunct { graph, values })
}

impl<D: ValueDomain, P: Program + Cfg + ?Sized> Analysis<P> for ShapeAnalysis<'_, D> {
    type State = ShapeStates<D>;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, program: &P) -> ShapeStates<D> {
        let values = Analysis::<P>::boundary_state(&self.values, program);
        ShapeStates::single(ShapeGraph::entry(&inputs(program)), values)
    }

    fn transfer_block(&self, program: &P, block: BlockId, state: &mut ShapeStates<D>) {
        for (index, stmt) in program.stmts(block).iter().enumerate() {
            *state = self.statement(state, block, index, stmt);
        }
    }

    fn transfer_edge(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        state: &ShapeStates<D>,
    ) -> ShapeStates<D> {
        ShapeStates::of(
            state
                .disjuncts()
                .iter()
                .filter_map(|d| edge(self, program, from, succ_index, d))
                .collect(),
        )
    }

    fn transfer_evaluations(&self, program: &P, block: BlockId) -> u64 {
        program.stmts(block).len() as u64
    }

    fn loop_thresholds(&self, program: &P, blocks: &[BlockId]) -> Thresholds {
        Analysis::<P>::loop_thresholds(&self.values, program, blocks)
    }
}

/// The φ copies of one edge, in parallel: every source is read before any destination is set.
pub(super) fn phi_copies(graph: &ShapeGraph, copies: &[(NameId, Option<NameId>)]) -> ShapeGraph {
    let Some(g) = &graph.graph else {
        return graph.clone();
    };
    let mut g = g.clone();
    let sources: Vec<Vec<usize>> = copies
        .iter()
        .map(|(_, s)| s.map(|s| g.labelled(s)).unwrap_or_default())
        .collect();
    for (dest, _) in copies {
        g.unbind(*dest);
    }
    for ((dest, _), nodes) in copies.iter().zip(sources) {
        for n in nodes {
            g.nodes[n].vars.insert(*dest);
        }
    }
    ShapeGraph::of(g)
}

impl<D: ValueDomain> ShapeAnalysis<'_, D> {
    /// The state after statement `index` of `block` from `state`.
    pub fn statement(
        &self,
        state: &ShapeStates<D>,
        block: BlockId,
        index: usize,
        stmt: &Stmt,
    ) -> ShapeStates<D> {
        ShapeStates::of(
            state
                .disjuncts()
                .iter()
                .flat_map(|d| statement(self, d, block, index, stmt))
                .collect(),
        )
    }
}
