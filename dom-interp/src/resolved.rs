//! What the resolution pass (`resolve.rs`) makes of the checked tree: [`Expr`], in which nothing
//! is looked up by name while it runs, the resolved functions ([`Functions`]) and their ids.

use crate::numeric::Num;
use crate::plan::FnId;
use absinthe::program::Op;
use absinthe_domc::dom::tree::{BinaryOp, Fallback, Function, Ty};
use std::collections::BTreeMap;

/// A lattice operation a body names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LatticeOp {
    Join,
    Meet,
    Widen,
    Narrow,
    Leq,
    IsBottom,
    IsTop,
    /// `Concrete::contains` (site functions only).
    Contains,
}

/// A built-in function a body calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Builtin {
    Min,
    Max,
    Eval,
    Traps,
    Overflows,
    IsComparison,
    AtLeast,
    AtMost,
}

/// A function of a runtime lattice a body calls (`Interval::new`, `Names::one`, …), by the
/// name it has in the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TypeFn {
    All,
    Assume,
    At,
    Binary,
    Bounds,
    Constant,
    Contains,
    Hi,
    Hull,
    IsConstant,
    IsKnown,
    Lo,
    MeetEach,
    Modulus,
    Moved,
    New,
    None,
    Of,
    Offset,
    One,
    Residue,
    Single,
    Symbol,
    Within,
}

impl TypeFn {
    /// Every function, with its name in the language.
    const ALL: [(TypeFn, &'static str); 24] = [
        (TypeFn::All, "all"),
        (TypeFn::Assume, "assume"),
        (TypeFn::At, "at"),
        (TypeFn::Binary, "binary"),
        (TypeFn::Bounds, "bounds"),
        (TypeFn::Constant, "constant"),
        (TypeFn::Contains, "contains"),
        (TypeFn::Hi, "hi"),
        (TypeFn::Hull, "hull"),
        (TypeFn::IsConstant, "is_constant"),
        (TypeFn::IsKnown, "is_known"),
        (TypeFn::Lo, "lo"),
        (TypeFn::MeetEach, "meet_each"),
        (TypeFn::Modulus, "modulus"),
        (TypeFn::Moved, "moved"),
        (TypeFn::New, "new"),
        (TypeFn::None, "none"),
        (TypeFn::Of, "of"),
        (TypeFn::Offset, "offset"),
        (TypeFn::One, "one"),
        (TypeFn::Residue, "residue"),
        (TypeFn::Single, "single"),
        (TypeFn::Symbol, "symbol"),
        (TypeFn::Within, "within"),
    ];

    /// The function called `name`, if a runtime lattice has one.
    pub(crate) fn named(name: &str) -> Option<TypeFn> {
        TypeFn::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(f, _)| *f)
    }

    /// Its name in the language.
    pub(crate) fn name(self) -> &'static str {
        match TypeFn::ALL.iter().find(|(f, _)| *f == self) {
            Some((_, n)) => n,
            None => unreachable!("`TypeFn::ALL` lists every function, not {self:?}"),
        }
    }
}

/// An element of an enumerated lattice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Element {
    /// `Constant::Bottom`, `Constant::Value(x)`, `Constant::Top` (the runtime's `Flat<i64>`).
    Constant(Constant),
    /// [`crate::Val::Enum`]'s index in a flat, finite or sum lattice.
    Enum(usize),
    /// An element of `Parity` or `Sign`.
    Num(Num),
}

/// A variant of the runtime's `Flat<i64>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Constant {
    Bottom,
    Value,
    Top,
}

/// A variant of `ArgKind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Param,
    Const,
    Other,
}

/// A resolved pattern.
#[derive(Clone, Debug)]
pub(crate) enum Pattern {
    Wildcard,
    Int(i64),
    Op(Op),
    Kind(Kind),
    Constant(Constant),
    Enum(usize),
    Num(Num),
    /// A tuple's parts, one pattern each.
    Tuple(Box<[Pattern]>),
}

/// A name an arm binds: the value at `at` (positions in tuples, outermost first) of the
/// scrutinee, or the payload of the variant there, into `slot`.
#[derive(Clone, Debug)]
pub(crate) struct Bound {
    pub(crate) slot: usize,
    pub(crate) at: Vec<usize>,
    /// The type of the value at `at`.
    pub(crate) ty: Ty,
    /// Whether the name takes the value itself (a name in a tuple pattern) rather than its
    /// variant's payload.
    pub(crate) whole: bool,
}

/// A resolved `match` arm.
#[derive(Clone, Debug)]
pub(crate) struct Arm {
    /// The alternatives.
    pub(crate) patterns: Vec<Pattern>,
    /// The names the arm binds, in slot order (the checker lets only an arm of one pattern
    /// bind).
    pub(crate) binds: Vec<Bound>,
    pub(crate) body: Expr,
}

/// A resolved expression: [`Node`] with nothing left to look up by name.
#[derive(Clone, Debug)]
pub(crate) enum Expr {
    Int(i64),
    Bool(bool),
    /// The frame's slot at this depth.
    Var(usize),
    Tuple(Box<[Expr]>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    BitNot(Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    Equal(Ty, Box<Expr>, Box<Expr>),
    /// `let`: the value is bound to this slot while the body runs.
    Let(usize, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Match(Ty, Box<Expr>, Box<[Arm]>),
    Field(Box<Expr>, usize),
    Op(Op),
    Top(Ty),
    Bottom(Ty),
    Element(Element, Option<Box<Expr>>),
    /// A struct lattice's (or product's) constructor.
    Struct(Ty, Box<[Expr]>),
    Lattice(LatticeOp, Ty, Box<[Expr]>),
    Builtin(Builtin, Box<[Expr]>),
    Call(FnId, Box<[Expr]>),
    /// In the body of a `fn` declared `recursion N`, the depth its call to itself passes on: one
    /// fewer than the frame's hidden last slot holds (the calls it may still make), failing when
    /// that is none.
    DepthLeft(usize),
    /// A function of a runtime lattice (`Interval::new`, `FiniteSum`'s `single`).
    TypeFn(Ty, TypeFn, Box<[Expr]>),
}

/// A resolved function of the program.
#[derive(Clone, Debug)]
pub(crate) struct Resolved {
    /// Its name in the checked program.
    pub(crate) name: String,
    /// The types of its declared parameters.
    pub(crate) params: Vec<Ty>,
    /// How many parameters it takes: the first slots of its frame.
    pub(crate) arity: usize,
    /// How many slots its frame has: its parameters, then its `let`s and binders.
    pub(crate) frame: usize,
    pub(crate) body: Expr,
    pub(crate) fallback: Fallback,
    /// Where it was declared.
    pub(crate) place: String,
}

/// Every function of the program, resolved, and their indices by name.
#[derive(Debug, Default)]
pub(crate) struct Functions {
    pub(crate) table: Vec<Resolved>,
    pub(crate) by_name: BTreeMap<String, FnId>,
}

impl Functions {
    /// The function called `name`.
    pub(crate) fn id(&self, name: &str) -> FnId {
        match self.by_name.get(name) {
            Some(id) => *id,
            // `Interp::new` refuses `extern fn`s, the only functions without a body.
            None => unreachable!(
                "the checker names functions of the program only (rules, reductions, helpers, \
                 written-out operations), not `{name}`"
            ),
        }
    }
}

/// The id of every function of `functions`: its position in the map.
pub(crate) fn ids(functions: &BTreeMap<String, Function>) -> BTreeMap<String, FnId> {
    functions
        .keys()
        .enumerate()
        .map(|(i, name)| (name.clone(), FnId(i)))
        .collect()
}
