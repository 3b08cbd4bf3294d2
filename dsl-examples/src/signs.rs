//! A reduced product of four domains declared with absinthe's attributes: signs and parities
//! (finite lattices given by their order), intervals and constants (the runtime's, used through
//! their own transfer functions), with reductions between them.
//!
//! [`signs::Signals`](value::Signals) is the reduced product; [`value::DirectSignals`] has the
//! same components and rules but no reductions, so tests can show what reduction buys.

use absinthe::lattice;

// ANCHOR: sign
/// The sign of an integer, as a finite lattice given by its Hasse diagram.
#[lattice(
    order = "Bottom < Neg < NonPos < Top, Bottom < Zero < NonPos, Zero < NonNeg < Top, \
                   Bottom < Pos < NonNeg, Neg < NonZero < Top, Pos < NonZero"
)]
#[derive(Clone, Copy)]
pub enum Sign {
    /// No value.
    Bottom,
    /// `< 0`.
    Neg,
    /// `0`.
    Zero,
    /// `> 0`.
    Pos,
    /// `≤ 0`.
    NonPos,
    /// `≥ 0`.
    NonNeg,
    /// `≠ 0`.
    NonZero,
    /// Any integer.
    Top,
}
// ANCHOR_END: sign

// ANCHOR: parity
/// The parity of an integer, as a finite lattice given variant by variant.
#[derive(Clone, Copy)]
#[lattice]
pub enum Parity {
    /// No value.
    #[lattice(below(Even, Odd))]
    Bottom,
    /// Divisible by two.
    #[lattice(below(Top))]
    Even,
    /// Not divisible by two.
    #[lattice(below(Top))]
    Odd,
    /// Any integer.
    Top,
}
// ANCHOR_END: parity

impl Sign {
    /// The sign of `v`.
    pub fn of(v: i64) -> Sign {
        match v.signum() {
            -1 => Sign::Neg,
            0 => Sign::Zero,
            _ => Sign::Pos,
        }
    }

    /// Whether `v` has this sign.
    pub fn admits(self, v: i64) -> bool {
        match self {
            Sign::Bottom => false,
            Sign::Neg => v < 0,
            Sign::Zero => v == 0,
            Sign::Pos => v > 0,
            Sign::NonPos => v <= 0,
            Sign::NonNeg => v >= 0,
            Sign::NonZero => v != 0,
            Sign::Top => true,
        }
    }

    /// Which of negative, zero and positive the sign admits.
    fn parts(self) -> [bool; 3] {
        [self.admits(-1), self.admits(0), self.admits(1)]
    }

    /// The sign admitting exactly the parts given.
    fn from_parts([neg, zero, pos]: [bool; 3]) -> Sign {
        match (neg, zero, pos) {
            (false, false, false) => Sign::Bottom,
            (true, false, false) => Sign::Neg,
            (false, true, false) => Sign::Zero,
            (false, false, true) => Sign::Pos,
            (true, true, false) => Sign::NonPos,
            (false, true, true) => Sign::NonNeg,
            (true, false, true) => Sign::NonZero,
            (true, true, true) => Sign::Top,
        }
    }
}

impl absinthe::value::Concrete for Sign {
    fn contains(&self, v: i64) -> bool {
        self.admits(v)
    }

    fn as_constant(&self) -> Option<i64> {
        (*self == Sign::Zero).then_some(0)
    }
}

impl Parity {
    /// The parity of `v`.
    pub fn of(v: i64) -> Parity {
        if v % 2 == 0 {
            Parity::Even
        } else {
            Parity::Odd
        }
    }
}

impl absinthe::value::Concrete for Parity {
    fn contains(&self, v: i64) -> bool {
        match self {
            Parity::Bottom => false,
            Parity::Even => v % 2 == 0,
            Parity::Odd => v % 2 != 0,
            Parity::Top => true,
        }
    }
}

/// Signs × parities × intervals × constants.
#[absinthe::domain]
pub mod value {
    use super::{Parity, Sign};
    use absinthe::lattice::{Flat, Interval, Lattice};
    use absinthe::program::Op;

