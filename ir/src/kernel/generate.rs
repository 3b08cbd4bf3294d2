//! Random kernel programs: integer arithmetic, `cond` on comparisons, abstractions applied on
//! the spot, letrec-bound functions calling each other and themselves, and functions passed as
//! arguments and applied. Every letrec function takes a `fuel` argument, stops when it is not
//! positive and passes `fuel - 1` to the calls in its body (a function's abstractions inherit
//! its fuel), so evaluation always ends. Programs are typed by construction: integer terms only
//! meet arithmetic, functions only application.
//!
//! With [`KernelGenConfig::multiple_values`], integer terms also come from `block`: blocks
//! spread over a primitive's or an abstraction's arguments, empty blocks among them, and
//! abstractions returning two values. With [`KernelGenConfig::exits`], abstractions with an exit
//! name are applied on the spot and their exit function is a unary function of their body
//! (called directly, chosen by `cond` through thunks, or passed to letrec functions, which call
//! it before the application returns), some exits passing two values.

use absinthe::terms::Terms;

use super::parse::parse_terms;
use crate::generate::Rng;

/// Parameters of [`random_terms`].
#[derive(Clone, Debug)]
pub struct KernelGenConfig {
    /// Letrec-bound functions (0 for none).
    pub functions: usize,
    /// Nesting of integer expressions.
    pub depth: usize,
    /// The largest fuel passed at top level.
    pub max_fuel: i64,
    /// Use `block` (multiple values).
    pub multiple_values: bool,
    /// Use exit functions (`(lambda (^k x) …)`).
    pub exits: bool,
}

impl Default for KernelGenConfig {
    fn default() -> KernelGenConfig {
        KernelGenConfig {
            functions: 2,
            depth: 4,
            max_fuel: 3,
            multiple_values: false,
            exits: false,
        }
    }
}

/// A letrec function: its name and whether it takes a function argument.
#[derive(Clone)]
struct Fun {
    name: String,
    higher_order: bool,
}

struct Gen<'a> {
    rng: Rng,
    config: &'a KernelGenConfig,
    funs: Vec<Fun>,
    fresh: usize,
}

/// What is in scope while generating.
#[derive(Clone, Default)]
struct Scope {
    ints: Vec<String>,
    /// Names of unary integer functions.
    unary: Vec<String>,
    /// The fuel expression calls pass: `(- fuel 1)` inside a function, a literal outside.
    fuel: Option<String>,
}

/// A random kernel program, as text and parsed. Deterministic in `seed`.
pub fn random_terms(seed: u64, config: &KernelGenConfig) -> (String, Terms) {
    let mut g = Gen {
        rng: Rng::new(seed),
        config,
        funs: Vec::new(),
        fresh: 0,
    };
    for i in 0..config.functions {
        let higher_order = g.rng.percent(40);
        g.funs.push(Fun {
            name: format!("f{i}"),
            higher_order,
        });
    }
    let body = g.int(config.depth, &Scope::default());
    let text = if g.funs.is_empty() {
        body
    } else {
        let bindings: Vec<String> = (0..g.funs.len())
            .map(|i| {
                let def = g.function(i);
                format!("({} {def})", g.funs[i].name)
            })
            .collect();
        format!("(letrec ({}) {body})", bindings.join(" "))
    };
    let text = format!("{text}\n");
    // Generated text always parses; a failure here is a bug of this generator.
    let terms = parse_terms("random.kt", &text).unwrap_or_else(|errors| {
        let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
        panic!(
            "generated kernel text does not parse: {}\n{text}",
            messages.join("\n")
        )
    });
    (text, terms)
}

