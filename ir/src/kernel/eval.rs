//! A concrete evaluator of kernel terms (call by value), the ground truth tasks are checked
//! against. Comparisons give booleans, `cond` takes a boolean, arithmetic takes integers;
//! anything else traps. Inputs (free names) are given by the caller.

use absinthe::terms::{ParamId, Prim, Term, TermId, Terms};
use std::rc::Rc;

/// A value of a kernel term.
#[derive(Clone, Debug)]
pub enum KValue {
    /// An integer.
    Int(i64),
    /// A boolean, from a comparison.
    Bool(bool),
    /// An abstraction with the environment it was made in.
    Closure(TermId, Rc<Env>),
    /// A primitive used as a value.
    Prim(Prim),
}

impl KValue {
    /// The integer a task's domain sees (booleans as 0 and 1), if any.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            KValue::Int(v) => Some(*v),
            KValue::Bool(b) => Some(i64::from(*b)),
            KValue::Closure(..) | KValue::Prim(_) => None,
        }
    }

    /// The λ or primitive term a function value comes from: for a closure its λ, for a
    /// primitive `None` (primitives are matched by value).
    pub fn lambda(&self) -> Option<TermId> {
        match self {
            KValue::Closure(l, _) => Some(*l),
            _ => None,
        }
    }
}

/// An environment: a chain of bindings (letrec bindings are filled in after their closures are
/// made, through the shared cell).
#[derive(Debug, Default)]
pub struct Env {
    bindings: Vec<(ParamId, std::cell::RefCell<Option<KValue>>)>,
    parent: Option<Rc<Env>>,
}

impl Env {
    fn lookup(&self, p: ParamId) -> Option<KValue> {
        let mut env = Some(self);
        while let Some(e) = env {
            if let Some((_, v)) = e.bindings.iter().find(|(q, _)| *q == p) {
                return v.borrow().clone();
            }
            env = e.parent.as_deref();
        }
        None
    }
}

/// Bounds on an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalLimits {
    /// Terms evaluated.
    pub max_steps: u64,
    /// Nested applications being evaluated at once.
    pub max_depth: usize,
}

impl Default for EvalLimits {
    fn default() -> EvalLimits {
        EvalLimits {
            max_steps: 100_000,
            max_depth: 200,
        }
    }
}

/// How an evaluation ended.
#[derive(Clone, Debug)]
pub enum EvalOutcome {
    /// The program's value.
    Value(KValue),
    /// It went wrong at this term: a type error, a division by zero, a wrong arity, a read of a
    /// name with no value.
    Trap(TermId, String),
    /// The step budget ran out.
    OutOfSteps,
    /// Applications nested deeper than the limit.
    TooDeep,
}

enum Stop {
    Trap(TermId, String),
    OutOfSteps,
    TooDeep,
}

/// Evaluates `terms` with the free names bound by `inputs` (a free name absent from it traps
/// when read). `observe_term(t, v)` sees every term's value as it is computed,
/// `observe_param(p, v)` every binding of a parameter or letrec name.
pub fn evaluate(
    terms: &Terms,
    inputs: &[(ParamId, KValue)],
    limits: &EvalLimits,
    observe_term: &mut dyn FnMut(TermId, &KValue),
    observe_param: &mut dyn FnMut(ParamId, &KValue),
) -> EvalOutcome {
    let env = Rc::new(Env {
        bindings: inputs
            .iter()
            .map(|(p, v)| (*p, std::cell::RefCell::new(Some(v.clone()))))
            .collect(),
        parent: None,
    });
    let mut ev = Evaluator {
        terms,
        limits,
        steps: 0,
        observe_term,
        observe_param,
    };
    match ev.eval(terms.root, &env, 0) {
        Ok(v) => EvalOutcome::Value(v),
        Err(Stop::Trap(t, why)) => EvalOutcome::Trap(t, why),
        Err(Stop::OutOfSteps) => EvalOutcome::OutOfSteps,
        Err(Stop::TooDeep) => EvalOutcome::TooDeep,
    }
}

