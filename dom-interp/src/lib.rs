//! The interpreter of `.dom` files: `absinthe analyze --dom FILE.dom` and `verify --dom` run a
//! file's analyses at once, with no Rust compiler, by evaluating the checked program
//! ([`absinthe_domc::dom::tree`]) instead of compiling the code generated from it.
//!
//! - `plan`: the checked program as plain data every thread may read.
//! - `value`: values and the lattice operations of every `.dom` type.
//! - `compile`: rule bodies, reductions, helpers and written-out operations compiled to
//!   closures when the file is loaded; `eval`: calling them.
//! - `domain`: a product as a value domain (dispatch, reduction, blame, the rules behind an
//!   operation, kernel hooks); `backward`: its backward rules.
//! - `memo`: the values of literals and of reductions each thread remembers within a run.
//!
//! Each of them says what the generated code does, operation for operation, so that an analysis
//! gives the same result at every point in both modes (`cli/tests/dom_interp.rs` checks it on
//! random programs).
//!
//! [`DynValue`] is the value domain the engines run: a value of the running analysis's product.
//! The engines call a value domain's constructors with no value at hand (`bottom()`,
//! `constant(c)`), so what the product is cannot travel with the values: it is the process's
//! running file, [`Running`], which every thread of an analysis reads (the LLVM front end's
//! workers, a module read in pieces) and which one run at a time holds. Two files loaded in one
//! process never see each other: their runs take turns.

mod backward;
mod code;
mod compile;
mod domain;
mod eval;
mod memo;
mod numeric;
mod operand;
mod plan;
mod resolve;
mod resolved;
mod show;
mod val;
mod value;

pub use val::{Payload, Val};

use absinthe::lattice::{Interval, Lattice, Thresholds, Top};
use absinthe::program::{Op, SymbolId};
use absinthe::relational::Relation;
use absinthe::spec::Engine;
use absinthe::terms::{Arg, ParamId};
use absinthe::value::{Concrete, ValueDomain};
use absinthe_domc::dom::tree::{Shape, Ty};
use absinthe_domc::dom::{AnalysisDecl, Checked};
use absinthe_domc::model::{LatticeKind, function_name};
use absinthe_domc::{Diagnostic, Failure};
use arc_swap::ArcSwapOption;
use plan::{FnId, Plan};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;
use val::Widen;

/// A struct lattice's written-out operations and what decides its bottoms.
#[derive(Clone, Debug)]
struct PointwiseInfo {
    smash: bool,
    /// Whether some field is a plain `int` or `bool`.
    values: bool,
    empty: Option<FnId>,
    /// The written-out normal form: equality and printing go through it.
    normalize: Option<FnId>,
    bottom: Option<FnId>,
    top: Option<FnId>,
    /// `join`, `meet`, `widen`, `widen_with_thresholds`, `narrow`, `leq`: their functions.
    written: BTreeMap<String, FnId>,
    /// `written`'s `join`, `meet` and `leq`, read on every operation of the struct (a product's
    /// reductions meet its components): found without a lookup by name.
    join: Option<FnId>,
    meet: Option<FnId>,
    leq: Option<FnId>,
}

impl PointwiseInfo {
    fn many_bottoms(&self) -> bool {
        self.smash || self.empty.is_some()
    }
}

/// A checked `.dom` program, ready to run.
#[derive(Debug)]
pub struct Interp {
    program: Plan,
    /// Direct products: their type id → the product's.
    direct_of: BTreeMap<usize, usize>,
    /// Struct lattices by type id (`None` for the other types): read on every operation of one.
    structs: Vec<Option<PointwiseInfo>>,
    /// The types of each lattice's fields or components, by type id (a direct product's are its
    /// product's).
    parts: Vec<Vec<Ty>>,
    /// Every operation with its `Op` variant's name.
    ops: Vec<(Op, String)>,
    /// Written-out `contains` by type id.
    contains: BTreeMap<usize, FnId>,
    /// The file's analyses.
    analyses: Vec<AnalysisDecl>,
    /// Every function, resolved.
    functions: resolved::Functions,
    /// Every function's body compiled, by id: what runs.
    bodies: Vec<code::Code<Interp>>,
    /// The product behind each type, by id (see [`Interp::product_index`]).
    product_of: Vec<Option<usize>>,
    /// Whether each type, by id, is a product of one component without reductions (see
    /// [`Interp::single`]).
    single_of: Vec<bool>,
    /// Whether each type's values, by id, are held as their one part (see
    /// [`Interp::unwrapped`]).
    unwrapped_of: Vec<bool>,
}

