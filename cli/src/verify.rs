//! Abstract debugging: runs a program concretely and checks that every value it computes lies in
//! what the analysis inferred, and when one does not, traces the disagreement back to the first
//! transfer (a statement or an edge) that produced it, with its abstract and concrete inputs.

use crate::driver::{FunctionAnalysis, relation_text};
use absinthe::engine::Analysis;
use absinthe::program::{
    BlockId, Cfg, Cond, FuncId, NameId, Op, Operand, Program, Stmt, Terminator,
};
use absinthe::relational::Constraint;
use absinthe::value::{Env, NonRelational, StateRepr, Truth, ValueDomain};
use absinthe_ir::function::{Function, Module};
use absinthe_ir::generate::Rng;
use absinthe_ir::interp::{self, Value};
use std::fmt;

/// How many concrete runs to make and how long each may be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyConfig {
    /// Concrete runs per function, each on fresh random arguments.
    pub runs: usize,
    /// Seed of the argument generator.
    pub seed: u64,
    /// Steps each run may take.
    pub max_steps: u64,
    /// How the analysis keeps its states (the verdict does not depend on it).
    pub state: StateRepr,
    /// The widening thresholds the analysis declares (`thresholds …;`), besides each loop's
    /// guard constants.
    pub thresholds: &'static [i64],
}

impl Default for VerifyConfig {
    fn default() -> VerifyConfig {
        VerifyConfig {
            runs: 100,
            seed: 0,
            max_steps: 10_000,
            state: StateRepr::Dense,
            thresholds: &[],
        }
    }
}

impl VerifyConfig {
    /// How far a concrete run on `args` may go, and what a call of a function without a body
    /// returns in it: a value drawn from the seed and the arguments, so that a run replayed
    /// with the same arguments draws the same values (a module lowered from LLVM IR calls its
    /// declarations and the lowering's pseudo functions; the analyses take their results as
    /// unknown).
    pub fn limits(&self, args: &[i64]) -> interp::Limits {
        let seed = args.iter().fold(self.seed, |h, &a| {
            (h ^ a as u64)
                .wrapping_mul(0x0100_0000_01B3)
                .rotate_left(29)
        });
        interp::Limits {
            max_steps: self.max_steps,
            max_depth: 64,
            bodyless: interp::Bodyless::Draw(seed),
        }
    }
}

/// A program point: statement `index` of `block` (`index == stmts.len()` is the terminator).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Point {
    /// The block.
    pub block: BlockId,
    /// The block's label.
    pub label: String,
    /// The statement index.
    pub index: usize,
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.label, self.index)
    }
}

impl Point {
    fn new(function: &Function, block: BlockId, index: usize) -> Point {
        let label = function
            .block(block)
            .map_or_else(|| format!("{block:?}"), |b| b.label.clone());
        Point {
            block,
            label,
            index,
        }
    }
}

/// Names with the display form of their abstract values.
pub type NamedValues = Vec<(String, String)>;

/// Names with their concrete values.
pub type NamedInts = Vec<(String, i64)>;

/// What produced the abstract value that missed the concrete one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Culprit {
    /// The transfer of a statement.
    Statement {
        /// Where the statement is.
        at: Point,
        /// The statement as written.
        text: String,
        /// The rule that computed the result.
        rule: String,
        /// The abstract values of its operands (name, value).
        abstract_inputs: NamedValues,
        /// The concrete values of its operands when it ran.
        concrete_inputs: NamedInts,
        /// The abstract value it produced.
        abstract_result: String,
    },
    /// The transfer along an edge: a branch refinement, a feasibility decision or a φ.
    Edge {
        /// The label of the block control left.
        from: String,
        /// The label of the block control entered.
        to: String,
        /// The terminator of `from` as written.
        terminator: String,
        /// The rule applied on the edge.
        rule: String,
        /// The abstract state at the end of `from`, for the names the terminator reads.
        abstract_inputs: NamedValues,
        /// Their concrete values when control took the edge.
        concrete_inputs: NamedInts,
    },
    /// The join (or widening) at the head of a block: the value along the edge control took
    /// held the concrete value, the joined one does not.
    Join {
        /// The label of the block control left.
        from: String,
        /// The label of the block whose head joins.
        to: String,
        /// The operation blamed: a component's join, with where it is written, or `contains`.
        rule: String,
        /// The name, with its value along the edge.
        incoming: (String, String),
        /// Its value at the head of `to`.
        joined: String,
    },
}

