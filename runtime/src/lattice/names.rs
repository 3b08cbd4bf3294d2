//! Sets of names: which parameters a value depends on, or (under [`Dual`](crate::lattice::Dual))
//! which it certainly demands — the lattices of the useless-parameter and strictness tasks.

use crate::lattice::{Lattice, Top};
use crate::terms::{ParamId, Terms};
use std::collections::BTreeSet;
use std::fmt;

/// A set of names, or every name. Ordered by inclusion.
///
/// The bottom is the empty set and the top [`Names::All`]; join is union and meet intersection,
/// both exact. A program has finitely many names, so [`Lattice::FINITE_HEIGHT`] is `true` and the
/// widening is the join. Under [`Dual`](crate::lattice::Dual) the join becomes the intersection:
/// the names demanded on every path.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Dual, Lattice, Names, Top};
/// use absinthe::terms::ParamId;
///
/// let (x, y) = (ParamId(0), ParamId(1));
/// let xy = Names::one(x).join(&Names::one(y));
/// assert!(Names::one(x).leq(&xy) && !xy.leq(&Names::one(x)));
/// assert_eq!(xy.meet(&Names::one(y)), Names::one(y));
/// assert_eq!(Names::one(x).meet(&Names::one(y)), Names::bottom());
/// assert_eq!(xy.join(&Names::All), Names::top());
/// assert_eq!(xy.to_string(), "{p0, p1}");
///
/// let must = Dual(xy.clone()).join(&Dual(Names::one(y)));
/// assert_eq!(must, Dual(Names::one(y)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Names {
    /// These names.
    Set(BTreeSet<ParamId>),
    /// Every name.
    All,
}

impl Names {
    /// No name: the empty set, the bottom.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Lattice, Names};
    /// use absinthe::terms::ParamId;
    ///
    /// assert!(Names::none().is_bottom());
    /// assert!(!Names::none().contains(ParamId(0)));
    /// ```
    pub fn none() -> Names {
        Names::Set(BTreeSet::new())
    }

    /// The set holding just `p`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Names;
    /// use absinthe::terms::ParamId;
    ///
    /// let n = Names::one(ParamId(3));
    /// assert!(n.contains(ParamId(3)) && !n.contains(ParamId(4)));
    /// ```
    pub fn one(p: ParamId) -> Names {
        Names::Set(BTreeSet::from([p]))
    }

    /// Every name: [`Names::All`], the top.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Names, Top};
    /// use absinthe::terms::ParamId;
    ///
    /// assert!(Names::all().is_top());
    /// assert!(Names::all().contains(ParamId(u32::MAX)));
    /// ```
    pub fn all() -> Names {
        Names::All
    }

    /// Whether `p` is included; always `true` for [`Names::All`].
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Lattice, Names};
    /// use absinthe::terms::ParamId;
    ///
    /// let xs = Names::one(ParamId(0)).join(&Names::one(ParamId(2)));
    /// assert!(xs.contains(ParamId(2)) && !xs.contains(ParamId(1)));
    /// assert!(Names::All.contains(ParamId(1)));
    /// ```
    pub fn contains(&self, p: ParamId) -> bool {
        match self {
            Names::Set(set) => set.contains(&p),
            Names::All => true,
        }
    }

    /// The set with the names spelled from `terms`: `{x, y}`, or `all`. Names come in the
    /// order of their [`ParamId`]; one missing from `terms` is spelled `?`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Lattice, Names};
    /// use absinthe::terms::{Binder, Param, ParamId, Term, TermId, Terms};
    ///
    /// let param = |name: &str| Param { name: name.to_owned(), binder: Binder::Free };
    /// let terms = Terms {
    ///     terms: vec![Term::Const(0)],
    ///     params: vec![param("x"), param("y")],
    ///     root: TermId(0),
    /// };
    /// let n = Names::one(ParamId(1)).join(&Names::one(ParamId(0)));
    /// assert_eq!(n.render(&terms), "{x, y}");
    /// assert_eq!(Names::one(ParamId(5)).render(&terms), "{?}");
    /// assert_eq!(Names::All.render(&terms), "all");
    /// ```
    pub fn render(&self, terms: &Terms) -> String {
        match self {
            Names::All => "all".to_owned(),
            Names::Set(set) => {
                let names: Vec<&str> = set.iter().map(|&p| terms.param_name(p)).collect();
                format!("{{{}}}", names.join(", "))
            }
        }
    }
}

impl Lattice for Names {
    // A program has finitely many names.
    const FINITE_HEIGHT: bool = true;

    fn bottom() -> Names {
        Names::none()
    }

    fn is_bottom(&self) -> bool {
        matches!(self, Names::Set(s) if s.is_empty())
    }

    fn leq(&self, other: &Names) -> bool {
        match (self, other) {
            (_, Names::All) => true,
            (Names::All, Names::Set(_)) => false,
            (Names::Set(a), Names::Set(b)) => a.is_subset(b),
        }
    }

    fn join(&self, other: &Names) -> Names {
        match (self, other) {
            (Names::All, _) | (_, Names::All) => Names::All,
            (Names::Set(a), Names::Set(b)) => Names::Set(a.union(b).copied().collect()),
        }
    }

    fn meet(&self, other: &Names) -> Names {
        match (self, other) {
            (Names::All, x) | (x, Names::All) => x.clone(),
            (Names::Set(a), Names::Set(b)) => Names::Set(a.intersection(b).copied().collect()),
        }
    }
}

impl Top for Names {
    fn top() -> Names {
        Names::All
    }

    fn is_top(&self) -> bool {
        matches!(self, Names::All)
    }
}

impl fmt::Display for Names {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Names::All => f.write_str("all"),
            Names::Set(set) => {
                let names: Vec<String> = set.iter().map(|p| format!("p{}", p.0)).collect();
                write!(f, "{{{}}}", names.join(", "))
            }
        }
    }
}

/// Sets of names say nothing about integers: every set contains every value (bottom included:
/// the empty set is what a constant depends on, and constants have values).
impl crate::value::Concrete for Names {
    fn contains(&self, _: i64) -> bool {
        true
    }
}