impl Interp {
    /// Prepares the checked file `checked` to run; refuses `extern` declarations, which only Rust can provide.
    pub fn new(checked: &Checked) -> Result<Interp, Failure> {
        refuse_externs(checked)?;
        let program = &checked.program;
        let functions = resolved::ids(&program.functions);
        let function = |name: String| match functions.get(&name) {
            Some(f) => *f,
            None => unreachable!("the checker names functions of the program, not `{name}`"),
        };
        let id = |name: &str| match program.lookup(name) {
            Some(Ty::Lat(id)) => Some(id),
            _ => None,
        };
        let mut direct_of = BTreeMap::new();
        for (decl, direct) in &program.products {
            if let (Some(d), Some(p)) = (direct.as_deref().and_then(id), id(&decl.name.to_string()))
            {
                direct_of.insert(d, p);
            }
        }
        let mut structs = vec![None; program.types.len()];
        for decl in &program.lattices {
            let (LatticeKind::Pointwise(p), Some(t)) = (&decl.kind, id(&decl.name.to_string()))
            else {
                continue;
            };
            let written: BTreeMap<String, FnId> = p
                .overrides
                .iter()
                .map(|(op, path)| (op.clone(), function(function_name(path))))
                .collect();
            structs[t] = Some(PointwiseInfo {
                join: written.get("join").copied(),
                meet: written.get("meet").copied(),
                leq: written.get("leq").copied(),
                smash: p.smash,
                values: p.has_values(),
                empty: p.empty_if.as_ref().map(|f| function(function_name(f))),
                normalize: p.normalize.as_ref().map(|f| function(function_name(f))),
                bottom: p.bottom.as_ref().map(|f| function(function_name(f))),
                top: p.top.as_ref().map(|f| function(function_name(f))),
                written,
            });
        }
        let contains = program
            .contains
            .iter()
            .filter_map(|(lattice, f)| Some((id(lattice)?, function(f.clone()))))
            .chain(program.lattices.iter().filter_map(|decl| {
                // Finite and sum lattices' written-out `contains`.
                let t = id(&decl.name.to_string())?;
                let f = format!("__{}_contains", decl.name.to_string().to_lowercase());
                Some((t, *functions.get(&f)?))
            }))
            .collect();
        let types = &program.types;
        let parts_of = |id: usize| match types.shape(id) {
            Shape::Struct { fields, .. } => fields.iter().map(|(_, t)| t.clone()).collect(),
            Shape::Product { components } => components.iter().map(|(_, t)| t.clone()).collect(),
            _ => Vec::new(),
        };
        let parts = (0..types.len())
            .map(|id| parts_of(direct_of.get(&id).copied().unwrap_or(id)))
            .collect();
        let ops = Op::ALL.into_iter().map(|o| (o, format!("{o:?}"))).collect();
        let mut interp = Interp {
            program: Plan::new(program, &functions),
            functions: resolved::Functions::default(),
            bodies: Vec::new(),
            product_of: Vec::new(),
            single_of: Vec::new(),
            unwrapped_of: Vec::new(),
            direct_of,
            structs,
            parts,
            ops,
            contains,
            analyses: checked.analyses.clone(),
        };
        // The resolver reads fields of unwrapped products and structs as the values themselves.
        interp.unwrapped_of = interp.unwrapped_by_type();
        interp.functions = interp.resolve_functions(&program.functions);
        interp.bodies = interp.compile_functions();
        // Again, now that every body runs: what reads no name is computed once.
        interp.bodies = interp.compile_functions();
        interp.product_of = interp.products_by_type();
        interp.single_of = interp.singles_by_type();
        Ok(interp)
    }

    /// What decides the bottoms of the struct lattice `t` and its written-out operations.
    fn pointwise(&self, t: &Ty) -> &PointwiseInfo {
        let found = match t {
            Ty::Lat(id) => self.structs.get(*id).and_then(Option::as_ref),
            _ => None,
        };
        match found {
            Some(info) => info,
            None => unreachable!(
                "struct operations run on struct lattices only, not on `{}`",
                self.type_name(t)
            ),
        }
    }

