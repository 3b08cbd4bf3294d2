//! The interprocedural wrapper names, for explanations, what its integer domain names.

use absinthe::lattice::{Flat, Interval};
use absinthe::program::Op;
use absinthe::value::ValueDomain;
use absinthe_interproc::ProcValue;

#[test]
fn the_interprocedural_wrapper_names_its_integer_domain() {
    for op in Op::ALL {
        assert_eq!(
            ProcValue::<Interval>::rules_binary(op),
            Interval::rules_binary(op)
        );
        assert_eq!(
            ProcValue::<Interval>::rules_assume(op),
            Interval::rules_assume(op)
        );
    }
    assert_eq!(
        ProcValue::<Flat<i64>>::rules_constant(),
        <Flat<i64>>::rules_constant()
    );
}
