//! Linear steps: what a parameter is bound to when it is bound only to constants and to other
//! parameters plus or minus constants — the lattice of the basic-induction-parameter task, as a
//! building block for tasks of that kind.

use crate::disjoint_sets::DisjointSets;
use crate::lattice::{Lattice, Top};
use crate::terms::{ParamId, Terms};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One binding: a constant `c`, or a parameter plus a constant `⟨Φ_x, c⟩`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    /// The constant.
    Const(i64),
    /// The parameter plus the constant.
    Offset(ParamId, i64),
}

/// A set of [`Step`]s, or ⊤ (bound to something else too). Ordered by inclusion, ⊤ above all.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Steps {
    /// Bound only to these.
    Set(BTreeSet<Step>),
    /// Bound to something that is not a step.
    Top,
}

impl Steps {
    /// One step.
    pub fn one(step: Step) -> Steps {
        Steps::Set(BTreeSet::from([step]))
    }

    /// The constant `c`: `{Φ_c}`.
    pub fn constant(c: i64) -> Steps {
        Steps::one(Step::Const(c))
    }

    /// Parameter `p` plus `c`: `{⟨Φ_p, Φ_c⟩}`.
    pub fn offset(p: ParamId, c: i64) -> Steps {
        Steps::one(Step::Offset(p, c))
    }

    /// The steps as the paper writes them, with parameter names from `terms`:
    /// `{⟨Φ_x, Φ_1⟩, Φ_0}`.
    pub fn render(&self, terms: &Terms) -> String {
        match self {
            Steps::Top => "⊤".to_owned(),
            Steps::Set(set) => {
                let items: Vec<String> = set
                    .iter()
                    .map(|s| match s {
                        Step::Const(c) => format!("Φ_{c}"),
                        Step::Offset(p, c) => format!("⟨Φ_{}, Φ_{c}⟩", terms.param_name(*p)),
                    })
                    .collect();
                format!("{{{}}}", items.join(", "))
            }
        }
    }

    /// The sets of basic induction parameters among the parameters bound to `values`: the
    /// connected groups of parameters bound only to steps whose parameters are in the group.
    /// Parameters bound to ⊤ or to nothing, and groups that reach one, are left out.
    pub fn induction_sets(values: &BTreeMap<ParamId, Steps>) -> Vec<BTreeSet<ParamId>> {
        let good = |p: &ParamId| matches!(values.get(p), Some(Steps::Set(s)) if !s.is_empty());
        // Union-find over the parameters that refer to each other.
        let ids: Vec<ParamId> = values.keys().copied().collect();
        let index: BTreeMap<ParamId, usize> =
            ids.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        let mut sets = DisjointSets::new(ids.len());
        let mut spoiled = vec![false; ids.len()];
        for (i, p) in ids.iter().enumerate() {
            match values.get(p) {
                Some(Steps::Set(set)) if !set.is_empty() => {
                    for s in set {
                        if let Step::Offset(q, _) = s {
                            match index.get(q) {
                                Some(&j) if good(q) => {
                                    sets.union(i, j);
                                }
                                _ => spoiled[i] = true,
                            }
                        }
                    }
                }
                _ => spoiled[i] = true,
            }
        }
        let mut groups: BTreeMap<usize, (BTreeSet<ParamId>, bool, bool)> = BTreeMap::new();
        for (i, &p) in ids.iter().enumerate() {
            let root = sets.find(i);
            let entry = groups.entry(root).or_default();
            entry.0.insert(p);
            entry.1 |= spoiled[i];
            // A group is about induction only if some binding adds a constant to a parameter.
            if let Some(Steps::Set(set)) = values.get(&p) {
                entry.2 |= set.iter().any(|s| matches!(s, Step::Offset(..)));
            }
        }
        groups
            .into_values()
            .filter(|(_, spoiled, offsets)| !spoiled && *offsets)
            .map(|(group, _, _)| group)
            .collect()
    }
}

impl Lattice for Steps {
    // Steps name the program's constants and parameters: finitely many per program.
    const FINITE_HEIGHT: bool = true;

    fn bottom() -> Steps {
        Steps::Set(BTreeSet::new())
    }

    fn is_bottom(&self) -> bool {
        matches!(self, Steps::Set(s) if s.is_empty())
    }

    fn leq(&self, other: &Steps) -> bool {
        match (self, other) {
            (_, Steps::Top) => true,
            (Steps::Top, Steps::Set(_)) => false,
            (Steps::Set(a), Steps::Set(b)) => a.is_subset(b),
        }
    }

    fn join(&self, other: &Steps) -> Steps {
        match (self, other) {
            (Steps::Top, _) | (_, Steps::Top) => Steps::Top,
            (Steps::Set(a), Steps::Set(b)) => Steps::Set(a.union(b).copied().collect()),
        }
    }

    fn meet(&self, other: &Steps) -> Steps {
        match (self, other) {
            (Steps::Top, x) | (x, Steps::Top) => x.clone(),
            (Steps::Set(a), Steps::Set(b)) => Steps::Set(a.intersection(b).copied().collect()),
        }
    }
}

impl Top for Steps {
    fn top() -> Steps {
        Steps::Top
    }

    fn is_top(&self) -> bool {
        matches!(self, Steps::Top)
    }
}

impl fmt::Display for Steps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Steps::Top => f.write_str("⊤"),
            Steps::Set(set) => {
                f.write_str("{")?;
                for (i, s) in set.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match s {
                        Step::Const(c) => write!(f, "{c}")?,
                        Step::Offset(p, c) => write!(f, "⟨p{}, {c}⟩", p.0)?,
                    }
                }
                f.write_str("}")
            }
        }
    }
}

/// Steps are symbolic: any integer may be what a non-empty set of them stands for.
impl crate::value::Concrete for Steps {
    fn contains(&self, _: i64) -> bool {
        !self.is_bottom()
    }
}
