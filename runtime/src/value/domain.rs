//! The [`ValueDomain`] trait every value analysis runs, and what a branch on one of its values
//! may do ([`Truth`]).

use super::Concrete;
use crate::lattice::{Interval, Lattice, Top};
use crate::program::{Op, SymbolId};
use crate::relational::Relation;
use crate::terms::{Arg, ParamId};
use std::fmt::Display;

/// An abstract domain of integer values that the non-relational analysis can run.
///
/// # Laws
///
/// With `γ(a)` the set of integers `a` stands for (`a.contains(v)` iff `v ∈ γ(a)`, see
/// [`Concrete`]):
///
/// - `constant(c).contains(c)`.
/// - **binary** is sound: if `a.contains(x)`, `b.contains(y)` and `op.eval(x, y) == Some(z)`
///   then `binary(op, a, b).contains(z)`. It is bottom when either argument is bottom.
/// - **assume** is sound: for `(a2, b2) = assume(op, a, b)`, if `a.contains(x)`,
///   `b.contains(y)` and `op.eval(x, y) == Some(1)` then `a2.contains(x)` and `b2.contains(y)`;
///   and `a2.leq(a)`, `b2.leq(b)`. Returning the arguments unchanged is always sound.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a value domain",
    label = "`{Self}` does not implement `absinthe::value::ValueDomain`",
    note = "an analysis runs a value domain: a `#[lattice(product)]` of a `#[absinthe::domain]` module, a product of a `.dom` file, or a type implementing `absinthe::value::ValueDomain` (as `Interval` and `Flat<i64>` do)"
)]
pub trait ValueDomain: Lattice + Top + Concrete + Display + 'static {
    /// The abstraction of the literal `c`.
    fn constant(c: i64) -> Self;

    /// The abstract semantics of `op`.
    fn binary(op: Op, a: &Self, b: &Self) -> Self;

    /// The abstraction of `table [entries] i` with `i` in `index`: the join of the entries
    /// whose positions `index` contains (bottom when none is). Exact for a constant index, and
    /// sound for any domain whose [`Concrete::contains`] is; a domain may do better.
    fn table(entries: &[i64], index: &Self) -> Self {
        if index.is_bottom() {
            return Self::bottom();
        }
        if let Some(k) = index.as_constant() {
            return usize::try_from(k)
                .ok()
                .and_then(|k| entries.get(k))
                .map_or_else(Self::bottom, |&v| Self::constant(v));
        }
        let mut out = Self::bottom();
        for (k, &v) in entries.iter().enumerate() {
            if index.contains(k as i64) {
                out.join_with(&Self::constant(v));
            }
        }
        out
    }

    /// The abstraction of `addr @s`, the address of a module-level symbol: top by default (an
    /// address is some integer). Domains that track pointers (with an
    /// [`Address`](crate::lattice::Address) component) know it.
    fn address(symbol: SymbolId) -> Self {
        let _ = symbol;
        Self::top()
    }

    /// Refines `a` and `b` knowing that the comparison `a op b` holds (`op` is a comparison).
    fn assume(op: Op, a: &Self, b: &Self) -> (Self, Self) {
        let _ = op;
        (a.clone(), b.clone())
    }

    /// Backward analyses (`direction backward`): what `dest = a op b` demands of each operand,
    /// given what the rest of the run demands of `dest`. The values of a backward analysis
    /// describe demands, greater meaning more is demanded; top (everything demanded) is always
    /// sound and is the default. A `.dom` product declares it with `on backward "+"` and
    /// `on backward any` rules.
    fn demand_binary(op: Op, dest: &Self) -> Self {
        let _ = (op, dest);
        Self::top()
    }

    /// Backward analyses: what a copy `dest = a` demands of `a` (and what a φ demands of the
    /// operand its edge brings, `select` of its operands, a block or closure of the values it
    /// holds), given the demand on `dest`; top by default (`on backward copy`).
    fn demand_copy(dest: &Self) -> Self {
        let _ = dest;
        Self::top()
    }

    /// Backward analyses: what an observation demands of the value it reads: a branch's
    /// condition, a returned or thrown value, a stored value and the object stored into, the
    /// arguments and callee of a call, the operands of an operation that may trap; top by
    /// default (`on backward observe`).
    fn observed() -> Self {
        Self::top()
    }

    /// On kernel terms (the behavior graph): primitive `op` applied to arguments whose terms
    /// are known as well as their values ([`ArgKind`](crate::terms::ArgKind): a parameter, a
    /// constant, or another term). [`ValueDomain::binary`] of the values by default; a domain
    /// with rules that read the argument kinds (`.dom` rules with `ArgKind` parameters) sees
    /// them here, every argument included, bottom ones too.
    fn term_binary(op: Op, a: &Arg<'_, Self>, b: &Arg<'_, Self>) -> Self {
        Self::binary(op, a.value, b.value)
    }

    /// On kernel terms: `(cond p a b)`. The join of the branches by default.
    fn term_cond(p: &Self, a: &Self, b: &Self) -> Self {
        let _ = p;
        a.join(b)
    }

    /// On kernel terms: the value of parameter `param`'s flow, from the join `bound` of what
    /// it is bound to. `bound` by default; tasks about names themselves add the name.
    fn term_param(param: ParamId, bound: &Self) -> Self {
        let _ = param;
        bound.clone()
    }

    /// On kernel terms: an application whose operator is not known in the text, from the value
    /// of its operator and the join `result` of what the functions it may call return. The
    /// result by default.
    fn term_apply(operator: &Self, result: &Self) -> Self {
        let _ = operator;
        result.clone()
    }

    /// The relational component of the domain, when a product declares one
    /// ([`crate::relational::Bounds`]): the engines that keep states per name then keep a
    /// relational value of that kind over a function's names beside the names' values
    /// ([`crate::relational::WithRelation`]). None by default.
    fn relation() -> Option<Relation> {
        None
    }

    /// The bounds this value's relational component gives its name (top for a domain without
    /// one).
    fn relation_bounds(&self) -> Interval {
        Interval::top()
    }

    /// This value with its relational component met with `bounds` and the product's
    /// reductions run, so that the other components learn them and the component learns
    /// theirs (the value itself for a domain without one).
    fn with_relation_bounds(&self, bounds: &Interval) -> Self {
        let _ = bounds;
        self.clone()
    }

    /// On kernel terms: the value of an abstraction or a primitive as a term (functions are
    /// reported through the control-flow facts). Bottom by default.
    fn term_function() -> Self {
        Self::bottom()
    }

    /// For abstract debugging: `binary(op, a, b)` excludes the concrete result `v`; which
    /// declared rule (or reduction) is to blame, with its source location, if the domain can
    /// tell. Generated products can; the default knows nothing.
    fn blame_binary(op: Op, a: &Self, b: &Self, v: i64) -> Option<String> {
        let _ = (op, a, b, v);
        None
    }

    /// For abstract debugging: `constant(c)` excludes `c`; which rule is to blame.
    fn blame_constant(c: i64) -> Option<String> {
        let _ = c;
        None
    }

    /// For abstract debugging: `assume(op, a, b)` excludes the concrete operands `x` (from `a`)
    /// or `y` (from `b`) although `x op y` holds; which rule is to blame.
    fn blame_assume(op: Op, a: &Self, b: &Self, x: i64, y: i64) -> Option<String> {
        let _ = (op, a, b, x, y);
        None
    }

    /// For abstract debugging: at the head of a block, the join (or widening) of what flows in
    /// gave `joined`, which excludes the concrete value `v`, although `incoming` — the value
    /// along the edge control took — contains it. Which operation is to blame: the join of a
    /// product's component (with where it is written), or a `contains` that is not monotone
    /// (`incoming` below `joined`). Generated products can tell; the default knows nothing.
    fn blame_join(incoming: &Self, joined: &Self, v: i64) -> Option<String> {
        let _ = (incoming, joined, v);
        None
    }

    /// For explanations ("why is this value what it is"): the rules that compute
    /// `binary(op, _, _)`, one line per component of a product (one line for a domain with a
    /// single transfer function), each naming its rule and where it is declared (`.dom`
    /// `file:line:col`, or Rust `file:line`). Unlike the `blame_*` methods this holds whatever
    /// the operands are; reductions are not listed (they are logged as they happen, see
    /// [`crate::product::record_reductions`]). Empty when the domain cannot tell, as by default.
    fn rules_binary(op: Op) -> Vec<String> {
        let _ = op;
        Vec::new()
    }

    /// For explanations: the rules that compute `constant(_)`, as [`ValueDomain::rules_binary`]
    /// lists them.
    fn rules_constant() -> Vec<String> {
        Vec::new()
    }

    /// For explanations: the rules that compute `assume(op, _, _)` (branch refinement), as
    /// [`ValueDomain::rules_binary`] lists them.
    fn rules_assume(op: Op) -> Vec<String> {
        let _ = op;
        Vec::new()
    }
}

/// What a branch on an abstract value may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truth {
    /// The value is bottom: neither edge is taken.
    Neither,
    /// The value is certainly non-zero.
    True,
    /// The value is certainly zero.
    False,
    /// Either edge may be taken.
    Unknown,
}

impl Truth {
    /// What a branch on `value` (taken when non-zero) may do.
    pub fn of<D: ValueDomain>(value: &D) -> Truth {
        if value.is_bottom() {
            Truth::Neither
        } else if value.as_constant() == Some(0) {
            Truth::False
        } else if !value.contains(0) {
            Truth::True
        } else {
            Truth::Unknown
        }
    }

    /// Whether the edge taken when the condition is `outcome` may be taken.
    pub fn allows(self, outcome: bool) -> bool {
        match self {
            Truth::Neither => false,
            Truth::True => outcome,
            Truth::False => !outcome,
            Truth::Unknown => true,
        }
    }
}
