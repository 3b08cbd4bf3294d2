//! The library itself: the lock every use of PPL holds, coefficients, linear expressions and
//! constraints as owned handles that free themselves, and the rational bounds PPL answers with.
#![expect(
    unsafe_code,
    reason = "calling the PPL's and GMP's C functions on handles this module owns"
)]

use crate::ffi;
use std::ffi::{c_int, c_long};
use std::marker::PhantomData;
use std::sync::{Mutex, MutexGuard, Once};

/// The right to call PPL: the library keeps global state (its temporaries, its initialisation)
/// that threads must not share, so every handle borrows this token, which holds a process-wide
/// lock and initialises the library on first use.
#[derive(Debug)]
pub struct Ppl {
    _lock: MutexGuard<'static, ()>,
}

impl Ppl {
    /// Waits for the lock; initialises PPL the first time.
    pub fn lock() -> Ppl {
        static LOCK: Mutex<()> = Mutex::new(());
        static INIT: Once = Once::new();
        // A test that panicked while holding the lock left PPL's objects dropped in order.
        let lock = LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        INIT.call_once(|| {
            // SAFETY: called once, before any other PPL function, under the lock.
            check(unsafe { ffi::ppl_initialize() }, "ppl_initialize");
            // Initialisation switches this thread's floating-point rounding upwards, for PPL's
            // floating-point shapes; the ones here are over GMP integers, and Rust's own
            // arithmetic expects rounding to nearest.
            // SAFETY: the library is initialised.
            check(
                unsafe { ffi::ppl_restore_pre_PPL_rounding() },
                "ppl_restore_pre_PPL_rounding",
            );
        });
        Ppl { _lock: lock }
    }
}

/// `rc` when the call succeeded; panics with PPL's error code when it did not.
pub(crate) fn check(rc: c_int, what: &str) -> c_int {
    assert!(rc >= 0, "PPL's {what} failed with error code {rc}");
    rc
}

/// A GMP integer, cleared on drop.
struct Integer(Box<ffi::Mpz>);

impl Integer {
    fn new(v: i64) -> Integer {
        let mut z = Box::new(ffi::Mpz::UNINIT);
        // SAFETY: `z` is storage for one `__mpz_struct`, initialised before it is set.
        unsafe {
            ffi::__gmpz_init(&mut *z);
            ffi::__gmpz_set_si(&mut *z, c_long::from(v));
        }
        Integer(z)
    }

    fn get(&self) -> i64 {
        // SAFETY: `self.0` is an initialised integer.
        let fits = unsafe { ffi::__gmpz_fits_slong_p(&*self.0) } != 0;
        assert!(fits, "a PPL coefficient past 64 bits");
        // SAFETY: as above.
        unsafe { ffi::__gmpz_get_si(&*self.0) }
    }
}

impl Drop for Integer {
    fn drop(&mut self) {
        // SAFETY: `self.0` was initialised by `__gmpz_init` and is cleared once.
        unsafe { ffi::__gmpz_clear(&mut *self.0) }
    }
}

/// A PPL coefficient (an arbitrary-precision integer), deleted on drop.
#[derive(Debug)]
pub(crate) struct Coefficient {
    pub(crate) raw: *mut ffi::Coefficient,
}

impl Coefficient {
    pub(crate) fn new(_ppl: &Ppl, v: i64) -> Coefficient {
        let mut z = Integer::new(v);
        let mut raw = std::ptr::null_mut();
        // SAFETY: `z` is an initialised integer; PPL copies it into a new coefficient.
        check(
            unsafe { ffi::ppl_new_Coefficient_from_mpz_t(&mut raw, &mut *z.0) },
            "ppl_new_Coefficient_from_mpz_t",
        );
        Coefficient { raw }
    }

    pub(crate) fn zero(_ppl: &Ppl) -> Coefficient {
        let mut raw = std::ptr::null_mut();
        // SAFETY: PPL writes a new handle into `raw`.
        check(
            unsafe { ffi::ppl_new_Coefficient(&mut raw) },
            "ppl_new_Coefficient",
        );
        Coefficient { raw }
    }

    /// The value, which must fit 64 bits.
    pub(crate) fn get(&self) -> i64 {
        let mut z = Integer::new(0);
        // SAFETY: `self.raw` is a live coefficient and `z` an initialised integer.
        check(
            unsafe { ffi::ppl_Coefficient_to_mpz_t(self.raw, &mut *z.0) },
            "ppl_Coefficient_to_mpz_t",
        );
        z.get()
    }
}