impl Gen<'_> {
    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    fn function(&mut self, i: usize) -> String {
        let fuel = self.name("fuel");
        let a = self.name("a");
        let mut scope = Scope {
            ints: vec![a.clone(), fuel.clone()],
            unary: Vec::new(),
            fuel: Some(format!("(- {fuel} 1)")),
        };
        let mut params = vec![fuel.clone(), a];
        if self.funs[i].higher_order {
            let g = self.name("g");
            scope.unary.push(g.clone());
            params.push(g);
        }
        let base = self.int(1, &scope);
        let body = self.int(self.config.depth, &scope);
        format!(
            "(lambda ({}) (cond (< {fuel} 1) {base} {body}))",
            params.join(" ")
        )
    }

    fn fuel(&mut self, scope: &Scope) -> String {
        match &scope.fuel {
            Some(f) => f.clone(),
            None => self
                .rng
                .below(self.config.max_fuel.max(0) as usize + 1)
                .to_string(),
        }
    }

    fn int(&mut self, depth: usize, scope: &Scope) -> String {
        let leaf = depth == 0 || self.rng.percent(25);
        let extended = self.config.multiple_values || self.config.exits;
        if !leaf && extended && self.rng.percent(35) {
            return self.extension(depth, scope);
        }
        if leaf {
            return if !scope.ints.is_empty() && self.rng.percent(60) {
                let i = self.rng.below(scope.ints.len());
                scope.ints[i].clone()
            } else {
                (self.rng.below(11) as i64 - 3).to_string()
            };
        }
        match self.rng.below(10) {
            0..=2 => {
                const OPS: [&str; 5] = ["+", "-", "*", "+", "/"];
                let op = OPS[self.rng.below(OPS.len())];
                format!(
                    "({op} {} {})",
                    self.int(depth - 1, scope),
                    self.int(depth - 1, scope)
                )
            }
            3 | 4 => {
                let cmp = ["<", "=", "<=", ">"][self.rng.below(4)];
                format!(
                    "(cond ({cmp} {} {}) {} {})",
                    self.int(depth - 1, scope),
                    self.int(depth - 1, scope),
                    self.int(depth - 1, scope),
                    self.int(depth - 1, scope)
                )
            }
            5 | 6 if !self.funs.is_empty() => {
                let f = self.funs[self.rng.below(self.funs.len())].clone();
                let fuel = self.fuel(scope);
                let arg = self.int(depth - 1, scope);
                if f.higher_order {
                    let g = self.unary(depth - 1, scope);
                    format!("({} {fuel} {arg} {g})", f.name)
                } else {
                    format!("({} {fuel} {arg})", f.name)
                }
            }
            7 if !scope.unary.is_empty() => {
                let g = scope.unary[self.rng.below(scope.unary.len())].clone();
                format!("({g} {})", self.int(depth - 1, scope))
            }
            8 => {
                // An abstraction applied on the spot.
                let x = self.name("x");
                let mut inner = scope.clone();
                inner.ints.push(x.clone());
                let body = self.int(depth - 1, &inner);
                let arg = self.int(depth - 1, scope);
                format!("((lambda ({x}) {body}) {arg})")
            }
            _ => {
                // Bind a unary function to a name, then use it.
                let h = self.name("h");
                let fun = self.unary(depth - 1, scope);
                let mut inner = scope.clone();
                inner.unary.push(h.clone());
                let body = self.int(depth - 1, &inner);
                format!("((lambda ({h}) {body}) {fun})")
            }
        }
    }

    /// An integer term made with `block` or an exit function.
    fn extension(&mut self, depth: usize, scope: &Scope) -> String {
        let (mv, ex) = (self.config.multiple_values, self.config.exits);
        let choice = match (mv, ex) {
            (true, true) => self.rng.below(7),
            (true, false) => self.rng.below(4),
            (false, true) => 4 + self.rng.below(3),
            (false, false) => unreachable!("`int` asks for an extension only when one is on"),
        };
        const OPS: [&str; 4] = ["+", "-", "*", "+"];
        match choice {
            0 => {
                // A primitive's arguments from blocks, an empty block among them.
                let op = OPS[self.rng.below(OPS.len())];
                let (a, b) = (self.int(depth - 1, scope), self.int(depth - 1, scope));
                match self.rng.below(3) {
                    0 => format!("({op} (block {a} {b}))"),
                    1 => format!("({op} (block) {a} (block {b}))"),
                    _ => format!("(block ({op} {a} {b}))"),
                }
            }
            1 => {
                // An abstraction of two parameters applied to one block.
                let (u, v) = (self.name("u"), self.name("v"));
                let mut inner = scope.clone();
                inner.ints.push(u.clone());
                inner.ints.push(v.clone());
                let body = self.int(depth - 1, &inner);
                let pair = self.pair(depth - 1, scope);
                format!("((lambda ({u} {v}) {body}) {pair})")
            }
            2 => {
                let op = OPS[self.rng.below(OPS.len())];
                let pair = self.pair(depth - 1, scope);
                format!("({op} {pair})")
            }
            3 => {
                // The block primitive passed as a value and applied.
                let b = self.name("b");
                let (x, y) = (self.int(depth - 1, scope), self.int(depth - 1, scope));
                format!("(+ ((lambda ({b}) ({b} {x} {y})) block))")
            }
            4 | 5 => {
                // An abstraction with an exit name, applied on the spot.
                let (k, x) = (format!("^{}", self.name("k")), self.name("x"));
                let mut inner = scope.clone();
                inner.ints.push(x.clone());
                inner.unary.push(k.clone());
                let body = if choice == 4 {
                    self.int(depth - 1, &inner)
                } else {
                    // Leave through a thunk `cond` chooses.
                    let (a, b) = (self.int(depth - 1, &inner), self.int(depth - 1, &inner));
                    let (e, f) = (self.int(depth - 1, &inner), self.int(depth - 1, &inner));
                    format!("((cond (< {a} {b}) (lambda () ({k} {e})) (lambda () {f})))")
                };
                let arg = self.int(depth - 1, scope);
                format!("((lambda ({k} {x}) {body}) {arg})")
            }
            _ => {
                // Two values from an abstraction that may leave with two others.
                let op = OPS[self.rng.below(OPS.len())];
                let (k, x) = (format!("^{}", self.name("k")), self.name("x"));
                let mut inner = scope.clone();
                inner.ints.push(x.clone());
                let (a, b) = (self.int(depth - 1, &inner), self.int(depth - 1, &inner));
                let e = self.int(depth - 1, &inner);
                let arg = self.int(depth - 1, scope);
                format!(
                    "({op} ((lambda ({k} {x}) (block {x} ((cond (< {a} {b}) (lambda () ({k} {e} {x})) \
                     (lambda () {x}))))) {arg}))"
                )
            }
        }
    }

    /// Two integer values.
    fn pair(&mut self, depth: usize, scope: &Scope) -> String {
        let (a, b) = (self.int(depth, scope), self.int(depth, scope));
        if self.rng.percent(50) {
            return format!("(block {a} {b})");
        }
        let z = self.name("z");
        format!("((lambda ({z}) (block {z} {b})) {a})")
    }

    /// A unary integer function: an abstraction, or a name of one in scope.
    fn unary(&mut self, depth: usize, scope: &Scope) -> String {
        if !scope.unary.is_empty() && self.rng.percent(30) {
            return scope.unary[self.rng.below(scope.unary.len())].clone();
        }
        let y = self.name("y");
        let mut inner = scope.clone();
        inner.ints.push(y.clone());
        let body = self.int(depth, &inner);
        format!("(lambda ({y}) {body})")
    }
}
