//! The checked program as the interpreter keeps it: plain data, shared by every thread of an
//! analysis.
//!
//! The checker's [`absinthe_domc::dom::tree::Program`] holds the product and lattice
//! declarations the generator reads, with their Rust paths and identifiers (`syn` and
//! `proc_macro2` values, which may not cross threads). [`Plan::new`] keeps what running needs:
//! every function's tree, the type table, and each product's components, reductions and rules
//! with their functions named as the tree names them and their places as text.

use absinthe_domc::dom::tree::{Function, Program, Ty, TypeTable};
use absinthe_domc::model::{self, Policy, function_name};
use std::collections::BTreeMap;

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

/// What a transfer rule computes ([`model::RuleKind`] with operations by their variant's name).
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
}

impl RuleKind {
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
        }
    }
}

/// A component of a product.
#[derive(Clone, Debug)]
pub struct Component {
    name: String,
    type_key: String,
    /// Whether operations without a rule fall back to the component type's own value domain.
    pub value_domain: bool,
}

impl Component {
    /// The field's name or position.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The component's type as blame messages name it.
    pub fn type_key(&self) -> &str {
        &self.type_key
    }
}

/// A directed reduction `target ← source`.
#[derive(Clone, Debug)]
pub struct Reduction {
    /// Index of the refined component.
    pub target: usize,
    /// Index of the component that refines it.
    pub source: usize,
    /// The function, by its name in [`Plan::functions`].
    pub function: String,
    /// Where it was declared.
    pub origin: Origin,
}

/// A transfer rule of one component.
#[derive(Clone, Debug)]
pub struct Rule {
    /// Index of the component whose value the rule computes.
    pub component: usize,
    /// What the rule is for.
    pub kind: RuleKind,
    /// The function, by its name in [`Plan::functions`].
    pub function: String,
    /// Whether a binary rule also takes its arguments' kinds.
    pub with_kinds: bool,
    /// Where it was declared.
    pub origin: Origin,
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
    /// The transfer rules, in declaration order.
    pub rules: Vec<Rule>,
}

impl From<&model::ProductDecl> for Product {
    fn from(decl: &model::ProductDecl) -> Product {
        Product {
            name: decl.name.to_string(),
            components: decl
                .components
                .iter()
                .map(|c| Component {
                    name: c.name(),
                    type_key: c.type_key(),
                    value_domain: c.value_domain,
                })
                .collect(),
            policy: decl.policy,
            reductions: decl
                .reductions
                .iter()
                .map(|r| Reduction {
                    target: r.target,
                    source: r.source,
                    function: function_name(&r.function),
                    origin: (&r.origin).into(),
                })
                .collect(),
            rules: decl
                .rules
                .iter()
                .map(|r| Rule {
                    component: r.component,
                    kind: (&r.kind).into(),
                    function: function_name(&r.function),
                    with_kinds: r.with_kinds,
                    origin: (&r.origin).into(),
                })
                .collect(),
        }
    }
}

/// The checked program as data that every thread may read.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Every lattice type.
    pub types: TypeTable,
    /// A declared lattice's written-out `contains`, by lattice name.
    pub contains: BTreeMap<String, String>,
    /// The products and the names of their direct companions.
    pub products: Vec<(Product, Option<String>)>,
    /// Every function by name.
    pub functions: BTreeMap<String, Function>,
}

impl Plan {
    /// What running `program` needs of it.
    pub fn new(program: &Program) -> Plan {
        Plan {
            types: program.types.clone(),
            contains: program.contains.clone(),
            products: program
                .products
                .iter()
                .map(|(decl, direct)| (decl.into(), direct.clone()))
                .collect(),
            functions: program.functions.clone(),
        }
    }

    /// The lattice type called `name` (a lattice, product, direct product or alias).
    pub fn lookup(&self, name: &str) -> Option<Ty> {
        self.types.lookup(name)
    }
}
