//! The interpreter of `.dom` files: `absinthe analyze --dom FILE.dom` and `verify --dom` run a
//! file's analyses at once, with no Rust compiler, by evaluating the checked program
//! ([`absinthe_domc::dom::tree`]) instead of compiling the code generated from it.
//!
//! - `value`: values and the lattice operations of every `.dom` type.
//! - `eval`: rule bodies, reductions, helpers and written-out operations.
//! - `domain`: a product as a value domain (dispatch, reduction, blame, the rules behind an
//!   operation, kernel hooks).
//!
//! Each of them says what the generated code does, operation for operation, so that an analysis
//! gives the same result at every point in both modes (`cli/tests/dom_interp.rs` checks it on
//! random programs). [`DynValue`] is the value domain the engines run: a value of the
//! analysis's product, whose static operations (`bottom()`, `constant(c)`, …) read the loaded
//! file from the thread they run on ([`Session::install`]). [`Interpreted`] is the catalog of
//! the file's analyses, which the command line's drivers take as they take the built-in one.

mod domain;
mod eval;
mod show;
mod value;

pub use value::Val;

use crate::analyses::{Analysis, ForDomain};
use absinthe::behavior::{Arg, Engine, ParamId};
use absinthe::engine::Limits;
use absinthe::lattice::{Lattice, Thresholds, Top};
use absinthe::program::{Op, SymbolId};
use absinthe::value::{Concrete, ValueDomain};
use absinthe_domc::dom::tree::{Program, Shape, Ty};
use absinthe_domc::dom::{AnalysisDecl, Compiled};
use absinthe_domc::model::{LatticeKind, function_name};
use absinthe_domc::{Diagnostic, Failure};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use value::Widen;

/// A struct lattice's written-out operations and what decides its bottoms.
#[derive(Clone, Debug)]
struct PointwiseInfo {
    smash: bool,
    /// Whether some field is a plain `int` or `bool`.
    values: bool,
    empty: Option<String>,
    bottom: Option<String>,
    top: Option<String>,
    /// `join`, `meet`, `widen`, `widen_with_thresholds`, `narrow`, `leq`: function names.
    written: BTreeMap<String, String>,
}

impl PointwiseInfo {
    fn many_bottoms(&self) -> bool {
        self.smash || self.empty.is_some()
    }
}

/// A checked `.dom` program, ready to run.
#[derive(Debug)]
pub struct Interp {
    program: Program,
    /// Direct products: their type id → the product's.
    direct_of: BTreeMap<usize, usize>,
    /// Struct lattices by type id.
    structs: BTreeMap<usize, PointwiseInfo>,
    /// The types of each lattice's fields or components, by type id (a direct product's are its
    /// product's).
    parts: Vec<Vec<Ty>>,
    /// Every operation with its `Op` variant's name.
    ops: Vec<(Op, String)>,
    /// Written-out `contains` by type id.
    contains: BTreeMap<usize, String>,
    /// The file's analyses.
    analyses: Vec<AnalysisDecl>,
}

