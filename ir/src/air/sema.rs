//! The second phase of reading `.air` text: resolves labels, names, fields and callees of the
//! syntax tree into a [`Module`] and checks what the grammar cannot.
//!
//! Every error of the phase is collected before giving up: unknown or duplicate labels and
//! functions, call arity, block shape (φs first, one terminator last), φs against the
//! predecessors, single definitions in SSA functions, and integer literal range.

use std::collections::HashMap;

use absinthe::program::{
    BlockId, Cfg, Cond, FieldId, FuncId, NameId, Operand, Phi, Rhs, Stmt, SymbolId, Terminator,
};

use super::syntax::{CondAst, FuncAst, LineAst, OperandAst, RhsAst, TermAst, Word};
use crate::error::{ParseError, error_at, line_col};
use crate::function::{Block, Function, Module};

/// Resolves parsed functions into a module, or gives every error found.
pub(crate) fn resolve(
    file: &str,
    text: &str,
    funcs: &[FuncAst<'_>],
) -> Result<Module, Vec<ParseError>> {
    let mut cx = Ctx {
        file,
        text,
        errors: Vec::new(),
        funcs: HashMap::new(),
        fields: HashMap::new(),
        field_names: Vec::new(),
        symbols: HashMap::new(),
        symbol_names: Vec::new(),
    };
    for (i, f) in funcs.iter().enumerate() {
        if let Some(&(first, _, _)) = cx.funcs.get(f.name.text) {
            let first: &FuncAst<'_> = &funcs[FuncId::index(first)];
            let (line, _) = line_col(text, first.name.pos);
            cx.error(
                f.name.pos,
                format!(
                    "duplicate function `{}` (first defined on line {line})",
                    f.name.text
                ),
            );
            continue;
        }
        cx.funcs.insert(
            f.name.text,
            (FuncId::new(i), f.params.len(), f.captures.len()),
        );
    }
    let functions: Vec<Function> = funcs.iter().map(|f| cx.function(f)).collect();
    if !cx.errors.is_empty() {
        cx.errors.sort_by_key(|e| (e.line, e.col));
        return Err(cx.errors);
    }
    Ok(Module {
        functions,
        fields: cx.field_names,
        symbols: cx.symbol_names,
    })
}

/// Module-wide state of the phase.
struct Ctx<'a, 't> {
    file: &'a str,
    text: &'a str,
    errors: Vec<ParseError>,
    /// Each function's id, parameter count and capture count.
    funcs: HashMap<&'t str, (FuncId, usize, usize)>,
    fields: HashMap<&'t str, FieldId>,
    field_names: Vec<String>,
    symbols: HashMap<&'t str, SymbolId>,
    symbol_names: Vec<String>,
}

/// Per-function state: the name table and where each name was defined.
struct FnCx<'t> {
    ssa: bool,
    names: HashMap<&'t str, NameId>,
    name_list: Vec<String>,
    defined: Vec<Option<usize>>,
    labels: HashMap<&'t str, BlockId>,
}

impl<'t> FnCx<'t> {
    fn intern(&mut self, w: Word<'t>) -> NameId {
        if let Some(&n) = self.names.get(w.text) {
            return n;
        }
        let n = NameId::new(self.name_list.len());
        self.names.insert(w.text, n);
        self.name_list.push(w.text.to_string());
        self.defined.push(None);
        n
    }
}

impl<'a, 't> Ctx<'a, 't> {
    fn error(&mut self, pos: usize, message: String) {
        self.errors
            .push(error_at(self.file, self.text, pos, message));
    }

    fn symbol(&mut self, w: Word<'t>) -> SymbolId {
        if let Some(&s) = self.symbols.get(w.text) {
            return s;
        }
        let s = SymbolId::new(self.symbol_names.len());
        self.symbols.insert(w.text, s);
        self.symbol_names.push(w.text.to_string());
        s
    }

    fn field(&mut self, w: Word<'t>) -> FieldId {
        if let Some(&f) = self.fields.get(w.text) {
            return f;
        }
        let f = FieldId::new(self.field_names.len());
        self.fields.insert(w.text, f);
        self.field_names.push(w.text.to_string());
        f
    }

