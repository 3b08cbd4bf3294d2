//! The values an interprocedural analysis keeps for a name: the value domain's abstraction of
//! the integers it may hold, the functions it may be a closure of, and whether it may be a block.

use absinthe::lattice::{Lattice, Top};
use absinthe::program::{FuncId, Op};
use absinthe::value::{Concrete, ValueDomain};
use std::collections::BTreeSet;
use std::fmt;

/// A set of functions, or any function at all: which closures a value may be.
///
/// Ordered by inclusion with [`FuncSet::Any`] on top. A call through a value that may be any
/// closure may call every function of the module whose arity fits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FuncSet {
    /// Closures of these functions only (the empty set: no closure).
    Some(BTreeSet<FuncId>),
    /// A closure of any function.
    Any,
}

impl FuncSet {
    /// The set of one function.
    pub fn singleton(f: FuncId) -> FuncSet {
        FuncSet::Some(BTreeSet::from([f]))
    }

    /// Whether a closure of `f` is included.
    pub fn contains(&self, f: FuncId) -> bool {
        match self {
            FuncSet::Some(set) => set.contains(&f),
            FuncSet::Any => true,
        }
    }

    /// Whether no closure is included.
    pub fn is_empty(&self) -> bool {
        matches!(self, FuncSet::Some(set) if set.is_empty())
    }
}

impl Lattice for FuncSet {
    const FINITE_HEIGHT: bool = true;

    fn bottom() -> FuncSet {
        FuncSet::Some(BTreeSet::new())
    }

    fn is_bottom(&self) -> bool {
        self.is_empty()
    }

    fn leq(&self, other: &FuncSet) -> bool {
        match (self, other) {
            (_, FuncSet::Any) => true,
            (FuncSet::Any, FuncSet::Some(_)) => false,
            (FuncSet::Some(a), FuncSet::Some(b)) => a.is_subset(b),
        }
    }

    fn join(&self, other: &FuncSet) -> FuncSet {
        match (self, other) {
            (FuncSet::Any, _) | (_, FuncSet::Any) => FuncSet::Any,
            (FuncSet::Some(a), FuncSet::Some(b)) => FuncSet::Some(a.union(b).copied().collect()),
        }
    }

    fn meet(&self, other: &FuncSet) -> FuncSet {
        match (self, other) {
            (FuncSet::Any, x) | (x, FuncSet::Any) => x.clone(),
            (FuncSet::Some(a), FuncSet::Some(b)) => {
                FuncSet::Some(a.intersection(b).copied().collect())
            }
        }
    }
}

impl Top for FuncSet {
    fn top() -> FuncSet {
        FuncSet::Any
    }

    fn is_top(&self) -> bool {
        matches!(self, FuncSet::Any)
    }
}

impl fmt::Display for FuncSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FuncSet::Any => f.write_str("any function"),
            FuncSet::Some(set) => {
                f.write_str("{")?;
                for (i, func) in set.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{func:?}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// What an interprocedural analysis knows of one name: a value of the domain `D` for the
/// integers it may hold, the functions it may be a closure of, and whether it may be a block
/// (or a heap object, which value domains do not look into).
///
/// This is how every value domain becomes interprocedural without a line of its own: the
/// integer part runs the domain's rules unchanged, and the function part is what resolves
/// `apply` (the analysis's own function values decide the call graph). Arithmetic, comparisons
/// and branches on a closure or a block trap in the concrete semantics, so the integer part is
/// all that flows through them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProcValue<D> {
    /// The integers the name may hold.
    pub int: D,
    /// The functions it may be a closure of.
    pub funcs: FuncSet,
    /// Whether it may be a block or a heap object.
    pub block: bool,
}

impl<D: ValueDomain> ProcValue<D> {
    /// A value that can only be an integer of `int`.
    pub fn int(int: D) -> ProcValue<D> {
        ProcValue {
            int,
            funcs: FuncSet::bottom(),
            block: false,
        }
    }

    /// A closure of `f`.
    pub fn closure(f: FuncId) -> ProcValue<D> {
        ProcValue {
            int: D::bottom(),
            funcs: FuncSet::singleton(f),
            block: false,
        }
    }

    /// Some block or heap object.
    pub fn block() -> ProcValue<D> {
        ProcValue {
            int: D::bottom(),
            funcs: FuncSet::bottom(),
            block: true,
        }
    }
}

impl<D: ValueDomain> Lattice for ProcValue<D> {
    const FINITE_HEIGHT: bool = D::FINITE_HEIGHT;

    fn bottom() -> ProcValue<D> {
        ProcValue::int(D::bottom())
    }

    fn is_bottom(&self) -> bool {
        self.int.is_bottom() && self.funcs.is_bottom() && !self.block
    }