impl Drop for Coefficient {
    fn drop(&mut self) {
        // SAFETY: `self.raw` is a live handle, deleted once.
        check(
            unsafe { ffi::ppl_delete_Coefficient(self.raw) },
            "ppl_delete_Coefficient",
        );
    }
}

/// `Σ aᵢ·xᵢ + b` over the first `dim` variables, deleted on drop.
#[derive(Debug)]
pub struct Linear<'p> {
    pub(crate) raw: *mut ffi::LinearExpression,
    _ppl: PhantomData<&'p Ppl>,
}

impl<'p> Linear<'p> {
    /// `Σ a·x + constant` for the pairs `(a, x)` of `terms`, over variables `0..dim`.
    pub fn new(ppl: &'p Ppl, dim: usize, terms: &[(i64, usize)], constant: i64) -> Linear<'p> {
        let mut raw = std::ptr::null_mut();
        // SAFETY: PPL writes a new handle into `raw`.
        check(
            unsafe { ffi::ppl_new_Linear_Expression_with_dimension(&mut raw, dim) },
            "ppl_new_Linear_Expression_with_dimension",
        );
        for &(a, x) in terms {
            assert!(x < dim, "variable {x} past the dimension {dim}");
            let a = Coefficient::new(ppl, a);
            // SAFETY: `raw` and `a` are live handles.
            check(
                unsafe { ffi::ppl_Linear_Expression_add_to_coefficient(raw, x, a.raw) },
                "ppl_Linear_Expression_add_to_coefficient",
            );
        }
        let b = Coefficient::new(ppl, constant);
        // SAFETY: `raw` and `b` are live handles.
        check(
            unsafe { ffi::ppl_Linear_Expression_add_to_inhomogeneous(raw, b.raw) },
            "ppl_Linear_Expression_add_to_inhomogeneous",
        );
        Linear {
            raw,
            _ppl: PhantomData,
        }
    }
}

impl Drop for Linear<'_> {
    fn drop(&mut self) {
        // SAFETY: `self.raw` is a live handle, deleted once.
        check(
            unsafe { ffi::ppl_delete_Linear_Expression(self.raw) },
            "ppl_delete_Linear_Expression",
        );
    }
}

/// A linear constraint, deleted on drop.
#[derive(Debug)]
pub struct Constraint<'p> {
    pub(crate) raw: *mut ffi::Constraint,
    _ppl: PhantomData<&'p Ppl>,
}

impl<'p> Constraint<'p> {
    /// `Σ a·x ≤ c` for the pairs `(a, x)` of `terms`, over variables `0..dim`.
    pub fn at_most(ppl: &'p Ppl, dim: usize, terms: &[(i64, usize)], c: i64) -> Constraint<'p> {
        Constraint::new(&Linear::new(ppl, dim, terms, -c), ffi::LESS_OR_EQUAL)
    }

    /// `Σ a·x ≥ c`.
    pub fn at_least(ppl: &'p Ppl, dim: usize, terms: &[(i64, usize)], c: i64) -> Constraint<'p> {
        Constraint::new(&Linear::new(ppl, dim, terms, -c), ffi::GREATER_OR_EQUAL)
    }

    fn new(le: &Linear<'p>, relation: c_int) -> Constraint<'p> {
        let mut raw = std::ptr::null_mut();
        // SAFETY: `le` is a live handle; PPL writes a new one into `raw`.
        check(
            unsafe { ffi::ppl_new_Constraint(&mut raw, le.raw, relation) },
            "ppl_new_Constraint",
        );
        Constraint {
            raw,
            _ppl: PhantomData,
        }
    }
}

impl Drop for Constraint<'_> {
    fn drop(&mut self) {
        // SAFETY: `self.raw` is a live handle, deleted once.
        check(
            unsafe { ffi::ppl_delete_Constraint(self.raw) },
            "ppl_delete_Constraint",
        );
    }
}

/// A rational number `num / den`, `den > 0`, in lowest terms: the bounds PPL reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub num: i64,
    pub den: i64,
}

impl Ratio {
    /// The greatest integer at most this.
    pub fn floor(self) -> i64 {
        self.num.div_euclid(self.den)
    }

    /// Whether it is an integer.
    pub fn is_integer(self) -> bool {
        self.num.rem_euclid(self.den) == 0
    }
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}
