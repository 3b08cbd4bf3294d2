//! Closure conversion: kernel terms to a core-IR module, keeping every term's identity.
//!
//! Every abstraction becomes a function whose parameters are the abstraction's and whose
//! captures are its free names; `main` evaluates the root with the inputs as parameters. Every
//! term's value lands in a name of its own (`t12` for term 12), so that an analysis of the
//! module reports per term ([`Lowered::homes`]). Applications of a primitive become operations
//! (`cond` a `select`: call by value evaluates both branches anyway); a primitive used as a
//! value becomes a closure of a small function; any other application becomes an `apply`.
//!
//! Multiple values and exit functions have no counterpart in the core IR (a function returns
//! one value and cannot be left early from a callee), so programs using them are refused.
//!
//! A letrec group's abstractions all capture the union of the group's other free names, and each
//! rebuilds the group's closures on entry, so that they can refer to each other and to
//! themselves although closures are immutable.

use absinthe::program::{FuncId, NameId, Operand, Rhs, Stmt, Terminator};
use absinthe::terms::{Binder, ParamId, Prim, Term, TermId, Terms};
use std::collections::{BTreeMap, BTreeSet};

use crate::function::{Block, Function, Module};

/// A kernel program as a core-IR module.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The module: `main` first, then one function per abstraction, then the primitives used as
    /// values.
    pub module: Module,
    /// Per term, the function evaluating it and the name its value lands in (`None` for terms
    /// never evaluated on their own: an abstraction's parameters are not terms).
    pub homes: Vec<Option<(FuncId, NameId)>>,
    /// Per name, the function it is a parameter (or letrec binding) of and its name there.
    pub param_homes: Vec<Option<(FuncId, NameId)>>,
    /// The inputs (free names), in the order of `main`'s parameters.
    pub inputs: Vec<ParamId>,
}

/// Converts `terms`, or says why it cannot: the program uses `block` or an exit name.
pub fn lower(terms: &Terms) -> Result<Lowered, String> {
    if super::extensions::uses_extensions(terms) {
        return Err(
            "the program uses `block` or an exit name (`^k`), which closure conversion to the core \
             IR does not take: one function returns one value and cannot leave its callers early"
                .to_owned(),
        );
    }
    let mut l = Lowerer {
        terms,
        funcs: Vec::new(),
        lambda_funcs: BTreeMap::new(),
        prim_funcs: BTreeMap::new(),
        homes: vec![None; terms.terms.len()],
        param_homes: vec![None; terms.params.len()],
        groups: BTreeMap::new(),
    };
    // Number the functions first: main, then each abstraction in term order.
    l.funcs.push(None);
    for (i, t) in terms.terms.iter().enumerate() {
        if matches!(t, Term::Lambda { .. }) {
            l.lambda_funcs
                .insert(TermId(i as u32), FuncId::new(l.funcs.len()));
            l.funcs.push(None);
        }
    }
    // The letrec groups: which letrec each abstraction bound by one belongs to.
    for (i, t) in terms.terms.iter().enumerate() {
        if let Term::Letrec { bindings, .. } = t {
            for &(_, bound) in bindings.iter() {
                if matches!(terms.term(bound), Term::Lambda { .. }) {
                    l.groups.insert(bound, TermId(i as u32));
                }
            }
        }
    }
    let inputs: Vec<ParamId> = (0..terms.params.len())
        .map(|p| ParamId(p as u32))
        .filter(|&p| terms.params[p.index()].binder == Binder::Free)
        .collect();
    let main = l.function(
        "main".to_owned(),
        FuncId::new(0),
        &inputs,
        &[],
        &[],
        terms.root,
    );
    l.funcs[0] = Some(main);
    let lambdas: Vec<(TermId, FuncId)> = l.lambda_funcs.iter().map(|(&t, &f)| (t, f)).collect();
    for (t, f) in lambdas {
        let Term::Lambda { params, body } = terms.term(t) else {
            continue;
        };
        let captures = l.captures_of(t);
        let group = l.group_closures(t);
        let function = l.function(format!("lam{}", t.0), f, params, &captures, &group, *body);
        l.funcs[f.index()] = Some(function);
    }
    let functions = l.funcs.into_iter().flatten().collect();
    Ok(Lowered {
        module: Module {
            functions,
            fields: Vec::new(),
            symbols: Vec::new(),
        },
        homes: l.homes,
        param_homes: l.param_homes,
        inputs,
    })
}