    fn leq(&self, other: &ProcValue<D>) -> bool {
        self.int.leq(&other.int) && self.funcs.leq(&other.funcs) && (!self.block || other.block)
    }

    fn join(&self, other: &ProcValue<D>) -> ProcValue<D> {
        ProcValue {
            int: self.int.join(&other.int),
            funcs: self.funcs.join(&other.funcs),
            block: self.block || other.block,
        }
    }

    fn meet(&self, other: &ProcValue<D>) -> ProcValue<D> {
        ProcValue {
            int: self.int.meet(&other.int),
            funcs: self.funcs.meet(&other.funcs),
            block: self.block && other.block,
        }
    }

    fn widen(&self, newer: &ProcValue<D>) -> ProcValue<D> {
        ProcValue {
            int: self.int.widen(&newer.int),
            funcs: self.funcs.join(&newer.funcs),
            block: self.block || newer.block,
        }
    }

    fn widen_with_thresholds(
        &self,
        newer: &ProcValue<D>,
        thresholds: &absinthe::lattice::Thresholds,
    ) -> ProcValue<D> {
        ProcValue {
            int: self.int.widen_with_thresholds(&newer.int, thresholds),
            funcs: self.funcs.join(&newer.funcs),
            block: self.block || newer.block,
        }
    }

    fn narrow(&self, newer: &ProcValue<D>) -> ProcValue<D> {
        ProcValue {
            int: self.int.narrow(&newer.int),
            funcs: self.funcs.meet(&newer.funcs),
            block: self.block && newer.block,
        }
    }
}

impl<D: ValueDomain> Top for ProcValue<D> {
    fn top() -> ProcValue<D> {
        ProcValue {
            int: D::top(),
            funcs: FuncSet::Any,
            block: true,
        }
    }

    fn is_top(&self) -> bool {
        self.int.is_top() && self.funcs.is_top() && self.block
    }
}

impl<D: ValueDomain> Concrete for ProcValue<D> {
    fn contains(&self, v: i64) -> bool {
        self.int.contains(v)
    }

    fn as_constant(&self) -> Option<i64> {
        if self.funcs.is_empty() && !self.block {
            self.int.as_constant()
        } else {
            None
        }
    }
}

impl<D: ValueDomain> ValueDomain for ProcValue<D> {
    fn constant(c: i64) -> ProcValue<D> {
        ProcValue::int(D::constant(c))
    }

    fn binary(op: Op, a: &ProcValue<D>, b: &ProcValue<D>) -> ProcValue<D> {
        ProcValue::int(D::binary(op, &a.int, &b.int))
    }

    fn assume(op: Op, a: &ProcValue<D>, b: &ProcValue<D>) -> (ProcValue<D>, ProcValue<D>) {
        // A comparison that holds was made on two integers.
        let (ra, rb) = D::assume(op, &a.int, &b.int);
        (ProcValue::int(ra), ProcValue::int(rb))
    }

    fn blame_binary(op: Op, a: &ProcValue<D>, b: &ProcValue<D>, v: i64) -> Option<String> {
        D::blame_binary(op, &a.int, &b.int, v)
    }

    fn blame_constant(c: i64) -> Option<String> {
        D::blame_constant(c)
    }

    fn blame_assume(op: Op, a: &ProcValue<D>, b: &ProcValue<D>, x: i64, y: i64) -> Option<String> {
        D::blame_assume(op, &a.int, &b.int, x, y)
    }

    fn blame_join(incoming: &ProcValue<D>, joined: &ProcValue<D>, v: i64) -> Option<String> {
        D::blame_join(&incoming.int, &joined.int, v)
    }

    fn rules_binary(op: Op) -> Vec<String> {
        D::rules_binary(op)
    }

    fn rules_constant() -> Vec<String> {
        D::rules_constant()
    }

    fn rules_assume(op: Op) -> Vec<String> {
        D::rules_assume(op)
    }
}

impl<D: ValueDomain> fmt::Display for ProcValue<D> {
    /// The integer part alone when the name holds only integers; otherwise each part that may
    /// hold, joined with `|` (`3 | closure {fn1}`), and ⊥ when none may.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.funcs.is_empty() && !self.block {
            return write!(f, "{}", self.int);
        }
        let mut parts = Vec::new();
        if !self.int.is_bottom() {
            parts.push(self.int.to_string());
        }
        match &self.funcs {
            FuncSet::Any => parts.push("any closure".to_owned()),
            set if !set.is_empty() => parts.push(format!("closure {set}")),
            _ => {}
        }
        if self.block {
            parts.push("block".to_owned());
        }
        f.write_str(&parts.join(" | "))
    }
}
