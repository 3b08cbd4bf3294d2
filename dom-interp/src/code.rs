//! A function body compiled to closures (`compile.rs` makes them): what [`crate::eval`] runs.
//! Generic over the interpreter the closures are given, so that this file names none of the
//! files that hold it.

use crate::val::Val;
use std::fmt;

/// A closure over the interpreter `I`, the stack of frames and the frame's base.
type Run<I, T> = dyn Fn(&I, &mut Vec<Val>, usize) -> Option<T> + Send + Sync;

/// A compiled expression whose value is `T`: `None` where the body fails (checked arithmetic
/// that leaves `int`, a helper that failed), as the generated code's `?` leaves it.
pub(crate) struct Code<I, T = Val>(Box<Run<I, T>>);

impl<I, T> Code<I, T> {
    /// The code that runs `f`.
    pub(crate) fn new(
        f: impl Fn(&I, &mut Vec<Val>, usize) -> Option<T> + Send + Sync + 'static,
    ) -> Self {
        Code(Box::new(f))
    }

    /// Runs the code in the frame at `base` of `stack`.
    #[inline]
    pub(crate) fn run(&self, interp: &I, stack: &mut Vec<Val>, base: usize) -> Option<T> {
        (self.0)(interp, stack, base)
    }
}

impl<I, T> fmt::Debug for Code<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Code(…)")
    }
}