/// One disagreement between a concrete run and the analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The function.
    pub function: String,
    /// The arguments of the run that found it.
    pub args: Vec<i64>,
    /// Where the concrete state left the abstract one.
    pub at: Point,
    /// The statement or terminator at that point, as written.
    pub text: String,
    /// The name whose value is outside its abstract value, or `None` when the point itself was
    /// inferred unreachable.
    pub name: Option<String>,
    /// The concrete value.
    pub concrete: Option<i64>,
    /// The abstract value (or `unreachable`).
    pub abstract_value: String,
    /// What produced it.
    pub culprit: Option<Culprit>,
}

impl Violation {
    /// The rule blamed, if any.
    pub fn rule(&self) -> Option<&str> {
        match &self.culprit {
            Some(
                Culprit::Statement { rule, .. }
                | Culprit::Edge { rule, .. }
                | Culprit::Join { rule, .. },
            ) => Some(rule),
            None => None,
        }
    }
}

/// The outcome of verifying one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Concrete runs made.
    pub runs: usize,
    /// Concrete values compared with abstract ones.
    pub values_checked: u64,
    /// Program points visited by the runs.
    pub points_checked: u64,
    /// The first disagreement of each run that had one, without repeats.
    pub violations: Vec<Violation>,
}

impl VerifyReport {
    /// Adds another report's counts and violations to this one.
    pub fn absorb(&mut self, other: VerifyReport) {
        self.runs += other.runs;
        self.values_checked += other.values_checked;
        self.points_checked += other.points_checked;
        self.violations.extend(other.violations);
    }
}

/// A concrete state observed before a point.
#[derive(Clone, Debug)]
struct Seen {
    block: BlockId,
    index: usize,
    env: Vec<Option<Value>>,
}

/// Runs function `func` of `module` `config.runs` times on random arguments and checks every
/// state it reaches against `analysis`.
pub fn verify_function<D: ValueDomain>(
    module: &Module,
    func: FuncId,
    analysis: &FunctionAnalysis<D>,
    config: &VerifyConfig,
) -> VerifyReport {
    let mut report = VerifyReport::default();
    let Some(function) = module.function(func) else {
        return report;
    };
    let mut rng = Rng::new(config.seed);
    for _ in 0..config.runs {
        let args: Vec<i64> = function.params.iter().map(|_| rng.literal()).collect();
        let limits = config.limits(&args);
        let mut previous: Option<Seen> = None;
        let mut found: Option<Violation> = None;
        let mut observer = |block: BlockId, index: usize, env: &[Option<Value>]| {
            if found.is_some() {
                return;
            }
            report.points_checked += 1;
            match first_miss(analysis, block, index, env, &mut report.values_checked) {
                Miss::None => {}
                miss => {
                    found = Some(explain(
                        module,
                        function,
                        analysis,
                        previous.as_ref(),
                        Point::new(function, block, index),
                        miss,
                        &args,
                    ));
                }
            }
            match &mut previous {
                Some(seen) => {
                    seen.block = block;
                    seen.index = index;
                    seen.env.clear();
                    seen.env.extend_from_slice(env);
                }
                None => {
                    previous = Some(Seen {
                        block,
                        index,
                        env: env.to_vec(),
                    });
                }
            }
        };
        interp::run(module, func, &args, &limits, &mut observer);
        report.runs += 1;
        if let Some(v) = found {
            if !report
                .violations
                .iter()
                .any(|w| w.at == v.at && w.name == v.name && w.rule() == v.rule())
            {
                report.violations.push(v);
            }
        }
    }
    report
}

