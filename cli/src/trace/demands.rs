//! `absinthe trace` of a backward analysis (`direction backward`): the worklist engine's run of
//! [`Demands`] on the traced function, its states shown as rows (one per name demanded, with
//! its demand). A block's transfer runs against control flow: the viewer's steps of a block go
//! from its terminator up to its first statement, each showing the demands before that
//! statement. The page's verify checks concrete runs as `absinthe verify` does
//! ([`crate::backward::verify`]).

use super::common::{Subject, TraceFormat};
use super::row_trace::RowTrace;
use super::rows::{Rows, StateRows};
use crate::driver::Input;
use absinthe::engine::Limits;
use absinthe::program::{BlockId, Cfg, Program};
use absinthe::value::{Demands, Env, ValueDomain};
use absinthe_ir::{Function, Module};
use serde_json::{Value, json};

/// The demands of a state as rows: each name demanded, with its demand.
struct DemandRows<'a, D> {
    function: &'a Function,
    analysis: &'a Demands<D>,
}

impl<D: ValueDomain> StateRows<Env<D>> for DemandRows<'_, D> {
    fn rows(&self, state: &Env<D>) -> Option<Rows> {
        match state {
            Env::Unreachable => None,
            Env::Reachable(values) => Some(
                values
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| !v.is_bottom())
                    .map(|(x, v)| (self.function.names[x].clone(), v.to_string()))
                    .collect(),
            ),
        }
    }

    /// From the block's exit: the terminator, then each statement from the last.
    fn statements(&self, block: BlockId, entry: &Env<D>, after: &mut dyn FnMut(usize, &Env<D>)) {
        let stmts = self.function.stmts(block);
        let mut state = entry.clone();
        self.analysis
            .transfer_terminator(self.function.terminator(block), &mut state);
        after(stmts.len(), &state);
        for (index, stmt) in stmts.iter().enumerate().rev() {
            self.analysis.transfer_stmt(stmt, &mut state);
            after(index, &state);
        }
    }
}

/// Traces the backward analysis `analysis` (value domain `D`) on `subject`.
pub(super) fn trace<D: ValueDomain>(
    subject: &Subject,
    name: &str,
    format: TraceFormat,
    limits: &Limits,
) -> String {
    let function = &subject.function;
    let analysis = Demands::<D>::new(function);
    let view = DemandRows {
        function,
        analysis: &analysis,
    };
    let rows = RowTrace {
        subject,
        analysis: name,
        format,
        direction: absinthe::spec::Direction::Backward,
    };
    // The engine runs on the function itself here, so that the viewer shows its blocks: a block
    // that cannot reach a return keeps the unreachable state in the trace, where `analyze` and
    // `verify` (which run on the function with an exit every block may go to) give its demands.
    let stuck = reaching_no_exit(function);
    if !stuck.is_empty() {
        eprintln!(
            "note: the trace runs on `{}` as it is: {} reach no return and keep no demand here, \
             where `analyze` and `verify` (on the function with an exit every block may go to) \
             give their demands",
            function.name,
            stuck.join(", ")
        );
    }
    let recorded = rows.record(&analysis, &view, limits);
    let verify = |runs: usize| verify_json::<D>(&subject.module, function, runs, limits);
    rows.output(
        recorded,
        &|s: &Env<D>| StateRows::<Env<D>>::rows(&view, s),
        Vec::new(),
        &verify,
    )
}

/// The page's verify: `runs` concrete runs of every function of the module (the traced one
/// among them, `function`), checked as `absinthe verify` checks a backward analysis.
fn verify_json<D: ValueDomain>(
    module: &Module,
    function: &Function,
    runs: usize,
    limits: &Limits,
) -> Value {
    if runs == 0 {
        return Value::Null;
    }
    let _ = function;
    let input = Input::Air {
        file: String::new(),
        module: module.clone(),
    };
    let config = crate::verify::VerifyConfig::default();
    let checked = crate::backward::verify::<D>(&input, limits, runs, config.seed, config.max_steps);
    let count = checked.violations.len();
    let mut violations = checked.violations;
    violations.truncate(5);
    json!({
        "kind": "heap",
        "tried": runs,
        "runs": checked.runs,
        "checked": format!("{} points and {} demands", checked.points, checked.values),
        "holds": "every value the run needed demanded, and the rules along its path covered",
        "note": "Backward checks name the point and the name: the failing run's path is not drawn.",
        "violations": violations,
        "count": count,
    })
}

/// The labels of the blocks of `function` from which no block without successors is reachable.
fn reaching_no_exit(function: &Function) -> Vec<String> {
    let n = function.block_count();
    let mut reaches = vec![false; n];
    let mut work: Vec<BlockId> = (0..n)
        .map(BlockId::new)
        .filter(|&b| function.successors(b).is_empty())
        .collect();
    for b in &work {
        reaches[b.index()] = true;
    }
    while let Some(b) = work.pop() {
        for &p in function.predecessors(b) {
            if !reaches[p.index()] {
                reaches[p.index()] = true;
                work.push(p);
            }
        }
    }
    (0..n)
        .filter(|&b| !reaches[b])
        .map(|b| function.blocks()[b].label.clone())
        .collect()
}