    /// The function written out for `op` of the struct lattice `t`, if any (`bottom` and `top`
    /// included).
    fn written(&self, t: &Ty, op: &str) -> Option<FnId> {
        let Ty::Lat(id) = t else {
            return None;
        };
        let info = self.structs.get(*id)?.as_ref()?;
        match op {
            "bottom" => info.bottom,
            "top" => info.top,
            "join" => info.join,
            "meet" => info.meet,
            "leq" => info.leq,
            _ => info.written.get(op).copied(),
        }
    }

    /// The written-out `contains` of the lattice `t`, if it has one.
    pub(crate) fn contains_fn(&self, t: &Ty) -> Option<FnId> {
        match t {
            Ty::Lat(id) => self.contains.get(id).copied(),
            _ => None,
        }
    }

    /// The file's analyses.
    pub fn analyses(&self) -> &[AnalysisDecl] {
        &self.analyses
    }

    /// The engine the analysis at `index` declares.
    pub fn engine(&self, index: usize) -> Engine {
        self.analyses[index].spec.engine
    }

    /// The value domain of the analysis at `index`.
    fn domain(&self, index: usize) -> Ty {
        let analysis = &self.analyses[index];
        match self.program.lookup(&analysis.domain) {
            Some(t) => t,
            None => unreachable!(
                "the checker resolves an analysis's domain, not `{}` ({})",
                analysis.domain, analysis.describe
            ),
        }
    }

    /// `t` as its name in the file.
    pub fn type_name(&self, t: &Ty) -> String {
        self.program.types.name(t)
    }
}

/// `extern fn`s and `extern type`s are Rust: the interpreter says so, at each declaration.
fn refuse_externs(checked: &Checked) -> Result<(), Failure> {
    let refused = &checked.program.extern_places;
    if refused.is_empty() {
        return Ok(());
    }
    let diagnostics = refused
        .iter()
        .map(|(file, span)| {
            Diagnostic::new(
                *file,
                span.clone(),
                "the interpreter cannot run `extern` declarations: they are implemented in Rust",
                "declared here",
            )
            .with_help(
                "include the file in a crate that implements them, with `absinthe::include_dom!` \
                 or `absinthe_domc::Builder`, and run that crate's analyses",
            )
        })
        .collect();
    Err(Failure {
        diagnostics,
        sources: checked.sources.clone(),
    })
}

/// The file and the analysis that [`DynValue`] means while it runs.
#[derive(Debug)]
struct Session {
    interp: Arc<Interp>,
    domain: Ty,
    /// The thread that entered the run: the only one that may switch its analysis.
    owner: ThreadId,
    /// This session's number, unique in the process: what a thread remembers of a run
    /// (`memo.rs`) is given in that run only.
    id: u64,
}