    fn operand(&mut self, fx: &mut FnCx<'t>, o: OperandAst<'t>) -> Operand {
        match o {
            OperandAst::Name(w) => Operand::Name(fx.intern(w)),
            OperandAst::Int(w) => Operand::Int(self.literal(w)),
        }
    }

    fn literal(&mut self, w: Word<'t>) -> i64 {
        match w.text.parse::<i64>() {
            Ok(v) => v,
            Err(_) => {
                self.error(
                    w.pos,
                    format!("integer literal `{}` does not fit in 64 bits", w.text),
                );
                0
            }
        }
    }

    fn define(&mut self, fx: &mut FnCx<'t>, w: Word<'t>) -> NameId {
        let n = fx.intern(w);
        if fx.ssa {
            if let Some(first) = fx.defined[n.index()] {
                let (line, _) = line_col(self.text, first);
                self.error(
                    w.pos,
                    format!(
                        "`{}` is defined twice in an SSA function (first on line {line})",
                        w.text
                    ),
                );
            } else {
                fx.defined[n.index()] = Some(w.pos);
            }
        }
        n
    }

    fn label(&mut self, fx: &FnCx<'t>, w: Word<'t>) -> BlockId {
        if let Some(&b) = fx.labels.get(w.text) {
            return b;
        }
        self.error(w.pos, format!("unknown block `{}`", w.text));
        BlockId(0)
    }

    fn callee(&mut self, w: Word<'t>, argc: usize) -> FuncId {
        let Some(&(f, arity, captures)) = self.funcs.get(w.text) else {
            self.error(w.pos, format!("unknown function `{}`", w.text));
            return FuncId(0);
        };
        if captures > 0 {
            self.error(
                w.pos,
                format!(
                    "`{}` captures values, so it is called through a closure: \
                     `c = closure {} [...]` then `apply c(...)`",
                    w.text, w.text
                ),
            );
        }
        if arity != argc {
            let s = if arity == 1 { "" } else { "s" };
            self.error(
                w.pos,
                format!(
                    "`{}` takes {arity} argument{s} but {argc} {} given",
                    w.text,
                    if argc == 1 { "was" } else { "were" }
                ),
            );
        }
        f
    }

    /// The function named `w`.
    fn function_named(&mut self, w: Word<'t>) -> FuncId {
        match self.funcs.get(w.text) {
            Some(&(f, _, _)) => f,
            None => {
                self.error(w.pos, format!("unknown function `{}`", w.text));
                FuncId(0)
            }
        }
    }

    /// The function of `closure f [captured]`, checking the number of captured values.
    fn closure(&mut self, w: Word<'t>, count: usize) -> FuncId {
        let Some(&(f, _, captures)) = self.funcs.get(w.text) else {
            self.error(w.pos, format!("unknown function `{}`", w.text));
            return FuncId(0);
        };
        if captures != count {
            let s = if captures == 1 { "" } else { "s" };
            self.error(
                w.pos,
                format!(
                    "`{}` captures {captures} value{s} but {count} {} given",
                    w.text,
                    if count == 1 { "was" } else { "were" }
                ),
            );
        }
        f
    }

    /// A block tag or field position: a non-negative integer that fits in 32 bits.
    fn small(&mut self, w: Word<'t>, what: &str) -> u32 {
        match w.text.parse::<u32>() {
            Ok(v) => v,
            Err(_) => {
                self.error(
                    w.pos,
                    format!(
                        "{what} `{}` is not an integer from 0 to {}",
                        w.text,
                        u32::MAX
                    ),
                );
                0
            }
        }
    }

