//! The parser of the toy language: pest parses the text, then instructions are numbered, names
//! interned in order of first appearance and jump targets checked against the instruction count.
//!
//! pest's `Pair` and `Rule` stay inside this module.

use std::collections::HashMap;

use absinthe::program::{Cond, NameId, Op, Operand};
use pest::Parser as _;
use pest::iterators::Pair;

use super::program::{Instr, ToyExpr, ToyProgram};
use crate::error::{ParseError, error_at, from_pest};

#[derive(pest_derive::Parser)]
#[grammar = "toy/toy.pest"]
struct ToyParser;

/// How a rule is named in an error message.
fn describe(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of file",
        Rule::assign | Rule::goto | Rule::cond_goto => "an instruction",
        Rule::binary | Rule::copy => "an expression",
        Rule::cond => "a condition",
        Rule::operand => "an operand",
        Rule::int => "an integer",
        Rule::target => "a jump target (an instruction number)",
        Rule::ident | Rule::word_char => "a name",
        Rule::op => "an operator",
        Rule::cmpop => "a comparison operator",
        Rule::at_goto => "`@goto`",
        Rule::andand => "`&&`",
        Rule::eq => "`=`",
        Rule::nl => "end of line",
        Rule::file | Rule::instr | Rule::WHITESPACE | Rule::COMMENT => "something else",
    }
}

struct Reader<'a> {
    file: &'a str,
    text: &'a str,
    names: HashMap<&'a str, NameId>,
    name_list: Vec<String>,
    errors: Vec<ParseError>,
    /// Jump targets with their byte offsets, checked once the instruction count is known.
    targets: Vec<(usize, &'a str)>,
}

impl<'a> Reader<'a> {
    fn name(&mut self, text: &'a str) -> NameId {
        if let Some(&n) = self.names.get(text) {
            return n;
        }
        let n = NameId::new(self.name_list.len());
        self.names.insert(text, n);
        self.name_list.push(text.to_string());
        n
    }

    fn operand(&mut self, pair: Pair<'a, Rule>) -> Operand {
        let Some(inner) = pair.into_inner().next() else {
            return Operand::Int(0);
        };
        if inner.as_rule() == Rule::ident {
            return Operand::Name(self.name(inner.as_str()));
        }
        match inner.as_str().parse::<i64>() {
            Ok(v) => Operand::Int(v),
            Err(_) => {
                self.errors.push(error_at(
                    self.file,
                    self.text,
                    inner.as_span().start(),
                    format!(
                        "integer literal `{}` does not fit in 64 bits",
                        inner.as_str()
                    ),
                ));
                Operand::Int(0)
            }
        }
    }

    fn target(&mut self, pair: Option<Pair<'a, Rule>>) -> usize {
        let Some(pair) = pair else { return 0 };
        self.targets.push((pair.as_span().start(), pair.as_str()));
        pair.as_str().parse::<usize>().unwrap_or(usize::MAX)
    }

    /// Reads `operand (op operand)?` from the children of an expression or a condition.
    fn operands(&mut self, pair: Pair<'a, Rule>) -> (Operand, Option<(Op, Operand)>) {
        let mut inner = pair.into_inner();
        let a = inner.next().map_or(Operand::Int(0), |p| self.operand(p));
        let Some(op) = inner.next() else {
            return (a, None);
        };
        let op = Op::from_symbol(op.as_str()).unwrap_or(Op::Eq);
        let b = inner.next().map_or(Operand::Int(0), |p| self.operand(p));
        (a, Some((op, b)))
    }

    fn instr(&mut self, pair: Pair<'a, Rule>) -> Option<Instr> {
        let rule = pair.as_rule();
        let mut inner = pair
            .into_inner()
            .filter(|p| !matches!(p.as_rule(), Rule::eq | Rule::andand | Rule::at_goto));
        Some(match rule {
            Rule::assign => {
                let dest = self.name(inner.next()?.as_str());
                let expr = inner.next()?;
                let rhs = match self.operands(expr) {
                    (a, None) => ToyExpr::Use(a),
                    (a, Some((op, b))) => ToyExpr::Binary(op, a, b),
                };
                Instr::Assign { dest, rhs }
            }
            Rule::goto => Instr::Goto(self.target(inner.next())),
            Rule::cond_goto => {
                let cond = match self.operands(inner.next()?) {
                    (a, None) => Cond::NonZero(a),
                    (a, Some((op, b))) => Cond::Compare(op, a, b),
                };
                let target = self.target(inner.next());
                Instr::CondGoto { cond, target }
            }
            _ => return None,
        })
    }
}

/// Parses toy text, reporting every error found.
pub(crate) fn parse_all(file: &str, text: &str) -> Result<ToyProgram, Vec<ParseError>> {
    let pairs = ToyParser::parse(Rule::file, text)
        .map_err(|e| vec![from_pest(file, text, &e, describe)])?;
    let mut reader = Reader {
        file,
        text,
        names: HashMap::new(),
        name_list: Vec::new(),
        errors: Vec::new(),
        targets: Vec::new(),
    };
    let mut instrs = Vec::new();
    for pair in pairs.flat_map(Pair::into_inner) {
        if let Some(instr) = reader.instr(pair) {
            instrs.push(instr);
        }
    }
    let count = instrs.len();
    for &(pos, digits) in &reader.targets {
        let in_range = digits.parse::<usize>().is_ok_and(|t| t <= count);
        if !in_range {
            reader.errors.push(error_at(
                file,
                text,
                pos,
                format!(
                    "jump target {digits} is past the end (there are {count} instructions, \
                     so the exit is {count})"
                ),
            ));
        }
    }
    if !reader.errors.is_empty() {
        reader.errors.sort_by_key(|e| (e.line, e.col));
        return Err(reader.errors);
    }
    Ok(ToyProgram {
        instrs,
        names: reader.name_list,
    })
}
