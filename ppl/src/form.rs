//! The octagonal forms `±x` and `±x ± y` that both sides are asked about, and the operations of
//! absinthe's octagons and zones they are compared on, named alike ([`Domain`]).

use absinthe::lattice::{Interval, Lattice};
use absinthe::relational::{Octagon, Zone};
use std::fmt;

/// `±x` or `±x ± y`: a form an octagon bounds (a zone bounds `±x` and `x - y`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `x` or, negated, `-x`.
    Var { neg: bool, x: usize },
    /// `±x ± y`.
    Pair {
        neg_x: bool,
        x: usize,
        neg_y: bool,
        y: usize,
    },
}

impl Form {
    /// `x - y`.
    pub fn difference(x: usize, y: usize) -> Form {
        Form::Pair {
            neg_x: false,
            x,
            neg_y: true,
            y,
        }
    }

    /// The coefficients, as `(a, variable)` pairs.
    pub fn terms(self) -> Vec<(i64, usize)> {
        let sign = |neg: bool| if neg { -1 } else { 1 };
        match self {
            Form::Var { neg, x } => vec![(sign(neg), x)],
            Form::Pair { neg_x, x, neg_y, y } => vec![(sign(neg_x), x), (sign(neg_y), y)],
        }
    }

    /// Whether a zone keeps `form ≤ c` exactly: `±x` and `x - y`.
    pub fn is_difference(self) -> bool {
        match self {
            Form::Var { .. } => true,
            Form::Pair { neg_x, neg_y, .. } => neg_x != neg_y,
        }
    }

    /// Every unary and binary form over `n` variables, each pair once: `±x`, then `x - y`,
    /// `y - x`, `x + y` and `-x - y` for `x < y`.
    pub fn octagonal(n: usize) -> Vec<Form> {
        let mut forms = unary(n);
        for x in 0..n {
            for y in x + 1..n {
                for (neg_x, neg_y) in [(false, true), (true, false), (false, false), (true, true)] {
                    forms.push(Form::Pair { neg_x, x, neg_y, y });
                }
            }
        }
        forms
    }

    /// The forms a zone keeps over `n` variables: `±x` and `x - y` for `x ≠ y`.
    pub fn zone(n: usize) -> Vec<Form> {
        let mut forms = unary(n);
        for x in 0..n {
            for y in 0..n {
                if x != y {
                    forms.push(Form::difference(x, y));
                }
            }
        }
        forms
    }
}

fn unary(n: usize) -> Vec<Form> {
    (0..n)
        .flat_map(|x| [Form::Var { neg: false, x }, Form::Var { neg: true, x }])
        .collect()
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = |neg: bool| if neg { "-" } else { "" };
        match *self {
            Form::Var { neg, x } => write!(f, "{}x{x}", sign(neg)),
            Form::Pair { neg_x, x, neg_y, y } => {
                let op = if neg_y { "-" } else { "+" };
                write!(f, "{}x{x} {op} x{y}", sign(neg_x))
            }
        }
    }
}

/// An absinthe relational domain, with the operations the comparison with PPL runs.
pub trait Domain: Lattice + Clone {
    /// The domain's name.
    const NAME: &'static str;

    /// No constraint.
    fn top() -> Self;

    /// The forms the domain keeps over `n` variables.
    fn forms(n: usize) -> Vec<Form>;

    /// Adds `form ≤ c`, which must be a form the domain keeps.
    fn guard(&mut self, form: Form, c: i64);

    /// `x := ±y + c` (a zone has no negation).
    fn assign_var(&mut self, x: usize, negated: bool, y: usize, c: i64);

    /// `x := c`.
    fn assign_constant(&mut self, x: usize, c: i64);

    /// Forgets every constraint on `x`.
    fn forget(&mut self, x: usize);

    /// The bounds of `x`.
    fn bounds(&self, x: usize) -> Interval;
}

impl Domain for Octagon {
    const NAME: &'static str = "octagon";

    fn top() -> Octagon {
        Octagon::top()
    }

    fn forms(n: usize) -> Vec<Form> {
        Form::octagonal(n)
    }

    fn guard(&mut self, form: Form, c: i64) {
        match form {
            Form::Var { neg: false, x } => self.add_upper(x, c),
            Form::Var { neg: true, x } => self.add_lower(x, -c),
            Form::Pair { neg_x, x, neg_y, y } => match (neg_x, neg_y) {
                (false, true) => self.add_difference(x, y, c),
                (true, false) => self.add_difference(y, x, c),
                (false, false) => self.add_sum(x, y, c),
                (true, true) => self.add_neg_sum(x, y, c),
            },
        }
    }

    fn assign_var(&mut self, x: usize, negated: bool, y: usize, c: i64) {
        Octagon::assign_var(self, x, negated, y, c);
    }

    fn assign_constant(&mut self, x: usize, c: i64) {
        self.assign_interval(x, &Interval::constant(c));
    }

    fn forget(&mut self, x: usize) {
        Octagon::forget(self, x);
    }

    fn bounds(&self, x: usize) -> Interval {
        Octagon::bounds(self, x)
    }
}

impl Domain for Zone {
    const NAME: &'static str = "zone";

    fn top() -> Zone {
        Zone::top()
    }

    fn forms(n: usize) -> Vec<Form> {
        Form::zone(n)
    }

    fn guard(&mut self, form: Form, c: i64) {
        match form {
            Form::Var { neg: false, x } => self.add_upper(x, c),
            Form::Var { neg: true, x } => self.add_lower(x, -c),
            Form::Pair {
                neg_x: false,
                x,
                neg_y: true,
                y,
            } => self.add_difference(x, y, c),
            Form::Pair {
                neg_x: true,
                x,
                neg_y: false,
                y,
            } => self.add_difference(y, x, c),
            Form::Pair { .. } => panic!("a zone keeps no `{form} ≤ c`"),
        }
    }

    fn assign_var(&mut self, x: usize, negated: bool, y: usize, c: i64) {
        assert!(!negated, "a zone keeps no `x := -y + c`");
        Zone::assign_var(self, x, y, c);
    }

    fn assign_constant(&mut self, x: usize, c: i64) {
        self.assign_interval(x, &Interval::constant(c));
    }

    fn forget(&mut self, x: usize) {
        Zone::forget(self, x);
    }

    fn bounds(&self, x: usize) -> Interval {
        Zone::bounds(self, x)
    }
}
