//! The printer of the core IR text format: writes a [`Module`] in canonical form.
//!
//! Canonical form is one function after another separated by a blank line, labels in column 0,
//! everything else indented by four spaces, single spaces around operators. Parsing the output
//! gives back an equal module whenever the module is canonical (see [`Module::canonicalize`]).

use std::fmt;

use absinthe::program::{BlockId, Cond, Operand, Phi, Rhs, Stmt, Terminator};

use crate::function::{Function, Module};

/// The text of `module` in canonical form.
pub fn print_module(module: &Module) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_module(&mut out, module);
    out
}

/// Writes `module` in canonical form.
pub fn write_module(out: &mut impl fmt::Write, module: &Module) -> fmt::Result {
    for (i, f) in module.functions.iter().enumerate() {
        if i > 0 {
            out.write_char('\n')?;
        }
        write_function(out, module, f)?;
    }
    Ok(())
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_module(f, self)
    }
}

/// Writes one function of `module` (which supplies field and callee names).
pub fn write_function(out: &mut impl fmt::Write, module: &Module, func: &Function) -> fmt::Result {
    let p = Printer { module, func };
    write!(out, "fn {}(", func.name)?;
    for (i, &param) in func.params.iter().enumerate() {
        if i > 0 {
            out.write_str(", ")?;
        }
        out.write_str(p.name(param))?;
    }
    out.write_char(')')?;
    if !func.captures.is_empty() {
        out.write_str(" [")?;
        for (i, &c) in func.captures.iter().enumerate() {
            if i > 0 {
                out.write_str(", ")?;
            }
            out.write_str(p.name(c))?;
        }
        out.write_char(']')?;
    }
    out.write_str(if func.ssa { " ssa {\n" } else { " {\n" })?;
    for (b, block) in func.blocks().iter().enumerate() {
        let b = BlockId::new(b);
        writeln!(out, "{}:", block.label)?;
        for phi in &block.phis {
            out.write_str("    ")?;
            p.phi(out, phi)?;
            out.write_char('\n')?;
        }
        for (i, stmt) in block.stmts.iter().enumerate() {
            out.write_str("    ")?;
            p.stmt(out, stmt)?;
            let new = matches!(stmt, Stmt::Assign { rhs: Rhs::New, .. });
            if new && func.is_stack_allocation(b, i) {
                out.write_str(" stack")?;
            }
            out.write_char('\n')?;
        }
        out.write_str("    ")?;
        p.term(out, &block.term)?;
        out.write_char('\n')?;
    }
    out.write_str("}\n")
}

impl Module {
    /// One statement of `func`, a function of this module, as the text format writes it (`x =
    /// y + 1`, `call f(x)`): for printing a solution's per-statement states beside the program.
    pub fn stmt_text(&self, func: &Function, stmt: &Stmt) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = Printer { module: self, func }.stmt(&mut out, stmt);
        out
    }

    /// The terminator of `func`'s block `b`, as the text format writes it (`br x < 10, body,
    /// done`); `None` when `func` has no block `b`.
    pub fn term_text(&self, func: &Function, b: BlockId) -> Option<String> {
        let block = func.block(b)?;
        let mut out = String::new();
        let _ = Printer { module: self, func }.term(&mut out, &block.term);
        Some(out)
    }
}

struct Printer<'a> {
    module: &'a Module,
    func: &'a Function,
}

