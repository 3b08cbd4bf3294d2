//! The few functions of the Parma Polyhedra Library's C interface (`ppl_c.h`) and of GMP that
//! the safe wrappers call, declared by hand. Every PPL function returns an `int`: negative for an
//! error (an exception inside the library), otherwise `0`, `1` or a count as documented.
#![expect(
    unsafe_code,
    reason = "declaring the foreign functions of the PPL's and GMP's C interfaces"
)]

use std::ffi::{c_int, c_long};

/// PPL's `ppl_dimension_type`.
pub(crate) type Dim = usize;

/// GMP's `__mpz_struct`; an `mpz_t` argument is a pointer to one.
#[repr(C)]
#[derive(Debug)]
pub(crate) struct Mpz {
    alloc: c_int,
    size: c_int,
    limbs: *mut u64,
}

impl Mpz {
    /// Storage for `__gmpz_init` to initialise.
    pub(crate) const UNINIT: Mpz = Mpz {
        alloc: 0,
        size: 0,
        limbs: std::ptr::null_mut(),
    };
}

/// Declares an opaque C type behind a handle: PPL's `struct ppl_T_tag`.
macro_rules! opaque {
    ($($name:ident),*) => {
        $(
            #[repr(C)]
            #[derive(Debug)]
            pub(crate) struct $name {
                _private: [u8; 0],
            }
        )*
    };
}

opaque!(
    Coefficient,
    LinearExpression,
    Constraint,
    OctagonalShape,
    BdShape
);

/// `enum ppl_enum_Constraint_Type`'s `PPL_CONSTRAINT_TYPE_LESS_OR_EQUAL`.
pub(crate) const LESS_OR_EQUAL: c_int = 1;
/// `PPL_CONSTRAINT_TYPE_GREATER_OR_EQUAL`.
pub(crate) const GREATER_OR_EQUAL: c_int = 3;

unsafe extern "C" {
    pub(crate) fn __gmpz_init(z: *mut Mpz);
    pub(crate) fn __gmpz_clear(z: *mut Mpz);
    pub(crate) fn __gmpz_set_si(z: *mut Mpz, v: c_long);
    pub(crate) fn __gmpz_get_si(z: *const Mpz) -> c_long;
    pub(crate) fn __gmpz_fits_slong_p(z: *const Mpz) -> c_int;

    pub(crate) fn ppl_initialize() -> c_int;
    pub(crate) fn ppl_restore_pre_PPL_rounding() -> c_int;

    pub(crate) fn ppl_new_Coefficient(pc: *mut *mut Coefficient) -> c_int;
    pub(crate) fn ppl_new_Coefficient_from_mpz_t(pc: *mut *mut Coefficient, z: *mut Mpz) -> c_int;
    pub(crate) fn ppl_delete_Coefficient(c: *const Coefficient) -> c_int;
    pub(crate) fn ppl_Coefficient_to_mpz_t(c: *const Coefficient, z: *mut Mpz) -> c_int;

    pub(crate) fn ppl_new_Linear_Expression_with_dimension(
        ple: *mut *mut LinearExpression,
        d: Dim,
    ) -> c_int;
    pub(crate) fn ppl_delete_Linear_Expression(le: *const LinearExpression) -> c_int;
    pub(crate) fn ppl_Linear_Expression_add_to_coefficient(
        le: *mut LinearExpression,
        var: Dim,
        n: *const Coefficient,
    ) -> c_int;
    pub(crate) fn ppl_Linear_Expression_add_to_inhomogeneous(
        le: *mut LinearExpression,
        n: *const Coefficient,
    ) -> c_int;

    pub(crate) fn ppl_new_Constraint(
        pc: *mut *mut Constraint,
        le: *const LinearExpression,
        rel: c_int,
    ) -> c_int;
    pub(crate) fn ppl_delete_Constraint(c: *const Constraint) -> c_int;

    pub(crate) fn ppl_new_Octagonal_Shape_mpz_class_from_space_dimension(
        pph: *mut *mut OctagonalShape,
        d: Dim,
        empty: c_int,
    ) -> c_int;
    pub(crate) fn ppl_new_Octagonal_Shape_mpz_class_from_Octagonal_Shape_mpz_class(
        pph: *mut *mut OctagonalShape,
        ph: *const OctagonalShape,
    ) -> c_int;
    pub(crate) fn ppl_delete_Octagonal_Shape_mpz_class(ph: *const OctagonalShape) -> c_int;
    pub(crate) fn ppl_Octagonal_Shape_mpz_class_is_empty(ph: *const OctagonalShape) -> c_int;
    pub(crate) fn ppl_Octagonal_Shape_mpz_class_maximize(
        ph: *const OctagonalShape,
        le: *const LinearExpression,
        ext_n: *mut Coefficient,
        ext_d: *mut Coefficient,
        poptimum: *mut c_int,
    ) -> c_int;
    pub(crate) fn ppl_Octagonal_Shape_mpz_class_add_constraint(
        ph: *mut OctagonalShape,
        c: *const Constraint,
    ) -> c_int;
    pub(crate) fn ppl_Octagonal_Shape_mpz_class_intersection_assign(
        x: *mut OctagonalShape,
        y: *const OctagonalShape,
    ) -> c_int;
    pub(crate) fn ppl_Octagonal_Shape_mpz_class_upper_bound_assign(
        x: *mut OctagonalShape,
        y: *const OctagonalShape,
    ) -> c_int;
    pub(crate) fn ppl_Octagonal_Shape_mpz_class_unconstrain_space_dimension(
        ph: *mut OctagonalShape,
        var: Dim,
    ) -> c_int;
    pub(crate) fn ppl_Octagonal_Shape_mpz_class_affine_image(
        ph: *mut OctagonalShape,
        var: Dim,
        le: *const LinearExpression,
        d: *const Coefficient,
    ) -> c_int;

    pub(crate) fn ppl_new_BD_Shape_mpz_class_from_space_dimension(
        pph: *mut *mut BdShape,
        d: Dim,
        empty: c_int,
    ) -> c_int;
    pub(crate) fn ppl_new_BD_Shape_mpz_class_from_BD_Shape_mpz_class(
        pph: *mut *mut BdShape,
        ph: *const BdShape,
    ) -> c_int;
    pub(crate) fn ppl_delete_BD_Shape_mpz_class(ph: *const BdShape) -> c_int;
    pub(crate) fn ppl_BD_Shape_mpz_class_is_empty(ph: *const BdShape) -> c_int;
    pub(crate) fn ppl_BD_Shape_mpz_class_maximize(
        ph: *const BdShape,
        le: *const LinearExpression,
        ext_n: *mut Coefficient,
        ext_d: *mut Coefficient,
        poptimum: *mut c_int,
    ) -> c_int;
    pub(crate) fn ppl_BD_Shape_mpz_class_add_constraint(
        ph: *mut BdShape,
        c: *const Constraint,
    ) -> c_int;
    pub(crate) fn ppl_BD_Shape_mpz_class_intersection_assign(
        x: *mut BdShape,
        y: *const BdShape,
    ) -> c_int;
    pub(crate) fn ppl_BD_Shape_mpz_class_upper_bound_assign(
        x: *mut BdShape,
        y: *const BdShape,
    ) -> c_int;
    pub(crate) fn ppl_BD_Shape_mpz_class_unconstrain_space_dimension(
        ph: *mut BdShape,
        var: Dim,
    ) -> c_int;
    pub(crate) fn ppl_BD_Shape_mpz_class_affine_image(
        ph: *mut BdShape,
        var: Dim,
        le: *const LinearExpression,
        d: *const Coefficient,
    ) -> c_int;
}
