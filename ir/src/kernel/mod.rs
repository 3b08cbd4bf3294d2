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
//!
//! Two extensions of the paper's implementation (§8) are written in the same terms. `block` is
//! the primitive that gives all its arguments as its values: every term gives a sequence of
//! values, an application's parts give theirs in order, the first value is the operator and the
//! rest are the arguments (so `(+ (block 1 2))` is 3). An abstraction whose first parameter is
//! spelled with a leading `^` (the paper's name space N̂), `(lambda (^k x) body)`, binds it in
//! each application to that application's exit function: calling `(^k v …)` returns `v …` from
//! the application at once, like `catch` and `throw`. `block` is one free name of its own and an
//! exit name is the abstraction's first parameter, so the runtime's plain terms hold both.

mod eval;
mod extensions;
mod generate;
mod lower;
mod parse;
mod print;
#[cfg(test)]
mod tests;

pub use eval::{EvalLimits, EvalOutcome, KValue, Observer, evaluate, evaluate_observed};
pub use extensions::{BLOCK, inputs, is_block, is_exit_name, lambda_parts, uses_extensions};
pub use generate::{KernelGenConfig, random_terms};
pub use lower::{Lowered, lower};
pub use parse::{MAX_NESTING, parse_terms};
pub use print::print_terms;
