//! The checked program as the interpreter keeps it: plain data, shared by every thread of an
//! analysis.
//!
//! The checker's [`absinthe_domc::dom::tree::Program`] holds the product and lattice
//! declarations the generator reads, with their Rust paths and identifiers (`syn` and
//! `proc_macro2` values, which may not cross threads). [`Plan::new`] keeps what running needs
//! besides the functions (which [`crate::resolve`] takes): the type table, and each product's
//! components, reductions and rules with their functions named as the tree names them and their
//! places as text.

use absinthe::program::Op;
use absinthe::relational::{Relation, RelationKind};
use absinthe_domc::dom::tree::{Program, Shape, Ty, TypeTable};
use absinthe_domc::dom::types::Relational;
use absinthe_domc::model::{self, Policy, function_name};
use std::collections::BTreeMap;

/// The most reductions a product may have for [`Product::readers`] to hold their bits.
pub(crate) const READER_BITS: usize = u64::BITS as usize;

/// A function of the program, by its index in the interpreter's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FnId(pub(crate) usize);

/// Where a rule or reduction was declared, as messages quote it (``interval.dom:12:1``).
#[derive(Clone, Debug)]
pub struct Origin {
    /// The place, as [`model::Origin::describe`].
    pub describe: String,
}

impl From<&model::Origin> for Origin {
    fn from(origin: &model::Origin) -> Origin {
        Origin {
            describe: origin.describe.clone(),
        }
    }
}

/// What a transfer rule computes: [`model::RuleKind`] with operations by their variant's name.
/// The model keeps them as `syn` idents, whose spans point the macros' errors at the user's
/// attribute and which may not cross threads; a loaded file must, so it keeps the names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// The abstraction of a literal.
    Literal,
    /// The abstraction of `addr @s`.
    Address,
    /// One operation, by its `Op` variant's name.
    Binary(String),
    /// Every operation without a rule of its own.
    AnyBinary,
    /// The refinement of a comparison that holds, by its `Op` variant's name.
    Assume(String),
    /// Every comparison without a refinement of its own.
    AnyAssume,
    /// Kernel terms: `(cond p a b)`.
    Cond,
    /// Kernel terms: a parameter from what it is bound to.
    Param,
    /// Kernel terms: an application with an unknown operator.
    Apply,
    /// Kernel terms: an abstraction or a primitive as a term.
    Function,
    /// Backward: what one operation demands of its operands, by its `Op` variant's name.
    Demand(String),
    /// Backward: the same for every operation without a rule of its own.
    AnyDemand,
    /// Backward: what a copy demands of its source.
    DemandCopy,
    /// Backward: what an observation demands.
    Observe,
}

impl RuleKind {
    /// The operation of a rule for one operation.
    fn binary_op(&self) -> Option<&str> {
        match self {
            RuleKind::Binary(op) => Some(op),
            _ => None,
        }
    }

    /// The comparison of a refinement for one comparison.
    fn assume_op(&self) -> Option<&str> {
        match self {
            RuleKind::Assume(op) => Some(op),
            _ => None,
        }
    }

    /// The operation of a backward rule for one operation.
    fn demand_op(&self) -> Option<&str> {
        match self {
            RuleKind::Demand(op) => Some(op),
            _ => None,
        }
    }

    /// Whether the rule is about backward analyses.
    pub fn is_backward(&self) -> bool {
        matches!(
            self,
            RuleKind::Demand(_) | RuleKind::AnyDemand | RuleKind::DemandCopy | RuleKind::Observe
        )
    }

    /// Whether the rule is about kernel terms only (the behavior graph's hooks).
    pub fn is_kernel_hook(&self) -> bool {
        matches!(
            self,
            RuleKind::Cond | RuleKind::Param | RuleKind::Apply | RuleKind::Function
        )
    }
}

impl From<&model::RuleKind> for RuleKind {
    fn from(kind: &model::RuleKind) -> RuleKind {
        match kind {
            model::RuleKind::Literal => RuleKind::Literal,
            model::RuleKind::Address => RuleKind::Address,
            model::RuleKind::Binary(op) => RuleKind::Binary(op.to_string()),
            model::RuleKind::AnyBinary => RuleKind::AnyBinary,
            model::RuleKind::Assume(op) => RuleKind::Assume(op.to_string()),
            model::RuleKind::AnyAssume => RuleKind::AnyAssume,
            model::RuleKind::Cond => RuleKind::Cond,
            model::RuleKind::Param => RuleKind::Param,
            model::RuleKind::Apply => RuleKind::Apply,
            model::RuleKind::Function => RuleKind::Function,
            model::RuleKind::Demand(op) => RuleKind::Demand(op.to_string()),
            model::RuleKind::AnyDemand => RuleKind::AnyDemand,
            model::RuleKind::DemandCopy => RuleKind::DemandCopy,
            model::RuleKind::Observe => RuleKind::Observe,
        }
    }
}