impl Printer<'_> {
    fn name(&self, n: absinthe::program::NameId) -> &str {
        self.func.names.get(n.index()).map_or("?", String::as_str)
    }

    fn label(&self, b: BlockId) -> &str {
        self.func.block(b).map_or("?", |b| b.label.as_str())
    }

    fn operand(&self, out: &mut impl fmt::Write, o: Operand) -> fmt::Result {
        match o {
            Operand::Name(n) => out.write_str(self.name(n)),
            Operand::Int(v) => write!(out, "{v}"),
        }
    }

    fn call(
        &self,
        out: &mut impl fmt::Write,
        callee: absinthe::program::FuncId,
        args: &[Operand],
    ) -> fmt::Result {
        let name = self
            .module
            .function(callee)
            .map_or("?", |f| f.name.as_str());
        write!(out, "call {name}(")?;
        for (i, &a) in args.iter().enumerate() {
            if i > 0 {
                out.write_str(", ")?;
            }
            self.operand(out, a)?;
        }
        out.write_char(')')
    }

    fn phi(&self, out: &mut impl fmt::Write, phi: &Phi) -> fmt::Result {
        write!(out, "{} = phi [", self.name(phi.dest))?;
        for (i, &(from, o)) in phi.incoming.iter().enumerate() {
            if i > 0 {
                out.write_str(", ")?;
            }
            write!(out, "{}: ", self.label(from))?;
            self.operand(out, o)?;
        }
        out.write_char(']')
    }

    fn stmt(&self, out: &mut impl fmt::Write, stmt: &Stmt) -> fmt::Result {
        match stmt {
            Stmt::Assign { dest, rhs } => {
                write!(out, "{} = ", self.name(*dest))?;
                match rhs {
                    Rhs::Use(a) => self.operand(out, *a),
                    Rhs::Binary(op, a, b) => {
                        self.operand(out, *a)?;
                        write!(out, " {op} ")?;
                        self.operand(out, *b)
                    }
                    Rhs::New => out.write_str("new"),
                    Rhs::Load(o, field) => {
                        self.operand(out, *o)?;
                        write!(out, ".{}", self.module.field_name(*field))
                    }
                    Rhs::Call(callee, args) => self.call(out, *callee, args),
                    Rhs::Select(c, a, b) => {
                        out.write_str("select ")?;
                        self.operand(out, *c)?;
                        out.write_str(", ")?;
                        self.operand(out, *a)?;
                        out.write_str(", ")?;
                        self.operand(out, *b)
                    }
                    Rhs::Closure(f, captured) => {
                        let name = self.module.function(*f).map_or("?", |f| f.name.as_str());
                        write!(out, "closure {name} ")?;
                        self.operand_list(out, '[', captured, ']')
                    }
                    Rhs::Sibling(c, g) => {
                        let name = self.module.function(*g).map_or("?", |f| f.name.as_str());
                        write!(out, "closure {name} of ")?;
                        self.operand(out, *c)
                    }
                    Rhs::MyClosure => out.write_str("closure self"),
                    Rhs::Apply(callee, args) => self.apply(out, *callee, args),
                    Rhs::Block(tag, fields) => {
                        write!(out, "block {tag} ")?;
                        self.operand_list(out, '[', fields, ']')
                    }
                    Rhs::Address(s) => write!(out, "addr @{}", self.module.symbol_name(*s)),
                    Rhs::Table(entries, i) => {
                        out.write_str("table [")?;
                        for (k, v) in entries.iter().enumerate() {
                            if k > 0 {
                                out.write_str(", ")?;
                            }
                            write!(out, "{v}")?;
                        }
                        out.write_str("] ")?;
                        self.operand(out, *i)
                    }
                    Rhs::Field(block, index) => {
                        self.operand(out, *block)?;
                        write!(out, "[{index}]")
                    }
                    Rhs::Tag(a) => {
                        out.write_str("tag ")?;
                        self.operand(out, *a)
                    }
                    Rhs::IsBlock(a) => {
                        out.write_str("isblock ")?;
                        self.operand(out, *a)
                    }
                }
            }
            Stmt::Store {
                object,
                field,
                value,
            } => {
                self.operand(out, *object)?;
                write!(out, ".{} = ", self.module.field_name(*field))?;
                self.operand(out, *value)
            }
            Stmt::Call { callee, args } => self.call(out, *callee, args),
            Stmt::Apply { callee, args } => self.apply(out, *callee, args),
        }
    }

    fn apply(&self, out: &mut impl fmt::Write, callee: Operand, args: &[Operand]) -> fmt::Result {
        out.write_str("apply ")?;
        self.operand(out, callee)?;
        self.operand_list(out, '(', args, ')')
    }

    fn operand_list(
        &self,
        out: &mut impl fmt::Write,
        open: char,
        operands: &[Operand],
        close: char,
    ) -> fmt::Result {
        out.write_char(open)?;
        for (i, &a) in operands.iter().enumerate() {
            if i > 0 {
                out.write_str(", ")?;
            }
            self.operand(out, a)?;
        }
        out.write_char(close)
    }

    fn term(&self, out: &mut impl fmt::Write, term: &Terminator) -> fmt::Result {
        match term {
            Terminator::Goto(t) => write!(out, "goto {}", self.label(*t)),
            Terminator::Branch {
                cond,
                then_to,
                else_to,
            } => {
                out.write_str("br ")?;
                match *cond {
                    Cond::NonZero(a) => self.operand(out, a)?,
                    Cond::Compare(op, a, b) => {
                        self.operand(out, a)?;
                        write!(out, " {op} ")?;
                        self.operand(out, b)?;
                    }
                }
                write!(out, ", {}, {}", self.label(*then_to), self.label(*else_to))
            }
            Terminator::Switch { on, cases, default } => {
                out.write_str("switch ")?;
                self.operand(out, *on)?;
                out.write_str(" [")?;
                for (i, &(value, target)) in cases.iter().enumerate() {
                    if i > 0 {
                        out.write_str(", ")?;
                    }
                    write!(out, "{value}: {}", self.label(target))?;
                }
                write!(out, "], {}", self.label(*default))
            }
            Terminator::Return(o) => self.keyword_operand(out, "ret", *o),
            Terminator::Throw(o) => self.keyword_operand(out, "throw", *o),
            Terminator::Unreachable => out.write_str("unreachable"),
        }
    }

    fn keyword_operand(
        &self,
        out: &mut impl fmt::Write,
        keyword: &str,
        o: Option<Operand>,
    ) -> fmt::Result {
        out.write_str(keyword)?;
        if let Some(o) = o {
            out.write_char(' ')?;
            self.operand(out, o)?;
        }
        Ok(())
    }
}