struct Lowerer<'t> {
    terms: &'t Terms,
    funcs: Vec<Option<Function>>,
    lambda_funcs: BTreeMap<TermId, FuncId>,
    prim_funcs: BTreeMap<Prim, FuncId>,
    homes: Vec<Option<(FuncId, NameId)>>,
    param_homes: Vec<Option<(FuncId, NameId)>>,
    /// Abstractions bound by a letrec, with the letrec.
    groups: BTreeMap<TermId, TermId>,
}

/// The names of one function being built.
struct Names {
    list: Vec<String>,
    params: BTreeMap<ParamId, NameId>,
}

impl Names {
    fn term(&mut self, t: TermId) -> NameId {
        self.list.push(format!("t{}", t.0));
        NameId::new(self.list.len() - 1)
    }

    fn source(&mut self, terms: &Terms, p: ParamId) -> NameId {
        if let Some(&n) = self.params.get(&p) {
            return n;
        }
        let clean: String = terms
            .param_name(p)
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        self.list.push(format!("v{}_{clean}", p.0));
        let n = NameId::new(self.list.len() - 1);
        self.params.insert(p, n);
        n
    }
}

impl Lowerer<'_> {
    /// The free names of term `t`, sorted.
    fn free_names(&self, t: TermId) -> BTreeSet<ParamId> {
        let mut free = BTreeSet::new();
        let mut bound = BTreeSet::new();
        let mut stack = vec![t];
        while let Some(u) = stack.pop() {
            match self.terms.term(u) {
                Term::Const(_) | Term::Prim(_) => {}
                Term::Param(p) => {
                    free.insert(*p);
                }
                Term::Lambda { params, body } => {
                    bound.extend(params.iter().copied());
                    stack.push(*body);
                }
                Term::App { op, args, .. } => {
                    stack.push(*op);
                    stack.extend(args.iter().copied());
                }
                Term::Letrec { bindings, body } => {
                    for &(p, b) in bindings.iter() {
                        bound.insert(p);
                        stack.push(b);
                    }
                    stack.push(*body);
                }
            }
        }
        // Names are bound once, so what is bound inside is never free outside.
        free.difference(&bound).copied().collect()
    }

    /// What the function of abstraction `t` captures: its free names, or for a member of a
    /// letrec group, the free names of the whole group but the group's own names.
    fn captures_of(&self, t: TermId) -> Vec<ParamId> {
        match self.groups.get(&t) {
            Some(&letrec) => {
                let Term::Letrec { bindings, .. } = self.terms.term(letrec) else {
                    return Vec::new();
                };
                // The names of the group's abstractions are rebuilt on entry, not captured.
                let own: BTreeSet<ParamId> = bindings
                    .iter()
                    .filter(|(_, b)| self.groups.contains_key(b))
                    .map(|&(p, _)| p)
                    .collect();
                let mut all = BTreeSet::new();
                for &(_, b) in bindings.iter() {
                    if self.groups.contains_key(&b) {
                        all.extend(self.free_names(b));
                    }
                }
                all.difference(&own).copied().collect()
            }
            None => self.free_names(t).into_iter().collect(),
        }
    }

    /// The group closures an abstraction's function rebuilds on entry: `(name, abstraction)`.
    fn group_closures(&self, t: TermId) -> Vec<(ParamId, TermId)> {
        let Some(&letrec) = self.groups.get(&t) else {
            return Vec::new();
        };
        let Term::Letrec { bindings, .. } = self.terms.term(letrec) else {
            return Vec::new();
        };
        bindings
            .iter()
            .filter(|(_, b)| self.groups.contains_key(b))
            .copied()
            .collect()
    }

    fn prim_func(&mut self, p: Prim) -> FuncId {
        if let Some(&f) = self.prim_funcs.get(&p) {
            return f;
        }
        let id = FuncId::new(self.funcs.len());
        let names: Vec<String> = ["a", "b", "c", "r"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        let n = |i: usize| Operand::Name(NameId::new(i));
        let (params, rhs) = match p {
            Prim::Op(op) => (vec![NameId(0), NameId(1)], Rhs::Binary(op, n(0), n(1))),
            Prim::Cond => (
                vec![NameId(0), NameId(1), NameId(2)],
                Rhs::Select(n(0), n(1), n(2)),
            ),
        };
        let block = Block {
            label: "bb0".to_owned(),
            phis: Vec::new(),
            stmts: vec![Stmt::Assign {
                dest: NameId(3),
                rhs,
            }],
            term: Terminator::Return(Some(n(3))),
        };
        let name = match p {
            Prim::Cond => "prim_cond".to_owned(),
            Prim::Op(op) => format!("prim_{op:?}").to_lowercase(),
        };
        let mut f = Function::new(name, false, params, names, vec![block]);
        f.canonicalize_names();
        self.funcs.push(Some(f));
        self.prim_funcs.insert(p, id);
        id
    }

    fn function(
        &mut self,
        name: String,
        id: FuncId,
        params: &[ParamId],
        captures: &[ParamId],
        group: &[(ParamId, TermId)],
        body: TermId,
    ) -> Function {
        let mut names = Names {
            list: Vec::new(),
            params: BTreeMap::new(),
        };
        let param_names: Vec<NameId> = params
            .iter()
            .map(|&p| names.source(self.terms, p))
            .collect();
        for (&p, &n) in params.iter().zip(&param_names) {
            self.param_homes[p.index()] = Some((id, n));
        }
        let capture_names: Vec<NameId> = captures
            .iter()
            .map(|&p| names.source(self.terms, p))
            .collect();
        let mut stmts = Vec::new();
        for &(p, lambda) in group {
            let dest = names.source(self.terms, p);
            let rhs = self.closure(lambda, &mut names);
            stmts.push(Stmt::Assign { dest, rhs });
        }
        let result = self.expr(id, body, &mut names, &mut stmts);
        let block = Block {
            label: "bb0".to_owned(),
            phis: Vec::new(),
            stmts,
            term: Terminator::Return(Some(Operand::Name(result))),
        };
        let mut f = Function::new(name, false, param_names, names.list, vec![block]);
        f.captures = capture_names;
        f
    }

    /// `closure lamN [captures…]` for abstraction `lambda`.
    fn closure(&self, lambda: TermId, names: &mut Names) -> Rhs {
        let Some(&f) = self.lambda_funcs.get(&lambda) else {
            unreachable!("every abstraction was given a function before any is lowered")
        };
        let captured = self
            .captures_of(lambda)
            .into_iter()
            .map(|p| Operand::Name(names.source(self.terms, p)))
            .collect();
        Rhs::Closure(f, captured)
    }

    /// Emits the evaluation of `t` into `stmts`; gives the name holding its value.
    fn expr(
        &mut self,
        func: FuncId,
        t: TermId,
        names: &mut Names,
        stmts: &mut Vec<Stmt>,
    ) -> NameId {
        // Applications nest as deep as the source does; the parser bounds that depth.
        let rhs = match self.terms.term(t) {
            Term::Const(c) => Rhs::Use(Operand::Int(*c)),
            Term::Param(p) => Rhs::Use(Operand::Name(names.source(self.terms, *p))),
            Term::Prim(p) => Rhs::Closure(self.prim_func(*p), Box::new([])),
            Term::Lambda { .. } => self.closure(t, names),
            Term::Letrec { bindings, body } => {
                for &(p, b) in bindings.iter() {
                    let value = self.expr(func, b, names, stmts);
                    let dest = names.source(self.terms, p);
                    stmts.push(Stmt::Assign {
                        dest,
                        rhs: Rhs::Use(Operand::Name(value)),
                    });
                    self.param_homes[p.index()] = Some((func, dest));
                }
                let value = self.expr(func, *body, names, stmts);
                Rhs::Use(Operand::Name(value))
            }
            Term::App { op, args, .. } => {
                let prim = match self.terms.term(*op) {
                    Term::Prim(p) if p.arity() == args.len() => Some(*p),
                    _ => None,
                };
                let op_name = match prim {
                    Some(_) => None,
                    None => Some(self.expr(func, *op, names, stmts)),
                };
                let values: Vec<Operand> = args
                    .iter()
                    .map(|&a| Operand::Name(self.expr(func, a, names, stmts)))
                    .collect();
                match (prim, op_name) {
                    (Some(Prim::Op(op)), _) => Rhs::Binary(op, values[0], values[1]),
                    (Some(Prim::Cond), _) => Rhs::Select(values[0], values[1], values[2]),
                    (None, Some(f)) => Rhs::Apply(Operand::Name(f), values.into()),
                    (None, None) => Rhs::Use(Operand::Int(0)),
                }
            }
        };
        let dest = names.term(t);
        stmts.push(Stmt::Assign { dest, rhs });
        self.homes[t.index()] = Some((func, dest));
        dest
    }
}
