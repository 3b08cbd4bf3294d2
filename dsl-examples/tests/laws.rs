//! Every lattice declared in this crate, and one of each declaration form `#[lattice]` accepts,
//! passes the law checker through the generated `Laws` hook.

use absinthe::lattice::{Flat, Interval, Lattice, Parity, Top};
use absinthe::laws::{Laws, check_lattice, check_top};
use absinthe_dsl_examples::disjunctive::value::Disjunctive;
use absinthe_dsl_examples::seed::value::SeedValue;
use absinthe_dsl_examples::seed::{self, Bound, Const};
use absinthe_dsl_examples::signs::value::{DirectSignals, Signals};
use absinthe_dsl_examples::signs::{self, Sign};

#[test]
fn seed_lattices_obey_the_laws() {
    check_lattice(<Bound<true> as absinthe::laws::Arbitrary>::strategy(), 256);
    check_top(<Bound<false> as absinthe::laws::Arbitrary>::strategy(), 256);
    seed::Interval::check_laws();
    Const::check_laws();
    SeedValue::check_laws();
}

#[test]
fn sign_and_parity_products_obey_the_laws() {
    Sign::check_laws();
    signs::Parity::check_laws();
    Signals::check_laws();
    DirectSignals::check_laws();
}

#[test]
fn the_finite_disjunction_obeys_the_laws() {
    Disjunctive::check_laws();
}

#[test]
fn the_sccp_ranges_product_obeys_the_laws() {
    use absinthe_dsl_examples::dom::sccp_ranges::{SccpRange, Unsigned};
    Unsigned::check_laws();
    SccpRange::check_laws();
}

#[test]
fn the_behavior_graph_task_lattices_obey_the_laws() {
    use absinthe_dsl_examples::dom::{dependence, induction, strictness, types};
    // The runtime's building blocks, then what the `.dom` tasks declare over them (the
    // strictness lattice is their written-out dual).
    absinthe::laws::check_laws_with_top::<absinthe::lattice::Names>();
    absinthe::laws::check_laws_with_top::<absinthe::lattice::Steps>();
    types::Types::check_laws();
    induction::Induction::check_laws();
    dependence::Dependence::check_laws();
    strictness::Demanded::check_laws();
    strictness::Strictness::check_laws();
}

/// A smashed product with an ignored field: a bottom part makes the whole bottom, and the label
/// takes no part in the order.
#[absinthe::lattice(smash)]
#[derive(Clone)]
struct Labelled {
    value: Interval,
    parity: Parity,
    #[lattice(ignore)]
    label: u8,
}

/// A tuple struct that is not smashed.
#[absinthe::lattice]
#[derive(Clone)]
struct Pair(Flat<i64>, Parity);

/// A generic struct: its impls require `Lattice`, `Top`, `Display`, `Arbitrary`… of each field
/// type naming a parameter (`Flat<T>`, `S`), so any lattice instance works.
// ANCHOR: keyed
#[absinthe::lattice(smash)]
#[derive(Clone)]
struct Keyed<T: Clone + Eq + std::fmt::Debug, S> {
    key: Flat<T>,
    state: S,
    #[lattice(ignore)]
    note: Option<T>,
}
// ANCHOR_END: keyed

/// A flat lattice whose values carry data of several shapes.
#[absinthe::lattice]
#[derive(Clone)]
enum Token {
    #[lattice(bottom)]
    Nothing,
    Int(i64),
    Pair(i64, bool),
    Named {
        id: u32,
    },
    Unit,
    #[lattice(top)]
    Anything,
}

/// A disjoint sum of lattices with a single-point summand.
#[absinthe::lattice(sum)]
#[derive(Clone)]
enum Tagged {
    Bottom,
    Int(Interval),
    Bool(Parity),
    Null,
    Top,
}

// ANCHOR: laws
#[test]
fn every_declaration_form_obeys_the_laws() {
    Labelled::check_laws();
    Pair::check_laws();
    Token::check_laws();
    Tagged::check_laws();
    Keyed::<i64, Interval>::check_laws();
    Keyed::<i64, Parity>::check_laws();
}
// ANCHOR_END: laws

#[test]
fn generic_structs_are_ordered_pointwise() {
    let a = Keyed {
        key: Flat::Value(1),
        state: Interval::new(0, 1),
        note: Some(1),
    };
    let b = Keyed {
        key: Flat::Value(1),
        state: Interval::new(4, 5),
        note: None,
    };
    let joined = a.join(&b);
    assert_eq!(joined.key, Flat::Value(1));
    assert_eq!(joined.state, Interval::new(0, 5));
    assert_eq!(
        joined.note,
        Some(1),
        "ignored fields come from the left operand"
    );
    assert!(a.leq(&joined) && b.leq(&joined));
    assert!(Keyed::<i64, Interval>::top().is_top());
    let empty = Keyed {
        key: Flat::Value(2),
        state: Interval::empty(),
        note: None,
    };
    assert!(
        empty.is_bottom(),
        "smashed: a bottom field makes the whole bottom"
    );
    assert_eq!(format!("{a}"), "{key: 1, state: [0, 1]}");
}

