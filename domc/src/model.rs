//! The model shared by both front ends: lattices, reduced products, reductions and transfer
//! rules, as the `#[lattice]` macros and the `.dom` compiler understand them after checking.
//!
//! A front end builds these values (reporting its own errors with its own spans) and hands them to
//! [`crate::codegen`]; nothing here knows where a declaration came from beyond its [`Origin`].

use proc_macro2::{Ident, Span, TokenStream};

/// Where a declaration came from: its span (for diagnostics in generated code) and a one-line
/// description that generated code carries as documentation above the item it produced.
#[derive(Clone, Debug)]
pub struct Origin {
    /// The span of the declaration in the front end's input.
    pub span: Span,
    /// For example ``#[meet_ext] fn interval_from_const`` or ``interval.dom:12:1``.
    pub describe: String,
    /// Whether `span` points into Rust source, so that generated code can name its file and line
    /// with `file!()` and `line!()` (the `.dom` front end puts the place in `describe` instead).
    pub in_rust: bool,
}

impl Origin {
    /// An origin at `span` described by `describe`, whose place is already in `describe`.
    pub fn new(span: Span, describe: impl Into<String>) -> Origin {
        Origin {
            span,
            describe: describe.into(),
            in_rust: false,
        }
    }

    /// An origin at `span` of a Rust item.
    pub fn rust(span: Span, describe: impl Into<String>) -> Origin {
        Origin {
            span,
            describe: describe.into(),
            in_rust: true,
        }
    }
}

/// A lattice declared on a type.
#[derive(Clone, Debug)]
pub struct LatticeDecl {
    /// The type's name.
    pub name: Ident,
    /// Where it was declared.
    pub origin: Origin,
    /// How its order is built.
    pub kind: LatticeKind,
    /// Whether a top element is generated.
    pub has_top: bool,
}

/// The shape of a declared lattice.
#[derive(Clone, Debug)]
pub enum LatticeKind {
    /// A struct ordered field by field (boxed: it is much the largest kind).
    Pointwise(Box<Pointwise>),
    /// An enum with a bottom and a top variant around incomparable values.
    Flat(Flat),
    /// An enum of unit variants ordered by a Hasse diagram.
    Finite(Finite),
    /// An enum whose variants each carry a lattice, with a bottom and a top around them.
    Sum(Sum),
}

/// A struct ordered field by field.
#[derive(Clone, Debug)]
pub struct Pointwise {
    /// The fields, in declaration order.
    pub fields: Vec<Field>,
    /// Whether a bottom field makes the whole value bottom (the smashed product).
    pub smash: bool,
    /// A user function `fn(&Self) -> bool` saying which values also stand for bottom (for
    /// example an interval whose low bound exceeds its high bound).
    pub empty_if: Option<syn::Path>,
    /// A user function `fn() -> Self` giving bottom instead of every field's bottom.
    pub bottom: Option<syn::Path>,
    /// A user function `fn(&Self) -> Self` giving a value's normal form, for a struct whose
    /// values have several representations (a congruence class `r mod m` by any `r` of it):
    /// equality compares normal forms, so the engine's fixpoint test and the law checker see
    /// one value, and values print as their normal form.
    pub normalize: Option<syn::Path>,
    /// A user function `fn() -> Self` giving top instead of every field's top.
    pub top: Option<syn::Path>,
    /// Written-out operations replacing the pointwise ones: `(name, fn(&Self, &Self) -> …)` for
    /// `join`, `meet`, `widen`, `narrow` (returning `Self`) and `leq` (returning `bool`).
    pub overrides: Vec<(String, syn::Path)>,
    /// Where each written-out operation was written (`("join", "bounds.dom:20:5")`), for the
    /// law checker's messages; empty when the front end has no places to give.
    pub written_at: Vec<(String, String)>,
    /// The struct's generic parameters (empty for `.dom` lattices). Every impl requires what it
    /// needs of each field type that names one of them (`Lattice`, `Top`, `Display`, …).
    pub generics: syn::Generics,
}

impl Pointwise {
    /// The written-out operation called `op`, if any.
    pub fn override_of(&self, op: &str) -> Option<&syn::Path> {
        self.overrides
            .iter()
            .find(|(name, _)| name == op)
            .map(|(_, path)| path)
    }

