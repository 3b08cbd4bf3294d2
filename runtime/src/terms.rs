//! Kernel terms: the λ-calculus with integer constants and primitives that the behavior-graph
//! analyzer reads, as plain data (a front end parses text into it).

use crate::program::Op;
use std::fmt;

/// A term of a [`Terms`] program: its position in [`Terms::terms`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TermId(pub u32);

/// A parameter (or letrec-bound or free name): its position in [`Terms::params`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ParamId(pub u32);

impl TermId {
    /// The position in the term table.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl ParamId {
    /// The position in the parameter table.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A primitive function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Prim {
    /// A binary operation on integers (comparisons give booleans).
    Op(Op),
    /// `cond p a b`: `a` when `p` is true, else `b`.
    Cond,
}

impl Prim {
    /// How many arguments it takes.
    pub fn arity(self) -> usize {
        match self {
            Prim::Op(_) => 2,
            Prim::Cond => 3,
        }
    }

    /// The primitive written `symbol` in kernel text (`=` is equality).
    pub fn from_symbol(symbol: &str) -> Option<Prim> {
        match symbol {
            "cond" => Some(Prim::Cond),
            "=" => Some(Prim::Op(Op::Eq)),
            "+" | "-" | "*" | "/" | "%" | "<" | "<=" | ">" | ">=" | "!=" => {
                Op::from_symbol(symbol).map(Prim::Op)
            }
            _ => None,
        }
    }
}

impl fmt::Display for Prim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Prim::Op(Op::Eq) => f.write_str("="),
            Prim::Op(op) => f.write_str(op.symbol()),
            Prim::Cond => f.write_str("cond"),
        }
    }
}

/// One kernel term.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// An integer constant.
    Const(i64),
    /// A primitive, as an operator or as a value.
    Prim(Prim),
    /// A reference to a parameter (or a letrec-bound or free name).
    Param(ParamId),
    /// `λ x1 … xk . body`.
    Lambda {
        /// The parameters, distinct from every other term's.
        params: Box<[ParamId]>,
        /// The body.
        body: TermId,
    },
    /// `label(op arg1 … argn)`.
    App {
        /// The application's label (`ϕ_label`), unique in the program.
        label: u32,
        /// The operator.
        op: TermId,
        /// The arguments.
        args: Box<[TermId]>,
    },
    /// `letrec f1 = t1 … in body`: the names are bound to their terms, which may refer to them.
    Letrec {
        /// The bindings.
        bindings: Box<[(ParamId, TermId)]>,
        /// The body.
        body: TermId,
    },
}

/// What binds a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Binder {
    /// The `index`-th parameter of the λ term.
    Lambda(TermId, u32),
    /// A binding of the letrec term.
    Letrec(TermId),
    /// Nothing: a free name, an input of the program whose value is unknown.
    Free,
}

/// A parameter's name and binder.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Param {
    /// As written.
    pub name: String,
    /// What binds it.
    pub binder: Binder,
}

/// A kernel program: its terms, its names and its root term.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Terms {
    /// Every term; children before parents is not required.
    pub terms: Vec<Term>,
    /// Every name.
    pub params: Vec<Param>,
    /// The whole program.
    pub root: TermId,
}

impl Terms {
    /// The term `t`.
    pub fn term(&self, t: TermId) -> &Term {
        &self.terms[t.index()]
    }

    /// The name of parameter `p`.
    pub fn param_name(&self, p: ParamId) -> &str {
        self.params.get(p.index()).map_or("?", |p| p.name.as_str())
    }

    /// The application labelled `label`, if any.
    pub fn app(&self, label: u32) -> Option<TermId> {
        self.terms
            .iter()
            .position(|t| matches!(t, Term::App { label: l, .. } if *l == label))
            .map(|i| TermId(i as u32))
    }

    /// The parameter named `name`, if any (the first, when names repeat).
    pub fn param(&self, name: &str) -> Option<ParamId> {
        self.params
            .iter()
            .position(|p| p.name == name)
            .map(|i| ParamId(i as u32))
    }

    /// How the seed writes the flow of `t`: `Φ_x` for a parameter reference, `ϕ_i` for
    /// application `i`, `Φ_c` for a constant, `Φ_λx` for an abstraction.
    pub fn flow_name(&self, t: TermId) -> String {
        match self.term(t) {
            Term::Const(c) => format!("Φ_{c}"),
            Term::Prim(p) => format!("Φ_{p}"),
            Term::Param(p) => format!("Φ_{}", self.param_name(*p)),
            Term::Lambda { params, .. } => {
                let names: Vec<&str> = params.iter().map(|&p| self.param_name(p)).collect();
                format!("Φ_λ{}", names.join(","))
            }
            Term::App { label, .. } => format!("ϕ_{label}"),
            Term::Letrec { .. } => format!("Φ_letrec#{}", t.0),
        }
    }
}

/// What an argument of a primitive is, besides its value: a task (such as basic
/// induction) may need to know that `(+ x 1)` adds a constant to a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A reference to this parameter.
    Param(ParamId),
    /// This constant.
    Const(i64),
    /// Any other term.
    Other,
}

/// An argument of a primitive as a task sees it.
#[derive(Clone, Copy, Debug)]
pub struct Arg<'a, V> {
    /// What the argument term is.
    pub kind: ArgKind,
    /// Its value in the task.
    pub value: &'a V,
}