impl Interp {
    /// Prepares `compiled` to run; refuses `extern` declarations, which only Rust can provide.
    pub fn new(compiled: &Compiled) -> Result<Interp, Failure> {
        refuse_externs(compiled)?;
        let program = compiled.program.clone();
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
        let mut structs = BTreeMap::new();
        for decl in &program.lattices {
            let (LatticeKind::Pointwise(p), Some(t)) = (&decl.kind, id(&decl.name.to_string()))
            else {
                continue;
            };
            structs.insert(
                t,
                PointwiseInfo {
                    smash: p.smash,
                    values: p.has_values(),
                    empty: p.empty_if.as_ref().map(function_name),
                    bottom: p.bottom.as_ref().map(function_name),
                    top: p.top.as_ref().map(function_name),
                    written: p
                        .overrides
                        .iter()
                        .map(|(op, path)| (op.clone(), function_name(path)))
                        .collect(),
                },
            );
        }
        let contains = program
            .contains
            .iter()
            .filter_map(|(lattice, f)| Some((id(lattice)?, f.clone())))
            .chain(program.lattices.iter().filter_map(|decl| {
                // Finite and sum lattices' written-out `contains`.
                let t = id(&decl.name.to_string())?;
                let f = format!("__{}_contains", decl.name.to_string().to_lowercase());
                program.functions.contains_key(&f).then_some((t, f))
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
        Ok(Interp {
            program,
            direct_of,
            structs,
            parts,
            ops,
            contains,
            analyses: compiled.analyses.clone(),
        })
    }

    fn pointwise(&self, t: &Ty) -> &PointwiseInfo {
        static PLAIN: PointwiseInfo = PointwiseInfo {
            smash: false,
            values: false,
            empty: None,
            bottom: None,
            top: None,
            written: BTreeMap::new(),
        };
        match t {
            Ty::Lat(id) => self.structs.get(id).unwrap_or(&PLAIN),
            _ => &PLAIN,
        }
    }

    /// The name of `op`'s variant (`Add`, `ULt`, …).
    fn op_name(&self, op: Op) -> &str {
        self.ops
            .iter()
            .find(|(o, _)| *o == op)
            .map_or("", |(_, n)| n.as_str())
    }

    /// The function written out for `op` of the struct lattice `t`, if any (`bottom` and `top`
    /// included).
    fn written(&self, t: &Ty, op: &str) -> Option<String> {
        let Ty::Lat(id) = t else {
            return None;
        };
        let info = self.structs.get(id)?;
        match op {
            "bottom" => info.bottom.clone(),
            "top" => info.top.clone(),
            _ => info.written.get(op).cloned(),
        }
    }

    pub(super) fn contains_fn(&self, t: &Ty) -> Option<String> {
        match t {
            Ty::Lat(id) => self.contains.get(id).cloned(),
            _ => None,
        }
    }

    /// The file's analyses.
    pub fn analyses(&self) -> &[AnalysisDecl] {
        &self.analyses
    }

    /// The value domain of the analysis at `index`.
    fn domain(&self, index: usize) -> Ty {
        self.analyses
            .get(index)
            .and_then(|a| self.program.lookup(&a.domain))
            .unwrap_or(Ty::Error)
    }

    /// `t` as its name in the file.
    pub fn type_name(&self, t: &Ty) -> String {
        self.program.types.name(t)
    }
}

/// `extern fn`s and `extern type`s are Rust: the interpreter says so, at each declaration.
fn refuse_externs(compiled: &Compiled) -> Result<(), Failure> {
    let refused = crate::dom::extern_declarations(compiled);
    if refused.is_empty() {
        return Ok(());
    }
    let diagnostics = refused
        .into_iter()
        .map(|(file, span)| {
            Diagnostic::new(
                file,
                span,
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
        sources: compiled.sources.clone(),
    })
}

/// The loaded file and the analysis running, for the static operations of [`DynValue`].
#[derive(Debug)]
pub struct Session {
    interp: Rc<Interp>,
    domain: Ty,
}

thread_local! {
    static SESSION: RefCell<Option<Rc<Session>>> = const { RefCell::new(None) };
}

impl Session {
    /// Makes `interp`'s analysis at `index` the one [`DynValue`] means on this thread.
    pub fn install(interp: Rc<Interp>, index: usize) {
        let domain = interp.domain(index);
        SESSION.with(|s| *s.borrow_mut() = Some(Rc::new(Session { interp, domain })));
    }

    /// Makes the product (or direct product) called `domain` the value domain [`DynValue`] means
    /// on this thread; `false` when the file has no such type.
    pub fn install_domain(interp: Rc<Interp>, domain: &str) -> bool {
        let Some(domain) = interp.program.lookup(domain) else {
            return false;
        };
        SESSION.with(|s| *s.borrow_mut() = Some(Rc::new(Session { interp, domain })));
        true
    }

    /// The loaded file on this thread.
    pub fn interp() -> Option<Rc<Interp>> {
        SESSION.with(|s| s.borrow().as_ref().map(|s| s.interp.clone()))
    }
}

/// Runs `f` with the session of this thread (installed before any value is made).
fn with<R>(f: impl FnOnce(&Interp, &Ty) -> R) -> R {
    let session = SESSION.with(|s| s.borrow().clone());
    let session = session.expect("a `.dom` file is loaded before its values are used");
    f(&session.interp, &session.domain)
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
        with(|i, t| DynValue(i.constant(t, c)))
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

    fn rules_binary(op: Op) -> Vec<String> {
        with(|i, t| i.rules_binary(t, op))
    }

    fn rules_constant() -> Vec<String> {
        with(|i, t| i.rules_constant(t))
    }

    fn rules_assume(op: Op) -> Vec<String> {
        with(|i, t| i.rules_assume(t, op))
    }
}

/// An analysis of the loaded file, by its index: the catalog the drivers take in interpreted
/// mode. Its names and descriptions live as long as the process (a command runs one file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interpreted(pub usize);

/// What the catalog says of each analysis, made once per file.
#[derive(Debug)]
struct Entry {
    name: &'static str,
    description: &'static str,
    thresholds: &'static [i64],
}

thread_local! {
    static CATALOG: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// Loads `interp` on this thread: its analyses become [`Interpreted`]'s catalog.
pub fn load(interp: Interp) -> Rc<Interp> {
    let entries = interp
        .analyses
        .iter()
        .map(|a| {
            let place = a.describe.rsplit(" at ").next().unwrap_or(&a.describe);
            Entry {
                name: Box::leak(a.name.clone().into_boxed_str()),
                description: Box::leak(format!("from {place}").into_boxed_str()),
                thresholds: Box::leak(a.thresholds.clone().into_boxed_slice()),
            }
        })
        .collect();
    CATALOG.with(|c| *c.borrow_mut() = entries);
    let interp = Rc::new(interp);
    Session::install(interp.clone(), 0);
    interp
}

fn entry<R>(i: usize, f: impl FnOnce(&Entry) -> R) -> R {
    CATALOG.with(|c| {
        let c = c.borrow();
        let entry = c.get(i).expect("an analysis of the loaded file");
        f(entry)
    })
}

fn decl<R>(i: usize, f: impl FnOnce(&AnalysisDecl) -> R) -> R {
    let interp = Session::interp().expect("a `.dom` file is loaded");
    f(&interp.analyses[i])
}

impl Analysis for Interpreted {
    fn all() -> Vec<Interpreted> {
        let n = CATALOG.with(|c| c.borrow().len());
        (0..n).map(Interpreted).collect()
    }

    fn as_str(self) -> &'static str {
        entry(self.0, |e| e.name)
    }

    fn description(self) -> &'static str {
        entry(self.0, |e| e.description)
    }

    fn conditional(self) -> bool {
        decl(self.0, |a| a.conditional)
    }

    fn engine(self) -> Engine {
        decl(self.0, |a| {
            Engine::from_word(&a.engine).unwrap_or(Engine::Flow)
        })
    }

    fn declared_limits(self) -> Option<Limits> {
        decl(self.0, |a| {
            Some(Limits {
                widening_delay: a.widening_delay,
                narrowing_passes: a.narrowing,
                ..Limits::default()
            })
        })
    }

    fn thresholds(self) -> &'static [i64] {
        entry(self.0, |e| e.thresholds)
    }

    fn immediates(self) -> usize {
        decl(self.0, |a| {
            a.immediates
                .map_or(absinthe::typing_env::TypingEnv::MAX_IMMS, |n| n as usize)
        })
    }

    fn heaps(self) -> usize {
        decl(self.0, |a| {
            a.heaps
                .map_or(absinthe::heap::escape::MAX_HEAPS, |n| n as usize)
        })
    }

    fn dispatch<F: ForDomain>(self, f: F) -> F::Output {
        let interp = Session::interp().expect("a `.dom` file is loaded");
        Session::install(interp, self.0);
        f.run::<DynValue>()
    }
}

impl fmt::Display for Interpreted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
