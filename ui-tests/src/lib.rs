//! Compile-fail and compile-pass tests of absinthe's macros live in `tests/`; this library is
//! empty on purpose.