#[test]
fn smashed_and_ignored_fields_behave() {
    let a = Labelled {
        value: Interval::new(0, 3),
        parity: Parity::Even,
        label: 1,
    };
    let b = Labelled {
        value: Interval::empty(),
        parity: Parity::Odd,
        label: 2,
    };
    assert!(
        b.is_bottom(),
        "a bottom part makes the smashed whole bottom"
    );
    assert_eq!(b, Labelled::bottom());
    assert_eq!(a.join(&b), a);
    let relabelled = Labelled {
        label: 9,
        ..a.clone()
    };
    assert_eq!(a, relabelled, "the ignored label takes no part in equality");
    assert_eq!(format!("{a}"), "{value: [0, 3], parity: even}");
    assert_eq!(format!("{:?}", Labelled::bottom()), "⊥");
}

#[test]
fn sums_identify_summand_bottoms_with_bottom() {
    assert!(Tagged::Int(Interval::empty()).is_bottom());
    assert_eq!(Tagged::Int(Interval::empty()), Tagged::Bottom);
    assert_eq!(
        Tagged::Int(Interval::new(0, 1)).join(&Tagged::Int(Interval::new(5, 6))),
        Tagged::Int(Interval::new(0, 6))
    );
    assert_eq!(
        Tagged::Int(Interval::new(0, 1)).join(&Tagged::Null),
        Tagged::Top
    );
    assert_eq!(
        Tagged::Int(Interval::new(0, 1)).meet(&Tagged::Null),
        Tagged::Bottom
    );
    assert_eq!(format!("{}", Tagged::Bool(Parity::Odd)), "Bool(odd)");
}

#[test]
fn flat_and_finite_enums_print_bottom_and_top() {
    assert_eq!(format!("{}", Const::Bottom), "⊥");
    assert_eq!(format!("{}", Const::Value(4)), "4");
    assert_eq!(format!("{:?}", Const::Top), "⊤");
    assert_eq!(format!("{}", Token::Pair(1, true)), "Pair(1, true)");
    assert_eq!(format!("{}", Token::Named { id: 3 }), "Named { id: 3 }");
    assert_eq!(Token::Int(1).join(&Token::Int(2)), Token::Anything);
    assert_eq!(format!("{}", Sign::Bottom), "⊥");
    assert_eq!(format!("{}", Sign::NonNeg), "NonNeg");
    assert_eq!(Sign::Neg.join(&Sign::Pos), Sign::NonZero);
    assert_eq!(Sign::NonPos.meet(&Sign::NonNeg), Sign::Zero);
    assert!(Sign::top().is_top());
}

/// A struct whose declared top is not the greatest element.
#[absinthe::lattice(top = WrongTop::not_top)]
#[derive(Clone)]
struct WrongTop {
    value: Interval,
}

impl WrongTop {
    fn not_top() -> WrongTop {
        WrongTop {
            value: Interval::new(0, 10),
        }
    }
}

#[test]
#[should_panic(expected = "is not below top")]
fn the_checker_catches_a_declared_top_that_is_not_greatest() {
    WrongTop::check_laws();
}

/// Congruences times intervals: a struct lattice with a written-out normal form and an exact meet
/// (the Chinese remainder theorem), and the product with its reductions both ways.
#[test]
fn the_congruence_product_obeys_the_laws() {
    use absinthe_dsl_examples::dom::congruence::{Cong, CongRange};
    Cong::check_laws();
    CongRange::check_laws();
}

#[test]
fn lattices_declared_in_dom_files_obey_the_laws() {
    use absinthe_dsl_examples::dom::{bounds, const_prop, disjunctive, seed, signs};
    const_prop::Const::check_laws();
    const_prop::ConstValue::check_laws();
    seed::Const::check_laws();
    seed::SeedValue::check_laws();
    signs::Sign::check_laws();
    signs::Parity::check_laws();
    signs::Signals::check_laws();
    signs::DirectSignals::check_laws();
    disjunctive::Disjunctive::check_laws();
    bounds::Bounds::check_laws();
    bounds::Value::check_laws();
}

#[test]
fn the_product_with_an_octagon_obeys_the_laws() {
    use absinthe_dsl_examples::relational::value::OctagonRanges;
    OctagonRanges::check_laws();
    // The same product declared in `dsl-examples/dom/octagon.dom`.
    absinthe_dsl_examples::dom::octagon::OctagonRanges::check_laws();
}

/// The backward examples: the demand lattices of live names and needed values, and their
/// products.
#[test]
fn the_backward_examples_obey_the_laws() {
    use absinthe_dsl_examples::dom::{liveness, needed};
    liveness::Liveness::check_laws();
    liveness::Live::check_laws();
    needed::Need::check_laws();
    needed::Demand::check_laws();
}
