//! The useless-parameter and strictness tasks of the behavior-graph paper (§4), written against
//! the runtime's `Task` trait.
//!
//! Like the basic-induction task, these are Rust rather than declarations: they need a
//! parameter's own identity as a value (`Task::param`) and the operator of an application
//! (`Task::app`), which neither declaration language can name yet. Their lattices are the
//! runtime's `Names`.

use absinthe::behavior::{Arg, Names, ParamId, Prim, Task};
use absinthe::lattice::{Dual, Lattice, Top};

/// Which parameters a value depends on: a constant on none, a primitive's result on all its
/// arguments' (the predicate of `cond` included), a name on itself and what it is bound to, an
/// application on its operator and what the functions it calls return. A parameter no result of
/// the program depends on is useless.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dependence;

impl Task for Dependence {
    type Value = Names;

    fn constant(&self, _: i64) -> Names {
        Names::none()
    }

    fn prim(&self, _: Prim, args: &[Arg<'_, Names>]) -> Names {
        args.iter().fold(Names::none(), |acc, a| acc.join(a.value))
    }

    fn contains(&self, _: &Names, _: i64) -> bool {
        true
    }

    fn param(&self, param: ParamId, bound: &Names) -> Names {
        Names::one(param).join(bound)
    }

    fn app(&self, operator: &Names, result: &Names) -> Names {
        operator.join(result)
    }

    fn function(&self) -> Names {
        Names::none()
    }
}

/// Which parameters evaluating a term certainly demands, under lazy evaluation: ordered by
/// reverse inclusion (a join keeps what both sides demand). A constant or an abstraction demands
/// nothing, arithmetic both arguments, `cond` its predicate and what both branches demand, a
/// name itself and what its arguments demand, an application its operator and what every
/// function it may call demands. A parameter its function's body certainly demands is strict.
#[derive(Clone, Copy, Debug, Default)]
pub struct Strictness;

type Demanded = Dual<Names>;

impl Task for Strictness {
    type Value = Demanded;

    fn constant(&self, _: i64) -> Demanded {
        Dual(Names::none())
    }

    fn prim(&self, prim: Prim, args: &[Arg<'_, Demanded>]) -> Demanded {
        match (prim, args) {
            (Prim::Cond, [p, a, b]) => Dual(p.value.0.join(&a.value.0.meet(&b.value.0))),
            _ => Dual(
                args.iter()
                    .fold(Names::none(), |acc, a| acc.join(&a.value.0)),
            ),
        }
    }

    fn contains(&self, _: &Demanded, _: i64) -> bool {
        true
    }

    fn param(&self, param: ParamId, bound: &Demanded) -> Demanded {
        Dual(Names::one(param).join(&bound.0))
    }

    fn app(&self, operator: &Demanded, result: &Demanded) -> Demanded {
        Dual(operator.0.join(&result.0))
    }

    fn function(&self) -> Demanded {
        // Evaluating an abstraction demands nothing: the top of the dual order.
        Demanded::top()
    }
}
