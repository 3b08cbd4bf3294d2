//! The state of the escape analysis: a small disjunction of heaps, each with the values of the
//! names along the same paths ([`States`]).

use std::cmp::Ordering;
use std::fmt;

use super::state::Heap;
use absinthe::lattice::{Lattice, Thresholds};
use absinthe::value::Env;

/// How many heaps a program point keeps apart before joining them into one.
pub const MAX_HEAPS: usize = absinthe::spec::AnalysisSpec::DEFAULT_HEAPS as usize;

/// How many exposed objects of its own (escaped to code or memory it does not see) a function's
/// heap keeps apart at a block's exit before making them all unknown objects
/// ([`Heap::fold_exposed`]).
pub const MAX_EXPOSED: usize = 16;

/// One disjunct: a heap and the values of the names along the same paths.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Disjunct<D> {
    /// The heap.
    pub heap: Heap,
    /// The values (never unreachable: an unreachable disjunct is dropped).
    pub values: Env<D>,
}

/// The state of the escape analysis: a disjunction of a few heaps with their
/// values, sorted by heap with no heap twice; empty at an unreachable point.
///
/// # Laws
///
/// `a ⊑ b` when every disjunct of `a` is below one of `b` (heap and values). Join keeps the
/// disjuncts of both, joining the values of equal heaps, and joins everything into one
/// disjunct past the bound; widening joins everything into one disjunct and widens the
/// values. Heaps have finite height for one function, so widening the values suffices.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct States<D> {
    pub(super) disjuncts: Vec<Disjunct<D>>,
    /// How many disjuncts it keeps apart (the larger of two sides' when they are joined).
    max: usize,
}

impl<D: Lattice> States<D> {
    /// One disjunct, in a state that keeps `max` apart.
    pub fn single(heap: Heap, values: Env<D>, max: usize) -> States<D> {
        States::of(vec![Disjunct { heap, values }], max)
    }

    /// The disjunction of `disjuncts`, normalized to at most `max` (at least one).
    pub fn of(disjuncts: Vec<Disjunct<D>>, max: usize) -> States<D> {
        let max = max.max(1);
        let mut all: Vec<Disjunct<D>> = disjuncts
            .into_iter()
            .filter(|d| d.values.is_reachable())
            .collect();
        all.sort_by(|a, b| a.heap.cmp(&b.heap));
        let mut out: Vec<Disjunct<D>> = Vec::with_capacity(all.len());
        for d in all {
            match out.last_mut() {
                Some(last) if last.heap.cmp(&d.heap) == Ordering::Equal => {
                    last.values = last.values.join(&d.values);
                }
                _ => out.push(d),
            }
        }
        if out.len() > max {
            out = vec![Self::hull_of(&out)];
        }
        States {
            disjuncts: out,
            max,
        }
    }

    fn hull_of(disjuncts: &[Disjunct<D>]) -> Disjunct<D> {
        let mut heap = Heap::default();
        let mut values = Env::Unreachable;
        for d in disjuncts {
            heap.join_with(&d.heap);
            values = values.join(&d.values);
        }
        Disjunct { heap, values }
    }

    /// The disjuncts.
    pub fn disjuncts(&self) -> &[Disjunct<D>] {
        &self.disjuncts
    }

    /// All disjuncts joined into one; `None` when unreachable.
    pub fn hull(&self) -> Option<Disjunct<D>> {
        (!self.disjuncts.is_empty()).then(|| Self::hull_of(&self.disjuncts))
    }

    fn widen_by(&self, newer: &Self, widen: impl Fn(&Env<D>, &Env<D>) -> Env<D>) -> Self {
        let (Some(old), Some(new)) = (self.hull(), newer.hull()) else {
            return self.join(newer);
        };
        let mut heap = old.heap.clone();
        heap.join_with(&new.heap);
        let values = widen(&old.values, &old.values.join(&new.values));
        States::single(heap, values, self.max.max(newer.max))
    }
}

impl<D: Lattice> Lattice for States<D> {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Self {
        States {
            disjuncts: Vec::new(),
            max: 0,
        }
    }

    fn is_bottom(&self) -> bool {
        self.disjuncts.is_empty()
    }

    fn leq(&self, other: &Self) -> bool {
        self.disjuncts.iter().all(|d| {
            other
                .disjuncts
                .iter()
                .any(|o| d.heap.leq(&o.heap) && d.values.leq(&o.values))
        })
    }

    fn join(&self, other: &Self) -> Self {
        States::of(
            self.disjuncts
                .iter()
                .chain(&other.disjuncts)
                .cloned()
                .collect(),
            self.max.max(other.max),
        )
    }

    fn meet(&self, other: &Self) -> Self {
        // Disjuncts of equal heaps, values met: below both sides.
        let mut out = Vec::new();
        for d in &self.disjuncts {
            for o in &other.disjuncts {
                if d.heap == o.heap {
                    out.push(Disjunct {
                        heap: d.heap.clone(),
                        values: d.values.meet(&o.values),
                    });
                }
            }
        }
        States::of(out, self.max.max(other.max))
    }

    fn widen(&self, newer: &Self) -> Self {
        self.widen_by(newer, |a, b| a.widen(b))
    }

    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        self.widen_by(newer, |a, b| a.widen_with_thresholds(b, thresholds))
    }
}

impl<D: fmt::Display + Lattice> fmt::Display for States<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.disjuncts.is_empty() {
            return f.write_str("unreachable");
        }
        for (i, d) in self.disjuncts.iter().enumerate() {
            if i > 0 {
                f.write_str(" ⊔ ")?;
            }
            write!(f, "{:?}", d.heap.points)?;
        }
        Ok(())
    }
}
