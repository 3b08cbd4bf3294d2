//! Kernel terms in text (`.kt`): the seed's λ-calculus with integer constants and primitives,
//! parsed into the runtime's [`Terms`](absinthe::terms::Terms), printed back, evaluated
//! concretely, generated at random, and closure-converted to the core IR ([`lower`]).
//!
//! ```text
//! # P1: f is bound to one of two abstractions and applied to 1.
//! 1:((lambda (f) 2:(f 1))
//!    3:(cond p (lambda (x) 4:(+ x 1)) (lambda (y) 5:(* y 2))))
//! ```
//!
//! A term is an integer, a primitive (`+ - * / % < <= > >= = != cond`), a name, `(lambda (x …)
//! body)` (or `λ`), `(letrec ((f term) …) body)`, or an application `(op arg …)`, optionally
//! labelled `N:(op arg …)`; unlabelled applications are numbered in source order with the
//! numbers no label took. Each name is bound once in a program (the seed's convention, so that
//! `Φ_x` names one flow); a name bound nowhere is an input of unknown value. Comments start with
//! `#` or `;`.

mod eval;
mod generate;
mod lower;
mod parse;
mod print;

pub use eval::{EvalLimits, EvalOutcome, KValue, evaluate};
pub use generate::{KernelGenConfig, random_terms};
pub use lower::{Lowered, lower};
pub use parse::{MAX_NESTING, parse_terms};
pub use print::print_terms;
