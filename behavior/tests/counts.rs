//! The small pieces of contexts and multiple values: call strings cut to `k` labels and found
//! again from a concrete call stack, and counts of values (sums, the arguments after the
//! operator, which part may hold a position).

use absinthe_behavior::{ContextId, Contexts, Counts};

#[test]
fn call_strings_keep_the_last_k_labels_most_recent_first() {
    let mut contexts = Contexts::new(2);
    let a = contexts.push(3, ContextId::EMPTY);
    let b = contexts.push(5, a);
    let c = contexts.push(7, b);
    assert_eq!(contexts.labels(b), &[5, 3]);
    assert_eq!(contexts.labels(c), &[7, 5]);
    assert_eq!(contexts.push(7, b), c, "interned");
    assert_eq!(contexts.display(c).to_string(), "⟨7·5⟩");
    assert_eq!(contexts.display(ContextId::EMPTY).to_string(), "⟨⟩");
    // A concrete stack lists the outermost application first.
    assert_eq!(contexts.of_stack(&[1, 3, 5, 7]), Some(c));
    assert_eq!(contexts.of_stack(&[]), Some(ContextId::EMPTY));
    assert_eq!(contexts.of_stack(&[9]), None);
    let mut none = Contexts::new(0);
    assert_eq!(none.push(3, ContextId::EMPTY), ContextId::EMPTY);
    assert_eq!(none.of_stack(&[1, 2]), Some(ContextId::EMPTY));
}

#[test]
fn counts_add_drop_the_operator_and_place_positions() {
    let one = Counts::exactly(1);
    let two = Counts::exactly(2);
    let mut either = Counts::exactly(0);
    assert!(either.join_from(&two));
    assert!(!either.join_from(&two));
    assert_eq!(one.plus(&either), Counts::Some([1, 3].into()));
    assert_eq!(
        one.plus(&Counts::none()),
        Counts::none(),
        "a part that never returns"
    );
    assert_eq!(Counts::exactly(Counts::MAX).plus(&one), Counts::Any);
    assert_eq!(Counts::Some([0, 3].into()).rest(), Counts::exactly(2));
    // A part of two values starting at 1 holds positions 1 and 2.
    let starts = Counts::exactly(1);
    assert!(!two.may_hold(&starts, 0));
    assert!(two.may_hold(&starts, 1) && two.may_hold(&starts, 2));
    assert!(!two.may_hold(&starts, 3));
    assert!(
        !Counts::exactly(0).may_hold(&Counts::exactly(0), 0),
        "void holds nothing"
    );
    assert!(Counts::Any.may_hold(&starts, 40));
    assert_eq!(either.to_string(), "void | 2 values");
    assert_eq!(Counts::none().to_string(), "none");
}
