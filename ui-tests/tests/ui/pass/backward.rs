//! A backward analysis declared with attributes: needed values, as `dsl-examples/dom/needed.dom`
//! declares them (the CLI's tests run the `.dom` form on programs).
#![deny(warnings)]

use absinthe::lattice::Lattice;
use absinthe::program::Op;
use absinthe::value::{DeclaredAnalysis, ValueDomain};

#[absinthe::domain]
mod needed {
    use absinthe::program::Op;

    /// Whether a value is needed.
    #[absinthe::lattice(order = "Unneeded < Needed")]
    #[derive(Clone, Copy)]
    pub enum Need {
        Unneeded,
        Needed,
    }

    impl absinthe::value::Concrete for Need {
        fn contains(&self, _v: i64) -> bool {
            matches!(self, Need::Needed)
        }
    }

    /// What later observations demand of a value.
    #[absinthe::lattice(product, reduce = "never")]
    #[derive(Clone)]
    pub struct Demand {
        pub need: Need,
    }

    /// A multiplication needs its operands when its result is needed.
    #[absinthe::transfer(backward = "*")]
    pub fn times(d: &Demand) -> Need {
        d.need
    }

    /// So does every other operation.
    #[absinthe::transfer(backward)]
    pub fn operands(op: Op, d: &Demand) -> Need {
        let _ = op;
        d.need
    }

    /// A copy needs its source when its destination is needed.
    #[absinthe::transfer(backward_copy)]
    pub fn source(d: &Demand) -> Need {
        d.need
    }

    /// What the run observes is needed.
    #[absinthe::transfer(observe)]
    pub fn seen() -> Need {
        Need::Needed
    }

    /// The analysis.
    #[absinthe::analysis(domain = Demand, direction = "backward")]
    pub struct Needed;
}

use needed::{Demand, Need, Needed};

fn main() {
    assert_eq!(
        Needed::spec().direction,
        absinthe::engine::Direction::Backward
    );
    let needed = Demand { need: Need::Needed };
    assert!(matches!(Demand::observed().need, Need::Needed));
    assert!(matches!(Demand::demand_binary(Op::Mul, &needed).need, Need::Needed));
    assert!(Demand::demand_copy(&Demand::bottom()).is_bottom());

    // The rule of `*` and the catch-all give the same here; a component without a rule would
    // demand top.
    assert!(Demand::demand_binary(Op::Add, &Demand::bottom()).is_bottom());
}
