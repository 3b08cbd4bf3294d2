//! Every declaration form compiles without warnings and behaves as a lattice.
#![deny(warnings)]

use absinthe::lattice;
use absinthe::lattice::{Flat, Interval, Lattice, Parity, Top};
use absinthe::value::ValueDomain;

/// A smashed struct with an ignored field.
#[lattice(smash)]
#[derive(Clone)]
struct Labelled {
    value: Interval,
    #[lattice(ignore)]
    label: u8,
}

/// A generic struct; each impl requires what it needs of `S`.
#[lattice]
#[derive(Clone)]
struct Both<S> {
    left: S,
    right: S,
}

/// A flat enum.
#[lattice]
#[derive(Clone, Copy)]
enum Const {
    Bottom,
    Value(i64),
    Top,
}

/// A finite enum.
#[lattice(order = "Low < Mid < High")]
#[derive(Clone, Copy)]
enum Level {
    Low,
    Mid,
    High,
}

/// A sum.
#[lattice(sum)]
#[derive(Clone)]
enum Tagged {
    Bottom,
    Int(Interval),
    Bool(Parity),
    Top,
}

#[absinthe::domain]
mod value {
    use absinthe::lattice::{Flat, Interval};
    use absinthe::program::Op;

    /// A constant and an interval.
    #[absinthe::lattice(product, reduce = "once", direct = Direct)]
    #[derive(Clone)]
    pub struct Value {
        #[lattice(value_domain)]
        pub constant: Flat<i64>,
        #[lattice(value_domain)]
        pub interval: Interval,
    }

    /// A constant is a one-point interval.
    #[absinthe::meet_ext]
    pub fn interval_from_constant(i: &Interval, c: &Flat<i64>) -> Interval {
        use absinthe::lattice::Lattice;
        match c {
            Flat::Value(v) => i.meet(&Interval::constant(*v)),
            Flat::Bottom => Interval::empty(),
            Flat::Top => *i,
        }
    }

    /// A one-point interval is a constant (a reduction in place).
    #[absinthe::meet_ext]
    pub fn constant_from_interval(c: &mut Flat<i64>, i: &Interval) {
        if let Some(v) = i.as_constant() {
            *c = Flat::Value(v);
        }
    }

    /// Intervals of sums, read through the product.
    #[absinthe::transfer(op = "+")]
    pub fn add(a: &Value, b: &Value) -> Interval {
        <Interval as absinthe::value::ValueDomain>::binary(Op::Add, &a.interval, &b.interval)
    }
}

fn main() {
    let a = Labelled { value: Interval::new(0, 1), label: 1 };
    let b = Labelled { value: Interval::new(5, 6), label: 2 };
    assert_eq!(a.join(&b).value, Interval::new(0, 6));
    assert_eq!(a.join(&b).label, 1);
    let both = Both { left: Parity::Even, right: Parity::Odd };
    assert!(both.leq(&Both::<Parity>::top()));
    assert_eq!(format!("{both}"), "{left: even, right: odd}");
    assert_eq!(Const::Value(1).join(&Const::Value(2)), Const::Top);
    assert_eq!(Level::Low.join(&Level::High), Level::High);
    assert!(Tagged::Int(Interval::empty()).is_bottom());
    let one = value::Value::constant(1);
    let sum = value::Value::binary(absinthe::program::Op::Add, &one, &one);
    assert_eq!(sum.interval, Interval::constant(2));
    assert_eq!(sum.constant, Flat::Value(2));
    assert!(value::Direct::top().is_top());
    let mut two = value::Value { constant: Flat::Top, interval: Interval::constant(2) };
    absinthe::product::ReducedProduct::reduce(&mut two);
    assert_eq!(two.constant, Flat::Value(2));
}