/// The number of the next [`Session`].
static SESSIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A new session's number.
fn next_session() -> u64 {
    SESSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// What [`DynValue`] means, for every thread of the process.
static RUNNING: ArcSwapOption<Session> = ArcSwapOption::const_empty();

/// Held by the one run in progress.
static TURN: Mutex<()> = Mutex::new(());

/// A `.dom` file's analysis running in this process: while it is held, [`DynValue`] is a value
/// of that analysis's product on every thread. Entering waits for the run in progress, if any,
/// to end; dropping it ends the run. Values must not outlive the run they were made in.
#[derive(Debug)]
#[must_use = "the run ends when this is dropped"]
pub struct Running {
    _turn: MutexGuard<'static, ()>,
}

impl Running {
    /// Runs `interp`'s analysis at `index`.
    pub fn enter(interp: Arc<Interp>, index: usize) -> Running {
        let domain = interp.domain(index);
        Running::start(interp, domain)
    }

    /// Runs the product (or direct product) called `domain` of `interp` as a value domain;
    /// `None` when the file has no such type.
    pub fn enter_domain(interp: Arc<Interp>, domain: &str) -> Option<Running> {
        let domain = interp.program.lookup(domain)?;
        Some(Running::start(interp, domain))
    }

    fn start(interp: Arc<Interp>, domain: Ty) -> Running {
        let me = std::thread::current().id();
        // Waiting for its own run would never end.
        assert!(
            RUNNING.load().as_ref().is_none_or(|s| s.owner != me),
            "this thread already runs a `.dom` file: end that run before entering another"
        );
        // A run that panicked released its turn: the next one starts afresh.
        let turn = TURN
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        RUNNING.store(Some(Arc::new(Session {
            interp,
            domain,
            owner: me,
            id: next_session(),
        })));
        Running { _turn: turn }
    }

    /// The file that runs, if one does.
    pub fn interp() -> Option<Arc<Interp>> {
        RUNNING.load().as_ref().map(|s| s.interp.clone())
    }

    /// Makes the analysis at `index` of the running file the one [`DynValue`] means. Called by
    /// the thread that entered the run, between analyses.
    pub fn switch(index: usize) {
        let current = RUNNING.load_full();
        let Some(session) = current else {
            unreachable!("an interpreted analysis is chosen while its file runs, and none does")
        };
        assert_eq!(
            session.owner,
            std::thread::current().id(),
            "only the thread that runs a `.dom` file chooses its analysis"
        );
        let domain = session.interp.domain(index);
        RUNNING.store(Some(Arc::new(Session {
            interp: session.interp.clone(),
            domain,
            owner: session.owner,
            id: next_session(),
        })));
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.store(None);
    }
}

/// Runs `f` with the running file and domain.
fn with<R>(f: impl FnOnce(&Interp, &Ty) -> R) -> R {
    let session = RUNNING.load();
    match session.as_ref() {
        Some(s) => f(&s.interp, &s.domain),
        None => unreachable!(
            "a value of an interpreted `.dom` analysis is used while no file runs: values live \
             within the `Running` they were made in"
        ),
    }
}

/// Runs `f` with the running file and domain and the run's number (`Session::id`).
fn with_run<R>(f: impl FnOnce(&Interp, &Ty, u64) -> R) -> R {
    let session = RUNNING.load();
    match session.as_ref() {
        Some(s) => f(&s.interp, &s.domain, s.id),
        None => unreachable!(
            "a value of an interpreted `.dom` analysis is used while no file runs: values live \
             within the `Running` they were made in"
        ),
    }
}

/// The number of the run in progress (`Session::id`) when the file it runs is `interp`.
pub(crate) fn run_of(interp: &Interp) -> Option<u64> {
    let session = RUNNING.load();
    (session.as_ref())
        .filter(|s| std::ptr::eq(Arc::as_ptr(&s.interp), interp))
        .map(|s| s.id)
}

/// A value of the running analysis's product.
#[derive(Clone, Debug)]
pub struct DynValue(pub Val);

impl PartialEq for DynValue {
    fn eq(&self, other: &Self) -> bool {
        with(|i, t| i.eq(t, &self.0, &other.0))
    }
}

impl Eq for DynValue {}

impl Lattice for DynValue {
    // Not known before a file is loaded: `has_finite_height` answers for the loaded product.
    const FINITE_HEIGHT: bool = false;
    const EXACT: bool = false;

    fn has_finite_height() -> bool {
        with(|i, t| i.finite_height(t))
    }

    fn bottom() -> Self {
        with(|i, t| DynValue(i.bottom(t)))
    }

    fn is_bottom(&self) -> bool {
        with(|i, t| i.is_bottom(t, &self.0))
    }

    fn leq(&self, other: &Self) -> bool {
        with(|i, t| i.leq(t, &self.0, &other.0))
    }

    fn join(&self, other: &Self) -> Self {
        with(|i, t| DynValue(i.join(t, &self.0, &other.0)))
    }

    fn meet(&self, other: &Self) -> Self {
        with(|i, t| DynValue(i.meet(t, &self.0, &other.0)))
    }

    fn widen(&self, newer: &Self) -> Self {
        with(|i, t| DynValue(i.widen(t, &self.0, &newer.0, Widen::Plain)))
    }

    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        with(|i, t| DynValue(i.widen(t, &self.0, &newer.0, Widen::With(thresholds))))
    }

    fn narrow(&self, newer: &Self) -> Self {
        with(|i, t| DynValue(i.narrow(t, &self.0, &newer.0)))
    }
}

impl Top for DynValue {
    fn top() -> Self {
        with(|i, t| DynValue(i.top(t)))
    }

    fn is_top(&self) -> bool {
        with(|i, t| i.is_top(t, &self.0))
    }
}

impl Concrete for DynValue {
    fn contains(&self, v: i64) -> bool {
        with(|i, t| i.contains(t, &self.0, v))
    }