    /// The fields that take part in the order.
    pub fn ordered(&self) -> impl Iterator<Item = &Field> {
        self.fields.iter().filter(|f| !f.ignored)
    }

    /// Whether bottom has several representations that the generated code must treat as one.
    pub fn has_many_bottoms(&self) -> bool {
        self.smash || self.empty_if.is_some()
    }

    /// The ordered fields that are lattices (not plain values): those the derived operations
    /// combine.
    pub fn lattice_fields(&self) -> impl Iterator<Item = &Field> {
        self.ordered().filter(|f| !f.value)
    }

    /// Whether some field is a plain value (see [`Field::value`]).
    pub fn has_values(&self) -> bool {
        self.fields.iter().any(|f| f.value)
    }
}

/// A field of a struct lattice or a product.
#[derive(Clone, Debug)]
pub struct Field {
    /// The field's name or position.
    pub member: syn::Member,
    /// Its type.
    pub ty: syn::Type,
    /// Whether it is kept out of the order (compared by nothing, joined by keeping the left
    /// operand's value, created with `Default`).
    pub ignored: bool,
    /// Whether it holds a plain value (an `int` or a `bool` of a `.dom` struct lattice) rather
    /// than a lattice: it is compared and printed, but only the written-out operations order it
    /// (the `.dom` checker requires them), so nothing is derived from it.
    pub value: bool,
}

/// A flat enum: `bottom ⊑ every value ⊑ top`, values compared by equality.
#[derive(Clone, Debug)]
pub struct Flat {
    /// The bottom variant (a unit variant).
    pub bottom: Ident,
    /// The top variant (a unit variant).
    pub top: Ident,
    /// The value variants, in declaration order.
    pub values: Vec<Variant>,
}

/// A variant of an enum lattice.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Its name.
    pub name: Ident,
    /// Its fields: none, positional or named.
    pub fields: VariantFields,
}

/// The fields of a variant.
#[derive(Clone, Debug)]
pub enum VariantFields {
    /// `Name`.
    Unit,
    /// `Name(T, U)`.
    Tuple(Vec<syn::Type>),
    /// `Name { a: T, b: U }`.
    Named(Vec<(Ident, syn::Type)>),
}

impl VariantFields {
    /// The types of the fields, in order.
    pub fn types(&self) -> Vec<&syn::Type> {
        match self {
            VariantFields::Unit => Vec::new(),
            VariantFields::Tuple(types) => types.iter().collect(),
            VariantFields::Named(fields) => fields.iter().map(|(_, ty)| ty).collect(),
        }
    }
}

/// A finite lattice of unit variants given by its order.
#[derive(Clone, Debug)]
pub struct Finite {
    /// The variants, in declaration order; indices below refer to this list.
    pub variants: Vec<Ident>,
    /// The checked order.
    pub order: FiniteOrder,
}

/// A finite partial order that has been checked to be a lattice: the reflexive–transitive order,
/// and the join and meet of every pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FiniteOrder {
    /// `leq[a][b]` iff `a ⊑ b`.
    pub leq: Vec<Vec<bool>>,
    /// `join[a][b]`: the least upper bound.
    pub join: Vec<Vec<usize>>,
    /// `meet[a][b]`: the greatest lower bound.
    pub meet: Vec<Vec<usize>>,
    /// The least element.
    pub bottom: usize,
    /// The greatest element.
    pub top: usize,
}

/// Why a set of covering pairs does not describe a lattice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderError {
    /// There are no elements.
    Empty,
    /// `a ⊑ b ⊑ … ⊑ a` with `a` distinct from `b`: the order has a cycle through these elements.
    Cycle(Vec<usize>),
    /// These elements are all minimal: there is no single least element.
    NoBottom(Vec<usize>),
    /// These elements are all maximal: there is no single greatest element.
    NoTop(Vec<usize>),
    /// `a` and `b` have several minimal upper bounds (listed), so no join.
    NoJoin(usize, usize, Vec<usize>),
    /// `a` and `b` have several maximal lower bounds (listed), so no meet.
    NoMeet(usize, usize, Vec<usize>),
}

