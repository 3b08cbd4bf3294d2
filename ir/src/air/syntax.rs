//! The first phase of reading `.air` text: pest parses it and this module turns the parse tree
//! into a small syntax tree of borrowed strings with byte offsets.
//!
//! pest's `Pair` and `Rule` stay inside this module; the next phase ([`super::sema`]) resolves
//! names and checks the rules the grammar cannot express.

use absinthe::program::Op;
use pest::Parser as _;
use pest::iterators::Pair;

use crate::error::{ParseError, from_pest};

#[derive(pest_derive::Parser)]
#[grammar = "air/air.pest"]
struct AirParser;

/// A word of the source and the byte offset it starts at.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Word<'a> {
    pub(crate) text: &'a str,
    pub(crate) pos: usize,
}

/// An operand as written: a name or the digits of an integer literal (range-checked later).
#[derive(Clone, Copy, Debug)]
pub(crate) enum OperandAst<'a> {
    Name(Word<'a>),
    Int(Word<'a>),
}

/// A right-hand side as written.
#[derive(Debug)]
pub(crate) enum RhsAst<'a> {
    Use(OperandAst<'a>),
    Binary(Op, OperandAst<'a>, OperandAst<'a>),
    /// `new`, or `new stack` (true).
    New(bool),
    Load(OperandAst<'a>, Word<'a>),
    Call(Word<'a>, Vec<OperandAst<'a>>),
    Select(OperandAst<'a>, OperandAst<'a>, OperandAst<'a>),
    Closure(Word<'a>, Vec<OperandAst<'a>>),
    /// `closure g of c`: function `g`'s slot in the set of closure `c`.
    Sibling(OperandAst<'a>, Word<'a>),
    /// `closure self`.
    MyClosure(usize),
    Apply(OperandAst<'a>, Vec<OperandAst<'a>>),
    /// The tag's digits (range-checked later) and the fields.
    Block(Word<'a>, Vec<OperandAst<'a>>),
    /// The block and the position's digits.
    Field(OperandAst<'a>, Word<'a>),
    Tag(OperandAst<'a>),
    IsBlock(OperandAst<'a>),
    /// `addr @g`: the symbol, without its `@`.
    Address(Word<'a>),
    /// `table [entries] i`: the entries' digits and the index.
    Table(Vec<Word<'a>>, OperandAst<'a>),
}

/// A branch condition as written.
#[derive(Debug)]
pub(crate) enum CondAst<'a> {
    NonZero(OperandAst<'a>),
    Compare(Op, OperandAst<'a>, OperandAst<'a>),
}

/// A terminator as written; block names are unresolved labels.
#[derive(Debug)]
pub(crate) enum TermAst<'a> {
    Goto(Word<'a>),
    Branch(CondAst<'a>, Word<'a>, Word<'a>),
    Switch(OperandAst<'a>, Vec<(Word<'a>, Word<'a>)>, Word<'a>),
    Return(Option<OperandAst<'a>>),
    Throw(Option<OperandAst<'a>>),
    Unreachable,
}

/// One line of a function body.
#[derive(Debug)]
pub(crate) enum LineAst<'a> {
    Label(Word<'a>),
    Phi {
        dest: Word<'a>,
        incoming: Vec<(Word<'a>, OperandAst<'a>)>,
    },
    Assign {
        dest: Word<'a>,
        rhs: RhsAst<'a>,
    },
    Store {
        object: OperandAst<'a>,
        field: Word<'a>,
        value: OperandAst<'a>,
    },
    Call {
        callee: Word<'a>,
        args: Vec<OperandAst<'a>>,
    },
    Apply {
        callee: OperandAst<'a>,
        args: Vec<OperandAst<'a>>,
    },
    Term(TermAst<'a>),
}

/// A line and the byte offset it starts at.
#[derive(Debug)]
pub(crate) struct Located<'a> {
    pub(crate) pos: usize,
    pub(crate) line: LineAst<'a>,
}

/// A function as written.
#[derive(Debug)]
pub(crate) struct FuncAst<'a> {
    pub(crate) name: Word<'a>,
    pub(crate) params: Vec<Word<'a>>,
    pub(crate) captures: Vec<Word<'a>>,
    pub(crate) ssa: bool,
    pub(crate) lines: Vec<Located<'a>>,
}

/// How a rule is named in an error message.
fn describe(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of file",
        Rule::function | Rule::kw_fn => "`fn`",
        Rule::label_def => "a block label",
        Rule::phi | Rule::store | Rule::assign | Rule::call_stmt | Rule::apply_stmt => {
            "a statement"
        }
        Rule::goto | Rule::br | Rule::switch | Rule::ret | Rule::throw | Rule::unreachable => {
            "a terminator"
        }
        Rule::new_rhs
        | Rule::call
        | Rule::select_rhs
        | Rule::operand_rhs
        | Rule::apply
        | Rule::closure_rhs
        | Rule::self_rhs
        | Rule::slot_rhs
        | Rule::block_rhs
        | Rule::tag_rhs
        | Rule::isblock_rhs
        | Rule::addr_rhs
        | Rule::table_rhs => "an expression",
        Rule::symbol => "a symbol `@name`",
        Rule::load_tail => "`.`",
        Rule::index_tail => "`[`",
        Rule::captures => "a capture list `[name, …]`",
        Rule::binary_tail => "an operator",
        Rule::operand => "an operand",
        Rule::int => "an integer",
        Rule::ident | Rule::keyword | Rule::word_char => "a name",
        Rule::incoming => "an incoming `label: operand`",
        Rule::case => "a case `integer: label`",
        Rule::params | Rule::args => "a list",
        Rule::cond => "a condition",
        Rule::binop => "an operator",
        Rule::cmpop => "a comparison operator",
        Rule::kw_ssa => "`ssa`",
        Rule::kw_phi => "`phi`",
        Rule::kw_new => "`new`",
        Rule::kw_stack => "`stack`",
        Rule::kw_select => "`select`",
        Rule::kw_call => "`call`",
        Rule::kw_closure => "`closure`",
        Rule::kw_apply => "`apply`",
        Rule::kw_self => "`self`",
        Rule::kw_of => "`of`",
        Rule::kw_block => "`block`",
        Rule::kw_tag => "`tag`",
        Rule::kw_isblock => "`isblock`",
        Rule::kw_addr => "`addr`",
        Rule::kw_table => "`table`",
        Rule::kw_goto
        | Rule::kw_br
        | Rule::kw_switch
        | Rule::kw_ret
        | Rule::kw_throw
        | Rule::kw_unreachable => "a terminator",
        Rule::eq => "`=`",
        Rule::colon => "`:`",
        Rule::comma => "`,`",
        Rule::dot => "`.`",
        Rule::lparen => "`(`",
        Rule::rparen => "`)`",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::lbrack => "`[`",
        Rule::rbrack => "`]`",
        Rule::nl => "end of line",
        Rule::file | Rule::line | Rule::WHITESPACE | Rule::COMMENT => "something else",
    }
}

/// Parses `text` into function syntax trees, or reports the first syntax error.
pub(crate) fn parse<'a>(file: &str, text: &'a str) -> Result<Vec<FuncAst<'a>>, ParseError> {
    let pairs =
        AirParser::parse(Rule::file, text).map_err(|e| from_pest(file, text, &e, describe))?;
    let mut funcs = Vec::new();
    for pair in pairs.flat_map(Pair::into_inner) {
        if pair.as_rule() == Rule::function {
            funcs.push(function(pair));
        }
    }
    Ok(funcs)
}

fn word(pair: Pair<'_, Rule>) -> Word<'_> {
    Word {
        text: pair.as_str(),
        pos: pair.as_span().start(),
    }
}

/// The children of `pair` without the punctuation and keyword tokens.
fn parts(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner().filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::eq
                | Rule::colon
                | Rule::comma
                | Rule::dot
                | Rule::lparen
                | Rule::rparen
                | Rule::lbrace
                | Rule::rbrace
                | Rule::lbrack
                | Rule::rbrack
                | Rule::nl
                | Rule::kw_fn
                | Rule::kw_phi
                | Rule::kw_call
                | Rule::kw_goto
                | Rule::kw_br
                | Rule::kw_switch
                | Rule::kw_ret
                | Rule::kw_throw
                | Rule::kw_unreachable
                | Rule::kw_select
                | Rule::kw_closure
                | Rule::kw_self
                | Rule::kw_of
                | Rule::kw_apply
                | Rule::kw_block
                | Rule::kw_tag
                | Rule::kw_isblock
                | Rule::kw_addr
                | Rule::kw_table
        )
    })
}

fn function(pair: Pair<'_, Rule>) -> FuncAst<'_> {
    let mut name = Word { text: "", pos: 0 };
    let mut params = Vec::new();
    let mut captures = Vec::new();
    let mut ssa = false;
    let mut lines = Vec::new();
    for p in parts(pair) {
        match p.as_rule() {
            Rule::ident => name = word(p),
            Rule::params => params = parts(p).map(word).collect(),
            Rule::captures => captures = parts(p).map(word).collect(),
            Rule::kw_ssa => ssa = true,
            _ => {
                let pos = p.as_span().start();
                if let Some(line) = line(p) {
                    lines.push(Located { pos, line });
                }
            }
        }
    }
    FuncAst {
        name,
        params,
        captures,
        ssa,
        lines,
    }
}

fn operand(pair: Pair<'_, Rule>) -> OperandAst<'_> {
    let inner = pair.into_inner().next();
    match inner {
        Some(p) if p.as_rule() == Rule::int => OperandAst::Int(word(p)),
        Some(p) => OperandAst::Name(word(p)),
        None => OperandAst::Int(Word { text: "", pos: 0 }),
    }
}

/// The operator spelled by an operator token (the grammar only admits known symbols).
fn op(pair: Pair<'_, Rule>) -> Op {
    Op::from_symbol(pair.as_str()).unwrap_or(Op::Eq)
}

/// Collects the children of a rule whose shape the grammar fixes.
struct Children<'a> {
    inner: Vec<Pair<'a, Rule>>,
    next: usize,
}

impl<'a> Children<'a> {
    fn of(pair: Pair<'a, Rule>) -> Children<'a> {
        Children {
            inner: parts(pair).collect(),
            next: 0,
        }
    }

    fn take(&mut self) -> Option<Pair<'a, Rule>> {
        let p = self.inner.get(self.next).cloned();
        self.next += 1;
        p
    }

    fn word(&mut self) -> Word<'a> {
        self.take().map_or(Word { text: "", pos: 0 }, word)
    }

    fn operand(&mut self) -> OperandAst<'a> {
        self.take()
            .map_or(OperandAst::Int(Word { text: "", pos: 0 }), operand)
    }

    fn op(&mut self) -> Op {
        self.take().map_or(Op::Eq, op)
    }

    fn rest(&mut self) -> Vec<Pair<'a, Rule>> {
        let rest = self.inner.get(self.next..).unwrap_or(&[]).to_vec();
        self.next = self.inner.len();
        rest
    }
}

