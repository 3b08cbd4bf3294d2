//! The seed's finite disjunction, declared as a product: up to three intervals (a `FiniteSum`)
//! next to a constant, with the seed's lifted `meet_ext` (a constant refines every disjunct) and
//! transfers that apply the interval arithmetic to every pair of disjuncts (the runtime's
//! `FiniteSum` value domain).

/// A `FiniteSum` of three intervals next to a constant.
#[absinthe::domain]
pub mod value {
    use absinthe::lattice::{FiniteSum, Flat, Interval, Lattice};
    use absinthe::program::Op;
    use absinthe::value::ValueDomain;

    /// At most three disjoint ranges.
    pub type Ranges = FiniteSum<Interval, 3>;

    /// A disjunction of intervals and a constant.
    #[lattice(product, reduce = "once")]
    #[derive(Clone)]
    pub struct Disjunctive {
        /// The ranges.
        pub ranges: FiniteSum<Interval, 3>,
        /// The constant.
        #[lattice(value_domain)]
        pub constant: Flat<i64>,
    }

    /// A literal is one one-point range.
    #[transfer(literal)]
    pub fn ranges_literal(c: i64) -> FiniteSum<Interval, 3> {
        Ranges::from_values([Interval::constant(c)])
    }

    /// Every operation applied to every pair of disjuncts (the seed's `eval_call` for
    /// `FiniteSum`): the runtime's `FiniteSum` value domain.
    #[transfer(binary)]
    pub fn ranges_binary(op: Op, a: &Disjunctive, b: &Disjunctive) -> FiniteSum<Interval, 3> {
        <Ranges as ValueDomain>::binary(op, &a.ranges, &b.ranges)
    }

    /// Refines every disjunct by every disjunct of the other side, by a comparison that holds
    /// (the runtime's `FiniteSum` value domain).
    #[transfer(assume)]
    pub fn ranges_assume(
        op: Op,
        a: &Disjunctive,
        b: &Disjunctive,
    ) -> (FiniteSum<Interval, 3>, FiniteSum<Interval, 3>) {
        <Ranges as ValueDomain>::assume(op, &a.ranges, &b.ranges)
    }

    /// The seed's lifted `meet_ext`: a constant refines every disjunct.
    #[meet_ext]
    pub fn ranges_from_constant(
        r: &FiniteSum<Interval, 3>,
        c: &Flat<i64>,
    ) -> FiniteSum<Interval, 3> {
        match c {
            Flat::Value(v) => {
                Ranges::from_values(r.values().iter().map(|x| x.meet(&Interval::constant(*v))))
            }
            Flat::Bottom => Ranges::bottom(),
            Flat::Top => r.clone(),
        }
    }

    /// Ranges that all hold one value make a constant.
    #[meet_ext]
    pub fn constant_from_ranges(c: &Flat<i64>, r: &FiniteSum<Interval, 3>) -> Flat<i64> {
        let mut points = r.values().iter().map(Interval::as_constant);
        match points.next() {
            Some(Some(v)) if points.all(|p| p == Some(v)) => c.meet(&Flat::Value(v)),
            _ => c.clone(),
        }
    }
}
