//! The `.dom` syntax tree: what the parser produces, with the byte range of every node so that
//! `sema` can point at it.

use crate::diagnostic::FileId;
use std::ops::Range;

/// A name with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The text.
    pub text: String,
    /// Its byte range.
    pub span: Range<usize>,
}

/// A parsed file.
#[derive(Clone, Debug)]
pub struct File {
    /// Which file.
    pub id: FileId,
    /// Its items in order.
    pub items: Vec<Item>,
}

/// A top-level declaration.
#[derive(Clone, Debug)]
pub enum Item {
    /// `import "path.dom";`
    Import { path: String, span: Range<usize> },
    /// `extern type Name;`
    ExternType(Name),
    /// `type Name = T;`
    TypeAlias(Name, Type),
    /// `extern fn name(params) -> T;`
    ExternFn(Signature),
    /// `fn name(params) -> T = expr;`
    Function(Signature, Expr),
    /// `lattice Name …`
    Lattice(Lattice),
    /// `product Name … { components }`
    Product(Product),
    /// `meet_ext name(target: T, source: S) -> T = expr;`
    MeetExt(Signature, Expr),
    /// `transfer name on TRIGGER (params) -> T = expr;`
    Transfer(Transfer),
    /// `analysis name { settings }`
    Analysis(Analysis),
}

/// A function-like signature.
#[derive(Clone, Debug)]
pub struct Signature {
    /// Its name.
    pub name: Name,
    /// Its parameters.
    pub params: Vec<(Name, Type)>,
    /// Its result type.
    pub result: Type,
    /// `recursion N` (a `fn` only): how deep it may call itself, as written (`None` when the
    /// literal does not fit in 64 bits), and where.
    pub recursion: Option<(Option<u64>, Range<usize>)>,
    /// The whole declaration's range.
    pub span: Range<usize>,
}

/// A type as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// `Name` or `Name<args>`.
    Named {
        /// The name.
        name: Name,
        /// Type or integer arguments.
        args: Vec<TypeArg>,
        /// The whole type's range.
        span: Range<usize>,
    },
    /// `(T, U)`.
    Tuple(Vec<Type>, Range<usize>),
}

impl Type {
    /// The type's byte range.
    pub fn span(&self) -> Range<usize> {
        match self {
            Type::Named { span, .. } | Type::Tuple(_, span) => span.clone(),
        }
    }
}

/// An argument of a named type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeArg {
    /// A type.
    Type(Type),
    /// An integer (the bound of a `FiniteSum`).
    Int(u64, Range<usize>),
}

/// A lattice declaration.
#[derive(Clone, Debug)]
pub struct Lattice {
    /// Its name.
    pub name: Name,
    /// Its shape.
    pub body: LatticeBody,
    /// The whole declaration's range.
    pub span: Range<usize>,
}

/// The shape of a lattice declaration.
#[derive(Clone, Debug)]
pub enum LatticeBody {
    /// `= flat(T);`
    Flat(Type),
    /// `= finite { A < B < C, … } [with { contains(x, v) = …; }]`
    Finite(Vec<Vec<Name>>, Vec<Override>),
    /// `= sum { V(T), W, … } [with { contains(x, v) = …; }]`
    Sum(Vec<(Name, Option<Type>)>, Vec<Override>),
    /// `[smash] { field: T, … } [with { op(a, b) = expr; … }]`
    Struct {
        /// Whether a bottom field makes the whole bottom.
        smash: bool,
        /// The fields.
        fields: Vec<(Name, Type)>,
        /// Written-out operations.
        overrides: Vec<Override>,
    },
}

/// A written-out lattice operation: `join(a, b) = expr;`.
#[derive(Clone, Debug)]
pub struct Override {
    /// The operation's name (`join`, `meet`, `leq`, `widen`, `narrow`, `empty`, `contains`).
    pub op: Name,
    /// Its parameter names.
    pub params: Vec<Name>,
    /// Its body.
    pub body: Expr,
    /// The whole definition's range.
    pub span: Range<usize>,
}

