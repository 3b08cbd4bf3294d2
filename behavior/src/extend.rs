//! The implementation's two extensions of kernel terms (seed 003, §8), written in the runtime's
//! plain terms: multiple values, from the primitive `block`, and exit functions, `λ f̂ x… . B`.
//!
//! `block` is a name of its own: the parser resolves the keyword to one free name spelled
//! `block` (no other name can be spelled so), whose value is the primitive that returns all its
//! arguments as its values. The paper's second name space N̂ is spelled with a leading `^`: an
//! abstraction whose first parameter is such a name (`(lambda (^k x) B)`) binds it, in each
//! application, to the exit function of that application; its other parameters are its
//! arguments. [`Counts`] is how many values a term may give, the control-flow lattice's `value`
//! (one) and `void` (none) generalised to any small number.

use absinthe::terms::{Binder, ParamId, Term, TermId, Terms};
use std::collections::BTreeSet;
use std::fmt;

/// The spelling of the multiple-values primitive.
pub const BLOCK: &str = "block";

/// Whether `name` is in the exit-function name space N̂ (spelled with a leading `^`).
pub fn is_exit_name(name: &str) -> bool {
    name.starts_with('^')
}

/// Whether `p` is the `block` primitive's name.
pub fn is_block(terms: &Terms, p: ParamId) -> bool {
    terms
        .params
        .get(p.index())
        .is_some_and(|p| p.binder == Binder::Free && p.name == BLOCK)
}

/// Whether `p` is bound by nothing (an input of the program; `block` is not one).
pub fn is_free(terms: &Terms, p: ParamId) -> bool {
    terms
        .params
        .get(p.index())
        .is_some_and(|q| q.binder == Binder::Free && q.name != BLOCK)
}

/// The exit name abstraction `lambda` binds, if any.
pub fn exit_of(terms: &Terms, lambda: TermId) -> Option<ParamId> {
    let Term::Lambda { params, .. } = terms.term(lambda) else {
        return None;
    };
    params
        .first()
        .copied()
        .filter(|&p| is_exit_name(terms.param_name(p)))
}

/// The parameters of abstraction `lambda` its arguments are bound to (all but its exit name).
pub fn lambda_arguments(terms: &Terms, lambda: TermId) -> &[ParamId] {
    let Term::Lambda { params, .. } = terms.term(lambda) else {
        return &[];
    };
    match exit_of(terms, lambda) {
        Some(_) => &params[1..],
        None => params,
    }
}

/// The inputs of a program: its free names but `block`, in order.
pub fn inputs(terms: &Terms) -> Vec<ParamId> {
    (0..terms.params.len())
        .map(|p| ParamId(p as u32))
        .filter(|&p| is_free(terms, p))
        .collect()
}

/// How many values a term may give: a set of counts (empty when it never returns), or any
/// number once a count would pass [`Counts::MAX`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Counts {
    /// These counts.
    Some(BTreeSet<u32>),
    /// Any count.
    Any,
}

impl Counts {
    /// The largest count kept exactly.
    pub const MAX: u32 = 16;

    /// No count: the term never gives values (it does not return, or is not reached).
    pub fn none() -> Counts {
        Counts::Some(BTreeSet::new())
    }

    /// Exactly `n` values.
    pub fn exactly(n: u32) -> Counts {
        Counts::Some(BTreeSet::from([n]))
    }

    /// Whether no count is possible.
    pub fn is_none(&self) -> bool {
        matches!(self, Counts::Some(s) if s.is_empty())
    }

    /// Whether `n` values are possible.
    pub fn may(&self, n: u32) -> bool {
        match self {
            Counts::Some(s) => s.contains(&n),
            Counts::Any => true,
        }
    }

    /// The counts of either; whether `self` grew.
    pub fn join_from(&mut self, other: &Counts) -> bool {
        match (&mut *self, other) {
            (Counts::Any, _) => false,
            (_, Counts::Any) => {
                *self = Counts::Any;
                true
            }
            (Counts::Some(a), Counts::Some(b)) => {
                let before = a.len();
                a.extend(b.iter().copied());
                a.len() != before
            }
        }
    }

    /// The counts of one then the other.
    pub fn plus(&self, other: &Counts) -> Counts {
        match (self, other) {
            (Counts::Some(a), Counts::Some(b)) => {
                let mut out = BTreeSet::new();
                for x in a {
                    for y in b {
                        if x + y > Counts::MAX {
                            return Counts::Any;
                        }
                        out.insert(x + y);
                    }
                }
                Counts::Some(out)
            }
            _ if self.is_none() || other.is_none() => Counts::none(),
            _ => Counts::Any,
        }
    }

    /// The counts after the first value is taken (an application's arguments from its values).
    pub fn rest(&self) -> Counts {
        match self {
            Counts::Some(s) => Counts::Some(s.iter().filter(|&&n| n > 0).map(|n| n - 1).collect()),
            Counts::Any => Counts::Any,
        }
    }

    /// Whether a part starting at one of `starts` with one of these counts may hold position
    /// `j` of an application's values.
    pub fn may_hold(&self, starts: &Counts, j: u32) -> bool {
        match (starts, self) {
            (Counts::Some(ss), Counts::Some(cs)) => {
                ss.iter().any(|&s| s <= j && cs.iter().any(|&c| j < s + c))
            }
            (Counts::Some(ss), Counts::Any) => ss.iter().any(|&s| s <= j),
            (Counts::Any, Counts::Some(cs)) => cs.iter().any(|&c| c > 0),
            (Counts::Any, Counts::Any) => true,
        }
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Counts::Some(s) if s.is_empty() => f.write_str("none"),
            Counts::Some(s) => {
                let parts: Vec<String> = s
                    .iter()
                    .map(|n| match n {
                        0 => "void".to_owned(),
                        1 => "value".to_owned(),
                        n => format!("{n} values"),
                    })
                    .collect();
                f.write_str(&parts.join(" | "))
            }
            Counts::Any => f.write_str("any number of values"),
        }
    }
}
