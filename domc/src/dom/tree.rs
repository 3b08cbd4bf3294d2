//! The checked program as data, for interpreters: every rule body, reduction, helper and
//! written-out lattice operation as a typed expression tree, beside the model the generator
//! reads.
//!
//! Checking builds each body once, as the Rust the generator emits and as a [`Node`]; the two
//! say the same thing. A tree names types by their [`Ty`] in [`Program::types`], fields by their
//! index, functions by their `.dom` name, and operations by their `Op` variant name.

pub use super::ast::BinaryOp;
pub use super::types::{Shape, Ty, TypeTable};
use crate::model::{LatticeDecl, ProductDecl};
use std::collections::BTreeMap;

/// A checked expression.
#[derive(Clone, Debug)]
pub enum Node {
    /// An `int` literal (negative literals included), `int::MIN` or `int::MAX`.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A name in scope: a parameter, a `let` or a pattern's binder.
    Var(String),
    /// `(a, b, …)`.
    Tuple(Vec<Node>),
    /// Checked negation: fails on `int::MIN`.
    Neg(Box<Node>),
    /// `!b`.
    Not(Box<Node>),
    /// `~x`.
    BitNot(Box<Node>),
    /// `a op b` on `int`s and `bool`s: `&&` and `||` short-circuit, the checked operators fail
    /// where the generated code's `checked_*` would (`==` and `!=` are [`Node::Equal`]).
    Binary(BinaryOp, Box<Node>, Box<Node>),
    /// `a == b` on values of this type (lattices compare as their order says: every
    /// representation of bottom is equal); `a != b` is `!(a == b)`.
    Equal(Ty, Box<Node>, Box<Node>),
    /// `let x = value; body`.
    Let(String, Box<Node>, Box<Node>),
    /// `if c { t } else { f }`.
    If(Box<Node>, Box<Node>, Box<Node>),
    /// `match scrutinee { arms }` on a scrutinee of this type: the first arm with a matching
    /// pattern.
    Match(Ty, Box<Node>, Vec<Arm>),
    /// The field (of a struct lattice) or component (of a product) at this index.
    Field(Box<Node>, usize),
    /// `Op::Add`: the variant's name.
    Op(String),
    /// `T::top`.
    Top(Ty),
    /// `T::bottom`.
    Bottom(Ty),
    /// An element of an enumerated lattice: `Sign::Neg`, `Flat::Bottom`, `Flat::Value(x)`,
    /// `Shape::Circle(i)` (the variant's name and its payload, if any).
    Element(Ty, String, Option<Box<Node>>),
    /// A struct lattice's constructor: the fields in declaration order.
    Struct(Ty, Vec<Node>),
    /// A lattice operation on values of the lattice `Ty`: `join`, `meet`, `widen`, `narrow`,
    /// `leq`, `is_bottom` or `is_top`.
    Lattice(String, Ty, Vec<Node>),
    /// A built-in function: `min`, `max`, `eval`, `traps`, `overflows`, `is_comparison`,
    /// `Thresholds::at_least`, `Thresholds::at_most`.
    Builtin(String, Vec<Node>),
    /// A `fn` or `extern fn` of the program, by name.
    Call(String, Vec<Node>),
    /// A function of a runtime lattice: `Interval::new`, `Names::one`, `Constant::binary`, a
    /// `FiniteSum`'s `single`, … (the lattice, the function's name, the arguments).
    TypeFn(Ty, String, Vec<Node>),
    /// What a body that failed to check evaluates to (never in a checked program).
    Unreachable,
}

/// A `match` arm.
#[derive(Clone, Debug)]
pub struct Arm {
    /// The alternatives.
    pub patterns: Vec<Pat>,
    /// The body.
    pub body: Node,
}

/// A checked pattern.
#[derive(Clone, Debug)]
pub enum Pat {
    /// `_`.
    Wildcard,
    /// An integer.
    Int(i64),
    /// A variant (of `Op`, `ArgKind` or an enumerated lattice) and the name its payload binds.
    Variant(String, Option<String>),
}

/// What a function gives when its body fails (checked arithmetic left `int`).
#[derive(Clone, Debug)]
pub enum Fallback {
    /// The failure reaches the caller (`fn` helpers).
    Fail,
    /// Top of the lattice (a transfer rule, a written-out join or widening).
    Top(Ty),
    /// The parameter at this index, unchanged (a reduction, a written-out meet or narrowing).
    Param(usize),
    /// The component at this index of both product parameters, unchanged (a branch rule).
    Operands(usize),
    /// This boolean (a written-out `leq`, `empty` or `contains`).
    Bool(bool),
}

/// A function of the checked program: a `fn`, a rule, a reduction or a written-out operation.
#[derive(Clone, Debug)]
pub struct Function {
    /// Its parameters' names and types.
    pub params: Vec<(String, Ty)>,
    /// Its result type.
    pub result: Ty,
    /// Its body.
    pub body: Node,
    /// What it gives when the body fails.
    pub fallback: Fallback,
    /// Where it was declared (`file:line:col`).
    pub place: String,
}

/// The checked program as data.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Every lattice type.
    pub types: TypeTable,
    /// The declared lattices, as the generator reads them (written-out operations and
    /// concretizations name functions of [`Program::functions`]).
    pub lattices: Vec<LatticeDecl>,
    /// A declared lattice's written-out `contains`, by lattice name.
    pub contains: BTreeMap<String, String>,
    /// The products (rules and reductions name functions of [`Program::functions`]) and the
    /// names of their direct companions.
    pub products: Vec<(ProductDecl, Option<String>)>,
    /// Every function by name: `.dom` names for `fn`s, rules and reductions,
    /// `__lattice_op` for written-out operations.
    pub functions: BTreeMap<String, Function>,
    /// The `extern fn`s, by name, with where each was declared: an interpreter cannot run them.
    pub externs: Vec<(String, String)>,
}

impl Program {
    /// The lattice type called `name` (a lattice, product, direct product or alias).
    pub fn lookup(&self, name: &str) -> Option<Ty> {
        self.types.lookup(name)
    }
}
