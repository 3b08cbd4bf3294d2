//! A concrete evaluator of kernel terms (call by value), the ground truth tasks are checked
//! against. Comparisons give booleans, `cond` takes a boolean, arithmetic takes integers;
//! anything else traps. Inputs (free names) are given by the caller.
//!
//! Every term gives a sequence of values (one, but for `block`, an application that returns
//! `block`'s values, and exit calls, which give none because they do not return). An
//! application concatenates its parts' values: the first is the operator, the rest the
//! arguments. Entering an abstraction with an exit name binds it to an exit function of that
//! activation; calling it unwinds to the activation, which returns the values passed; calling it
//! after the activation returned traps. The observer sees the labels of the applications of
//! abstractions being evaluated (the concrete call string) with every value.

use absinthe::terms::{ParamId, Prim, Term, TermId, Terms};
use std::rc::Rc;

use super::extensions::{is_block, lambda_parts};

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
    /// The `block` primitive.
    Block,
    /// The exit function of one activation (its number) of abstraction `λ`.
    Exit(TermId, u64),
}

impl KValue {
    /// The integer a task's domain sees (booleans as 0 and 1), if any.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            KValue::Int(v) => Some(*v),
            KValue::Bool(b) => Some(i64::from(*b)),
            KValue::Closure(..) | KValue::Prim(_) | KValue::Block | KValue::Exit(..) => None,
        }
    }

    /// The λ term a function value comes from: for a closure or an exit function its λ, for a
    /// primitive `None` (primitives are matched by value).
    pub fn lambda(&self) -> Option<TermId> {
        match self {
            KValue::Closure(l, _) | KValue::Exit(l, _) => Some(*l),
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
    /// The program's values, when there are not exactly one (through `block`).
    Values(Vec<KValue>),
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
    /// An exit function of this activation was called with these values.
    Exit(u64, Vec<KValue>),
}

/// What an evaluation shows as it goes.
pub trait Observer {
    /// Term `t` gave `values`, in a frame entered through the applications `calls` (labels,
    /// outermost first).
    fn term(&mut self, t: TermId, values: &[KValue], calls: &[u32]);

    /// Parameter (or letrec or exit name) `p` was bound to `value` in the frame of `calls`.
    fn param(&mut self, p: ParamId, value: &KValue, calls: &[u32]);
}

struct Plain<'o> {
    observe_term: &'o mut dyn FnMut(TermId, &KValue),
    observe_param: &'o mut dyn FnMut(ParamId, &KValue),
}

impl Observer for Plain<'_> {
    fn term(&mut self, t: TermId, values: &[KValue], _calls: &[u32]) {
        for v in values {
            (self.observe_term)(t, v);
        }
    }

    fn param(&mut self, p: ParamId, value: &KValue, _calls: &[u32]) {
        (self.observe_param)(p, value);
    }
}

/// Evaluates `terms` with the free names bound by `inputs` (a free name absent from it traps
/// when read). `observe_term(t, v)` sees every value of every term as it is computed,
/// `observe_param(p, v)` every binding of a parameter, letrec or exit name.
pub fn evaluate(
    terms: &Terms,
    inputs: &[(ParamId, KValue)],
    limits: &EvalLimits,
    observe_term: &mut dyn FnMut(TermId, &KValue),
    observe_param: &mut dyn FnMut(ParamId, &KValue),
) -> EvalOutcome {
    let mut plain = Plain {
        observe_term,
        observe_param,
    };
    evaluate_observed(terms, inputs, limits, &mut plain)
}

/// [`evaluate`] with an [`Observer`], which also sees the call string of every value.
pub fn evaluate_observed(
    terms: &Terms,
    inputs: &[(ParamId, KValue)],
    limits: &EvalLimits,
    observer: &mut dyn Observer,
) -> EvalOutcome {
    let mut bindings: Vec<(ParamId, std::cell::RefCell<Option<KValue>>)> = inputs
        .iter()
        .map(|(p, v)| (*p, std::cell::RefCell::new(Some(v.clone()))))
        .collect();
    for p in 0..terms.params.len() {
        let p = ParamId(p as u32);
        if is_block(terms, p) {
            bindings.push((p, std::cell::RefCell::new(Some(KValue::Block))));
        }
    }
    let env = Rc::new(Env {
        bindings,
        parent: None,
    });
    let mut ev = Evaluator {
        terms,
        limits,
        steps: 0,
        observer,
        calls: Vec::new(),
        activations: 0,
        live: Vec::new(),
    };
    match ev.eval(terms.root, &env, 0) {
        Ok(mut vs) if vs.len() == 1 => EvalOutcome::Value(vs.remove(0)),
        Ok(vs) => EvalOutcome::Values(vs),
        Err(Stop::Trap(t, why)) => EvalOutcome::Trap(t, why),
        Err(Stop::OutOfSteps) => EvalOutcome::OutOfSteps,
        Err(Stop::TooDeep) => EvalOutcome::TooDeep,
        Err(Stop::Exit(..)) => {
            unreachable!("an exit function unwinds only to a live activation, which catches it")
        }
    }
}

