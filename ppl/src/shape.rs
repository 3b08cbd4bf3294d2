//! PPL's `Octagonal_Shape<mpz_class>` and `BD_Shape<mpz_class>` (its zones) behind one trait,
//! [`Shape`], as handles that free themselves: what the differential test and the benchmark run
//! beside absinthe's octagons and zones.
#![expect(
    unsafe_code,
    reason = "calling the PPL's C functions on shapes this module owns"
)]

use crate::ffi;
use crate::library::{Coefficient, Constraint, Linear, Ppl, Ratio, check};
use std::ffi::c_int;

/// A PPL shape over the rational points of `dim` variables (PPL's octagons and zones are
/// rational: their bounds are integers, the points they stand for need not be).
pub trait Shape<'p>: Clone {
    /// PPL's name of the shape.
    const NAME: &'static str;

    /// No constraint on any of `dim` variables.
    fn universe(ppl: &'p Ppl, dim: usize) -> Self;

    /// The number of variables.
    fn dim(&self) -> usize;

    /// Adds a constraint, which must be one the shape keeps exactly.
    fn add(&mut self, c: &Constraint<'p>);

    /// The intersection with `other`.
    fn meet_assign(&mut self, other: &Self);

    /// The least shape above both (PPL's `upper_bound_assign`).
    fn join_assign(&mut self, other: &Self);

    /// Forgets every constraint on `x`.
    fn unconstrain(&mut self, x: usize);

    /// `x := e` for a linear expression `e` the shape keeps exactly (`±y + c`, `c`).
    fn affine_image(&mut self, x: usize, e: &Linear<'p>);

    /// Whether no point is left; this closes the shape (PPL's strong closure of an octagon,
    /// the shortest paths of a zone).
    fn is_empty(&self) -> bool;

    /// PPL's upper bound of `e` over the shape, `None` when there is none (or when the shape is
    /// empty): the least one, except that an octagon rounds a variable's half-integer bound up
    /// to an integer (its bounds are in its coefficient type).
    fn maximize(&self, e: &Linear<'p>) -> Option<Ratio>;
}

/// Declares a shape type and implements [`Shape`] with the C functions of one PPL class.
macro_rules! shape {
    (
        $(#[$doc:meta])*
        $name:ident($raw:ty, $class:literal) {
            new: $new:path,
            copy: $copy:path,
            delete: $delete:path,
            add: $add:path,
            meet: $meet:path,
            join: $join:path,
            unconstrain: $unconstrain:path,
            affine_image: $affine_image:path,
            is_empty: $is_empty:path,
            maximize: $maximize:path $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name<'p> {
            raw: *mut $raw,
            dim: usize,
            ppl: &'p Ppl,
        }

        impl<'p> Shape<'p> for $name<'p> {
            const NAME: &'static str = $class;

            fn universe(ppl: &'p Ppl, dim: usize) -> Self {
                let mut raw = std::ptr::null_mut();
                // SAFETY: PPL writes a new handle into `raw`.
                check(unsafe { $new(&mut raw, dim, 0) }, stringify!($new));
                $name { raw, dim, ppl }
            }

            fn dim(&self) -> usize {
                self.dim
            }

            fn add(&mut self, c: &Constraint<'p>) {
                // SAFETY: both handles are live.
                check(unsafe { $add(self.raw, c.raw) }, stringify!($add));
            }

            fn meet_assign(&mut self, other: &Self) {
                assert_eq!(self.dim, other.dim, "shapes of different dimensions");
                // SAFETY: both handles are live (PPL allows them to be the same).
                check(unsafe { $meet(self.raw, other.raw) }, stringify!($meet));
            }

            fn join_assign(&mut self, other: &Self) {
                assert_eq!(self.dim, other.dim, "shapes of different dimensions");
                // SAFETY: as above.
                check(unsafe { $join(self.raw, other.raw) }, stringify!($join));
            }

            fn unconstrain(&mut self, x: usize) {
                assert!(x < self.dim, "variable {x} past the dimension {}", self.dim);
                // SAFETY: the handle is live and `x` within its dimension.
                check(unsafe { $unconstrain(self.raw, x) }, stringify!($unconstrain));
            }

            fn affine_image(&mut self, x: usize, e: &Linear<'p>) {
                assert!(x < self.dim, "variable {x} past the dimension {}", self.dim);
                let one = Coefficient::new(self.ppl, 1);
                // SAFETY: every handle is live and `x` within the dimension.
                check(
                    unsafe { $affine_image(self.raw, x, e.raw, one.raw) },
                    stringify!($affine_image),
                );
            }

            fn is_empty(&self) -> bool {
                // SAFETY: the handle is live.
                check(unsafe { $is_empty(self.raw) }, stringify!($is_empty)) > 0
            }

            fn maximize(&self, e: &Linear<'p>) -> Option<Ratio> {
                let (num, den) = (Coefficient::zero(self.ppl), Coefficient::zero(self.ppl));
                let mut attained: c_int = 0;
                // SAFETY: every handle is live; PPL writes the bound into `num` and `den`.
                let rc = unsafe { $maximize(self.raw, e.raw, num.raw, den.raw, &mut attained) };
                (check(rc, stringify!($maximize)) > 0).then(|| Ratio {
                    num: num.get(),
                    den: den.get(),
                })
            }
        }

        impl Clone for $name<'_> {
            fn clone(&self) -> Self {
                let mut raw = std::ptr::null_mut();
                // SAFETY: `self.raw` is live; PPL writes a copy's handle into `raw`.
                check(unsafe { $copy(&mut raw, self.raw) }, stringify!($copy));
                $name {
                    raw,
                    dim: self.dim,
                    ppl: self.ppl,
                }
            }
        }

        impl Drop for $name<'_> {
            fn drop(&mut self) {
                // SAFETY: the handle is live and deleted once.
                check(unsafe { $delete(self.raw) }, stringify!($delete));
            }
        }
    };
}

shape! {
    /// PPL's `Octagonal_Shape<mpz_class>`: octagons with bounds in GMP integers.
    PplOctagon(ffi::OctagonalShape, "Octagonal_Shape<mpz_class>") {
        new: ffi::ppl_new_Octagonal_Shape_mpz_class_from_space_dimension,
        copy: ffi::ppl_new_Octagonal_Shape_mpz_class_from_Octagonal_Shape_mpz_class,
        delete: ffi::ppl_delete_Octagonal_Shape_mpz_class,
        add: ffi::ppl_Octagonal_Shape_mpz_class_add_constraint,
        meet: ffi::ppl_Octagonal_Shape_mpz_class_intersection_assign,
        join: ffi::ppl_Octagonal_Shape_mpz_class_upper_bound_assign,
        unconstrain: ffi::ppl_Octagonal_Shape_mpz_class_unconstrain_space_dimension,
        affine_image: ffi::ppl_Octagonal_Shape_mpz_class_affine_image,
        is_empty: ffi::ppl_Octagonal_Shape_mpz_class_is_empty,
        maximize: ffi::ppl_Octagonal_Shape_mpz_class_maximize,
    }
}

shape! {
    /// PPL's `BD_Shape<mpz_class>`: zones (bounded differences) with bounds in GMP integers.
    PplZone(ffi::BdShape, "BD_Shape<mpz_class>") {
        new: ffi::ppl_new_BD_Shape_mpz_class_from_space_dimension,
        copy: ffi::ppl_new_BD_Shape_mpz_class_from_BD_Shape_mpz_class,
        delete: ffi::ppl_delete_BD_Shape_mpz_class,
        add: ffi::ppl_BD_Shape_mpz_class_add_constraint,
        meet: ffi::ppl_BD_Shape_mpz_class_intersection_assign,
        join: ffi::ppl_BD_Shape_mpz_class_upper_bound_assign,
        unconstrain: ffi::ppl_BD_Shape_mpz_class_unconstrain_space_dimension,
        affine_image: ffi::ppl_BD_Shape_mpz_class_affine_image,
        is_empty: ffi::ppl_BD_Shape_mpz_class_is_empty,
        maximize: ffi::ppl_BD_Shape_mpz_class_maximize,
    }
}