/// A product declaration.
#[derive(Clone, Debug)]
pub struct Product {
    /// Its name.
    pub name: Name,
    /// `reduce …`, if given.
    pub policy: Option<(PolicyAst, Range<usize>)>,
    /// `direct Name`, if given.
    pub direct: Option<Name>,
    /// The components.
    pub components: Vec<ComponentAst>,
    /// The whole declaration's range.
    pub span: Range<usize>,
}

/// A product's component as written.
#[derive(Clone, Debug)]
pub struct ComponentAst {
    /// Its name.
    pub name: Name,
    /// Its type.
    pub ty: Type,
    /// `uses builtin`: operations without a rule fall back to the type's own.
    pub uses: bool,
    /// `relation(packs = K)`: the product's relational component, with the pack size and where
    /// it is written.
    pub relation: Option<(u64, Range<usize>)>,
}

/// A reduction policy as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyAst {
    /// `never`
    Never,
    /// `once`
    Once,
    /// `fixpoint` or `fixpoint(k)`
    Fixpoint(Option<u64>),
}

/// A transfer rule.
#[derive(Clone, Debug)]
pub struct Transfer {
    /// Its signature.
    pub sig: Signature,
    /// What triggers it.
    pub trigger: Trigger,
    /// The trigger's range.
    pub trigger_span: Range<usize>,
    /// Its body.
    pub body: Expr,
}

/// What a transfer rule is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// `on "+"`
    Op(String),
    /// `on any`
    AnyOp,
    /// `on literal`
    Literal,
    /// `on address`
    Address,
    /// `on assume "<"`
    Assume(String),
    /// `on assume any`
    AnyAssume,
    /// `on cond` (kernel terms)
    Cond,
    /// `on param` (kernel terms)
    Param,
    /// `on apply` (kernel terms)
    Apply,
    /// `on function` (kernel terms)
    Function,
    /// `on backward "+"` (backward analyses)
    Demand(String),
    /// `on backward any`
    DemandAny,
    /// `on backward copy`
    DemandCopy,
    /// `on backward observe`
    Observe,
}

/// An analysis declaration.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Its name.
    pub name: Name,
    /// Its settings: `key value, value;`.
    pub settings: Vec<(Name, Vec<Setting>)>,
    /// The whole declaration's range.
    pub span: Range<usize>,
}

/// A value in an analysis setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// An integer.
    Int(u64, Range<usize>),
    /// A negative integer: `-` and its magnitude.
    Neg(u64, Range<usize>),
    /// A word.
    Word(Name),
    /// A string.
    Str(String, Range<usize>),
}

/// An expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Its range.
    pub span: Range<usize>,
}

