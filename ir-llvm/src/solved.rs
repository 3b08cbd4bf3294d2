//! One function solved, by the analysis its value domain asks for, and what the counts read of
//! the solution ([`Solved`]): [`NonRelational`] for a domain without a relational component, in
//! the state representation asked for, and [`WithRelation`] for one with a component
//! ([`ValueDomain::relation`]), in dense states, with the relational domain the component
//! names ([`absinthe::relational::Relation::dispatch`], the choice the command line's core-IR
//! driver makes through the same call).

use absinthe::engine::{Analysis, Limits, Solution, StopReason};
use absinthe::lattice::Lattice;
use absinthe::program::{BlockId, NameId, Op, Operand, Program};
use absinthe::relational::{
    Constraint, DomainBounds, ForRelation, Packed, RelState, Relation, Relational, WithRelation,
};
use absinthe::value::{Env, NonRelational, StateRepr, ValueDomain, ValueSolution};
use absinthe_ir::Function;

use crate::lower::{GepIndex, IndexBound};

/// What the counts read of a function's solution.
pub trait Solved<D> {
    /// Whether some execution may reach block `b`.
    fn is_reachable(&self, b: BlockId) -> bool;
    /// Whether the `index`th edge out of `b` may be taken.
    fn edge_feasible(&self, function: &Function, b: BlockId, index: usize) -> bool;
    /// The value of `name` at the end of `b`.
    fn value_at_exit(&self, b: BlockId, name: NameId) -> D;
    /// Why the engine stopped.
    fn stop(&self) -> &StopReason;
    /// The representation the states were kept in.
    fn repr(&self) -> StateRepr;
    /// For each of `indices` (all of block `b`, in the order of their points), whether
    /// `0 ≤ index < bound` holds at its point in every state the analysis allows there.
    fn in_bounds(&self, function: &Function, b: BlockId, indices: &[&GepIndex]) -> Vec<bool>;
}

/// Solves `function` with the analysis `D` asks for: [`WithRelation`] in dense states when `D`
/// has a relational component (whatever `repr` says: the relation is one value per point,
/// which the sparse and SSA representations do not split), the names of `shared` kept apart
/// ([`crate::lower::LoweredFunction::shared`]), otherwise [`NonRelational`] in `repr`.
pub fn solve<D: ValueDomain>(
    function: &Function,
    shared: &[NameId],
    conditional: bool,
    repr: StateRepr,
    limits: &Limits,
) -> Box<dyn Solved<D>> {
    struct Run<'a, D> {
        function: &'a Function,
        shared: &'a [NameId],
        conditional: bool,
        limits: &'a Limits,
        domain: std::marker::PhantomData<fn() -> D>,
    }
    impl<D: ValueDomain> ForRelation for Run<'_, D> {
        type Output = Box<dyn Solved<D>>;
        fn run<R: Relational + Clone>(self, relation: Relation) -> Box<dyn Solved<D>> {
            let analysis =
                WithRelation::<D, R, _>::new(self.conditional, relation.packs, DomainBounds)
                    .keeping_apart(self.shared.iter().copied());
            let solution = absinthe::engine::solve(self.function, &analysis, self.limits);
            Box::new(Related { analysis, solution })
        }
    }
    match D::relation() {
        Some(relation) => relation.dispatch(Run {
            function,
            shared,
            conditional,
            limits,
            domain: std::marker::PhantomData,
        }),
        None => {
            let analysis = NonRelational::<D>::new(conditional);
            let solution = analysis.solve(function, repr, limits);
            Box::new(Plain { analysis, solution })
        }
    }
}

/// The value of `o` in `env`.
fn value<D: ValueDomain>(env: &Env<D>, o: Operand) -> D {
    NonRelational::<D>::operand(env, o)
}

/// Whether `a op b` holds for every value the domain allows.
fn holds<D: ValueDomain>(op: Op, a: &D, b: &D) -> bool {
    D::binary(op, a, b).as_constant() == Some(1)
}

/// The bound of an index as an operand; `None` when none is known.
fn bound_operand(bound: IndexBound) -> Option<Operand> {
    match bound {
        IndexBound::Length(n) => Some(Operand::Int(i64::try_from(n).unwrap_or(i64::MAX))),
        IndexBound::Count(c) => Some(c),
        IndexBound::Unknown => None,
    }
}

/// Whether the names' values alone prove `0 ≤ index < bound` in `env`.
fn proven_by_values<D: ValueDomain>(env: &Env<D>, index: &GepIndex) -> bool {
    let Some(bound) = bound_operand(index.bound) else {
        return false;
    };
    let i = value(env, index.index);
    holds(Op::Ge, &i, &D::constant(0)) && holds(Op::Lt, &i, &value(env, bound))
}