/// The blocks the run of `violation` went through, in order, up to the point where its state
/// left the analysis's (consecutive points of one block count once): what the trace viewer
/// overlays on the graph.
pub fn failing_path<D: ValueDomain>(
    module: &Module,
    func: FuncId,
    analysis: &FunctionAnalysis<D>,
    violation: &Violation,
    config: &VerifyConfig,
) -> Vec<BlockId> {
    let limits = config.limits(&violation.args);
    let mut path: Vec<BlockId> = Vec::new();
    let mut done = false;
    let mut ignored = 0;
    let mut observer = |block: BlockId, index: usize, env: &[Option<Value>]| {
        if done {
            return;
        }
        if path.last() != Some(&block) || index == 0 {
            path.push(block);
        }
        done = !matches!(
            first_miss(analysis, block, index, env, &mut ignored),
            Miss::None
        );
    };
    interp::run(module, func, &violation.args, &limits, &mut observer);
    path
}

enum Miss {
    None,
    Unreachable,
    Value(NameId, i64),
    /// A constraint of the relation the concrete values violate.
    Relation(Constraint),
}

/// The first name whose concrete value the abstract state misses, if any, then the first
/// constraint of the relation at the point (for a domain with one) the concrete values violate.
fn first_miss<D: ValueDomain>(
    analysis: &FunctionAnalysis<D>,
    block: BlockId,
    index: usize,
    env: &[Option<Value>],
    checked: &mut u64,
) -> Miss {
    let state = &analysis.points[block.index()][index];
    if !state.is_reachable() {
        return Miss::Unreachable;
    }
    for (i, v) in env.iter().enumerate() {
        if let Some(Value::Int(v)) = v {
            *checked += 1;
            if !state.get(NameId::new(i)).contains(*v) {
                return Miss::Value(NameId::new(i), *v);
            }
        }
    }
    let relation = analysis
        .relations
        .get(block.index())
        .and_then(|points| points.get(index));
    for c in relation.into_iter().flatten() {
        *checked += 1;
        if !c.holds(&|x| int_of(env, NameId::new(x))) {
            return Miss::Relation(*c);
        }
    }
    Miss::None
}

fn explain<D: ValueDomain>(
    module: &Module,
    function: &Function,
    analysis: &FunctionAnalysis<D>,
    previous: Option<&Seen>,
    at: Point,
    miss: Miss,
    args: &[i64],
) -> Violation {
    let state = &analysis.points[at.block.index()][at.index];
    let lost = match miss {
        Miss::Value(n, v) => Some((n, v)),
        Miss::Unreachable | Miss::None | Miss::Relation(_) => None,
    };
    let (name, concrete, abstract_value) = match miss {
        Miss::Value(n, v) => (
            Some(function.names[n.index()].clone()),
            Some(v),
            state.get(n).to_string(),
        ),
        Miss::Relation(c) => {
            let name = |x: usize| function.names[x].clone();
            let relation = analysis.relations[at.block.index()][at.index].as_slice();
            (
                Some(format!("the relation's `{}`", c.text(&name))),
                None,
                relation_text(relation, &function.names).unwrap_or_default(),
            )
        }
        Miss::Unreachable | Miss::None => (None, None, "unreachable".to_owned()),
    };
    let mut culprit = previous.map(|prev| {
        let same_block = prev.block == at.block && prev.index + 1 == at.index;
        if same_block {
            statement_culprit::<D>(module, function, analysis, prev)
        } else {
            edge_culprit::<D>(module, function, analysis, prev, at.block, lost)
        }
    });
    // The relation held at the previous point (it was checked there): this step's update of
    // the relation, or a reduction between it and the domain's relational component, lost the
    // concrete state; the values' rules are not to blame.
    if let Miss::Relation(_) = miss {
        let relational = "the relation's update (absinthe::relational::WithRelation), or a \
                          reduction between it and the domain's relational component";
        match &mut culprit {
            Some(Culprit::Statement { rule, .. } | Culprit::Edge { rule, .. }) => {
                *rule = relational.to_owned();
            }
            Some(Culprit::Join { rule, .. }) => {
                *rule = "the join (or widening) of the relation's packs".to_owned();
            }
            None => {}
        }
    }
    Violation {
        function: function.name.clone(),
        args: args.to_vec(),
        text: point_text(module, function, &at),
        at,
        name,
        concrete,
        abstract_value,
        culprit,
    }
}