impl FiniteOrder {
    /// Checks that the order generated by `below` (pairs `(a, b)` meaning `a ⊑ b`) on `n`
    /// elements is a lattice, and tabulates it.
    pub fn from_pairs(n: usize, below: &[(usize, usize)]) -> Result<FiniteOrder, OrderError> {
        if n == 0 {
            return Err(OrderError::Empty);
        }
        let mut leq = vec![vec![false; n]; n];
        for (i, row) in leq.iter_mut().enumerate() {
            row[i] = true;
        }
        for &(a, b) in below {
            leq[a][b] = true;
        }
        // Warshall's transitive closure.
        for k in 0..n {
            let through = leq[k].clone();
            for row in leq.iter_mut() {
                if row[k] {
                    for (cell, &reach) in row.iter_mut().zip(&through) {
                        *cell |= reach;
                    }
                }
            }
        }
        if let Some(a) = (0..n).find(|&a| (0..n).any(|b| b != a && leq[a][b] && leq[b][a])) {
            let cycle = (0..n).filter(|&b| leq[a][b] && leq[b][a]).collect();
            return Err(OrderError::Cycle(cycle));
        }
        let minimal: Vec<usize> = (0..n)
            .filter(|&a| (0..n).all(|b| b == a || !leq[b][a]))
            .collect();
        if minimal.len() != 1 {
            return Err(OrderError::NoBottom(minimal));
        }
        let maximal: Vec<usize> = (0..n)
            .filter(|&a| (0..n).all(|b| b == a || !leq[a][b]))
            .collect();
        if maximal.len() != 1 {
            return Err(OrderError::NoTop(maximal));
        }
        let mut join = vec![vec![0; n]; n];
        let mut meet = vec![vec![0; n]; n];
        for a in 0..n {
            for b in 0..n {
                let upper: Vec<usize> = (0..n).filter(|&c| leq[a][c] && leq[b][c]).collect();
                let least: Vec<usize> = upper
                    .iter()
                    .copied()
                    .filter(|&c| upper.iter().all(|&d| leq[c][d]))
                    .collect();
                match least.as_slice() {
                    [j] => join[a][b] = *j,
                    _ => {
                        let minimal_upper = upper
                            .iter()
                            .copied()
                            .filter(|&c| upper.iter().all(|&d| d == c || !leq[d][c]))
                            .collect();
                        return Err(OrderError::NoJoin(a, b, minimal_upper));
                    }
                }
                let lower: Vec<usize> = (0..n).filter(|&c| leq[c][a] && leq[c][b]).collect();
                let greatest: Vec<usize> = lower
                    .iter()
                    .copied()
                    .filter(|&c| lower.iter().all(|&d| leq[d][c]))
                    .collect();
                match greatest.as_slice() {
                    [m] => meet[a][b] = *m,
                    _ => {
                        let maximal_lower = lower
                            .iter()
                            .copied()
                            .filter(|&c| lower.iter().all(|&d| d == c || !leq[c][d]))
                            .collect();
                        return Err(OrderError::NoMeet(a, b, maximal_lower));
                    }
                }
            }
        }
        Ok(FiniteOrder {
            leq,
            join,
            meet,
            bottom: minimal[0],
            top: maximal[0],
        })
    }

    /// The longest strictly increasing chain, counted in steps (the lattice's height).
    pub fn height(&self) -> usize {
        let n = self.leq.len();
        // Elements sorted so that every element comes after those below it.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&a| (0..n).filter(|&b| self.leq[b][a]).count());
        let mut depth = vec![0; n];
        for &a in &order {
            depth[a] = (0..n)
                .filter(|&b| b != a && self.leq[b][a])
                .map(|b| depth[b] + 1)
                .max()
                .unwrap_or(0);
        }
        depth.into_iter().max().unwrap_or(0)
    }
}

/// A sum of lattices: `Bottom ⊑ Variant(x) ⊑ Top`, variants with one lattice field each (or
/// none, a single point), ordered inside a variant by their field and incomparable across.
/// A variant holding its field's bottom is the sum's bottom.
#[derive(Clone, Debug)]
pub struct Sum {
    /// The bottom variant (a unit variant).
    pub bottom: Ident,
    /// The top variant (a unit variant).
    pub top: Ident,
    /// The summands: each a unit variant or a variant with one lattice field.
    pub summands: Vec<Variant>,
}

