//! Whether an optimized program computes what the original does, on one run of each: the
//! check every test of the optimizer makes against the interpreter.
//!
//! What is observable is how the run ends: the value returned or thrown (integers equal, objects
//! alike in kind and fields, followed through references, whatever their numbers: removing an
//! allocation renumbers the heap), the reason of a trap, or that the depth limit was hit. Where
//! a trap happened is not compared (statements moved). A run of the original that runs out of
//! steps or reads a name never assigned says nothing: the first may finish after more steps
//! than the budget, the second is a malformed program the optimizer need not preserve.

use std::collections::HashMap;

use crate::interp::{Outcome, Run, Value};

/// What comparing two runs found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// They end alike.
    Same,
    /// The original's run says nothing to compare with (out of steps, or it read a name never
    /// assigned).
    Skipped,
    /// They differ, as the text says.
    Differ(String),
}

/// Compares the run of the original program with the run of the optimized one on the same
/// arguments.
pub fn compare_runs(original: &Run, optimized: &Run) -> Verdict {
    use Outcome::{OutOfSteps, ReadUnassigned, Returned, Threw, TooDeep, Trap};
    let same = match (&original.outcome, &optimized.outcome) {
        (OutOfSteps | ReadUnassigned { .. }, _) => return Verdict::Skipped,
        (Returned(a), Returned(b)) | (Threw(a), Threw(b)) => match (a, b) {
            (Some(a), Some(b)) => Alike::new(original, optimized).values(*a, *b),
            (None, None) => true,
            _ => false,
        },
        (
            Trap {
                reason: a, func: f, ..
            },
            Trap {
                reason: b, func: g, ..
            },
        ) => a == b && f == g,
        (TooDeep, TooDeep) => true,
        _ => false,
    };
    if same {
        Verdict::Same
    } else {
        Verdict::Differ(format!(
            "the original {:?}, the optimized {:?}",
            original.outcome, optimized.outcome
        ))
    }
}

/// A walk of two heaps from two values, pairing the objects met (one-to-one).
struct Alike<'r> {
    a: &'r Run,
    b: &'r Run,
    pairs: HashMap<u32, u32>,
    paired: HashMap<u32, u32>,
}

impl<'r> Alike<'r> {
    fn new(a: &'r Run, b: &'r Run) -> Alike<'r> {
        Alike {
            a,
            b,
            pairs: HashMap::new(),
            paired: HashMap::new(),
        }
    }

    /// Whether `x` in the first heap and `y` in the second are alike.
    fn values(&mut self, x: Value, y: Value) -> bool {
        let mut todo = vec![(x, y)];
        while let Some((x, y)) = todo.pop() {
            let (r, s) = match (x, y) {
                (Value::Int(i), Value::Int(j)) if i == j => continue,
                (Value::Ref(r), Value::Ref(s)) => (r, s),
                _ => return false,
            };
            match (self.pairs.get(&r), self.paired.get(&s)) {
                (Some(&t), _) if t == s => continue,
                (None, None) => {}
                _ => return false,
            }
            self.pairs.insert(r, s);
            self.paired.insert(s, r);
            let (r, s) = (r as usize, s as usize);
            if self.a.kinds.get(r) != self.b.kinds.get(s) {
                return false;
            }
            let (Some(fa), Some(fb)) = (self.a.heap.get(r), self.b.heap.get(s)) else {
                return false;
            };
            let len = fa.len().max(fb.len());
            for k in 0..len {
                match (fa.get(k).copied().flatten(), fb.get(k).copied().flatten()) {
                    (None, None) => {}
                    (Some(u), Some(v)) => todo.push((u, v)),
                    _ => return false,
                }
            }
        }
        true
    }
}