fn int_of(env: &[Option<Value>], n: NameId) -> Option<i64> {
    match env.get(n.index()) {
        Some(Some(Value::Int(v))) => Some(*v),
        _ => None,
    }
}

/// The names and literals an operand list reads, with their abstract and concrete values.
fn inputs<D: ValueDomain>(
    function: &Function,
    operands: &[Operand],
    state: &Env<D>,
    env: &[Option<Value>],
) -> (NamedValues, NamedInts) {
    let mut abstract_inputs = Vec::new();
    let mut concrete_inputs = Vec::new();
    for &o in operands {
        match o {
            Operand::Name(n) => {
                let name = function.names[n.index()].clone();
                if abstract_inputs.iter().any(|(m, _)| *m == name) {
                    continue;
                }
                abstract_inputs.push((name.clone(), state.get(n).to_string()));
                if let Some(v) = int_of(env, n) {
                    concrete_inputs.push((name, v));
                }
            }
            // A literal's abstract value is the domain's constant, which a wrong literal rule or
            // reduction can make lose the literal itself.
            Operand::Int(c) => {
                let name = c.to_string();
                if !abstract_inputs.iter().any(|(m, _)| *m == name) {
                    let value = NonRelational::<D>::operand(state, o).to_string();
                    abstract_inputs.push((name, value));
                }
            }
        }
    }
    (abstract_inputs, concrete_inputs)
}

fn statement_culprit<D: ValueDomain>(
    module: &Module,
    function: &Function,
    analysis: &FunctionAnalysis<D>,
    prev: &Seen,
) -> Culprit {
    let at = Point::new(function, prev.block, prev.index);
    let stmt = &function.stmts(prev.block)[prev.index];
    let before = &analysis.points[prev.block.index()][prev.index];
    let after = &analysis.points[prev.block.index()][prev.index + 1];
    let mut operands = Vec::new();
    stmt.for_each_use(|o| operands.push(o));
    let (abstract_inputs, concrete_inputs) = inputs(function, &operands, before, &prev.env);
    // The abstract and concrete value of an operand just before the statement.
    let abstract_of = |o: Operand| NonRelational::<D>::operand(before, o);
    let concrete_of = |o: Operand| match o {
        Operand::Int(c) => Some(c),
        Operand::Name(n) => int_of(&prev.env, n),
    };
    // The declared rule the domain blames, when it can tell: first a literal operand whose
    // abstract value already lost the literal (its literal rule or a reduction is wrong), then
    // the operation itself.
    let blamed = literal_blame::<D>(&operands);
    let blamed = blamed.or_else(|| match stmt {
        Stmt::Assign {
            rhs: absinthe::program::Rhs::Use(Operand::Int(c)),
            ..
        } => D::blame_constant(*c),
        Stmt::Assign {
            rhs: absinthe::program::Rhs::Binary(op, a, b),
            ..
        } => match (concrete_of(*a), concrete_of(*b)) {
            (Some(x), Some(y)) => op
                .eval(x, y)
                .and_then(|v| D::blame_binary(*op, &abstract_of(*a), &abstract_of(*b), v)),
            _ => None,
        },
        _ => None,
    });
    let rule = match stmt {
        _ if blamed.is_some() => blamed.unwrap_or_default(),
        Stmt::Assign { rhs, .. } => match rhs {
            absinthe::program::Rhs::Use(Operand::Int(_)) => {
                D::rule_name_of("constant", D::rules_constant())
            }
            absinthe::program::Rhs::Use(Operand::Name(_)) => "copy".to_owned(),
            absinthe::program::Rhs::Binary(op, ..) => {
                D::rule_name_of(&format!("binary({op})"), D::rules_binary(*op))
            }
            absinthe::program::Rhs::New => "new (top)".to_owned(),
            absinthe::program::Rhs::Load(..) => "load (top)".to_owned(),
            absinthe::program::Rhs::Call(..) => "call (top)".to_owned(),
            absinthe::program::Rhs::Select(..) => "select".to_owned(),
            absinthe::program::Rhs::Closure(..)
            | absinthe::program::Rhs::Sibling(..)
            | absinthe::program::Rhs::MyClosure => "closure (top)".to_owned(),
            absinthe::program::Rhs::Apply(..) => "apply (top)".to_owned(),
            absinthe::program::Rhs::Block(..) => "block (top)".to_owned(),
            absinthe::program::Rhs::Field(..) => "field (top)".to_owned(),
            absinthe::program::Rhs::Tag(..) => "tag (top)".to_owned(),
            absinthe::program::Rhs::IsBlock(..) => "isblock (0 or 1)".to_owned(),
            absinthe::program::Rhs::Address(..) => D::rule_name_of("address", Vec::new()),
            absinthe::program::Rhs::Table(..) => D::rule_name_of("table", Vec::new()),
        },
        Stmt::Store { .. } | Stmt::Call { .. } | Stmt::Apply { .. } => {
            "no effect on names".to_owned()
        }
    };
    let abstract_result = stmt
        .def()
        .map_or_else(String::new, |d| after.get(d).to_string());
    Culprit::Statement {
        text: point_text(module, function, &at),
        at,
        rule,
        abstract_inputs,
        concrete_inputs,
        abstract_result,
    }
}