/// A reduced product: a struct of component lattices, the reductions between them and the
/// transfer rules of each component.
#[derive(Clone, Debug)]
pub struct ProductDecl {
    /// The struct's name.
    pub name: Ident,
    /// Where it was declared.
    pub origin: Origin,
    /// The components, in declaration order.
    pub components: Vec<Component>,
    /// How often reductions run.
    pub policy: Policy,
    /// The reductions, in the order they are applied.
    pub reductions: Vec<Reduction>,
    /// The transfer rules, in declaration order.
    pub rules: Vec<Rule>,
}

/// The reduction policy as declared (mirrors `absinthe::product::ReducePolicy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// No reductions run: the direct product.
    Never,
    /// Each reduction once.
    Once,
    /// Rounds until nothing changes, at most this many.
    Fixpoint(u32),
}

/// The largest pack a relational component may declare: a pack's value is a matrix over its
/// names (an octagon's has `(2n)²` entries) closed in cubic time, so packs are meant small.
pub const MAX_PACK: u64 = 64;

/// A component of a product.
#[derive(Clone, Debug)]
pub struct Component {
    /// The field's name or position.
    pub member: syn::Member,
    /// The component's type.
    pub ty: syn::Type,
    /// Whether operations without a rule fall back to the component type's own
    /// `ValueDomain` implementation (instead of top).
    pub value_domain: bool,
    /// For a relational component (its type a `Bounds<R>`): the most names a pack of the
    /// relation the engines keep holds. A product has at most one.
    pub relation: Option<usize>,
    /// For blame: where the join of the component's lattice comes from (`` `join`, written
    /// out at bounds.dom:20:5 ``, or the declaration it is derived for); none where the front
    /// end has no place to give (a Rust type), and blame then names the type.
    pub join_origin: Option<String>,
}

