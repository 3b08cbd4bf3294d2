//! The state of the shape analysis: a few shape graphs, each with the values of the names along
//! the paths it describes (the reduced product of the Green Fairy's shape graph and a declared
//! value domain, kept as a small disjunction).

use std::cmp::Ordering;

use super::order::ShapeGraph;
use absinthe::lattice::{Lattice, Thresholds};
use absinthe::value::Env;

/// How many disjuncts (graphs with their values) a program point keeps apart.
pub const MAX_GRAPHS: usize = 8;

/// One disjunct: a shape graph and the values of the names on the same runs.
///
/// A name's value speaks only of the integers it may hold: bottom for a name that holds no
/// integer (an object, or no value yet). So a name bottom here that labels nodes holds an
/// object, and a name labelling no node holds no object.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ShapeDisjunct<D> {
    /// The graph (never bottom in a state).
    pub graph: ShapeGraph,
    /// The values (never unreachable in a state).
    pub values: Env<D>,
}

impl<D: Lattice> ShapeDisjunct<D> {
    /// Whether every run `self` describes, `other` describes.
    pub fn leq(&self, other: &ShapeDisjunct<D>) -> bool {
        self.graph.leq(&other.graph) && self.values.leq(&other.values)
    }

    /// Both components joined.
    pub fn join(&self, other: &ShapeDisjunct<D>) -> ShapeDisjunct<D> {
        ShapeDisjunct {
            graph: self.graph.join(&other.graph),
            values: self.values.join(&other.values),
        }
    }

    fn is_empty(&self) -> bool {
        self.graph.is_bottom() || !self.values.is_reachable()
    }
}

/// The state of [`super::ShapeAnalysis`]: up to [`super::MAX_GRAPHS`] disjuncts, each a graph
/// with its values; none at a point no run reaches.
///
/// # Representation
///
/// The disjuncts are sorted by graph, no graph twice (the values of equal graphs are joined),
/// none below another (graph and values both), and none bottom or unreachable. Past the bound,
/// the first two disjuncts are joined, again and again, until the bound holds (as
/// [`absinthe::lattice::FiniteSum`] merges its disjuncts when none is below another).
///
/// # Laws
///
/// The order is Hoare's on pairs: `a ⊑ b` when every disjunct of `a` is below (graph and values)
/// some disjunct of `b`. Join is the union made canonical: an upper bound, commutative and
/// idempotent, the least one when nothing is merged (so [`Lattice::EXACT`] is false). Meet
/// takes the pairwise meets, made canonical. Widening is `a` when `b ⊑ a`; when joining keeps
/// `a`'s disjuncts apart position by position it widens them pairwise (graphs by their widening,
/// values by theirs), else it joins everything into one disjunct and widens that: the number of
/// disjuncts never grows along a widening sequence, and then each disjunct follows a widening
/// sequence of graphs and of values, both of which stabilise.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ShapeStates<D> {
    disjuncts: Vec<ShapeDisjunct<D>>,
}

impl<D: Lattice> ShapeStates<D> {
    /// The single disjunct of `graph` with `values` (bottom when either is).
    pub fn single(graph: ShapeGraph, values: Env<D>) -> ShapeStates<D> {
        ShapeStates::of(vec![ShapeDisjunct { graph, values }])
    }

    /// The disjunction of `disjuncts`, made canonical within [`super::MAX_GRAPHS`].
    pub fn of(disjuncts: Vec<ShapeDisjunct<D>>) -> ShapeStates<D> {
        ShapeStates {
            disjuncts: canonical(disjuncts, MAX_GRAPHS),
        }
    }

    /// The disjuncts, sorted by graph.
    pub fn disjuncts(&self) -> &[ShapeDisjunct<D>] {
        &self.disjuncts
    }