/// The rule to blame for the first literal among `operands` whose abstract value does not
/// contain it, naming the literal.
fn literal_blame<D: ValueDomain>(operands: &[Operand]) -> Option<String> {
    operands.iter().find_map(|o| match o {
        Operand::Int(c) => D::blame_constant(*c).map(|rule| format!("literal operand {c}: {rule}")),
        Operand::Name(_) => None,
    })
}

fn edge_culprit<D: ValueDomain>(
    module: &Module,
    function: &Function,
    analysis: &FunctionAnalysis<D>,
    prev: &Seen,
    to: BlockId,
    lost: Option<(NameId, i64)>,
) -> Culprit {
    let from = prev.block;
    let term = function.terminator(from);
    let end: &Env<D> = &analysis.points[from.index()][function.stmts(from).len()];
    let mut operands = Vec::new();
    term.for_each_use(|o| operands.push(o));
    if let Some(join) = join_culprit::<D>(function, analysis, from, to, lost) {
        return join;
    }
    let name = lost.map(|(n, _)| function.names[n.index()].as_str());
    let is_phi = name.is_some_and(|n| {
        function
            .phis(to)
            .iter()
            .any(|phi| function.names[phi.dest.index()] == n)
    });
    let rule = if is_phi {
        "φ".to_owned()
    } else {
        match term {
            Terminator::Branch {
                cond,
                then_to,
                else_to,
            } => {
                let taken = *then_to == to && *else_to != to;
                let op = match *cond {
                    Cond::Compare(op, ..) => op,
                    Cond::NonZero(_) => Op::Ne,
                };
                let op = if taken {
                    op
                } else {
                    op.negated().unwrap_or(op)
                };
                let (a, b) = match *cond {
                    Cond::Compare(_, a, b) => (a, b),
                    Cond::NonZero(a) => (a, Operand::Int(0)),
                };
                let concrete_of = |o: Operand| match o {
                    Operand::Int(c) => Some(c),
                    Operand::Name(n) => int_of(&prev.env, n),
                };
                let abstract_of = |o: Operand| NonRelational::<D>::operand(end, o);
                let blamed = literal_blame::<D>(&[a, b]).or_else(|| {
                    let (x, y) = (concrete_of(a)?, concrete_of(b)?);
                    let (va, vb) = (abstract_of(a), abstract_of(b));
                    // The edge is feasible when the comparison's value may be true: control
                    // took it, so a value that cannot be is the comparison's rule's fault.
                    if !Truth::of(&D::binary(op, &va, &vb)).allows(true) {
                        let holds = op.eval(x, y).unwrap_or(1);
                        let rule = D::blame_binary(op, &va, &vb, holds).unwrap_or_else(|| {
                            D::rule_name_of(&format!("binary({op})"), D::rules_binary(op))
                        });
                        return Some(format!(
                            "{rule} (its value for `{op}` says the edge cannot be taken)"
                        ));
                    }
                    D::blame_assume(op, &va, &vb, x, y)
                });
                blamed.unwrap_or_else(|| {
                    D::rule_name_of(&format!("assume({op})"), D::rules_assume(op))
                })
            }
            Terminator::Switch { .. } => D::rule_name_of("assume(==)", D::rules_assume(Op::Eq)),
            _ => "edge".to_owned(),
        }
    };
    let (abstract_inputs, concrete_inputs) = inputs(function, &operands, end, &prev.env);
    Culprit::Edge {
        from: Point::new(function, from, 0).label,
        to: Point::new(function, to, 0).label,
        terminator: point_text(
            module,
            function,
            &Point::new(function, from, function.stmts(from).len()),
        ),
        rule,
        abstract_inputs,
        concrete_inputs,
    }
}