impl Component {
    /// The component's type as blame messages name it: its tokens without spaces.
    pub fn type_key(&self) -> String {
        let ty = &self.ty;
        quote::quote!(#ty).to_string().replace(' ', "")
    }

    /// The component's type as reports to an author name it: as the declaration writes it,
    /// without the path the generated code reaches it by (`Interval`, `Flat<i64>`, not
    /// `::absinthe::__private::Interval`).
    pub fn type_name(&self) -> String {
        match &self.ty {
            syn::Type::Path(p) if p.qself.is_none() => match p.path.segments.last() {
                Some(last) => quote::quote!(#last).to_string().replace(' ', ""),
                None => self.type_key(),
            },
            _ => self.type_key(),
        }
    }

    /// The component's name as messages give it.
    pub fn name(&self) -> String {
        match &self.member {
            syn::Member::Named(n) => n.to_string(),
            syn::Member::Unnamed(x) => x.index.to_string(),
        }
    }
}

/// A directed reduction `target ← source`.
#[derive(Clone, Debug)]
pub struct Reduction {
    /// Index of the refined component.
    pub target: usize,
    /// Index of the component that refines it.
    pub source: usize,
    /// The function: `fn(&Target, &Source) -> Target`, or `fn(&mut Target, &Source)` in place.
    pub function: syn::Path,
    /// Whether the function refines its target in place.
    pub in_place: bool,
    /// Where it was declared.
    pub origin: Origin,
    /// Where in its body each value it may give is written (`.dom` bodies of several branches).
    pub site: Option<Site>,
}

/// Where in a rule's or reduction's body the value it gave is written: a function with the same
/// parameters that follows the same branches and gives the index, in `places`, of the branch's
/// value (none when the body fails, as the rule's fallback then gives the value).
#[derive(Clone, Debug)]
pub struct Site {
    /// The function: the rule's parameters to `Option<i64>`.
    pub function: syn::Path,
    /// The place (`file:line:col`) of each value the body may give, and of the expressions
    /// inside them it may name.
    pub places: Vec<String>,
    /// Whether it also takes, last, the concrete value the rule's value lost (rules and
    /// reductions whose value is a lattice value; not branch refinements, whose value is a
    /// pair).
    pub concrete: bool,
}

/// A transfer rule of one component.
#[derive(Clone, Debug)]
pub struct Rule {
    /// Index of the component whose value the rule computes.
    pub component: usize,
    /// What the rule is for.
    pub kind: RuleKind,
    /// The function implementing it.
    pub function: syn::Path,
    /// Whether a `Binary` or `AnyBinary` rule also takes what its arguments' terms are (two
    /// `ArgKind`s after the operands). On kernel terms they are known; everywhere else the rule
    /// is called with `ArgKind::Other` for both.
    pub with_kinds: bool,
    /// Where it was declared.
    pub origin: Origin,
    /// Where in its body each value it may give is written (`.dom` bodies of several branches).
    pub site: Option<Site>,
}

/// What a transfer rule computes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// `fn(i64) -> C`: the abstraction of a literal.
    Literal,
    /// `fn(i64) -> C`: the abstraction of `addr @s`, from the symbol's number.
    Address,
    /// `fn(&P, &P) -> C` for one operation (the name of an `Op` variant, such as `Add`).
    Binary(Ident),
    /// `fn(Op, &P, &P) -> C` for every operation without a rule of its own.
    AnyBinary,
    /// `fn(&P, &P) -> (C, C)` refining both operands of a comparison that holds.
    Assume(Ident),
    /// `fn(Op, &P, &P) -> (C, C)` for every comparison without a rule of its own.
    AnyAssume,
    /// Kernel terms: `fn(&P, &P, &P) -> C`, the value of `(cond p a b)`.
    Cond,
    /// Kernel terms: `fn(ParamId, &P) -> C`, a parameter's value from what it is bound to.
    Param,
    /// Kernel terms: `fn(&P, &P) -> C`, an application with an unknown operator, from the
    /// operator's value and the result of what it may call.
    Apply,
    /// Kernel terms: `fn() -> C`, the value of an abstraction or a primitive as a term.
    Function,
    /// Backward analyses: `fn(&P) -> C` for one operation, what `dest = a op b` demands of each
    /// operand given the demand on `dest`.
    Demand(Ident),
    /// Backward analyses: `fn(Op, &P) -> C` for every operation without a backward rule of its
    /// own.
    AnyDemand,
    /// Backward analyses: `fn(&P) -> C`, what a copy (a φ, `select`, a value put in a block or
    /// closure) demands of its source given the demand on its destination.
    DemandCopy,
    /// Backward analyses: `fn() -> C`, what an observation (a branch, a return, a store, a
    /// call, an operation that may trap) demands of the values it reads.
    Observe,
}

impl RuleKind {
    /// Whether the rule is about kernel terms only (the behavior graph's hooks).
    pub fn is_kernel_hook(&self) -> bool {
        matches!(
            self,
            RuleKind::Cond | RuleKind::Param | RuleKind::Apply | RuleKind::Function
        )
    }

    /// Whether the rule is about backward analyses (`on backward …`).
    pub fn is_backward(&self) -> bool {
        matches!(
            self,
            RuleKind::Demand(_) | RuleKind::AnyDemand | RuleKind::DemandCopy | RuleKind::Observe
        )
    }
}

/// The operations of the runtime's `Op`, as `(symbol, variant)`. Front ends accept the symbols;
/// generated code names the variants.
pub const OPERATIONS: [(&str, &str); 39] = [
    ("+", "Add"),
    ("-", "Sub"),
    ("*", "Mul"),
    ("/", "Div"),
    ("%", "Rem"),
    ("&", "And"),
    ("|", "Or"),
    ("^", "Xor"),
    ("<<", "Shl"),
    (">>", "Shr"),
    ("<", "Lt"),
    ("<=", "Le"),
    (">", "Gt"),
    (">=", "Ge"),
    ("==", "Eq"),
    ("!=", "Ne"),
    ("ult", "ULt"),
    ("ule", "ULe"),
    ("ugt", "UGt"),
    ("uge", "UGe"),
    ("udiv", "UDiv"),
    ("urem", "URem"),
    ("lshr", "LShr"),
    ("trunc", "Trunc"),
    ("fadd", "FAdd"),
    ("fsub", "FSub"),
    ("fmul", "FMul"),
    ("fdiv", "FDiv"),
    ("frem", "FRem"),
    ("fcmp", "FCmp"),
    ("fptrunc", "FPTrunc"),
    ("sitofp", "SIToFP"),
    ("uitofp", "UIToFP"),
    ("fptosi", "FPToSI"),
    ("fptoui", "FPToUI"),
    ("fbits", "FBits"),
    ("ffrombits", "FFromBits"),
    ("fsqrt", "FSqrt"),
    ("fround", "FRound"),
];

/// The comparison operations, the only ones a branch can assume.
pub const COMPARISONS: [&str; 10] = ["<", "<=", ">", ">=", "==", "!=", "ult", "ule", "ugt", "uge"];

/// The `Op` variant for an operation symbol.
pub fn op_variant(symbol: &str) -> Option<&'static str> {
    OPERATIONS
        .iter()
        .find(|(s, _)| *s == symbol)
        .map(|&(_, variant)| variant)
}

