//! Intervals, congruences and an octagon, declared with absinthe's attributes: the octagon is the
//! product's relational component (`relation(packs = 8)`), so the engines keep one octagon over
//! each function's names, in packs of at most eight related names, beside the names' values.
//! The reductions tie the octagon's bounds of a name to its interval both ways, and a congruence
//! moves an interval's ends to the class.

#[absinthe::domain]
pub mod value {
    use absinthe::lattice::{Congruence, Interval, Lattice};
    use absinthe::relational::{Bounds, Octagon};

    // ANCHOR: product
    /// A range, a congruence and the bounds the octagon gives, each refined by the others.
    #[lattice(product, reduce = "fixpoint(4)")]
    #[derive(Clone)]
    pub struct OctagonRanges {
        /// The range, with the runtime's interval arithmetic.
        #[lattice(value_domain)]
        pub range: Interval,
        /// The class modulo a power of two, with the runtime's congruence arithmetic.
        #[lattice(value_domain)]
        pub congruence: Congruence,
        /// The octagon's bounds of the name: the relation the engines keep.
        #[lattice(relation(packs = 8))]
        pub octagon: Bounds<Octagon>,
    }

    /// What the octagon bounds, the range knows.
    #[meet_ext]
    pub fn range_from_octagon(x: &Interval, o: &Bounds<Octagon>) -> Interval {
        x.meet(&o.bounds())
    }

    /// What the range bounds, the octagon learns.
    #[meet_ext]
    pub fn octagon_from_range(o: &Bounds<Octagon>, x: &Interval) -> Bounds<Octagon> {
        Bounds::within(o.bounds().meet(x))
    }
    // ANCHOR_END: product

    /// A range's ends move inward to the congruence's class.
    #[meet_ext]
    pub fn range_from_congruence(x: &Interval, c: &Congruence) -> Interval {
        let Some((lo, hi)) = x.bounds() else {
            return *x;
        };
        let Some((m, r)) = c.class() else {
            return Interval::empty();
        };
        if m == 0 {
            return i64::try_from(r).map_or(Interval::empty(), |r| x.meet(&Interval::constant(r)));
        }
        // The least member of the class at or above `lo`, the greatest at or below `hi`.
        let m = i128::from(m);
        let up = (r - i128::from(lo)).rem_euclid(m);
        let down = (i128::from(hi) - r).rem_euclid(m);
        let (lo, hi) = (i128::from(lo) + up, i128::from(hi) - down);
        match (i64::try_from(lo), i64::try_from(hi)) {
            (Ok(lo), Ok(hi)) if lo <= hi => x.meet(&Interval::new(lo, hi)),
            (Ok(_), Ok(_)) => Interval::empty(),
            _ => *x,
        }
    }
}