    /// The graphs, in the disjuncts' order.
    pub fn graphs(&self) -> impl Iterator<Item = &ShapeGraph> + '_ {
        self.disjuncts.iter().map(|d| &d.graph)
    }

    /// All disjuncts joined into one; `None` when no run reaches the point.
    pub fn hull(&self) -> Option<ShapeDisjunct<D>> {
        hull(&self.disjuncts)
    }

    fn widen_by(&self, newer: &Self, widen: impl Fn(&Env<D>, &Env<D>) -> Env<D>) -> Self {
        if newer.leq(self) {
            return self.clone();
        }
        let joined = self.join(newer);
        let pointwise = |older: &[ShapeDisjunct<D>], joined: &[ShapeDisjunct<D>]| {
            let matched =
                joined.len() == older.len() && older.iter().zip(joined).all(|(a, j)| a.leq(j));
            matched.then(|| {
                older
                    .iter()
                    .zip(joined)
                    .map(|(a, j)| ShapeDisjunct {
                        graph: a.graph.widen(&j.graph),
                        values: widen(&a.values, &j.values),
                    })
                    .collect::<Vec<_>>()
            })
        };
        // Pairwise when joining keeps the disjuncts apart; else pairwise on the graphs alone
        // (disjuncts whose graph is below another's merged into it); else one disjunct.
        let widened = pointwise(&self.disjuncts, &joined.disjuncts)
            .or_else(|| {
                pointwise(
                    &by_graph(self.disjuncts.clone()),
                    &by_graph(joined.disjuncts.clone()),
                )
            })
            .unwrap_or_else(|| match (hull(&self.disjuncts), joined.hull()) {
                (Some(a), Some(j)) => vec![ShapeDisjunct {
                    graph: a.graph.widen(&j.graph),
                    values: widen(&a.values, &j.values),
                }],
                _ => joined.disjuncts.clone(),
            });
        ShapeStates::of(widened)
    }
}

/// The disjuncts with every one whose graph is below another's joined into that one (the
/// first such, in order), as a finite disjunction of graphs alone would keep them.
fn by_graph<D: Lattice>(mut all: Vec<ShapeDisjunct<D>>) -> Vec<ShapeDisjunct<D>> {
    loop {
        let found = (0..all.len()).find_map(|i| {
            (0..all.len())
                .find(|&j| i != j && all[i].graph.leq(&all[j].graph))
                .map(|j| (i, j))
        });
        let Some((i, j)) = found else {
            return all;
        };
        let d = all.remove(i);
        let j = if j > i { j - 1 } else { j };
        all[j] = all[j].join(&d);
    }
}

fn hull<D: Lattice>(disjuncts: &[ShapeDisjunct<D>]) -> Option<ShapeDisjunct<D>> {
    let mut all = disjuncts.iter();
    let first = all.next()?.clone();
    Some(all.fold(first, |acc, d| acc.join(d)))
}

/// The canonical form described on [`ShapeStates`], within `bound` disjuncts.
fn canonical<D: Lattice>(mut all: Vec<ShapeDisjunct<D>>, bound: usize) -> Vec<ShapeDisjunct<D>> {
    loop {
        all.retain(|d| !d.is_empty());
        all.sort_by(|a, b| a.graph.cmp(&b.graph));
        let mut out: Vec<ShapeDisjunct<D>> = Vec::with_capacity(all.len());
        for d in all {
            match out.last_mut() {
                Some(last) if last.graph.cmp(&d.graph) == Ordering::Equal => {
                    last.values = last.values.join(&d.values);
                }
                _ => out.push(d),
            }
        }
        // Graphs are distinct now, so no two disjuncts are below each other.
        let keep: Vec<bool> = out
            .iter()
            .enumerate()
            .map(|(i, d)| {
                !out.iter()
                    .enumerate()
                    .any(|(j, e)| i != j && d.leq(e) && !(e.leq(d) && j > i))
            })
            .collect();
        let mut flags = keep.into_iter();
        out.retain(|_| flags.next().unwrap_or(true));
        if out.len() <= bound.max(1) {
            return out;
        }
        let second = out.remove(1);
        out[0] = out[0].join(&second);
        all = out;
    }
}

impl<D: Lattice> Lattice for ShapeStates<D> {
    const FINITE_HEIGHT: bool = false;
    const EXACT: bool = false;

    fn bottom() -> Self {
        ShapeStates {
            disjuncts: Vec::new(),
        }
    }

    fn is_bottom(&self) -> bool {
        self.disjuncts.is_empty()
    }

    fn leq(&self, other: &Self) -> bool {
        self.disjuncts
            .iter()
            .all(|d| other.disjuncts.iter().any(|o| d.leq(o)))
    }

    fn join(&self, other: &Self) -> Self {
        ShapeStates::of(
            self.disjuncts
                .iter()
                .chain(&other.disjuncts)
                .cloned()
                .collect(),
        )
    }

    fn meet(&self, other: &Self) -> Self {
        let mut out = Vec::new();
        for d in &self.disjuncts {
            for o in &other.disjuncts {
                out.push(ShapeDisjunct {
                    graph: d.graph.meet(&o.graph),
                    values: d.values.meet(&o.values),
                });
            }
        }
        ShapeStates::of(out)
    }

    fn widen(&self, newer: &Self) -> Self {
        self.widen_by(newer, |a, b| a.widen(b))
    }

    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        self.widen_by(newer, |a, b| a.widen_with_thresholds(b, thresholds))
    }
}