    /// Four views of one integer, each refined by the others.
    #[lattice(product, reduce = "fixpoint(6)", direct = DirectSignals)]
    #[derive(Clone)]
    pub struct Signals {
        /// The sign.
        pub sign: Sign,
        /// The parity.
        pub parity: Parity,
        /// The range; operations without a rule here use the runtime's interval arithmetic.
        #[lattice(value_domain)]
        pub interval: Interval,
        /// The constant; operations without a rule here fold constants.
        #[lattice(value_domain)]
        pub constant: Flat<i64>,
    }

    /// A literal's sign.
    #[transfer(literal)]
    pub fn sign_literal(c: i64) -> Sign {
        Sign::of(c)
    }

    /// A literal's parity.
    #[transfer(literal)]
    pub fn parity_literal(c: i64) -> Parity {
        Parity::of(c)
    }

    /// Parity of a sum or difference: even when both operands have the same parity. (Wrapping
    /// keeps parity: 2⁶⁴ is even.)
    #[transfer(op = "+")]
    pub fn parity_add(a: &Signals, b: &Signals) -> Parity {
        match (a.parity, b.parity) {
            (Parity::Top, _) | (_, Parity::Top) => Parity::Top,
            (x, y) if x == y => Parity::Even,
            _ => Parity::Odd,
        }
    }

    /// Subtraction has the parity rule of addition.
    #[transfer(op = "-")]
    pub fn parity_sub(a: &Signals, b: &Signals) -> Parity {
        parity_add(a, b)
    }

    /// A product is even when either factor is.
    #[transfer(op = "*")]
    pub fn parity_mul(a: &Signals, b: &Signals) -> Parity {
        match (a.parity, b.parity) {
            (Parity::Even, _) | (_, Parity::Even) => Parity::Even,
            (Parity::Odd, Parity::Odd) => Parity::Odd,
            _ => Parity::Top,
        }
    }

    /// The sign of a product, from the signs of the factors. Multiplication wraps, so the rule
    /// of signs holds only when no product of the operands' ranges leaves `i64`; otherwise only
    /// a zero factor still decides the sign.
    #[transfer(op = "*")]
    pub fn sign_mul(a: &Signals, b: &Signals) -> Sign {
        let (Some((alo, ahi)), Some((blo, bhi))) = (a.interval.bounds(), b.interval.bounds())
        else {
            return Sign::Bottom;
        };
        let fits = [(alo, blo), (alo, bhi), (ahi, blo), (ahi, bhi)]
            .iter()
            .all(|&(x, y)| x.checked_mul(y).is_some());
        if !fits {
            return if a.sign == Sign::Zero || b.sign == Sign::Zero {
                Sign::Zero
            } else {
                Sign::Top
            };
        }
        let [an, az, ap] = a.sign.parts();
        let [bn, bz, bp] = b.sign.parts();
        Sign::from_parts([(an && bp) || (ap && bn), az || bz, (an && bn) || (ap && bp)])
    }

    /// Comparisons give 0 or 1.
    #[transfer(binary)]
    pub fn sign_other(op: Op, a: &Signals, b: &Signals) -> Sign {
        let _ = (a, b);
        if op.is_comparison() {
            Sign::NonNeg
        } else {
            Sign::Top
        }
    }

    /// The interval of a sign.
    #[meet_ext]
    pub fn interval_from_sign(i: &Interval, s: &Sign) -> Interval {
        let bound = match s {
            Sign::Bottom => Interval::empty(),
            Sign::Neg => Interval::new(i64::MIN, -1),
            Sign::Zero => Interval::constant(0),
            Sign::Pos => Interval::new(1, i64::MAX),
            Sign::NonPos => Interval::new(i64::MIN, 0),
            Sign::NonNeg => Interval::new(0, i64::MAX),
            Sign::NonZero | Sign::Top => Interval::top(),
        };
        i.meet(&bound)
    }

