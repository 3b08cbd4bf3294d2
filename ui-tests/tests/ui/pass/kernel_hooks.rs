//! The kernel-term hooks declared with attributes: the useless-parameter task of the
//! behavior-graph paper (which parameters a value depends on), as `dsl-examples/dom/dependence.dom`
//! declares it, plus an operation rule reading its operands' kinds.
#![deny(warnings)]

use absinthe::lattice::Names;
use absinthe::terms::{Arg, ArgKind, ParamId};
use absinthe_behavior::{DomainTask, Task};
use absinthe::lattice::Lattice;
use absinthe::program::Op;
use absinthe::value::ValueDomain;

#[absinthe::domain]
mod dependence {
    use absinthe::lattice::Names;
    use absinthe::terms::{ArgKind, ParamId};
    use absinthe::lattice::Lattice;
    use absinthe::program::Op;

    /// Which parameters a value depends on.
    #[absinthe::lattice(product, reduce = "never")]
    #[derive(Clone)]
    pub struct Dependence {
        pub names: Names,
    }

    /// A constant depends on nothing.
    #[absinthe::transfer(literal)]
    pub fn depends_on_nothing(c: i64) -> Names {
        let _ = c;
        Names::none()
    }

    /// A primitive's result depends on both operands.
    #[absinthe::transfer(binary)]
    pub fn depends_on_operands(op: Op, a: &Dependence, b: &Dependence) -> Names {
        let _ = op;
        a.names.join(&b.names)
    }

    /// A sum also depends on the parameters its operands name, read from their kinds (on kernel
    /// terms; elsewhere both kinds are `ArgKind::Other`).
    #[absinthe::transfer(op = "+")]
    pub fn sum_depends_on_named(
        a: &Dependence,
        b: &Dependence,
        ka: ArgKind,
        kb: absinthe::terms::ArgKind,
    ) -> Names {
        a.names.join(&b.names).join(&named(ka)).join(&named(kb))
    }

    fn named(kind: ArgKind) -> Names {
        match kind {
            ArgKind::Param(p) => Names::one(p),
            ArgKind::Const(_) | ArgKind::Other => Names::none(),
        }
    }

    /// `(cond p a b)` depends on the predicate and both branches.
    #[absinthe::transfer(cond)]
    pub fn depends_on_all(p: &Dependence, a: &Dependence, b: &Dependence) -> Names {
        p.names.join(&a.names).join(&b.names)
    }

    /// A name depends on itself and on what it is bound to.
    #[absinthe::transfer(param)]
    pub fn depends_on_itself(x: ParamId, bound: &Dependence) -> Names {
        Names::one(x).join(&bound.names)
    }

    /// An application depends on its operator and on what its callees return.
    #[absinthe::transfer(apply)]
    pub fn depends_on_operator(operator: &Dependence, result: &Dependence) -> Names {
        operator.names.join(&result.names)
    }

    /// A function as a value depends on nothing.
    #[absinthe::transfer(function)]
    pub fn function_depends() -> Names {
        Names::none()
    }
}

use dependence::Dependence;

fn of(names: Names) -> Dependence {
    Dependence { names }
}

fn main() {
    let (x, y, z) = (ParamId(0), ParamId(1), ParamId(2));
    let task = DomainTask::<Dependence>::new();

    assert!(task.constant(7).names.is_bottom());
    assert_eq!(
        task.param(x, &of(Names::one(y))).names,
        Names::one(x).join(&Names::one(y))
    );
    assert_eq!(task.function().names, Names::none());
    assert_eq!(
        task.app(&of(Names::one(x)), &of(Names::one(y))).names,
        Names::one(x).join(&Names::one(y))
    );
    assert_eq!(
        Dependence::term_cond(&of(Names::one(x)), &of(Names::one(y)), &of(Names::none())).names,
        Names::one(x).join(&Names::one(y))
    );

    // The catch-all rule: the operands' names, whatever their terms.
    let (a, b) = (of(Names::one(x)), of(Names::one(y)));
    let both = Names::one(x).join(&Names::one(y));
    let mul = Dependence::term_binary(
        Op::Mul,
        &Arg {
            kind: ArgKind::Param(z),
            value: &a,
        },
        &Arg {
            kind: ArgKind::Const(2),
            value: &b,
        },
    );
    assert_eq!(mul.names, both);

    // The rule with kinds sees them on kernel terms …
    let sum = Dependence::term_binary(
        Op::Add,
        &Arg {
            kind: ArgKind::Param(z),
            value: &a,
        },
        &Arg {
            kind: ArgKind::Const(1),
            value: &b,
        },
    );
    assert_eq!(sum.names, both.join(&Names::one(z)));
    // … and `ArgKind::Other` everywhere else.
    assert_eq!(Dependence::binary(Op::Add, &a, &b).names, both);
}
