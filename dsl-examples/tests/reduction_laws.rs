//! The laws of reductions, generated for every `#[meet_ext]` of an attribute-declared product
//! and every `meet_ext` of a `.dom` file: a correct nullness × interval product passes them, and
//! the same product with one planted mistake (the interval tested for `-1` where zero is meant)
//! fails the law that a reduction keeps every integer both components allow, declared either
//! way.

use absinthe::lattice;
use absinthe::laws::Laws;
use absinthe::value::Concrete;

/// Whether a pointer-sized integer may be zero.
#[lattice]
#[derive(Clone, Copy)]
pub enum Nullness {
    /// No value.
    #[lattice(below(Null, NonNull))]
    Bottom,
    /// Zero.
    #[lattice(below(Top))]
    Null,
    /// Anything but zero.
    #[lattice(below(Top))]
    NonNull,
    /// Any integer.
    Top,
}

impl Concrete for Nullness {
    fn contains(&self, v: i64) -> bool {
        match self {
            Nullness::Bottom => false,
            Nullness::Null => v == 0,
            Nullness::NonNull => v != 0,
            Nullness::Top => true,
        }
    }

    fn as_constant(&self) -> Option<i64> {
        (*self == Nullness::Null).then_some(0)
    }
}

/// Nullness × intervals, reduced both ways.
#[absinthe::domain]
pub mod right {
    use super::Nullness;
    use absinthe::lattice::Interval;

    /// Nullness and a range.
    #[lattice(product, reduce = "fixpoint(2)")]
    #[derive(Clone, Copy)]
    pub struct NullInt {
        /// Whether it may be zero.
        pub nullness: Nullness,
        /// Its range.
        #[lattice(value_domain)]
        pub interval: Interval,
    }

    /// A range without zero is not null; the range `[0, 0]` is null.
    #[meet_ext]
    pub fn nullness_from_interval(n: &Nullness, i: &Interval) -> Nullness {
        if i.as_constant() == Some(0) {
            Nullness::Null
        } else if !i.contains(0) {
            Nullness::NonNull
        } else {
            *n
        }
    }

    /// A null value is `[0, 0]`.
    #[meet_ext]
    pub fn interval_from_nullness(i: &Interval, n: &Nullness) -> Interval {
        match n {
            Nullness::Null => Interval::constant(0),
            _ => *i,
        }
    }

    /// A literal's nullness.
    #[transfer(literal)]
    pub fn nullness_literal(c: i64) -> Nullness {
        if c == 0 {
            Nullness::Null
        } else {
            Nullness::NonNull
        }
    }
}

/// The same product with the mistake planted in its first reduction.
#[absinthe::domain]
pub mod wrong {
    use super::Nullness;
    use absinthe::lattice::Interval;

    /// Nullness and a range.
    #[lattice(product, reduce = "fixpoint(2)")]
    #[derive(Clone, Copy)]
    pub struct NullInt {
        /// Whether it may be zero.
        pub nullness: Nullness,
        /// Its range.
        #[lattice(value_domain)]
        pub interval: Interval,
    }

    /// The planted mistake: `-1` where zero is meant, so `[0, 5]` is called not null.
    #[meet_ext]
    pub fn nullness_from_interval(n: &Nullness, i: &Interval) -> Nullness {
        if i.as_constant() == Some(0) {
            Nullness::Null
        } else if !i.contains(-1) {
            Nullness::NonNull
        } else {
            *n
        }
    }

    /// A null value is `[0, 0]`.
    #[meet_ext]
    pub fn interval_from_nullness(i: &Interval, n: &Nullness) -> Interval {
        match n {
            Nullness::Null => Interval::constant(0),
            _ => *i,
        }
    }

    /// A literal's nullness.
    #[transfer(literal)]
    pub fn nullness_literal(c: i64) -> Nullness {
        if c == 0 {
            Nullness::Null
        } else {
            Nullness::NonNull
        }
    }
}

#[test]
fn right_reductions_obey_their_laws() {
    right::NullInt::check_laws();
}

#[test]
fn a_reduction_that_drops_a_member_fails_its_law_at_its_declaration() {
    let failure = std::panic::catch_unwind(wrong::NullInt::check_laws)
        .expect_err("the planted reduction passes its laws");
    let message = failure
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.contains("law `reduction keeps members` violated"),
        "{message}"
    );
    assert!(
        message.contains("nullness_from_interval") && message.contains("reduction_laws.rs:"),
        "the failure names the reduction and its line: {message}"
    );
}

/// The `.dom` form of the wrong product, from the compiler's corpus.
#[allow(unreachable_pub, dead_code)]
mod dom {
    absinthe::include_dom!("../domc/test_data/codegen/ok/wrong_reduction.dom");
}

#[test]
fn a_dom_reduction_that_drops_a_member_fails_its_law_at_its_line() {
    let failure = std::panic::catch_unwind(dom::wrong_reduction::NullInt::check_laws)
        .expect_err("the planted reduction passes its laws");
    let message = failure
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.contains("law `reduction keeps members` violated"),
        "{message}"
    );
    assert!(
        message.contains("`meet_ext nullness_from_interval` at")
            && message.contains("wrong_reduction.dom:20:1"),
        "the failure names the reduction and its line: {message}"
    );
}
