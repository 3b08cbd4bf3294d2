//! Heap building blocks (issue "Heap analyses", first part): the Green Fairy's alias heap with
//! generation counting ([`AliasHeap`]) and the flow analysis that runs a finite disjunction of
//! such heaps over any [`Program`] ([`AliasAnalysis`]).
//!
//! The model has no fields yet: references flow through variables only (`new`, copies,
//! `select`, φs). A reference from anywhere else (a load, a call, a parameter) points to an
//! object of the unknown site [`Site::UNKNOWN`], one per variable, which may alias any other.

mod alias;
pub mod escape;
pub mod shape;

pub use alias::{AliasHeap, Object, Site};

use absinthe::engine::{Analysis, Direction};
use absinthe::lattice::{FiniteSum, Lattice};
use absinthe::program::{BlockId, Cfg, NameId, Operand, Program, Rhs, Stmt};

/// A function's inputs, parameters then captures: what the heap analyses call input `i` (the
/// caller's objects a function starts from).
pub fn inputs<P: Program + ?Sized>(program: &P) -> Vec<NameId> {
    program
        .params()
        .iter()
        .chain(program.captures())
        .copied()
        .collect()
}

impl Site {
    /// Where references the model does not follow come from (a load, a call, a parameter).
    pub const UNKNOWN: Site = Site {
        block: BlockId(u32::MAX),
        index: u32::MAX,
    };
}

/// The alias analysis over a finite disjunction of up to `N` heaps: each heap one way the
/// variables may point, kept apart from the others while there are at most `N`.
///
/// The generation of an object is unbounded only through loops that allocate without end; the
/// engine's widening then makes it `≤∞`. A widening delay of a few joins per loop head (as
/// [`AliasAnalysis::limits`] asks) lets the disjunction settle before any widening merges it.
#[derive(Clone, Copy, Debug, Default)]
pub struct AliasAnalysis<const N: usize>;

/// The state of [`AliasAnalysis`]: a disjunction of alias heaps.
pub type Heaps<const N: usize> = FiniteSum<AliasHeap, N>;

impl<const N: usize> AliasAnalysis<N> {
    /// The engine limits the analysis is meant to run with: eight joins at a loop head before
    /// widening.
    pub fn limits() -> absinthe::engine::Limits {
        absinthe::engine::Limits {
            widening_delay: 8,
            ..absinthe::engine::Limits::default()
        }
    }

    /// `heap` after statement `index` of `block`.
    pub fn statement(
        heap: &AliasHeap,
        block: BlockId,
        index: usize,
        stmt: &Stmt,
    ) -> Vec<AliasHeap> {
        let Stmt::Assign { dest, rhs } = stmt else {
            return vec![heap.clone()];
        };
        let mut out = heap.clone();
        match rhs {
            Rhs::New => out.allocate(
                *dest,
                Site {
                    block,
                    index: index as u32,
                },
            ),
            Rhs::Use(Operand::Name(y)) => out.copy(*dest, *y),
            // Either operand: one heap each.
            Rhs::Select(_, a, b) => {
                let mut other = heap.clone();
                assign_operand(&mut out, *dest, *a);
                assign_operand(&mut other, *dest, *b);
                return vec![out, other];
            }
            Rhs::Load(..) | Rhs::Call(..) | Rhs::Apply(..) | Rhs::Field(..) => {
                out.point_to_other(*dest, Site::UNKNOWN);
            }
            _ => out.kill(*dest),
        }
        vec![out]
    }
}

/// `x = o` for an operand: a copy of a name, or no object for an integer.
fn assign_operand(heap: &mut AliasHeap, x: NameId, o: Operand) {
    match o {
        Operand::Name(y) => heap.copy(x, y),
        Operand::Int(_) => heap.kill(x),
    }
}

impl<P: Program + Cfg + ?Sized, const N: usize> Analysis<P> for AliasAnalysis<N> {
    type State = Heaps<N>;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, program: &P) -> Heaps<N> {
        let mut heap = AliasHeap::empty();
        for &p in program.params().iter().chain(program.captures()) {
            heap.point_to_other(p, Site::UNKNOWN);
        }
        Heaps::single(heap)
    }

    fn transfer_block(&self, program: &P, block: BlockId, state: &mut Heaps<N>) {
        let mut heaps: Vec<AliasHeap> = state.values().to_vec();
        for (index, stmt) in program.stmts(block).iter().enumerate() {
            heaps = heaps
                .iter()
                .flat_map(|h| Self::statement(h, block, index, stmt))
                .collect();
        }
        *state = Heaps::from_values(heaps);
    }

    fn transfer_edge(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        state: &Heaps<N>,
    ) -> Heaps<N> {
        let Some(&to) = program.successors(from).get(succ_index) else {
            return state.clone();
        };
        let phis = program.phis(to);
        if phis.is_empty() {
            return state.clone();
        }
        // The φs copy in parallel: each reads the heap before any of them.
        let copies: Vec<(NameId, Option<NameId>)> = phis
            .iter()
            .map(|phi| {
                let source =
                    phi.incoming
                        .iter()
                        .find(|(b, _)| *b == from)
                        .and_then(|(_, o)| match o {
                            Operand::Name(n) => Some(*n),
                            Operand::Int(_) => None,
                        });
                (phi.dest, source)
            })
            .collect();
        let heaps = state.values().iter().map(|heap| {
            AliasHeap::of(heap.objects().map(|((site, vars), g)| {
                let mut after: std::collections::BTreeSet<NameId> = vars
                    .iter()
                    .copied()
                    .filter(|v| !copies.iter().any(|(d, _)| d == v))
                    .collect();
                for (dest, source) in &copies {
                    if source.is_some_and(|s| vars.contains(&s)) {
                        after.insert(*dest);
                    }
                }
                ((*site, after), *g)
            }))
        });
        if state.is_bottom() {
            return state.clone();
        }
        Heaps::from_values(heaps)
    }
}
