//! The checked program as data: every rule body, reduction, helper and written-out lattice
//! operation as a typed expression tree, beside the model the shared generator reads.
//!
//! Checking (`sema/` with the body checker `check/`) builds this and nothing else; it has two
//! back ends, the Rust generator (`rust/`) and the interpreter (`dom-interp`). A tree names
//! types by their [`Ty`] in [`Program::types`], fields by their index, functions by their
//! `.dom` name, and operations by their `Op` variant name.

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
    /// A name in scope: its name, its type, and whether a parameter or a local binds it.
    Var(String, Ty, Binding),
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
    /// `let (a, _, c) = value; body` on a tuple `value` of as many parts: the names bound to
    /// its parts (`None` for `_`).
    LetTuple(Vec<Option<String>>, Box<Node>, Box<Node>),
    /// `if c { t } else { f }`.
    If(Box<Node>, Box<Node>, Box<Node>),
    /// `match scrutinee { arms }` on a scrutinee of this type: the first arm with a matching
    /// pattern.
    Match(Ty, Box<Node>, Vec<Arm>),
    /// The field (of a struct lattice) or component (of a product) at this index of a value of
    /// the lattice `Ty`.
    Field(Ty, Box<Node>, usize),
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

/// What binds a name a [`Node::Var`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// A parameter of the function (generated Rust takes a lattice parameter by reference).
    Param,
    /// A `let` or a pattern's binder (generated Rust holds it by value).
    Local,
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
    /// A tuple's parts, one pattern each.
    Tuple(Vec<Pat>),
    /// A name bound to the value (a part of a tuple).
    Bind(String),
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

/// What a function of the program is.
#[derive(Clone, Debug)]
pub enum Role {
    /// A `fn` helper: its failure reaches the caller.
    Helper,
    /// A transfer rule.
    Rule,
    /// A reduction (`meet_ext`).
    Reduction,
    /// The operation `op` (`join`, `widen`, `contains`, …) written out for the lattice `Ty`.
    Written(Ty, String),
    /// Where the value of the rule or reduction of this name is written: its parameters, its
    /// branches, and the index of each branch's value (`model::Site`); it fails where the body
    /// fails.
    Site(String),
}

/// A function of the checked program: a `fn`, a rule, a reduction or a written-out operation.
#[derive(Clone, Debug)]
pub struct Function {
    /// What it is.
    pub role: Role,
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
    /// A `fn` declared `recursion N`: it may call itself, `N` calls deep at most; a call past
    /// that fails, as checked arithmetic that leaves `int` does.
    pub recursion: Option<u32>,
}

/// The signature of what a body may call by name: a `fn` or an `extern fn`.
#[derive(Clone, Debug)]
pub struct FnSig {
    /// Parameter types.
    pub params: Vec<Ty>,
    /// Result type.
    pub result: Ty,
    /// Whether it is an `extern fn` (written in Rust, never fails) rather than a `fn` (fails
    /// where its body's checked arithmetic does).
    pub external: bool,
}

/// An `extern fn`: implemented in Rust, so an interpreter cannot run it.
#[derive(Clone, Debug)]
pub struct Extern {
    /// Its name.
    pub name: String,
    /// Its parameters' names and types.
    pub params: Vec<(String, Ty)>,
    /// Its result type.
    pub result: Ty,
    /// Where it was declared (`file:line:col`).
    pub place: String,
}

/// A declaration that becomes code, in the order of the sources.
#[derive(Clone, Debug)]
pub enum Decl {
    /// The function of [`Program::functions`] by this name.
    Function(String),
    /// The membership of concrete integers in a declared lattice: written out by the function
    /// named, or derived.
    Concretization {
        /// The lattice.
        lattice: Ty,
        /// Its written-out `contains`, if any.
        contains: Option<String>,
        /// Where the lattice was declared (`file:line:col`).
        place: String,
    },
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
    /// The functions and concretizations in the order they were declared.
    pub decls: Vec<Decl>,
    /// The `extern fn`s, in the order they were declared.
    pub externs: Vec<Extern>,
    /// Where every `extern fn` and `extern type` is declared (file and byte range), in the
    /// order of the files and of each file: what a back end that cannot provide them reports.
    pub extern_places: Vec<(usize, std::ops::Range<usize>)>,
}

impl Program {
    /// The lattice type called `name` (a lattice, product, direct product or alias).
    pub fn lookup(&self, name: &str) -> Option<Ty> {
        self.types.lookup(name)
    }
}

impl Node {
    /// Whether evaluating the node may fail: checked arithmetic that leaves `int`, or a call of a
    /// `fn` (`fallible` tells a `fn`'s name from an `extern fn`'s).
    pub fn may_fail(&self, fallible: &dyn Fn(&str) -> bool) -> bool {
        let any = |nodes: &[Node]| nodes.iter().any(|n| n.may_fail(fallible));
        match self {
            Node::Int(_)
            | Node::Bool(_)
            | Node::Var(..)
            | Node::Op(_)
            | Node::Top(_)
            | Node::Bottom(_)
            | Node::Unreachable => false,
            Node::Neg(_) => true,
            Node::Not(x) | Node::BitNot(x) | Node::Field(_, x, _) => x.may_fail(fallible),
            Node::Binary(op, a, b) => {
                op.is_checked() || a.may_fail(fallible) || b.may_fail(fallible)
            }
            Node::Equal(_, a, b) | Node::Let(_, a, b) | Node::LetTuple(_, a, b) => {
                a.may_fail(fallible) || b.may_fail(fallible)
            }
            Node::If(c, t, f) => {
                c.may_fail(fallible) || t.may_fail(fallible) || f.may_fail(fallible)
            }
            Node::Match(_, scrutinee, arms) => {
                scrutinee.may_fail(fallible) || arms.iter().any(|a| a.body.may_fail(fallible))
            }
            Node::Element(_, _, payload) => payload.as_ref().is_some_and(|p| p.may_fail(fallible)),
            Node::Tuple(parts)
            | Node::Struct(_, parts)
            | Node::Lattice(_, _, parts)
            | Node::Builtin(_, parts)
            | Node::TypeFn(_, _, parts) => any(parts),
            Node::Call(name, args) => fallible(name) || any(args),
        }
    }
}
