//! Solving a module's functions callees first, for analyses that summarize each function once
//! (the heap analyses): a function is solved when a caller first asks for its summary, and a
//! call into a cycle of calls still being solved gets no summary (the analysis treats it as
//! unknown code).

use std::cell::RefCell;

use absinthe::program::FuncId;

/// What solving one function gives: its facts and the summary its callers use.
type Solved<F, S> = Option<(F, S)>;

/// A function solver: `solve(f, callees)` analyzes function `f`, asking `callees` for the
/// summaries of the functions it calls, and gives its facts and summary (`None` when `f` is no
/// function).
pub type SolveOne<'a, F, S> = dyn Fn(FuncId, &dyn Fn(FuncId) -> Option<S>) -> Solved<F, S> + 'a;

/// Solves the functions `0..count`, each once, callees before their callers (a function is
/// solved the first time a caller asks for its summary, or in order when nobody does), and
/// gives each function's facts (`None` for an id `solve` says is no function).
pub fn callees_first<F, S: Clone>(count: usize, solve: &SolveOne<'_, F, S>) -> Vec<Option<F>> {
    struct Solver<'a, 'b, F, S> {
        solve: &'a SolveOne<'b, F, S>,
        done: RefCell<Vec<Solved<F, S>>>,
        busy: RefCell<Vec<bool>>,
    }
    impl<F, S: Clone> Solver<'_, '_, F, S> {
        fn summary(&self, f: FuncId) -> Option<S> {
            let i = f.index();
            if let Some(Some((_, summary))) = self.done.borrow().get(i) {
                return Some(summary.clone());
            }
            if self.busy.borrow().get(i).copied().unwrap_or(true) {
                return None;
            }
            self.busy.borrow_mut()[i] = true;
            let solved = (self.solve)(f, &|g| self.summary(g))?;
            let summary = solved.1.clone();
            self.done.borrow_mut()[i] = Some(solved);
            Some(summary)
        }
    }
    let solver = Solver {
        solve,
        done: RefCell::new((0..count).map(|_| None).collect()),
        busy: RefCell::new(vec![false; count]),
    };
    for f in 0..count {
        solver.summary(FuncId(f as u32));
    }
    solver
        .done
        .into_inner()
        .into_iter()
        .map(|solved| solved.map(|(facts, _)| facts))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Function `f` calls `f + 1` (the last calls the first: a cycle); its summary counts the
    /// summaries it got.
    #[test]
    fn callees_are_solved_first_and_a_cycle_gets_no_summary() {
        let order = RefCell::new(Vec::new());
        let solve = |f: FuncId, callees: &dyn Fn(FuncId) -> Option<u32>| {
            let callee = FuncId((f.0 + 1) % 3);
            let depth = callees(callee).map_or(0, |d| d + 1);
            order.borrow_mut().push(f.0);
            Some((depth, depth))
        };
        let facts = callees_first(3, &solve);
        assert_eq!(*order.borrow(), vec![2, 1, 0]);
        assert_eq!(facts, vec![Some(2), Some(1), Some(0)]);
    }
}