/// The join (or widening) at the head of `to` when it lost the concrete value of `lost` that
/// the edge from `from` carried: the value along the edge (the end of `from`, refined for the
/// edge and through its φs, as the engine computes it) holds it, the joined one does not.
fn join_culprit<D: ValueDomain>(
    function: &Function,
    analysis: &FunctionAnalysis<D>,
    from: BlockId,
    to: BlockId,
    lost: Option<(NameId, i64)>,
) -> Option<Culprit> {
    let (n, v) = lost?;
    let succ_index = function.successors(from).iter().position(|&s| s == to)?;
    let end = &analysis.points[from.index()][function.stmts(from).len()];
    let engine = NonRelational::<D>::new(analysis.conditional);
    let incoming = Analysis::transfer_edge(&engine, function, from, succ_index, end);
    if !incoming.is_reachable() || !incoming.get(n).contains(v) {
        return None;
    }
    let (incoming, joined) = (incoming.get(n), analysis.points[to.index()][0].get(n));
    let rule = D::blame_join(&incoming, &joined, v).unwrap_or_else(|| {
        if incoming.leq(&joined) {
            D::rule_name_of("contains (not monotone)", Vec::new())
        } else {
            D::rule_name_of("join", Vec::new())
        }
    });
    Some(Culprit::Join {
        from: Point::new(function, from, 0).label,
        to: Point::new(function, to, 0).label,
        rule,
        incoming: (function.names[n.index()].clone(), incoming.to_string()),
        joined: joined.to_string(),
    })
}

/// Helpers to name rules of a domain in reports.
trait RuleNames {
    /// The domain's operation `what`, when no one rule of it is to blame: the rules the domain
    /// lists for it (`rules`, from `ValueDomain::rules_*`: a declared product's, with their
    /// places), or, for a domain that lists none, its Rust type and the operation.
    fn rule_name_of(what: &str, rules: Vec<String>) -> String;
}

impl<D: ValueDomain> RuleNames for D {
    fn rule_name_of(what: &str, rules: Vec<String>) -> String {
        if rules.is_empty() {
            let ty = std::any::type_name::<D>();
            let short = ty.rsplit("::").next().unwrap_or(ty);
            format!("{short}::{what}")
        } else {
            format!("`{what}` by the rules {}", rules.join("; "))
        }
    }
}

