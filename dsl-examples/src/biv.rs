//! The basic-induction-parameter task of the behavior-graph paper (§5.2), written against the
//! runtime's `Task` trait.
//!
//! This is the one task here that is not a declaration: its `F_+` must see that an argument *is*
//! a parameter and the other a constant (`ArgKind`), and neither `.dom` nor the attributes can
//! name argument kinds yet. The lattice is the runtime's `Steps`.

use absinthe::behavior::{Arg, ArgKind, Prim, Step, Steps, Task};
use absinthe::lattice::{Lattice, Top};
use absinthe::program::Op;

/// The task: a parameter is bound to constants and to parameters plus or minus constants.
#[derive(Clone, Copy, Debug, Default)]
pub struct BasicInduction;

/// `⟨Φ_x, ±c⟩` when `a` is a parameter and `b` a constant.
fn offset(a: &Arg<'_, Steps>, b: &Arg<'_, Steps>, sign: i64) -> Option<Steps> {
    match (a.kind, b.kind) {
        (ArgKind::Param(x), ArgKind::Const(c)) => {
            Some(Steps::one(Step::Offset(x, c.checked_mul(sign)?)))
        }
        _ => None,
    }
}

impl Task for BasicInduction {
    type Value = Steps;

    /// `V^biv(Φ_c)` is `Φ_c`.
    fn constant(&self, c: i64) -> Steps {
        Steps::one(Step::Const(c))
    }

    /// `F_+` of a parameter and a constant is `⟨Φ_x, Φ_c⟩` (`F_-` with the constant negated),
    /// `F_cond` the union of its branches, anything else ⊤.
    fn prim(&self, prim: Prim, args: &[Arg<'_, Steps>]) -> Steps {
        let found = match (prim, args) {
            (Prim::Op(Op::Add), [a, b]) => offset(a, b, 1).or_else(|| offset(b, a, 1)),
            (Prim::Op(Op::Sub), [a, b]) => offset(a, b, -1),
            (Prim::Cond, [_, a, b]) => Some(a.value.join(b.value)),
            _ => None,
        };
        found.unwrap_or_else(Steps::top)
    }

    /// Steps are symbolic: any concrete integer may be what they stand for.
    fn contains(&self, value: &Steps, _: i64) -> bool {
        !value.is_bottom()
    }
}