/// A component of a product.
#[derive(Clone, Debug)]
pub struct Component {
    name: String,
    type_name: String,
    /// Whether operations without a rule fall back to the component type's own value domain.
    pub value_domain: bool,
    /// Where the join of its lattice comes from (`model::Component::join_origin`).
    join_origin: String,
}

impl Component {
    /// The field's name or position.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The component's type as reports name it (`absinthe_domc::model::Component::type_name`).
    pub fn type_name(&self) -> &str {
        &self.type_name
    }

    /// Where the join of its lattice comes from, as blame names it.
    pub fn join_origin(&self) -> &str {
        &self.join_origin
    }
}

/// Where in a rule's or reduction's body the value it gave is written ([`model::Site`]): the
/// function that finds the value's index, and the places.
#[derive(Clone, Debug)]
pub struct Site {
    /// The site function (the rule's parameters to an `int`).
    pub function: FnId,
    /// The place of each value.
    pub places: Vec<String>,
    /// Whether the function also takes, last, the concrete value the rule's value lost.
    pub concrete: bool,
}

/// A directed reduction `target ← source`.
#[derive(Clone, Debug)]
pub struct Reduction {
    /// Index of the refined component.
    pub target: usize,
    /// Index of the component that refines it.
    pub source: usize,
    /// The function.
    pub function: FnId,
    /// Where it was declared.
    pub origin: Origin,
    /// Where each value of its body is written, when it has several.
    pub site: Option<Site>,
}

/// A transfer rule of one component.
#[derive(Clone, Debug)]
pub struct Rule {
    /// Index of the component whose value the rule computes.
    pub component: usize,
    /// What the rule is for.
    pub kind: RuleKind,
    /// The function.
    pub function: FnId,
    /// Whether a binary rule also takes its arguments' kinds.
    pub with_kinds: bool,
    /// Where it was declared.
    pub origin: Origin,
    /// Where each value of its body is written, when it has several.
    pub site: Option<Site>,
}

/// A product as the interpreter runs it.
#[derive(Clone, Debug)]
pub struct Product {
    /// The product's name.
    pub name: String,
    /// The components, in declaration order.
    pub components: Vec<Component>,
    /// How often reductions run.
    pub policy: Policy,
    /// The reductions, in the order they are applied.
    pub reductions: Vec<Reduction>,
    /// By component, the reductions (bit `k` for the reduction at `k`) that read it, as target
    /// or source: those a change of the component makes run again. Empty when there are more
    /// reductions than bits, and then every reduction runs in every round (see
    /// `Interp::reduced`).
    pub readers: Vec<u64>,
    /// The transfer rules, in declaration order.
    pub rules: Vec<Rule>,
    /// By `op as usize`, then component: the index in `rules` of the component's rule for the
    /// operation (its own, else its catch-all), if it has one.
    binary: Vec<Vec<Option<usize>>>,
    /// The same for the refinement of a comparison.
    assume: Vec<Vec<Option<usize>>>,
    /// The same for what an operation demands of its operands (backward rules).
    demand: Vec<Vec<Option<usize>>>,
    /// The relational component, if the product has one: its index and the relation the
    /// engines keep for it.
    pub relation: Option<(usize, Relation)>,
}

impl Product {
    /// `decl`, its functions given by `id`, its types' shapes in `types`.
    fn new(decl: &model::ProductDecl, types: &TypeTable, id: &dyn Fn(&str) -> FnId) -> Product {
        let site = |site: &Option<model::Site>| {
            site.as_ref().map(|s| Site {
                function: id(&function_name(&s.function)),
                places: s.places.clone(),
                concrete: s.concrete,
            })
        };
        let mut product = Product {
            name: decl.name.to_string(),
            components: decl
                .components
                .iter()
                .map(|c| Component {
                    name: c.name(),
                    type_name: c.type_name(),
                    value_domain: c.value_domain,
                    join_origin: (c.join_origin.clone())
                        .unwrap_or_else(|| format!("`join` of `{}`", c.type_name())),
                })
                .collect(),
            policy: decl.policy,
            reductions: decl
                .reductions
                .iter()
                .map(|r| Reduction {
                    target: r.target,
                    source: r.source,
                    function: id(&function_name(&r.function)),
                    origin: (&r.origin).into(),
                    site: site(&r.site),
                })
                .collect(),
            rules: decl
                .rules
                .iter()
                .map(|r| Rule {
                    component: r.component,
                    kind: (&r.kind).into(),
                    function: id(&function_name(&r.function)),
                    with_kinds: r.with_kinds,
                    origin: (&r.origin).into(),
                    site: site(&r.site),
                })
                .collect(),
            readers: Vec::new(),
            binary: Vec::new(),
            assume: Vec::new(),
            demand: Vec::new(),
            relation: relation_of(decl, types),
        };
        if product.reductions.len() <= READER_BITS {
            product.readers = (0..product.components.len())
                .map(|c| {
                    (product.reductions.iter().enumerate())
                        .filter(|(_, r)| r.target == c || r.source == c)
                        .fold(0u64, |mask, (k, _)| mask | 1 << k)
                })
                .collect();
        }
        let table = |own: fn(&RuleKind) -> Option<&str>, any: RuleKind| {
            let size = Op::ALL
                .iter()
                .map(|&op| op as usize)
                .max()
                .map_or(0, |m| m + 1);
            let mut table = vec![Vec::new(); size];
            for op in Op::ALL {
                let name = format!("{op:?}");
                table[op as usize] = (0..product.components.len())
                    .map(|i| {
                        let mine = || {
                            product
                                .rules
                                .iter()
                                .enumerate()
                                .filter(move |(_, r)| r.component == i)
                        };
                        mine()
                            .find(|(_, r)| own(&r.kind) == Some(name.as_str()))
                            .or_else(|| mine().find(|(_, r)| r.kind == any))
                            .map(|(index, _)| index)
                    })
                    .collect();
            }
            table
        };
        let binary = table(RuleKind::binary_op, RuleKind::AnyBinary);
        let assume = table(RuleKind::assume_op, RuleKind::AnyAssume);
        product.demand = table(RuleKind::demand_op, RuleKind::AnyDemand);
        product.binary = binary;
        product.assume = assume;
        product
    }

