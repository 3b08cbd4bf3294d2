//! Linear steps: what a parameter is bound to when it is bound only to constants and to other
//! parameters plus or minus constants — the lattice of the basic-induction-parameter task, as a
//! building block for tasks of that kind.

use crate::disjoint_sets::DisjointSets;
use crate::lattice::{Lattice, Top};
use crate::terms::{ParamId, Terms};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One binding: a constant `c`, or a parameter plus a constant `⟨Φ_x, c⟩`.
///
/// `Ord` (constants first, then offsets by parameter and constant) orders the elements of a
/// [`Steps`] set.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Step, Steps};
/// use absinthe::terms::ParamId;
///
/// let x = ParamId(0);
/// assert!(Step::Const(9) < Step::Offset(x, -1));
/// assert_eq!(Steps::offset(x, 1), Steps::one(Step::Offset(x, 1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    /// The constant.
    Const(i64),
    /// The parameter plus the constant.
    Offset(ParamId, i64),
}

/// A set of [`Step`]s, or ⊤ (bound to something else too). Ordered by inclusion, ⊤ above all.
///
/// The bottom is the empty set (bound to nothing yet); join is union and meet intersection,
/// with ⊤ absorbing for the join and neutral for the meet. Steps name the constants and
/// parameters of one program, finitely many, so [`Lattice::FINITE_HEIGHT`] is `true` and the
/// widening is the join.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Lattice, Step, Steps, Top};
/// use absinthe::terms::ParamId;
///
/// let x = ParamId(0);
/// let zero = Steps::constant(0);
/// let next = Steps::offset(x, 1);
/// let j = zero.join(&next);
/// assert_eq!(j, Steps::Set([Step::Const(0), Step::Offset(x, 1)].into()));
/// assert!(zero.leq(&j) && !j.leq(&zero));
/// assert_eq!(j.meet(&zero), zero);
/// assert_eq!(zero.meet(&next), Steps::bottom());
/// assert_eq!(j.join(&Steps::Top), Steps::top());
/// assert_eq!(j.widen(&Steps::constant(2)), j.join(&Steps::constant(2)));
/// assert_eq!(j.to_string(), "{0, ⟨p0, 1⟩}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Steps {
    /// Bound only to these.
    Set(BTreeSet<Step>),
    /// Bound to something that is not a step.
    Top,
}

impl Steps {
    /// The set holding just `step`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Step, Steps};
    ///
    /// assert_eq!(Steps::one(Step::Const(3)), Steps::constant(3));
    /// assert_eq!(Steps::one(Step::Const(3)).to_string(), "{3}");
    /// ```
    pub fn one(step: Step) -> Steps {
        Steps::Set(BTreeSet::from([step]))
    }

    /// The constant `c`: `{Φ_c}`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Lattice, Step, Steps};
    ///
    /// let c = Steps::constant(-4);
    /// assert_eq!(c, Steps::Set([Step::Const(-4)].into()));
    /// assert!(!c.is_bottom());
    /// ```
    pub fn constant(c: i64) -> Steps {
        Steps::one(Step::Const(c))
    }

    /// Parameter `p` plus `c`: `{⟨Φ_p, Φ_c⟩}`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Step, Steps};
    /// use absinthe::terms::ParamId;
    ///
    /// let s = Steps::offset(ParamId(2), -1);
    /// assert_eq!(s, Steps::one(Step::Offset(ParamId(2), -1)));
    /// assert_eq!(s.to_string(), "{⟨p2, -1⟩}");
    /// ```
    pub fn offset(p: ParamId, c: i64) -> Steps {
        Steps::one(Step::Offset(p, c))
    }

    /// The steps as the paper writes them, with parameter names from `terms`, in the order of
    /// [`Step`]'s `Ord` (constants first): `{Φ_0, ⟨Φ_x, Φ_1⟩}`, or `⊤`. A parameter missing from
    /// `terms` is named `?`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Lattice, Steps};
    /// use absinthe::terms::{Binder, Param, ParamId, Term, TermId, Terms};
    ///
    /// let terms = Terms {
    ///     terms: vec![Term::Const(0)],
    ///     params: vec![Param { name: "x".to_owned(), binder: Binder::Free }],
    ///     root: TermId(0),
    /// };
    /// let s = Steps::offset(ParamId(0), 1).join(&Steps::constant(0));
    /// assert_eq!(s.render(&terms), "{Φ_0, ⟨Φ_x, Φ_1⟩}");
    /// assert_eq!(Steps::offset(ParamId(7), 1).render(&terms), "{⟨Φ_?, Φ_1⟩}");
    /// assert_eq!(Steps::Top.render(&terms), "⊤");
    /// ```
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
    /// Parameters bound to ⊤ or to nothing, and groups that reach one, are left out. So are
    /// parameters absent from `values` and groups in which no binding is an offset (bound to
    /// constants only). The order of the groups is deterministic but otherwise unspecified.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use std::collections::{BTreeMap, BTreeSet};
    ///
    /// use absinthe::lattice::{Lattice, Steps};
    /// use absinthe::terms::ParamId;
    ///
    /// let [i, j, t, c, u] = [0, 1, 2, 3, 4].map(ParamId);
    /// let values = BTreeMap::from([
    ///     // i = 0, then i + 1: a basic induction parameter.
    ///     (i, Steps::constant(0).join(&Steps::offset(i, 1))),
    ///     // j = 0, then i + 2: it steps with i.
    ///     (j, Steps::constant(0).join(&Steps::offset(i, 2))),
    ///     // t is bound to something that is not a step.
    ///     (t, Steps::Top),
    ///     // c is a constant only.
    ///     (c, Steps::constant(5)),
    ///     // u steps from t, which is not a step.
    ///     (u, Steps::offset(t, 1)),
    /// ]);
    /// assert_eq!(Steps::induction_sets(&values), [BTreeSet::from([i, j])]);
    /// ```
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