    /// The sign of an interval.
    #[meet_ext]
    pub fn sign_from_interval(s: &Sign, i: &Interval) -> Sign {
        let Some((lo, hi)) = i.bounds() else {
            return Sign::Bottom;
        };
        let from_range = Sign::from_parts([lo < 0, lo <= 0 && hi >= 0, hi > 0]);
        s.meet(&from_range)
    }

    /// An interval's ends move inward to the parity.
    #[meet_ext]
    pub fn interval_from_parity(i: &Interval, p: &Parity) -> Interval {
        let Some((lo, hi)) = i.bounds() else {
            return *i;
        };
        let matches = |v: i64| <Parity as absinthe::value::Concrete>::contains(p, v);
        match p {
            Parity::Bottom => Interval::empty(),
            Parity::Top => *i,
            Parity::Even | Parity::Odd => {
                let lo = if matches(lo) {
                    Some(lo)
                } else {
                    lo.checked_add(1)
                };
                let hi = if matches(hi) {
                    Some(hi)
                } else {
                    hi.checked_sub(1)
                };
                match (lo, hi) {
                    (Some(lo), Some(hi)) if lo <= hi => Interval::new(lo, hi),
                    _ => Interval::empty(),
                }
            }
        }
    }

    /// A one-point interval has that point's parity.
    #[meet_ext]
    pub fn parity_from_interval(p: &Parity, i: &Interval) -> Parity {
        match i.as_constant() {
            Some(v) => p.meet(&Parity::of(v)),
            None if i.is_bottom() => Parity::Bottom,
            None => *p,
        }
    }

    /// A one-point interval is a constant.
    #[meet_ext]
    pub fn constant_from_interval(c: &Flat<i64>, i: &Interval) -> Flat<i64> {
        match i.as_constant() {
            Some(v) => c.meet(&Flat::Value(v)),
            None if i.is_bottom() => Flat::Bottom,
            None => c.clone(),
        }
    }

    /// A constant is a one-point interval.
    #[meet_ext]
    pub fn interval_from_constant(i: &Interval, c: &Flat<i64>) -> Interval {
        match c {
            Flat::Value(v) => i.meet(&Interval::constant(*v)),
            Flat::Bottom => Interval::empty(),
            Flat::Top => *i,
        }
    }
}

// ANCHOR: analyses
/// The signs analysis, states stored densely (the attribute form of an analysis declaration).
#[absinthe::analysis(domain = value::Signals, conditions = "evaluated")]
#[derive(Debug)]
pub struct SignsDense;

/// The same analysis with states stored sparsely: one word of the declaration differs.
#[absinthe::analysis(domain = value::Signals, conditions = "evaluated", state = "sparse")]
#[derive(Debug)]
pub struct SignsSparse;

/// The same analysis across the functions of a module, calls told apart by their last two call
/// sites (see `absinthe_interproc::solve_declared`).
#[absinthe::analysis(domain = value::Signals, conditions = "evaluated", context = "kcfa=2")]
#[derive(Debug)]
pub struct SignsCallStrings;

// ANCHOR: typing
/// The Flambda 2 typing environment with these signals as its integers past sets of four
/// immediates, and sets of two floats (see `absinthe_typing_env::solve_declared`).
#[absinthe::analysis(
    domain = value::Signals,
    engine = "typing_env",
    immediates = 4,
    numbers = "float 2"
)]
#[derive(Debug)]
pub struct SignsTyping;
// ANCHOR_END: typing

// ANCHOR: escape
/// The escape and alias analysis with these signals as the values of names, keeping up to four
/// heaps apart at a point (see `absinthe_heap::escape::solve_declared`).
#[absinthe::analysis(domain = value::Signals, engine = "escape", heaps = 4)]
#[derive(Debug)]
pub struct SignsEscape;
// ANCHOR_END: escape

/// The shape analysis with these signals as the values of names beside each shape graph (see
/// `absinthe_heap::shape::solve_declared`).
#[absinthe::analysis(domain = value::Signals, engine = "shape")]
#[derive(Debug)]
pub struct SignsShape;
// ANCHOR_END: analyses