/// The kinds of expression.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A decimal integer literal (non-negative; negation is unary).
    Int(u64),
    /// A hexadecimal or binary literal: a 64-bit pattern, read as two's complement (`None`
    /// when it has more than 64 bits).
    Bits(Option<u64>),
    /// `true` or `false`.
    Bool(bool),
    /// A name or `Type::item` path.
    Path(Vec<Name>),
    /// `path(args)`.
    Call(Vec<Name>, Vec<Expr>),
    /// `Name { field: value, … }`: a struct lattice by its fields' names, in any order.
    StructLit(Name, Vec<(Name, Expr)>),
    /// `e.field`.
    Field(Box<Expr>, Name),
    /// `(a, b)`.
    Tuple(Vec<Expr>),
    /// `op e`.
    Unary(UnaryOp, Box<Expr>),
    /// `a op b`.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `let x = e; body`.
    Let(Name, Box<Expr>, Box<Expr>),
    /// `let (a, _, c) = e; body`: the names of the tuple's parts (`None` for `_`).
    LetTuple(Vec<Option<Name>>, Box<Expr>, Box<Expr>),
    /// `if c { a } else { b }`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `match e { arms }`.
    Match(Box<Expr>, Vec<Arm>),
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-`, checked.
    Neg,
    /// `!`.
    Not,
    /// `~`, bitwise complement of an `int`.
    BitNot,
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `||`
    Or,
    /// `&&`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`, checked: an overflow makes the rule's result top.
    Add,
    /// `-`, checked.
    Sub,
    /// `*`, checked.
    Mul,
    /// `/`, checked (a zero divisor too).
    Div,
    /// `%`, checked.
    Rem,
    /// `+%`, wrapping.
    WrapAdd,
    /// `-%`, wrapping.
    WrapSub,
    /// `*%`, wrapping.
    WrapMul,
    /// `&`, bitwise.
    BitAnd,
    /// `|`, bitwise.
    BitOr,
    /// `^`, bitwise.
    BitXor,
    /// `<<`, checked: an amount outside `0..64`, or a lost bit, makes the rule's result top.
    Shl,
    /// `>>` (arithmetic), checked: an amount outside `0..64` makes the rule's result top.
    Shr,
    /// `>>>` (logical, zeros shifted in), checked like `>>`.
    LShr,
    /// `<<%`, wrapping: the amount is taken modulo 64, lost bits are dropped (the program's
    /// `shl`).
    WrapShl,
    /// `>>%`, wrapping: the amount is taken modulo 64 (the program's `shr`).
    WrapShr,
    /// `>>>%`, wrapping: the amount is taken modulo 64 (the program's `lshr`).
    WrapLShr,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::WrapAdd => "+%",
            BinaryOp::WrapSub => "-%",
            BinaryOp::WrapMul => "*%",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitOr => "|",
            BinaryOp::BitXor => "^",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::LShr => ">>>",
            BinaryOp::WrapShl => "<<%",
            BinaryOp::WrapShr => ">>%",
            BinaryOp::WrapLShr => ">>>%",
        }
    }

    /// Whether the operator gives a `bool` (`&&`, `||` and the comparisons of `int`s) rather
    /// than an `int`.
    pub fn gives_bool(self) -> bool {
        matches!(
            self,
            BinaryOp::And
                | BinaryOp::Or
                | BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge
                | BinaryOp::Eq
                | BinaryOp::Ne
        )
    }

    /// Whether the operator is checked: it fails where its result leaves `int` (or the divisor
    /// is zero, or a shift amount is outside `0..64`).
    pub fn is_checked(self) -> bool {
        match self {
            BinaryOp::Add
            | BinaryOp::Sub
            | BinaryOp::Mul
            | BinaryOp::Div
            | BinaryOp::Rem
            | BinaryOp::Shl
            | BinaryOp::Shr
            | BinaryOp::LShr => true,
            BinaryOp::Or
            | BinaryOp::And
            | BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge
            | BinaryOp::WrapAdd
            | BinaryOp::WrapSub
            | BinaryOp::WrapMul
            | BinaryOp::BitAnd
            | BinaryOp::BitOr
            | BinaryOp::BitXor
            | BinaryOp::WrapShl
            | BinaryOp::WrapShr
            | BinaryOp::WrapLShr => false,
        }
    }
}

/// A match arm: one or more patterns and a body.
#[derive(Clone, Debug)]
pub struct Arm {
    /// The alternatives.
    pub patterns: Vec<Pattern>,
    /// The body.
    pub body: Expr,
}

/// A pattern.
#[derive(Clone, Debug)]
pub enum Pattern {
    /// `_`
    Wildcard(Range<usize>),
    /// An integer, possibly negative.
    Int(i128, Range<usize>),
    /// `(p, q, …)` on a tuple: one pattern per part.
    Tuple(Vec<Pattern>, Range<usize>),
    /// `Type::Variant` or `Type::Variant(x, _)`; in a tuple pattern, a single name binds the
    /// part.
    Variant {
        /// The path.
        path: Vec<Name>,
        /// The binders (`None` for `_`).
        binders: Vec<Option<Name>>,
        /// The whole pattern's range.
        span: Range<usize>,
    },
}