struct Evaluator<'a, 'o> {
    terms: &'a Terms,
    limits: &'a EvalLimits,
    steps: u64,
    observer: &'o mut dyn Observer,
    /// Labels of the applications of abstractions being evaluated, outermost first.
    calls: Vec<u32>,
    /// Activations of abstractions with exit names made so far, and those still running.
    activations: u64,
    live: Vec<u64>,
}

impl Evaluator<'_, '_> {
    fn eval(&mut self, t: TermId, env: &Rc<Env>, depth: usize) -> Result<Vec<KValue>, Stop> {
        self.steps += 1;
        if self.steps > self.limits.max_steps {
            return Err(Stop::OutOfSteps);
        }
        if depth > self.limits.max_depth {
            return Err(Stop::TooDeep);
        }
        let trap = |why: &str| Stop::Trap(t, why.to_owned());
        let values = match self.terms.term(t) {
            Term::Const(c) => vec![KValue::Int(*c)],
            Term::Prim(p) => vec![KValue::Prim(*p)],
            Term::Param(p) => vec![
                env.lookup(*p)
                    .ok_or_else(|| trap("read of a name with no value"))?,
            ],
            Term::Lambda { .. } => vec![KValue::Closure(t, env.clone())],
            Term::Letrec { bindings, body } => {
                let inner = Rc::new(Env {
                    bindings: bindings
                        .iter()
                        .map(|&(p, _)| (p, std::cell::RefCell::new(None)))
                        .collect(),
                    parent: Some(env.clone()),
                });
                for (i, &(p, bound)) in bindings.iter().enumerate() {
                    let mut vs = self.eval(bound, &inner, depth + 1)?;
                    if vs.len() != 1 {
                        return Err(Stop::Trap(
                            bound,
                            format!("a letrec name bound to {} values", vs.len()),
                        ));
                    }
                    let v = vs.remove(0);
                    self.observer.param(p, &v, &self.calls);
                    *inner.bindings[i].1.borrow_mut() = Some(v);
                }
                self.eval(*body, &inner, depth + 1)?
            }
            Term::App { label, op, args } => {
                let mut values = self.eval(*op, env, depth + 1)?;
                for &a in args.iter() {
                    values.extend(self.eval(a, env, depth + 1)?);
                }
                if values.is_empty() {
                    return Err(trap("an application of no values"));
                }
                let f = values.remove(0);
                self.apply(t, *label, f, values, depth + 1)?
            }
        };
        self.observer.term(t, &values, &self.calls);
        Ok(values)
    }

    fn apply(
        &mut self,
        at: TermId,
        label: u32,
        f: KValue,
        args: Vec<KValue>,
        depth: usize,
    ) -> Result<Vec<KValue>, Stop> {
        let trap = |why: String| Stop::Trap(at, why);
        match f {
            KValue::Closure(l, env) => {
                let Term::Lambda { body, .. } = self.terms.term(l) else {
                    unreachable!("a closure is made of an abstraction")
                };
                let (exit, params) = lambda_parts(self.terms, l);
                if params.len() != args.len() {
                    return Err(trap(format!(
                        "a function of {} parameters applied to {} arguments",
                        params.len(),
                        args.len()
                    )));
                }
                self.calls.push(label);
                let activation = exit.map(|_| {
                    self.activations += 1;
                    self.activations
                });
                let mut bindings: Vec<(ParamId, std::cell::RefCell<Option<KValue>>)> = Vec::new();
                if let (Some(e), Some(a)) = (exit, activation) {
                    let v = KValue::Exit(l, a);
                    self.observer.param(e, &v, &self.calls);
                    bindings.push((e, std::cell::RefCell::new(Some(v))));
                    self.live.push(a);
                }
                for (&p, v) in params.iter().zip(args) {
                    self.observer.param(p, &v, &self.calls);
                    bindings.push((p, std::cell::RefCell::new(Some(v))));
                }
                let inner = Rc::new(Env {
                    bindings,
                    parent: Some(env),
                });
                let result = self.eval(*body, &inner, depth);
                self.calls.pop();
                match activation {
                    None => result,
                    Some(a) => {
                        self.live.pop();
                        match result {
                            Err(Stop::Exit(b, values)) if b == a => Ok(values),
                            other => other,
                        }
                    }
                }
            }
            KValue::Exit(_, a) => {
                if self.live.contains(&a) {
                    Err(Stop::Exit(a, args))
                } else {
                    Err(trap(
                        "an exit function called after its application returned".to_owned(),
                    ))
                }
            }
            KValue::Block => Ok(args),
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
                        Ok(vec![if *c { a.clone() } else { b.clone() }])
                    }
                    (Prim::Cond, _) => Err(trap(
                        "`cond` on a predicate that is not a boolean".to_owned(),
                    )),
                    (Prim::Op(op), [KValue::Int(a), KValue::Int(b)]) => {
                        let v = op
                            .eval(*a, *b)
                            .ok_or_else(|| trap("division by zero".to_owned()))?;
                        Ok(vec![if op.is_comparison() {
                            KValue::Bool(v != 0)
                        } else {
                            KValue::Int(v)
                        }])
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