/// The statement or terminator at `at`, as the printer writes it.
fn point_text(module: &Module, function: &Function, at: &Point) -> String {
    let mut text = String::new();
    let _ = absinthe_ir::air::print::write_function(&mut text, module, function);
    // Lines: signature, then per block its label, φs, statements and terminator.
    let mut line = 1;
    for (b, block) in function.blocks().iter().enumerate() {
        line += 1 + block.phis.len();
        if b == at.block.index() {
            line += at.index;
            break;
        }
        line += block.stmts.len() + 1;
    }
    text.lines()
        .nth(line)
        .map_or_else(String::new, |l| l.trim().to_owned())
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "violation in `{}` with arguments {:?}, at {} (before `{}`): ",
            self.function, self.args, self.at, self.text
        )?;
        match (&self.name, self.concrete) {
            (Some(name), Some(v)) => writeln!(f, "{name} = {v} is not in {}", self.abstract_value)?,
            (Some(constraint), None) => writeln!(
                f,
                "{constraint} does not hold (the relation there: {})",
                self.abstract_value
            )?,
            (None, _) => writeln!(f, "the point is reached but was inferred unreachable")?,
        }
        let list = |items: &[(String, String)]| {
            items
                .iter()
                .map(|(n, v)| format!("{n} = {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let concrete = |items: &[(String, i64)]| {
            items
                .iter()
                .map(|(n, v)| format!("{n} = {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &self.culprit {
            Some(Culprit::Statement {
                at,
                text,
                rule,
                abstract_inputs,
                concrete_inputs,
                abstract_result,
            }) => {
                writeln!(f, "  produced by `{text}` at {at}, rule {rule}")?;
                writeln!(f, "    abstract inputs: {}", list(abstract_inputs))?;
                writeln!(f, "    concrete inputs: {}", concrete(concrete_inputs))?;
                writeln!(f, "    abstract result: {abstract_result}")
            }
            Some(Culprit::Edge {
                from,
                to,
                terminator,
                rule,
                abstract_inputs,
                concrete_inputs,
            }) => {
                writeln!(
                    f,
                    "  produced on the edge {from} -> {to} of `{terminator}`, rule {rule}"
                )?;
                writeln!(f, "    abstract inputs: {}", list(abstract_inputs))?;
                writeln!(f, "    concrete inputs: {}", concrete(concrete_inputs))
            }
            Some(Culprit::Join {
                from,
                to,
                rule,
                incoming: (name, incoming),
                joined,
            }) => {
                writeln!(
                    f,
                    "  lost by the join at the head of {to} (the edge {from} -> {to} carried it), \
                     {rule}"
                )?;
                writeln!(f, "    along the edge: {name} = {incoming}")?;
                writeln!(f, "    joined: {name} = {joined}")
            }
            None => writeln!(f, "  at the function's entry"),
        }
    }
}

/// Checks an interprocedural solution of `module` against concrete runs of `entry` on random
/// integer arguments: every state any frame reaches, callees included, must lie in the state of
/// its function at that point, joined over contexts. An integer must lie in the integer part;
/// a closure, block or object needs a value that may be one. A call the analysis did not
/// foresee shows as a callee point it holds unreachable.
pub fn verify_interproc<D: ValueDomain>(
    module: &Module,
    entry: FuncId,
    solution: &absinthe_interproc::InterprocSolution<D>,
    config: &VerifyConfig,
) -> VerifyReport {
    use absinthe::lattice::Lattice;
    use absinthe_interproc::ProcValue;
    use std::collections::BTreeMap;
    let mut report = VerifyReport::default();
    let Some(main) = module.function(entry) else {
        return report;
    };
    let mut rng = Rng::new(config.seed);
    let mut states: BTreeMap<(FuncId, BlockId), Vec<Env<ProcValue<D>>>> = BTreeMap::new();
    for _ in 0..config.runs {
        let args: Vec<i64> = main.params.iter().map(|_| rng.literal()).collect();
        let limits = config.limits(&args);
        let mut found: Option<Violation> = None;
        let mut observer =
            |_: usize, func: FuncId, block: BlockId, index: usize, env: &[Option<Value>]| {
                if found.is_some() {
                    return;
                }
                let Some(function) = module.function(func) else {
                    return;
                };
                report.points_checked += 1;
                let at = states
                    .entry((func, block))
                    .or_insert_with(|| solution.block_states(module, func, block));
                let Some(state) = at.get(index) else {
                    return;
                };
                let miss = if state.is_reachable() {
                    env.iter().enumerate().find_map(|(i, v)| {
                        let value = state.get(NameId::new(i));
                        let held = match v {
                            Some(Value::Int(c)) => value.int.contains(*c),
                            Some(Value::Ref(_)) => value.block || !value.funcs.is_empty(),
                            None => return None,
                        };
                        report.values_checked += 1;
                        (!held).then_some((i, *v, value))
                    })
                } else {
                    Some((usize::MAX, None, ProcValue::bottom()))
                };
                if let Some((i, concrete, value)) = miss {
                    let point = Point::new(function, block, index);
                    let text = point_text(module, function, &point);
                    let unreachable = i == usize::MAX;
                    found = Some(Violation {
                        function: function.name.clone(),
                        args: args.clone(),
                        at: point,
                        text,
                        name: (!unreachable).then(|| function.names[i].clone()),
                        concrete: match concrete {
                            Some(Value::Int(c)) => Some(c),
                            _ => None,
                        },
                        abstract_value: if unreachable {
                            "unreachable".to_owned()
                        } else {
                            crate::render::value_text(&value, module)
                        },
                        culprit: None,
                    });
                }
            };
        interp::run_all_frames(module, entry, &args, &limits, &mut observer);
        report.runs += 1;
        if let Some(v) = found
            && !report
                .violations
                .iter()
                .any(|w| w.at == v.at && w.name == v.name && w.function == v.function)
        {
            report.violations.push(v);
        }
    }
    report
}

/// Verifies `analysis` on every function of `module`.
pub fn verify_module<D: ValueDomain>(
    module: &Module,
    conditional: bool,
    limits: &absinthe::engine::Limits,
    config: &VerifyConfig,
) -> VerifyReport {
    let mut report = VerifyReport::default();
    // A function without a body (a declaration of a lowered LLVM module) has no run to check.
    let defined = module.functions.iter().enumerate();
    for (i, function) in defined.filter(|(_, f)| !f.blocks().is_empty()) {
        let analysis = crate::driver::analyze_function_with::<D>(
            function,
            conditional,
            config.thresholds,
            config.state,
            limits,
        );
        report.absorb(verify_function(module, FuncId::new(i), &analysis, config));
    }
    report
}

/// Verifies `D` on `count` random core-IR functions of varied shapes (2 to 10 blocks, 1 to 5
/// statements per block, 2 to 6 names, some read before they are assigned), function `seed`
/// checked with `runs` concrete runs seeded by `seed`. Fails with the first function whose report
/// has a violation, printing it.
pub fn verify_random_shapes<D: ValueDomain>(
    count: u64,
    runs: usize,
    conditional: bool,
    limits: &absinthe::engine::Limits,
) -> Result<VerifyReport, String> {
    let mut total = VerifyReport::default();
    for seed in 0..count {
        let config = absinthe_ir::generate::GenConfig {
            blocks: 2 + (seed % 9) as usize,
            max_stmts: 1 + (seed % 5) as usize,
            names: 2 + (seed % 5) as usize,
            init_names: seed % 4 != 0,
            ..absinthe_ir::generate::GenConfig::default()
        };
        let module = absinthe_ir::generate::random_function(seed, &config);
        let verify = VerifyConfig {
            runs,
            seed,
            ..VerifyConfig::default()
        };
        let report = verify_module::<D>(&module, conditional, limits, &verify);
        if !report.violations.is_empty() {
            return Err(format!("seed {seed}: {:?}\n{module}", report.violations));
        }
        total.absorb(report);
    }
    Ok(total)
}

/// Runs `verify` for the command line: on `input` (a toy program is lowered to core IR first),
/// or, when `random` is set, on that many generated programs instead.
pub fn run<A: crate::analyses::Analysis>(
    input: &crate::driver::Input,
    analysis: A,
    limits: &absinthe::engine::Limits,
    config: &VerifyConfig,
    random: Option<u64>,
) -> VerifyReport {
    struct Check<'a> {
        module: &'a Module,
        conditional: bool,
        limits: &'a absinthe::engine::Limits,
        config: &'a VerifyConfig,
    }
    impl crate::analyses::ForDomain for Check<'_> {
        type Output = VerifyReport;
        fn run<D: ValueDomain>(self) -> VerifyReport {
            verify_module::<D>(self.module, self.conditional, self.limits, self.config)
        }
    }
    let check = |module: &Module| {
        analysis.dispatch(Check {
            module,
            conditional: analysis.conditional(),
            limits,
            config,
        })
    };
    if let Some(count) = random {
        let mut report = VerifyReport::default();
        for seed in 0..count {
            let generated = absinthe_ir::generate::random_function(
                config.seed.wrapping_add(seed),
                &absinthe_ir::generate::GenConfig::default(),
            );
            report.absorb(check(&generated));
        }
        return report;
    }
    match input {
        crate::driver::Input::Air { module, .. } => check(module),
        crate::driver::Input::Toy { program, .. } => {
            let (function, _) = program.lower();
            check(&Module {
                functions: vec![function],
                fields: Vec::new(),
                symbols: Vec::new(),
            })
        }
    }
}
