//! The interprocedural values checked against the lattice laws.

use absinthe::laws::strategies::{self, interval};
use absinthe::laws::{check_lattice, check_top};
use absinthe::program::FuncId;
use absinthe::value::ValueDomain;
use absinthe_interproc::{FuncSet, ProcValue};
use proptest::collection::vec;
use proptest::prelude::*;

const CASES: u32 = 256;

/// A [`FuncSet`] over functions `0..6`, or any function.
fn func_set() -> impl Strategy<Value = FuncSet> + Clone {
    prop_oneof![
        1 => Just(FuncSet::Any),
        5 => vec(0u32..6, 0..4)
            .prop_map(|fs| FuncSet::Some(fs.into_iter().map(FuncId).collect())),
    ]
}

/// A [`ProcValue`] whose integer part comes from `ints`.
fn proc_value<D: ValueDomain + 'static>(
    ints: impl Strategy<Value = D> + Clone,
) -> impl Strategy<Value = ProcValue<D>> + Clone {
    (ints, func_set(), any::<bool>()).prop_map(|(int, funcs, block)| ProcValue {
        int,
        funcs,
        block,
    })
}

#[test]
fn func_set_laws() {
    check_lattice(func_set(), CASES);
    check_top(func_set(), CASES);
}

#[test]
fn proc_value_of_flat_and_interval() {
    check_lattice(proc_value(strategies::flat()), CASES);
    check_top(proc_value(strategies::flat()), CASES);
    check_lattice(proc_value(interval()), CASES);
    check_top(proc_value(interval()), CASES);
}