/// Every accepted operation symbol, for "expected one of" messages.
pub fn op_symbols() -> String {
    OPERATIONS
        .iter()
        .map(|(s, _)| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The name of the function a path calls: its last segment.
pub fn function_name(path: &syn::Path) -> String {
    path.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

/// Tokens naming the type of a component, for messages.
pub fn type_text(ty: &syn::Type) -> String {
    let tokens: TokenStream = quote::quote!(#ty);
    tokens
        .to_string()
        .replace(" < ", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
}

/// A checked `analysis` declaration: its name, its value domain and how it runs (the `.dom`
/// checker builds it; the generator writes it out).
#[derive(Clone, Debug)]
pub struct AnalysisDecl {
    /// Its name.
    pub name: String,
    /// The Rust name of its value domain.
    pub domain: String,
    /// How it runs: engine, state, context, limits and the rest.
    pub spec: absinthe_spec::AnalysisSpec,
    /// Where it was declared.
    pub describe: String,
}

impl AnalysisDecl {
    /// The name of the unit struct generated for it: `const_prop` → `ConstPropAnalysis`.
    pub fn type_name(&self) -> String {
        let camel: String = self
            .name
            .split('_')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let mut c = p.chars();
                match c.next() {
                    Some(first) => first.to_uppercase().collect::<String>() + c.as_str(),
                    None => String::new(),
                }
            })
            .collect();
        format!("{camel}Analysis")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sign_lattice_is_a_lattice() {
        // Bottom, Neg, Zero, Pos, NonPos, NonNeg, NonZero, Top.
        let below = [
            (0, 1),
            (0, 2),
            (0, 3),
            (1, 4),
            (2, 4),
            (2, 5),
            (3, 5),
            (1, 6),
            (3, 6),
            (4, 7),
            (5, 7),
            (6, 7),
        ];
        let order = FiniteOrder::from_pairs(8, &below).expect("a lattice");
        assert_eq!((order.bottom, order.top), (0, 7));
        assert_eq!(order.join[1][3], 6);
        assert_eq!(order.join[1][2], 4);
        assert_eq!(order.meet[4][5], 2);
        assert_eq!(order.height(), 3);
    }

    #[test]
    fn orders_that_are_not_lattices_are_explained() {
        assert_eq!(FiniteOrder::from_pairs(0, &[]), Err(OrderError::Empty));
        assert_eq!(
            FiniteOrder::from_pairs(2, &[(0, 1), (1, 0)]),
            Err(OrderError::Cycle(vec![0, 1]))
        );
        assert_eq!(
            FiniteOrder::from_pairs(3, &[(0, 2), (1, 2)]),
            Err(OrderError::NoBottom(vec![0, 1]))
        );
        assert_eq!(
            FiniteOrder::from_pairs(3, &[(0, 1), (0, 2)]),
            Err(OrderError::NoTop(vec![1, 2]))
        );
        // ⊥ < a, b < c, d < ⊤: a and b have two minimal upper bounds.
        let below = [
            (0, 1),
            (0, 2),
            (1, 3),
            (2, 3),
            (1, 4),
            (2, 4),
            (3, 5),
            (4, 5),
        ];
        assert_eq!(
            FiniteOrder::from_pairs(6, &below),
            Err(OrderError::NoJoin(1, 2, vec![3, 4]))
        );
    }
}