fn call(pair: Pair<'_, Rule>) -> (Word<'_>, Vec<OperandAst<'_>>) {
    let mut c = Children::of(pair);
    let callee = c.word();
    let args = c
        .take()
        .map(|a| parts(a).map(operand).collect())
        .unwrap_or_default();
    (callee, args)
}

/// `apply c(args)`: the callee operand and the arguments.
fn apply(pair: Pair<'_, Rule>) -> (OperandAst<'_>, Vec<OperandAst<'_>>) {
    let mut c = Children::of(pair);
    let callee = c.operand();
    let args = c
        .take()
        .map(|a| parts(a).map(operand).collect())
        .unwrap_or_default();
    (callee, args)
}

/// The operands of an `args` list that follows a name or an integer (`closure f [..]`,
/// `block 3 [..]`).
fn head_and_args(pair: Pair<'_, Rule>) -> (Word<'_>, Vec<OperandAst<'_>>) {
    let mut c = Children::of(pair);
    let head = c.word();
    let args = c
        .take()
        .map(|a| parts(a).map(operand).collect())
        .unwrap_or_default();
    (head, args)
}

fn cond(pair: Pair<'_, Rule>) -> CondAst<'_> {
    let mut c = Children::of(pair);
    let a = c.operand();
    if c.inner.len() < 3 {
        return CondAst::NonZero(a);
    }
    let op = c.op();
    CondAst::Compare(op, a, c.operand())
}

fn rhs(pair: Pair<'_, Rule>) -> RhsAst<'_> {
    match pair.as_rule() {
        Rule::new_rhs => RhsAst::New(pair.into_inner().any(|p| p.as_rule() == Rule::kw_stack)),
        Rule::select_rhs => {
            let mut c = Children::of(pair);
            let cond = c.operand();
            let a = c.operand();
            RhsAst::Select(cond, a, c.operand())
        }
        Rule::call => {
            let (callee, args) = call(pair);
            RhsAst::Call(callee, args)
        }
        Rule::apply => {
            let (callee, args) = apply(pair);
            RhsAst::Apply(callee, args)
        }
        Rule::closure_rhs => {
            let (f, captured) = head_and_args(pair);
            RhsAst::Closure(f, captured)
        }
        Rule::self_rhs => RhsAst::MyClosure(pair.as_span().start()),
        Rule::slot_rhs => {
            let mut c = Children::of(pair);
            let g = c.word();
            RhsAst::Sibling(c.operand(), g)
        }
        Rule::block_rhs => {
            let (tag, fields) = head_and_args(pair);
            RhsAst::Block(tag, fields)
        }
        Rule::tag_rhs => RhsAst::Tag(Children::of(pair).operand()),
        Rule::isblock_rhs => RhsAst::IsBlock(Children::of(pair).operand()),
        Rule::table_rhs => {
            let mut parts = Children::of(pair).rest();
            let index = parts
                .pop()
                .map_or(OperandAst::Int(Word { text: "", pos: 0 }), operand);
            RhsAst::Table(parts.into_iter().map(word).collect(), index)
        }
        Rule::addr_rhs => {
            let symbol = Children::of(pair).word();
            RhsAst::Address(Word {
                text: symbol.text.strip_prefix('@').unwrap_or(symbol.text),
                pos: symbol.pos + 1,
            })
        }
        _ => {
            let mut c = Children::of(pair);
            let a = c.operand();
            let Some(tail) = c.take() else {
                return RhsAst::Use(a);
            };
            let rule = tail.as_rule();
            let mut t = Children::of(tail);
            if rule == Rule::load_tail {
                RhsAst::Load(a, t.word())
            } else if rule == Rule::index_tail {
                RhsAst::Field(a, t.word())
            } else {
                let op = t.op();
                RhsAst::Binary(op, a, t.operand())
            }
        }
    }
}

fn line(pair: Pair<'_, Rule>) -> Option<LineAst<'_>> {
    let rule = pair.as_rule();
    let mut c = Children::of(pair);
    Some(match rule {
        Rule::label_def => LineAst::Label(c.word()),
        Rule::phi => {
            let dest = c.word();
            let incoming = c
                .rest()
                .into_iter()
                .map(|inc| {
                    let mut c = Children::of(inc);
                    let from = c.word();
                    (from, c.operand())
                })
                .collect();
            LineAst::Phi { dest, incoming }
        }
        Rule::store => {
            let object = c.operand();
            let field = c.word();
            LineAst::Store {
                object,
                field,
                value: c.operand(),
            }
        }
        Rule::assign => {
            let dest = c.word();
            let rhs = rhs(c.take()?);
            LineAst::Assign { dest, rhs }
        }
        Rule::call_stmt => {
            let (callee, args) = call(c.take()?);
            LineAst::Call { callee, args }
        }
        Rule::apply_stmt => {
            let (callee, args) = apply(c.take()?);
            LineAst::Apply { callee, args }
        }
        Rule::goto => LineAst::Term(TermAst::Goto(c.word())),
        Rule::br => {
            let cond = cond(c.take()?);
            let then_to = c.word();
            LineAst::Term(TermAst::Branch(cond, then_to, c.word()))
        }
        Rule::switch => {
            let on = c.operand();
            let mut rest = c.rest();
            let default = rest.pop().map_or(Word { text: "", pos: 0 }, word);
            let cases = rest
                .into_iter()
                .map(|case| {
                    let mut c = Children::of(case);
                    let value = c.word();
                    (value, c.word())
                })
                .collect();
            LineAst::Term(TermAst::Switch(on, cases, default))
        }
        Rule::ret => LineAst::Term(TermAst::Return(c.take().map(operand))),
        Rule::throw => LineAst::Term(TermAst::Throw(c.take().map(operand))),
        Rule::unreachable => LineAst::Term(TermAst::Unreachable),
        _ => return None,
    })
}