    fn as_constant(&self) -> Option<i64> {
        with(|i, t| i.as_constant(t, &self.0))
    }

    fn as_address(&self) -> Option<(SymbolId, i64)> {
        with(|i, t| i.as_address(t, &self.0))
    }
}

impl fmt::Display for DynValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        with(|i, t| i.show(t, &self.0, &mut out));
        f.write_str(&out)
    }
}

impl ValueDomain for DynValue {
    fn constant(c: i64) -> Self {
        with_run(|i, t, run| DynValue(memo::literal(run, c, || i.constant(t, c))))
    }

    fn address(symbol: SymbolId) -> Self {
        with(|i, t| DynValue(i.address(t, symbol)))
    }

    fn binary(op: Op, a: &Self, b: &Self) -> Self {
        with(|i, t| DynValue(i.transfer(t, op, &a.0, &b.0)))
    }

    fn assume(op: Op, a: &Self, b: &Self) -> (Self, Self) {
        with(|i, t| {
            let (x, y) = i.assume(t, op, &a.0, &b.0);
            (DynValue(x), DynValue(y))
        })
    }

    fn term_binary(op: Op, a: &Arg<'_, Self>, b: &Arg<'_, Self>) -> Self {
        with(|i, t| {
            if i.has_hooks(t) {
                DynValue(i.term_binary(t, op, (&a.value.0, a.kind), (&b.value.0, b.kind)))
            } else {
                DynValue(i.transfer(t, op, &a.value.0, &b.value.0))
            }
        })
    }

    fn term_cond(p: &Self, a: &Self, b: &Self) -> Self {
        with(|i, t| {
            if i.has_hooks(t) {
                DynValue(i.term_cond(t, &p.0, &a.0, &b.0))
            } else {
                DynValue(i.join(t, &a.0, &b.0))
            }
        })
    }

    fn term_param(param: ParamId, bound: &Self) -> Self {
        with(|i, t| {
            if i.has_hooks(t) {
                DynValue(i.term_param(t, param, &bound.0))
            } else {
                bound.clone()
            }
        })
    }

    fn term_apply(operator: &Self, result: &Self) -> Self {
        with(|i, t| {
            if i.has_hooks(t) {
                DynValue(i.term_apply(t, &operator.0, &result.0))
            } else {
                result.clone()
            }
        })
    }

    fn demand_binary(op: Op, dest: &Self) -> Self {
        with(|i, t| DynValue(i.demand_binary(t, op, &dest.0)))
    }

    fn demand_copy(dest: &Self) -> Self {
        with(|i, t| DynValue(i.demand_copy(t, &dest.0)))
    }

    fn observed() -> Self {
        with(|i, t| DynValue(i.observed(t)))
    }

    fn term_function() -> Self {
        with(|i, t| {
            if i.has_hooks(t) {
                DynValue(i.term_function(t))
            } else {
                DynValue(i.bottom(t))
            }
        })
    }

    fn blame_binary(op: Op, a: &Self, b: &Self, v: i64) -> Option<String> {
        with(|i, t| i.blame_binary(t, op, &a.0, &b.0, v))
    }

    fn blame_constant(c: i64) -> Option<String> {
        with(|i, t| i.blame_constant(t, c))
    }

    fn blame_assume(op: Op, a: &Self, b: &Self, x: i64, y: i64) -> Option<String> {
        with(|i, t| i.blame_assume(t, op, &a.0, &b.0, x, y))
    }

    fn blame_join(incoming: &Self, joined: &Self, v: i64) -> Option<String> {
        with(|i, t| i.blame_join(t, &incoming.0, &joined.0, v))
    }

    fn rules_binary(op: Op) -> Vec<String> {
        with(|i, t| i.rules_binary(t, op))
    }

    fn rules_constant() -> Vec<String> {
        with(|i, t| i.rules_constant(t))
    }

    fn rules_assume(op: Op) -> Vec<String> {
        with(|i, t| i.rules_assume(t, op))
    }

    fn relation() -> Option<Relation> {
        with(|i, t| i.relation(t))
    }

    fn relation_bounds(&self) -> Interval {
        with(|i, t| i.relation_bounds(t, &self.0))
    }

    fn with_relation_bounds(&self, bounds: &Interval) -> Self {
        with(|i, t| DynValue(i.with_relation_bounds(t, &self.0, *bounds)))
    }
}