struct Evaluator<'a, 'o> {
    terms: &'a Terms,
    limits: &'a EvalLimits,
    steps: u64,
    observe_term: &'o mut dyn FnMut(TermId, &KValue),
    observe_param: &'o mut dyn FnMut(ParamId, &KValue),
}

impl Evaluator<'_, '_> {
    fn eval(&mut self, t: TermId, env: &Rc<Env>, depth: usize) -> Result<KValue, Stop> {
        self.steps += 1;
        if self.steps > self.limits.max_steps {
            return Err(Stop::OutOfSteps);
        }
        if depth > self.limits.max_depth {
            return Err(Stop::TooDeep);
        }
        let trap = |why: &str| Stop::Trap(t, why.to_owned());
        let value = match self.terms.term(t) {
            Term::Const(c) => KValue::Int(*c),
            Term::Prim(p) => KValue::Prim(*p),
            Term::Param(p) => env
                .lookup(*p)
                .ok_or_else(|| trap("read of a name with no value"))?,
            Term::Lambda { .. } => KValue::Closure(t, env.clone()),
            Term::Letrec { bindings, body } => {
                let inner = Rc::new(Env {
                    bindings: bindings
                        .iter()
                        .map(|&(p, _)| (p, std::cell::RefCell::new(None)))
                        .collect(),
                    parent: Some(env.clone()),
                });
                for (i, &(p, bound)) in bindings.iter().enumerate() {
                    let v = self.eval(bound, &inner, depth + 1)?;
                    (self.observe_param)(p, &v);
                    *inner.bindings[i].1.borrow_mut() = Some(v);
                }
                self.eval(*body, &inner, depth + 1)?
            }
            Term::App { op, args, .. } => {
                let f = self.eval(*op, env, depth + 1)?;
                let mut values = Vec::with_capacity(args.len());
                for &a in args.iter() {
                    values.push(self.eval(a, env, depth + 1)?);
                }
                self.apply(t, f, values, depth + 1)?
            }
        };
        (self.observe_term)(t, &value);
        Ok(value)
    }

    fn apply(
        &mut self,
        at: TermId,
        f: KValue,
        args: Vec<KValue>,
        depth: usize,
    ) -> Result<KValue, Stop> {
        let trap = |why: String| Stop::Trap(at, why);
        match f {
            KValue::Closure(l, env) => {
                let Term::Lambda { params, body } = self.terms.term(l) else {
                    return Err(trap("applied a value that is not a function".to_owned()));
                };
                if params.len() != args.len() {
                    return Err(trap(format!(
                        "a function of {} parameters applied to {} arguments",
                        params.len(),
                        args.len()
                    )));
                }
                for (&p, v) in params.iter().zip(&args) {
                    (self.observe_param)(p, v);
                }
                let inner = Rc::new(Env {
                    bindings: params
                        .iter()
                        .zip(args)
                        .map(|(&p, v)| (p, std::cell::RefCell::new(Some(v))))
                        .collect(),
                    parent: Some(env),
                });
                self.eval(*body, &inner, depth)
            }
            KValue::Prim(p) => {
                if p.arity() != args.len() {
                    return Err(trap(format!(
                        "`{p}` takes {} arguments, not {}",
                        p.arity(),
                        args.len()
                    )));
                }
                match (p, args.as_slice()) {
                    (Prim::Cond, [KValue::Bool(c), a, b]) => {
                        Ok(if *c { a.clone() } else { b.clone() })
                    }
                    (Prim::Cond, _) => Err(trap(
                        "`cond` on a predicate that is not a boolean".to_owned(),
                    )),
                    (Prim::Op(op), [KValue::Int(a), KValue::Int(b)]) => {
                        let v = op
                            .eval(*a, *b)
                            .ok_or_else(|| trap("division by zero".to_owned()))?;
                        Ok(if op.is_comparison() {
                            KValue::Bool(v != 0)
                        } else {
                            KValue::Int(v)
                        })
                    }
                    (Prim::Op(op), _) => {
                        Err(trap(format!("`{op}` on a value that is not an integer")))
                    }
                }
            }
            KValue::Int(_) | KValue::Bool(_) => {
                Err(trap("applied a value that is not a function".to_owned()))
            }
        }
    }
}