    /// Component `i`'s rule of `kind` (a literal, an address or a kernel hook: the kinds that
    /// name no operation), if it has one.
    pub fn rule(&self, kind: &RuleKind, i: usize) -> Option<&Rule> {
        self.rules
            .iter()
            .find(|r| r.component == i && r.kind == *kind)
    }

    /// Component `i`'s rule for `op`: its own, else its catch-all.
    pub fn binary_rule(&self, op: Op, i: usize) -> Option<&Rule> {
        self.binary[op as usize][i].map(|r| &self.rules[r])
    }

    /// Component `i`'s refinement for the comparison `op`: its own, else its catch-all.
    pub fn assume_rule(&self, op: Op, i: usize) -> Option<&Rule> {
        self.assume[op as usize][i].map(|r| &self.rules[r])
    }

    /// Component `i`'s backward rule for `op`: its own, else its catch-all.
    pub fn demand_rule(&self, op: Op, i: usize) -> Option<&Rule> {
        self.demand[op as usize][i].map(|r| &self.rules[r])
    }
}

/// The relational component of `decl`, with the relation its type and pack size declare.
fn relation_of(decl: &model::ProductDecl, types: &TypeTable) -> Option<(usize, Relation)> {
    let (i, packs) = (decl.components.iter().enumerate())
        .find_map(|(i, c)| c.relation.map(|packs| (i, packs)))?;
    let product = types.lookup(&decl.name.to_string());
    let shape = |t: &Ty| match t {
        Ty::Lat(id) => Some(types.shape(*id)),
        _ => None,
    };
    let kind = match product.as_ref().and_then(shape) {
        Some(Shape::Product { components }) => {
            match components.get(i).and_then(|(_, t)| shape(t)) {
                Some(Shape::Relation(Relational::Octagon)) => RelationKind::Octagon,
                Some(Shape::Relation(Relational::Zone)) => RelationKind::Zone,
                other => unreachable!(
                    "the checker declares relational components of relational types only, not of \
                 {other:?}"
                ),
            }
        }
        other => unreachable!("`{}` is a product, not {other:?}", decl.name),
    };
    Some((i, Relation { kind, packs }))
}

/// The checked program as data that every thread may read.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Every lattice type.
    pub types: TypeTable,
    /// The products and the names of their direct companions.
    pub products: Vec<(Product, Option<String>)>,
}

impl Plan {
    /// What running `program` needs of it, its functions numbered by `functions`.
    pub(crate) fn new(program: &Program, functions: &BTreeMap<String, FnId>) -> Plan {
        let id = |name: &str| match functions.get(name) {
            Some(id) => *id,
            None => unreachable!("the checker names functions of the program, not `{name}`"),
        };
        let products = program
            .products
            .iter()
            .map(|(decl, direct)| (Product::new(decl, &program.types, &id), direct.clone()))
            .collect();
        // A relational component's value is the bounds the relation gives its name: an
        // interval, as `absinthe::relational::Bounds<R>` holds one and computes with it.
        let mut types = program.types.clone();
        for id in 0..types.len() {
            if let Shape::Relation(_) = types.shape(id) {
                let name = types.name(&Ty::Lat(id));
                types.define(&name, Shape::Interval);
            }
        }
        Plan { types, products }
    }

    /// The lattice type called `name` (a lattice, product, direct product or alias).
    pub fn lookup(&self, name: &str) -> Option<Ty> {
        self.types.lookup(name)
    }
}
