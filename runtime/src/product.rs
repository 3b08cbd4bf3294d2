//! Reduced products: the reduction policy of a product and the trait every generated product
//! implements.
//!
//! A reduced product stores one value per component domain and a list of directed reductions
//! `meet_ext(target ← source)` that refine one component with what another knows. The
//! `#[lattice(product)]` generator (and the `.dom` compiler) implement [`ReducedProduct`] with a
//! `reduce` that applies the reductions in declaration order, as often as [`ReducePolicy`] allows.

use crate::lattice::{Changed, Lattice};
use std::fmt;

/// How often a product applies its reductions after a meet or a transfer (never after a join or a
/// widening).
///
/// Reductions are never applied right after a widening: a reduction may undo the jump that makes
/// widening terminate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReducePolicy {
    /// Never reduce: the plain (direct) product of the components.
    Never,
    /// Apply each reduction once, in declaration order.
    Once,
    /// Repeat rounds of every reduction until a round changes nothing, at most this many rounds.
    Fixpoint(u32),
}

impl ReducePolicy {
    /// The bound used by `fixpoint` when the declaration gives none.
    pub const DEFAULT_ROUNDS: u32 = 8;

    /// The most rounds this policy runs.
    pub fn max_rounds(self) -> u32 {
        match self {
            ReducePolicy::Never => 0,
            ReducePolicy::Once => 1,
            ReducePolicy::Fixpoint(k) => k,
        }
    }
}

impl fmt::Display for ReducePolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReducePolicy::Never => f.write_str("never"),
            ReducePolicy::Once => f.write_str("once"),
            ReducePolicy::Fixpoint(k) => write!(f, "fixpoint({k})"),
        }
    }
}

/// A product of lattices with directed reductions between its components.
///
/// # Laws
///
/// - `reduce` never goes up: after `x.reduce()`, the new `x` is `⊑` the old one, and it stands
///   for the same concrete values (reductions only remove what no component allows).
/// - When any component is bottom, `reduce` makes the whole product bottom.
pub trait ReducedProduct: Lattice {
    /// The policy the declaration chose.
    const POLICY: ReducePolicy;

    /// The number of declared reductions.
    const REDUCTIONS: usize;

    /// Applies the reductions under [`ReducedProduct::POLICY`]; reports whether `self` changed.
    fn reduce(&mut self) -> Changed;

    /// Applies the reductions under `policy` instead of the declared one (for comparing a
    /// reduced product with the direct product of the same components).
    fn reduce_with(&mut self, policy: ReducePolicy) -> Changed;
}

/// A reduction that changed a component, as tracing tools (`absinthe trace`) report it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduction {
    /// The reduction and its place (`` `meet_ext odd_not_zero` at ps.dom:66:1 ``, or a Rust file
    /// and line for `#[meet_ext]` functions).
    pub rule: String,
    /// The component it refined.
    pub component: String,
    /// The component's value before.
    pub before: String,
    /// And after.
    pub after: String,
}

thread_local! {
    /// The reductions that changed a component since the last [`take_reductions`], while
    /// recording on this thread.
    static REDUCTIONS: std::cell::RefCell<Option<Vec<Reduction>>> =
        const { std::cell::RefCell::new(None) };
    /// Whether this thread records: a flag of its own, so that asking costs one read.
    static RECORDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Starts (`true`) or stops recording, on this thread, the reductions that change a component.
pub fn record_reductions(on: bool) {
    REDUCTIONS.with(|r| *r.borrow_mut() = on.then(Vec::new));
    RECORDING.with(|r| r.set(on));
}

/// Whether reductions are being recorded on this thread (generated products ask before building
/// a [`Reduction`], so that not recording costs one read of a thread-local flag).
#[inline]
pub fn recording_reductions() -> bool {
    RECORDING.with(std::cell::Cell::get)
}

/// The reductions recorded since the last call (none when not recording).
pub fn take_reductions() -> Vec<Reduction> {
    REDUCTIONS.with(|r| {
        r.borrow_mut()
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    })
}

/// Records that `rule` refined `component` from `before` to `after`, when recording.
pub fn log_reduction(
    rule: &str,
    component: &str,
    before: &dyn fmt::Display,
    after: &dyn fmt::Display,
) {
    if !recording_reductions() {
        return;
    }
    let reduction = Reduction {
        rule: rule.to_owned(),
        component: component.to_owned(),
        before: before.to_string(),
        after: after.to_string(),
    };
    REDUCTIONS.with(|r| {
        if let Some(log) = r.borrow_mut().as_mut() {
            log.push(reduction);
        }
    });
}