    fn args(&mut self, fx: &mut FnCx<'t>, args: &[OperandAst<'t>]) -> Box<[Operand]> {
        args.iter().map(|&a| self.operand(fx, a)).collect()
    }

    fn function(&mut self, f: &FuncAst<'t>) -> Function {
        let errors_before = self.errors.len();
        let mut fx = FnCx {
            ssa: f.ssa,
            names: HashMap::new(),
            name_list: Vec::new(),
            defined: Vec::new(),
            labels: HashMap::new(),
        };
        let mut params = Vec::new();
        for &p in &f.params {
            if fx.names.contains_key(p.text) {
                self.error(p.pos, format!("duplicate parameter `{}`", p.text));
                continue;
            }
            params.push(self.define(&mut fx, p));
        }
        let mut captures = Vec::new();
        for &c in &f.captures {
            if fx.names.contains_key(c.text) {
                self.error(
                    c.pos,
                    format!("`{}` is already a parameter or a capture", c.text),
                );
                continue;
            }
            captures.push(self.define(&mut fx, c));
        }

        // Labels first, so that jumps may go forward.
        let mut label_words: Vec<Word<'t>> = Vec::new();
        for l in &f.lines {
            if let LineAst::Label(w) = l.line {
                if let Some(&b) = fx.labels.get(w.text) {
                    let (line, _) = line_col(self.text, label_words[b.index()].pos);
                    self.error(
                        w.pos,
                        format!("duplicate block label `{}` (first on line {line})", w.text),
                    );
                    continue;
                }
                fx.labels.insert(w.text, BlockId::new(label_words.len()));
                label_words.push(w);
            }
        }
        if label_words.is_empty() {
            self.error(
                f.name.pos,
                format!("function `{}` has no blocks", f.name.text),
            );
            return Function::new(
                f.name.text.to_string(),
                f.ssa,
                params,
                fx.name_list,
                Vec::new(),
            );
        }

        // Then the blocks, line by line.
        let mut blocks: Vec<Block> = Vec::new();
        let mut phi_words: Vec<Vec<(usize, Vec<Word<'t>>)>> = Vec::new();
        let mut current: Option<(Word<'t>, Block, bool)> = None;
        let mut duplicate_block = false;
        let mut orphan_reported = false;
        // The `new stack` statements: the block's index is the count of blocks kept before it.
        let mut stack_allocations = std::collections::BTreeSet::new();
        for l in &f.lines {
            if let LineAst::Label(w) = l.line {
                self.finish_block(&mut current, &mut blocks, duplicate_block);
                duplicate_block = label_words.get(blocks.len()).map(|x| x.pos) != Some(w.pos);
                if !duplicate_block {
                    phi_words.push(Vec::new());
                }
                current = Some((
                    w,
                    Block {
                        label: w.text.to_string(),
                        phis: Vec::new(),
                        stmts: Vec::new(),
                        term: Terminator::Unreachable,
                    },
                    false,
                ));
                continue;
            }
            let Some((label, block, terminated)) = current.as_mut() else {
                if !orphan_reported {
                    self.error(
                        l.pos,
                        "expected a block label before the first statement".to_string(),
                    );
                    orphan_reported = true;
                }
                continue;
            };
            if *terminated {
                self.error(
                    l.pos,
                    format!("block `{}` continues after its terminator", label.text),
                );
                continue;
            }
            match &l.line {
                LineAst::Label(_) => {}
                LineAst::Phi { dest, incoming } => {
                    if !fx.ssa {
                        self.error(
                            l.pos,
                            format!("φ in function `{}`, which is not marked `ssa`", f.name.text),
                        );
                    } else if !block.stmts.is_empty() {
                        self.error(
                            l.pos,
                            "φ after a statement; φs come first in a block".to_string(),
                        );
                    }
                    let dest = self.define(&mut fx, *dest);
                    let incoming: Box<[(BlockId, Operand)]> = incoming
                        .iter()
                        .map(|&(from, o)| {
                            let from_id = self.label(&fx, from);
                            (from_id, self.operand(&mut fx, o))
                        })
                        .collect();
                    if let Some(words) = phi_words.last_mut() {
                        words.push((l.pos, incoming_words(incoming.len(), &l.line)));
                    }
                    block.phis.push(Phi { dest, incoming });
                }
                LineAst::Assign { dest, rhs } => {
                    let dest = self.define(&mut fx, *dest);
                    let rhs = match rhs {
                        RhsAst::Use(a) => Rhs::Use(self.operand(&mut fx, *a)),
                        RhsAst::Binary(op, a, b) => {
                            let a = self.operand(&mut fx, *a);
                            Rhs::Binary(*op, a, self.operand(&mut fx, *b))
                        }
                        RhsAst::New(on_stack) => {
                            if *on_stack {
                                let at = (BlockId::new(blocks.len()), block.stmts.len() as u32);
                                stack_allocations.insert(at);
                            }
                            Rhs::New
                        }
                        RhsAst::Load(o, field) => {
                            let o = self.operand(&mut fx, *o);
                            Rhs::Load(o, self.field(*field))
                        }
                        RhsAst::Call(callee, args) => {
                            let callee = self.callee(*callee, args.len());
                            Rhs::Call(callee, self.args(&mut fx, args))
                        }
                        RhsAst::Select(c, a, b) => {
                            let c = self.operand(&mut fx, *c);
                            let a = self.operand(&mut fx, *a);
                            Rhs::Select(c, a, self.operand(&mut fx, *b))
                        }
                        RhsAst::Closure(func, captured) => {
                            let func = self.closure(*func, captured.len());
                            Rhs::Closure(func, self.args(&mut fx, captured))
                        }
                        RhsAst::Apply(callee, args) => {
                            let callee = self.operand(&mut fx, *callee);
                            Rhs::Apply(callee, self.args(&mut fx, args))
                        }
                        RhsAst::Sibling(c, g) => {
                            let c = self.operand(&mut fx, *c);
                            Rhs::Sibling(c, self.function_named(*g))
                        }
                        RhsAst::MyClosure(pos) => {
                            if captures.is_empty() {
                                self.error(
                                    *pos,
                                    format!(
                                        "`closure self` is the closure `{}` was applied through, \
                                         but `{}` captures nothing, so it may be called directly; \
                                         give it a capture list `fn {}(…) [k] {{`",
                                        f.name.text, f.name.text, f.name.text
                                    ),
                                );
                            }
                            Rhs::MyClosure
                        }
                        RhsAst::Block(tag, fields) => {
                            let tag = self.small(*tag, "block tag");
                            Rhs::Block(tag, self.args(&mut fx, fields))
                        }
                        RhsAst::Field(b, index) => {
                            let b = self.operand(&mut fx, *b);
                            Rhs::Field(b, self.small(*index, "field position"))
                        }
                        RhsAst::Tag(a) => Rhs::Tag(self.operand(&mut fx, *a)),
                        RhsAst::IsBlock(a) => Rhs::IsBlock(self.operand(&mut fx, *a)),
                        RhsAst::Address(s) => Rhs::Address(self.symbol(*s)),
                        RhsAst::Table(entries, i) => {
                            let entries: Vec<i64> =
                                entries.iter().map(|w| self.literal(*w)).collect();
                            Rhs::Table(entries.into(), self.operand(&mut fx, *i))
                        }
                    };
                    block.stmts.push(Stmt::Assign { dest, rhs });
                }
                LineAst::Store {
                    object,
                    field,
                    value,
                } => {
                    let object = self.operand(&mut fx, *object);
                    let field = self.field(*field);
                    let value = self.operand(&mut fx, *value);
                    block.stmts.push(Stmt::Store {
                        object,
                        field,
                        value,
                    });
                }
                LineAst::Call { callee, args } => {
                    let callee = self.callee(*callee, args.len());
                    let args = self.args(&mut fx, args);
                    block.stmts.push(Stmt::Call { callee, args });
                }
                LineAst::Apply { callee, args } => {
                    let callee = self.operand(&mut fx, *callee);
                    let args = self.args(&mut fx, args);
                    block.stmts.push(Stmt::Apply { callee, args });
                }
                LineAst::Term(t) => {
                    block.term = self.terminator(&mut fx, t);
                    *terminated = true;
                }
            }
        }
        self.finish_block(&mut current, &mut blocks, duplicate_block);

        let mut func = Function::new(f.name.text.to_string(), f.ssa, params, fx.name_list, blocks);
        func.captures = captures;
        func.stack_allocations = stack_allocations;
        if self.errors.len() == errors_before {
            self.check_phis(&func, &phi_words);
        }
        func
    }

    /// Closes the block being read: reports a missing terminator and keeps the block unless
    /// its label was a duplicate.
    fn finish_block(
        &mut self,
        current: &mut Option<(Word<'t>, Block, bool)>,
        blocks: &mut Vec<Block>,
        skip: bool,
    ) {
        let Some((label, block, terminated)) = current.take() else {
            return;
        };
        if !terminated {
            self.error(
                label.pos,
                format!("block `{}` does not end with a terminator", label.text),
            );
        }
        if !skip {
            blocks.push(block);
        }
    }

    fn terminator(&mut self, fx: &mut FnCx<'t>, t: &TermAst<'t>) -> Terminator {
        match t {
            TermAst::Goto(l) => Terminator::Goto(self.label(fx, *l)),
            TermAst::Branch(cond, then_to, else_to) => {
                let cond = match cond {
                    CondAst::NonZero(a) => Cond::NonZero(self.operand(fx, *a)),
                    CondAst::Compare(op, a, b) => {
                        let a = self.operand(fx, *a);
                        Cond::Compare(*op, a, self.operand(fx, *b))
                    }
                };
                Terminator::Branch {
                    cond,
                    then_to: self.label(fx, *then_to),
                    else_to: self.label(fx, *else_to),
                }
            }
            TermAst::Switch(on, cases, default) => {
                let on = self.operand(fx, *on);
                let cases = cases
                    .iter()
                    .map(|&(value, target)| {
                        let value = match self.operand(fx, OperandAst::Int(value)) {
                            Operand::Int(v) => v,
                            Operand::Name(_) => 0,
                        };
                        (value, self.label(fx, target))
                    })
                    .collect();
                Terminator::Switch {
                    on,
                    cases,
                    default: self.label(fx, *default),
                }
            }
            TermAst::Return(o) => Terminator::Return(o.map(|o| self.operand(fx, o))),
            TermAst::Throw(o) => Terminator::Throw(o.map(|o| self.operand(fx, o))),
            TermAst::Unreachable => Terminator::Unreachable,
        }
    }

    /// Checks that every φ names each predecessor once per incoming edge and nothing else.
    fn check_phis(&mut self, func: &Function, phi_words: &[Vec<(usize, Vec<Word<'t>>)>]) {
        for (b, block) in func.blocks().iter().enumerate() {
            let b = BlockId::new(b);
            let preds = func.predecessors(b);
            let words = phi_words.get(b.index()).map_or(&[][..], Vec::as_slice);
            if b == func.entry() {
                if let Some((pos, _)) = words.first() {
                    self.error(
                        *pos,
                        format!(
                            "φ in the entry block `{}`, which is entered without an edge",
                            block.label
                        ),
                    );
                }
                continue;
            }
            for (phi, (phi_pos, from_words)) in block.phis.iter().zip(words) {
                for (i, &(from, _)) in phi.incoming.iter().enumerate() {
                    let pos = from_words.get(i).map_or(*phi_pos, |w| w.pos);
                    let edges = preds.iter().filter(|&&p| p == from).count();
                    let listed = phi.incoming[..=i]
                        .iter()
                        .filter(|(p, _)| *p == from)
                        .count();
                    let from_label = label_of(func, from);
                    if edges == 0 {
                        self.error(
                            pos,
                            format!("`{from_label}` is not a predecessor of `{}`", block.label),
                        );
                    } else if listed > edges {
                        self.error(pos, format!("`{from_label}` is listed twice in this φ"));
                    }
                }
                let mut missing: Vec<BlockId> = preds
                    .iter()
                    .copied()
                    .filter(|p| !phi.incoming.iter().any(|(q, _)| q == p))
                    .collect();
                missing.dedup();
                for p in missing {
                    self.error(
                        *phi_pos,
                        format!(
                            "φ has no value for predecessor `{}` of `{}`",
                            label_of(func, p),
                            block.label
                        ),
                    );
                }
            }
        }
    }
}

fn label_of(func: &Function, b: BlockId) -> &str {
    func.block(b).map_or("?", |b| b.label.as_str())
}

/// The label words of a φ line's incoming pairs.
fn incoming_words<'t>(n: usize, line: &LineAst<'t>) -> Vec<Word<'t>> {
    match line {
        LineAst::Phi { incoming, .. } => incoming.iter().take(n).map(|(w, _)| *w).collect(),
        _ => Vec::new(),
    }
}