/// Runs the statements of block `b` from `entry` with `step`, calling `check` at the point of
/// each of `indices` (in order of their points).
fn at_points<S>(
    function: &Function,
    b: BlockId,
    entry: S,
    indices: &[&GepIndex],
    step: impl Fn(&absinthe::program::Stmt, &mut S),
    check: impl Fn(&S, &GepIndex) -> bool,
) -> Vec<bool> {
    let stmts = function.stmts(b);
    let mut state = entry;
    let mut done = 0;
    let mut out = Vec::with_capacity(indices.len());
    for index in indices {
        assert!(
            index.block == b && index.stmt <= stmts.len() && index.stmt >= done,
            "the indices of block {b:?} are its own, in order, at points within its {} statements",
            stmts.len()
        );
        for stmt in &stmts[done..index.stmt] {
            step(stmt, &mut state);
        }
        done = index.stmt;
        out.push(check(&state, index));
    }
    out
}

/// A solution of [`NonRelational`].
struct Plain<D> {
    analysis: NonRelational<D>,
    solution: ValueSolution<D>,
}

impl<D: ValueDomain> Solved<D> for Plain<D> {
    fn is_reachable(&self, b: BlockId) -> bool {
        self.solution.is_reachable(b)
    }

    fn edge_feasible(&self, function: &Function, b: BlockId, index: usize) -> bool {
        self.solution
            .edge_feasible(&self.analysis, function, b, index)
    }

    fn value_at_exit(&self, b: BlockId, name: NameId) -> D {
        self.solution.value_at_exit(b, name)
    }

    fn stop(&self) -> &StopReason {
        self.solution.stop()
    }

    fn repr(&self) -> StateRepr {
        self.solution.repr()
    }

    fn in_bounds(&self, function: &Function, b: BlockId, indices: &[&GepIndex]) -> Vec<bool> {
        at_points(
            function,
            b,
            self.solution.entry(b),
            indices,
            |stmt, env| self.analysis.transfer_stmt(stmt, env),
            |env, index| env.is_reachable() && proven_by_values(env, index),
        )
    }
}

/// A solution of [`WithRelation`].
struct Related<D, R> {
    analysis: WithRelation<D, R, DomainBounds>,
    solution: Solution<RelState<D, R>>,
}

/// Whether `rel` entails `c`: adding its negation (over the integers) leaves nothing.
fn entails<R: Relational + Clone>(rel: &Packed<R>, c: Constraint) -> bool {
    let negation = match c {
        Constraint::Difference(x, y, c) => Constraint::Difference(y, x, -c - 1),
        Constraint::Sum(x, y, c) => Constraint::NegSum(x, y, -c - 1),
        Constraint::NegSum(x, y, c) => Constraint::Sum(x, y, -c - 1),
        Constraint::Upper(x, c) => Constraint::Lower(x, c + 1),
        Constraint::Lower(x, c) => Constraint::Upper(x, c - 1),
    };
    let mut with = rel.clone();
    with.add_constraint(negation);
    with.is_bottom()
}

/// Whether the state proves `0 ≤ index < bound`: by the names' values (the relation's bounds
/// reduced into them), or, for a bound that is a name, by the relation's `index - bound ≤ -1`.
fn proven_in<D: ValueDomain, R: Relational + Clone>(
    state: &RelState<D, R>,
    index: &GepIndex,
) -> bool {
    if !state.is_reachable() {
        return false;
    }
    if proven_by_values(&state.env, index) {
        return true;
    }
    let (Operand::Name(i), IndexBound::Count(Operand::Name(n))) = (index.index, index.bound) else {
        return false;
    };
    let non_negative = holds(Op::Ge, &state.env.get(i), &D::constant(0))
        || entails(&state.rel, Constraint::Lower(i.index(), 0));
    non_negative && entails(&state.rel, Constraint::Difference(i.index(), n.index(), -1))
}

impl<D: ValueDomain, R: Relational + Clone> Solved<D> for Related<D, R> {
    fn is_reachable(&self, b: BlockId) -> bool {
        self.solution.entry[b.index()].is_reachable()
    }

    fn edge_feasible(&self, function: &Function, b: BlockId, index: usize) -> bool {
        let exit = &self.solution.exit[b.index()];
        self.analysis
            .transfer_edge(function, b, index, exit)
            .is_reachable()
    }

    fn value_at_exit(&self, b: BlockId, name: NameId) -> D {
        let exit = &self.solution.exit[b.index()];
        if exit.is_reachable() {
            exit.env.get(name)
        } else {
            D::bottom()
        }
    }

    fn stop(&self) -> &StopReason {
        &self.solution.stop
    }

    fn repr(&self) -> StateRepr {
        StateRepr::Dense
    }

    fn in_bounds(&self, function: &Function, b: BlockId, indices: &[&GepIndex]) -> Vec<bool> {
        at_points(
            function,
            b,
            self.solution.entry[b.index()].clone(),
            indices,
            |stmt, state| self.analysis.transfer_stmt(stmt, state),
            proven_in,
        )
    }
}
