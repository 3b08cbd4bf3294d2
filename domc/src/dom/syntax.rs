//! Parsing: `.dom` text → [`ast::File`](super::ast::File). pest's `Pair` and `Rule` never leave
//! this module; a syntax error becomes one [`Diagnostic`] saying what was expected, in words.

use super::ast::*;
use crate::diagnostic::{Diagnostic, FileId};
use pest::Parser;
use pest::iterators::Pair;
use std::ops::Range;

pub use super::parser::MAX_NESTING;
use super::parser::{DomParser, Rule};
use super::syntax_errors::{nesting_error, syntax_error, too_deep};

/// Parses the text of file `id`.
pub fn parse(id: FileId, text: &str) -> Result<File, Diagnostic> {
    let mut pairs = DomParser::parse(Rule::file, text).map_err(|e| syntax_error(id, text, e))?;
    if let Some(at) = too_deep(&pairs) {
        let message = format!("this nests more than {MAX_NESTING} levels deep");
        return Err(nesting_error(id, text, at, message));
    }
    let file = pairs.next().map(Pair::into_inner);
    let mut items = Vec::new();
    for pair in file.into_iter().flatten() {
        if pair.as_rule() == Rule::EOI {
            continue;
        }
        if let Some(item) = item(pair) {
            items.push(item);
        }
    }
    Ok(File { id, items })
}

/// Whether a pair carries meaning (punctuation is named in the grammar only for messages).
fn significant(pair: &Pair<'_, Rule>) -> bool {
    !matches!(pair.as_rule(), Rule::semi | Rule::else_kw)
}

/// The pair's byte range, without the whitespace pest may have consumed after its last token.
fn span(pair: &Pair<'_, Rule>) -> Range<usize> {
    let s = pair.as_span();
    let trimmed = pair.as_str().trim_end().len();
    s.start()..s.start() + trimmed
}

fn name(pair: Pair<'_, Rule>) -> Name {
    Name {
        span: span(&pair),
        text: pair.as_str().to_string(),
    }
}

fn string_value(pair: &Pair<'_, Rule>) -> String {
    let s = pair.as_str();
    s[1..s.len() - 1].to_string()
}

fn int_value(pair: &Pair<'_, Rule>) -> u64 {
    // A literal too large for u64 saturates and sema reports it.
    let (value, _) = literal(pair.as_str());
    value.unwrap_or(u64::MAX)
}

/// A literal's value (`None` when it has more than 64 bits) and whether it is hexadecimal or
/// binary (a bit pattern rather than a number).
fn literal(text: &str) -> (Option<u64>, bool) {
    let digits: String = text.chars().filter(|c| *c != '_').collect();
    if let Some(hex) = digits.strip_prefix("0x") {
        (u64::from_str_radix(hex, 16).ok(), true)
    } else if let Some(bin) = digits.strip_prefix("0b") {
        (u64::from_str_radix(bin, 2).ok(), true)
    } else {
        (digits.parse().ok(), false)
    }
}

fn item(pair: Pair<'_, Rule>) -> Option<Item> {
    let whole = span(&pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner().filter(significant);
    Some(match rule {
        Rule::import => {
            let path = inner.next().map(|p| string_value(&p)).unwrap_or_default();
            Item::Import { path, span: whole }
        }
        Rule::extern_type => {
            Item::ExternType(inner.next().map(name).unwrap_or_else(|| empty_name(&whole)))
        }
        Rule::extern_fn => Item::ExternFn(signature(inner, whole)),
        Rule::type_alias => {
            let n = inner.next().map(name).unwrap_or_else(|| empty_name(&whole));
            let t = inner.next().map(ty).unwrap_or_else(|| unit_type(&whole));
            Item::TypeAlias(n, t)
        }
        Rule::function => {
            let (sig, body) = signature_and_body(inner, whole);
            Item::Function(sig, body)
        }
        Rule::meet_ext => {
            let (sig, body) = signature_and_body(inner, whole);
            Item::MeetExt(sig, body)
        }
        Rule::lattice => lattice(inner, whole),
        Rule::product => product(inner, whole),
        Rule::transfer => transfer(inner, whole),
        Rule::analysis => analysis(inner, whole),
        _ => return None,
    })
}

fn empty_name(span: &Range<usize>) -> Name {
    Name {
        text: String::new(),
        span: span.clone(),
    }
}

fn signature<'a>(
    mut inner: impl Iterator<Item = Pair<'a, Rule>>,
    whole: Range<usize>,
) -> Signature {
    let name = inner.next().map(name).unwrap_or_else(|| empty_name(&whole));
    let mut params = Vec::new();
    let mut result = None;
    let mut recursion = None;
    for pair in inner {
        match pair.as_rule() {
            Rule::params => params = parameters(pair),
            Rule::ty => result = Some(ty(pair)),
            Rule::recursion => {
                let limit = pair.into_inner().find(|p| p.as_rule() == Rule::int);
                recursion = limit.map(|n| (literal(n.as_str()).0, span(&n)));
            }
            _ => {}
        }
    }
    Signature {
        name,
        params,
        result: result.unwrap_or_else(|| unit_type(&whole)),
        recursion,
        span: whole,
    }
}

fn unit_type(span: &Range<usize>) -> Type {
    Type::Tuple(Vec::new(), span.clone())
}

fn signature_and_body<'a>(
    inner: impl Iterator<Item = Pair<'a, Rule>>,
    whole: Range<usize>,
) -> (Signature, Expr) {
    let pairs: Vec<Pair<'a, Rule>> = inner.collect();
    let body = pairs
        .iter()
        .rev()
        .find(|p| p.as_rule() == Rule::expr)
        .cloned()
        .map(expr)
        .unwrap_or_else(|| bool_expr(&whole));
    let sig = signature(
        pairs.into_iter().filter(|p| p.as_rule() != Rule::expr),
        whole,
    );
    (sig, body)
}

fn bool_expr(span: &Range<usize>) -> Expr {
    Expr {
        kind: ExprKind::Bool(false),
        span: span.clone(),
    }
}

fn parameters(pair: Pair<'_, Rule>) -> Vec<(Name, Type)> {
    pair.into_inner()
        .filter(significant)
        .map(|param| {
            let whole = span(&param);
            let mut inner = param.into_inner().filter(significant);
            let n = inner.next().map(name).unwrap_or_else(|| empty_name(&whole));
            let t = inner.next().map(ty).unwrap_or_else(|| unit_type(&whole));
            (n, t)
        })
        .collect()
}

fn ty(pair: Pair<'_, Rule>) -> Type {
    let whole = span(&pair);
    let Some(inner) = pair.into_inner().find(significant) else {
        return unit_type(&whole);
    };
    match inner.as_rule() {
        Rule::tuple_ty => Type::Tuple(
            inner.into_inner().filter(significant).map(ty).collect(),
            whole,
        ),
        _ => {
            let mut parts = inner.into_inner().filter(significant);
            let n = parts.next().map(name).unwrap_or_else(|| empty_name(&whole));
            let args = parts
                .map(|arg| {
                    let arg_span = span(&arg);
                    match arg.into_inner().find(significant) {
                        Some(p) if p.as_rule() == Rule::int => {
                            TypeArg::Int(int_value(&p), arg_span)
                        }
                        Some(p) => TypeArg::Type(ty(p)),
                        None => TypeArg::Int(0, arg_span),
                    }
                })
                .collect();
            Type::Named {
                name: n,
                args,
                span: whole,
            }
        }
    }
}

fn lattice<'a>(mut inner: impl Iterator<Item = Pair<'a, Rule>>, whole: Range<usize>) -> Item {
    let n = inner.next().map(name).unwrap_or_else(|| empty_name(&whole));
    let body = match inner.next() {
        Some(b) => match b.as_rule() {
            Rule::flat_body => LatticeBody::Flat(
                b.into_inner()
                    .find(significant)
                    .map(ty)
                    .unwrap_or_else(|| unit_type(&whole)),
            ),
            Rule::finite_body => {
                let mut chains = Vec::new();
                let mut written = Vec::new();
                for part in b.into_inner().filter(significant) {
                    match part.as_rule() {
                        Rule::chain => {
                            chains.push(part.into_inner().filter(significant).map(name).collect())
                        }
                        _ => written = overrides(part),
                    }
                }
                LatticeBody::Finite(chains, written)
            }
            Rule::sum_body => {
                let mut summands = Vec::new();
                let mut written = Vec::new();
                for part in b.into_inner().filter(significant) {
                    match part.as_rule() {
                        Rule::summand => {
                            let mut parts = part.into_inner().filter(significant);
                            let v = parts.next().map(name).unwrap_or_else(|| empty_name(&whole));
                            summands.push((v, parts.next().map(ty)));
                        }
                        _ => written = overrides(part),
                    }
                }
                LatticeBody::Sum(summands, written)
            }
            _ => {
                let mut smash = false;
                let mut fields = Vec::new();
                let mut written = Vec::new();
                for part in b.into_inner().filter(significant) {
                    match part.as_rule() {
                        Rule::smash => smash = true,
                        Rule::field => {
                            let mut f = part.into_inner().filter(significant);
                            let fname = f.next().map(name).unwrap_or_else(|| empty_name(&whole));
                            let fty = f.next().map(ty).unwrap_or_else(|| unit_type(&whole));
                            fields.push((fname, fty));
                        }
                        Rule::overrides => written.extend(overrides(part)),
                        _ => {}
                    }
                }
                LatticeBody::Struct {
                    smash,
                    fields,
                    overrides: written,
                }
            }
        },
        None => LatticeBody::Finite(Vec::new(), Vec::new()),
    };
    Item::Lattice(Lattice {
        name: n,
        body,
        span: whole,
    })
}

/// The written-out operations of a `with { … }` block.
fn overrides(pair: Pair<'_, Rule>) -> Vec<Override> {
    pair.into_inner()
        .filter(significant)
        .map(|def| {
            let def_span = span(&def);
            let mut d = def.into_inner().filter(significant);
            let op = d.next().map(name).unwrap_or_else(|| empty_name(&def_span));
            let mut d = d.peekable();
            let params = match d.peek() {
                Some(l) if l.as_rule() == Rule::ident_list => d
                    .next()
                    .map(|l| l.into_inner().filter(significant).map(name).collect())
                    .unwrap_or_default(),
                _ => Vec::new(),
            };
            let body = d.next().map(expr).unwrap_or_else(|| bool_expr(&def_span));
            Override {
                op,
                params,
                body,
                span: def_span,
            }
        })
        .collect()
}

fn product<'a>(mut inner: impl Iterator<Item = Pair<'a, Rule>>, whole: Range<usize>) -> Item {
    let n = inner.next().map(name).unwrap_or_else(|| empty_name(&whole));
    let mut policy = None;
    let mut direct = None;
    let mut components = Vec::new();
    for part in inner {
        match part.as_rule() {
            Rule::reduce_opt => {
                let s = span(&part);
                let Some(p) = part
                    .into_inner()
                    .find(significant)
                    .and_then(|p| p.into_inner().find(significant))
                else {
                    continue;
                };
                let value = match p.as_rule() {
                    Rule::never => PolicyAst::Never,
                    Rule::once => PolicyAst::Once,
                    _ => {
                        PolicyAst::Fixpoint(p.into_inner().find(significant).map(|k| int_value(&k)))
                    }
                };
                policy = Some((value, s));
            }
            Rule::direct_opt => direct = part.into_inner().find(significant).map(name),
            Rule::component => {
                let mut c = part.into_inner().filter(significant);
                let cname = c.next().map(name).unwrap_or_else(|| empty_name(&whole));
                let cty = c.next().map(ty).unwrap_or_else(|| unit_type(&whole));
                let mut uses = false;
                let mut relation = None;
                for option in c {
                    match option.as_rule() {
                        Rule::uses => uses = true,
                        Rule::relation => {
                            let s = span(&option);
                            relation = option
                                .into_inner()
                                .find(|p| p.as_rule() == Rule::int)
                                .map(|k| (int_value(&k), s));
                        }
                        _ => {}
                    }
                }
                components.push(ComponentAst {
                    name: cname,
                    ty: cty,
                    uses,
                    relation,
                });
            }
            _ => {}
        }
    }
    Item::Product(Product {
        name: n,
        policy,
        direct,
        components,
        span: whole,
    })
}

fn transfer<'a>(inner: impl Iterator<Item = Pair<'a, Rule>>, whole: Range<usize>) -> Item {
    let pairs: Vec<Pair<'a, Rule>> = inner.collect();
    let (trigger, trigger_span) = pairs
        .iter()
        .find(|p| p.as_rule() == Rule::trigger)
        .map(|t| {
            let s = span(t);
            let kind = t.clone().into_inner().find(significant);
            let trigger = match kind {
                Some(k) if k.as_rule() == Rule::literal_t => Trigger::Literal,
                Some(k) if k.as_rule() == Rule::address_t => Trigger::Address,
                Some(k) if k.as_rule() == Rule::any_t => Trigger::AnyOp,
                Some(k) if k.as_rule() == Rule::hook_t => match k.as_str() {
                    "cond" => Trigger::Cond,
                    "param" => Trigger::Param,
                    "apply" => Trigger::Apply,
                    _ => Trigger::Function,
                },
                Some(k) if k.as_rule() == Rule::backward_t => {
                    match k
                        .into_inner()
                        .find(|p| significant(p) && p.as_rule() != Rule::backward_kw)
                    {
                        Some(s) if s.as_rule() == Rule::string => Trigger::Demand(string_value(&s)),
                        Some(s) if s.as_rule() == Rule::any_t => Trigger::DemandAny,
                        Some(s) if s.as_str() == "copy" => Trigger::DemandCopy,
                        _ => Trigger::Observe,
                    }
                }
                Some(k) if k.as_rule() == Rule::assume_t => {
                    match k.into_inner().find(significant) {
                        Some(s) if s.as_rule() == Rule::string => Trigger::Assume(string_value(&s)),
                        _ => Trigger::AnyAssume,
                    }
                }
                Some(k) => Trigger::Op(
                    k.into_inner()
                        .find(significant)
                        .map(|s| string_value(&s))
                        .unwrap_or_default(),
                ),
                None => Trigger::AnyOp,
            };
            (trigger, s)
        })
        .unwrap_or((Trigger::AnyOp, whole.clone()));
    let (sig, body) = signature_and_body(
        pairs.into_iter().filter(|p| p.as_rule() != Rule::trigger),
        whole,
    );
    Item::Transfer(Transfer {
        sig,
        trigger,
        trigger_span,
        body,
    })
}

fn analysis<'a>(mut inner: impl Iterator<Item = Pair<'a, Rule>>, whole: Range<usize>) -> Item {
    let n = inner.next().map(name).unwrap_or_else(|| empty_name(&whole));
    let settings = inner
        .map(|entry| {
            let entry_span = span(&entry);
            let mut parts = entry.into_inner().filter(significant);
            let key = parts
                .next()
                .map(name)
                .unwrap_or_else(|| empty_name(&entry_span));
            let values = parts
                .filter_map(|s| s.into_inner().find(significant))
                .map(|v| match v.as_rule() {
                    Rule::int => Setting::Int(int_value(&v), span(&v)),
                    Rule::neg_int => {
                        let magnitude = v.clone().into_inner().next().map_or(0, |i| int_value(&i));
                        Setting::Neg(magnitude, span(&v))
                    }
                    Rule::string => Setting::Str(string_value(&v), span(&v)),
                    _ => Setting::Word(name(v)),
                })
                .collect();
            (key, values)
        })
        .collect();
    Item::Analysis(Analysis {
        name: n,
        settings,
        span: whole,
    })
}

fn expr(pair: Pair<'_, Rule>) -> Expr {
    let whole = span(&pair);
    match pair.as_rule() {
        Rule::expr | Rule::block => match pair.into_inner().find(significant) {
            Some(inner) => expr(inner),
            None => bool_expr(&whole),
        },
        Rule::paren => {
            let mut items: Vec<Expr> = pair.into_inner().filter(significant).map(expr).collect();
            match items.len() {
                0 => bool_expr(&whole),
                1 => items.remove(0),
                _ => Expr {
                    kind: ExprKind::Tuple(items),
                    span: whole,
                },
            }
        }
        Rule::let_expr => {
            let mut inner = pair.into_inner().filter(significant);
            let binder = inner.next();
            let value = inner.next().map(expr).unwrap_or_else(|| bool_expr(&whole));
            let body = inner.next().map(expr).unwrap_or_else(|| bool_expr(&whole));
            let kind = match binder {
                Some(tuple) if tuple.as_rule() == Rule::let_tuple => {
                    let parts = tuple
                        .into_inner()
                        .filter(significant)
                        .map(|binder| match binder.into_inner().find(significant) {
                            Some(n) if n.as_rule() == Rule::ident => Some(name(n)),
                            _ => None,
                        })
                        .collect();
                    ExprKind::LetTuple(parts, Box::new(value), Box::new(body))
                }
                binder => {
                    let n = binder.map(name).unwrap_or_else(|| empty_name(&whole));
                    ExprKind::Let(n, Box::new(value), Box::new(body))
                }
            };
            Expr { kind, span: whole }
        }
        Rule::if_expr => {
            let mut inner = pair.into_inner().filter(significant);
            let c = inner.next().map(expr).unwrap_or_else(|| bool_expr(&whole));
            let t = inner.next().map(expr).unwrap_or_else(|| bool_expr(&whole));
            let e = inner.next().map(expr).unwrap_or_else(|| bool_expr(&whole));
            Expr {
                kind: ExprKind::If(Box::new(c), Box::new(t), Box::new(e)),
                span: whole,
            }
        }
        Rule::match_expr => {
            let mut inner = pair.into_inner().filter(significant);
            let scrutinee = inner.next().map(expr).unwrap_or_else(|| bool_expr(&whole));
            let arms = inner
                .map(|arm| {
                    let arm_span = span(&arm);
                    let parts: Vec<Pair<'_, Rule>> = arm.into_inner().filter(significant).collect();
                    let (body, patterns) = match parts.split_last() {
                        Some((body, patterns)) => (
                            expr(body.clone()),
                            patterns.iter().cloned().map(pattern).collect(),
                        ),
                        None => (bool_expr(&arm_span), Vec::new()),
                    };
                    Arm { patterns, body }
                })
                .collect();
            Expr {
                kind: ExprKind::Match(Box::new(scrutinee), arms),
                span: whole,
            }
        }
        Rule::or_expr
        | Rule::and_expr
        | Rule::add_expr
        | Rule::mul_expr
        | Rule::cmp_expr
        | Rule::bitor_expr
        | Rule::bitxor_expr
        | Rule::bitand_expr
        | Rule::shift_expr => {
            let mut inner = pair.into_inner().filter(significant);
            let mut left = inner.next().map(expr).unwrap_or_else(|| bool_expr(&whole));
            while let (Some(op), Some(right)) = (inner.next(), inner.next()) {
                let op = binary_op(op.as_str());
                let right = expr(right);
                let span = left.span.start..right.span.end;
                left = Expr {
                    kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
                    span,
                };
            }
            left
        }
        Rule::unary => {
            let parts: Vec<Pair<'_, Rule>> = pair.into_inner().filter(significant).collect();
            let Some((operand, ops)) = parts.split_last() else {
                return bool_expr(&whole);
            };
            let mut e = expr(operand.clone());
            for op in ops.iter().rev() {
                let op = match op.as_str() {
                    "!" => UnaryOp::Not,
                    "~" => UnaryOp::BitNot,
                    _ => UnaryOp::Neg,
                };
                e = Expr {
                    span: whole.start..e.span.end,
                    kind: ExprKind::Unary(op, Box::new(e)),
                };
            }
            e
        }
        Rule::postfix => {
            let mut inner = pair.into_inner().filter(significant);
            let mut e = inner.next().map(expr).unwrap_or_else(|| bool_expr(&whole));
            for access in inner {
                let access_span = span(&access);
                let field = access
                    .into_inner()
                    .find(significant)
                    .map(name)
                    .unwrap_or_else(|| empty_name(&access_span));
                e = Expr {
                    span: e.span.start..access_span.end,
                    kind: ExprKind::Field(Box::new(e), field),
                };
            }
            e
        }
        Rule::primary => match pair.into_inner().find(significant) {
            Some(inner) => expr(inner),
            None => bool_expr(&whole),
        },
        Rule::int => Expr {
            kind: match literal(pair.as_str()) {
                (value, true) => ExprKind::Bits(value),
                (value, false) => ExprKind::Int(value.unwrap_or(u64::MAX)),
            },
            span: whole,
        },
        Rule::bool_lit => Expr {
            kind: ExprKind::Bool(pair.as_str() == "true"),
            span: whole,
        },
        Rule::call => {
            let mut inner = pair.into_inner().filter(significant);
            let path = inner.next().map(path).unwrap_or_default();
            Expr {
                kind: ExprKind::Call(path, inner.map(expr).collect()),
                span: whole,
            }
        }
        Rule::path => Expr {
            kind: ExprKind::Path(path(pair)),
            span: whole,
        },
        Rule::struct_lit => {
            let mut inner = pair.into_inner().filter(significant);
            let ty = inner.next().map(name).unwrap_or_else(|| empty_name(&whole));
            let fields = inner
                .map(|init| {
                    let init_span = span(&init);
                    let mut parts = init.into_inner().filter(significant);
                    let field = parts
                        .next()
                        .map(name)
                        .unwrap_or_else(|| empty_name(&init_span));
                    let value = parts
                        .next()
                        .map(expr)
                        .unwrap_or_else(|| bool_expr(&init_span));
                    (field, value)
                })
                .collect();
            Expr {
                kind: ExprKind::StructLit(ty, fields),
                span: whole,
            }
        }
        _ => bool_expr(&whole),
    }
}

fn path(pair: Pair<'_, Rule>) -> Vec<Name> {
    pair.into_inner().filter(significant).map(name).collect()
}

fn binary_op(text: &str) -> BinaryOp {
    match text {
        "||" => BinaryOp::Or,
        "&&" => BinaryOp::And,
        "==" => BinaryOp::Eq,
        "!=" => BinaryOp::Ne,
        "<" => BinaryOp::Lt,
        "<=" => BinaryOp::Le,
        ">" => BinaryOp::Gt,
        ">=" => BinaryOp::Ge,
        "+%" => BinaryOp::WrapAdd,
        "-%" => BinaryOp::WrapSub,
        "*%" => BinaryOp::WrapMul,
        "-" => BinaryOp::Sub,
        "*" => BinaryOp::Mul,
        "/" => BinaryOp::Div,
        "%" => BinaryOp::Rem,
        "&" => BinaryOp::BitAnd,
        "|" => BinaryOp::BitOr,
        "^" => BinaryOp::BitXor,
        "<<" => BinaryOp::Shl,
        ">>" => BinaryOp::Shr,
        ">>>" => BinaryOp::LShr,
        "<<%" => BinaryOp::WrapShl,
        ">>%" => BinaryOp::WrapShr,
        ">>>%" => BinaryOp::WrapLShr,
        _ => BinaryOp::Add,
    }
}

fn pattern(pair: Pair<'_, Rule>) -> Pattern {
    let whole = span(&pair);
    let Some(inner) = pair.into_inner().find(significant) else {
        return Pattern::Wildcard(whole);
    };
    match inner.as_rule() {
        Rule::wildcard => Pattern::Wildcard(whole),
        Rule::int_pattern => {
            let mut negative = false;
            let mut value: i128 = 0;
            for part in inner.into_inner().filter(significant) {
                match part.as_rule() {
                    Rule::neg => negative = true,
                    _ => {
                        value = match literal(part.as_str()) {
                            // A bit pattern is the `int` it stands for.
                            (Some(v), true) => i128::from(v as i64),
                            (v, _) => i128::from(v.unwrap_or(u64::MAX)),
                        }
                    }
                }
            }
            Pattern::Int(if negative { -value } else { value }, whole)
        }
        Rule::tuple_pattern => Pattern::Tuple(
            inner
                .into_inner()
                .filter(significant)
                .map(pattern)
                .collect(),
            whole,
        ),
        _ => {
            let mut parts = inner.into_inner().filter(significant);
            let path = parts.next().map(path).unwrap_or_default();
            let binders = parts
                .map(|b| {
                    let b = b.into_inner().find(significant);
                    match b {
                        Some(b) if b.as_rule() == Rule::ident => Some(name(b)),
                        _ => None,
                    }
                })
                .collect();
            Pattern::Variant {
                path,
                binders,
                span: whole,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The body of `fn f() -> int = TEXT;`, printed with every operation parenthesized.
    fn tree(text: &str) -> String {
        let source = format!("fn f() -> int = {text};");
        let file = parse(0, &source).expect("parses");
        let Some(Item::Function(_, body)) = file.items.into_iter().next() else {
            panic!("no function");
        };
        show(&body)
    }

    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(v) => v.to_string(),
            ExprKind::Bits(v) => format!("bits:{v:?}"),
            ExprKind::Path(p) => p
                .iter()
                .map(|n| n.text.as_str())
                .collect::<Vec<_>>()
                .join("::"),
            ExprKind::Unary(op, a) => format!("({op:?} {})", show(a)),
            ExprKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.symbol(), show(b)),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn bit_operators_bind_as_in_rust() {
        assert_eq!(
            tree("a | b ^ c & d << e + f"),
            "(a | (b ^ (c & (d << (e + f)))))"
        );
        assert_eq!(tree("a & b == c"), "((a & b) == c)");
        assert_eq!(tree("a >>> 1 >> 2 <<% 3"), "(((a >>> 1) >> 2) <<% 3)");
        assert_eq!(tree("a >>% 1 >>>% 2"), "((a >>% 1) >>>% 2)");
        assert_eq!(tree("~a & -b"), "((BitNot a) & (Neg b))");
        // `||` and `&&` stay logical.
        assert_eq!(tree("a || b | c && d & e"), "(a || ((b | c) && (d & e)))");
        assert_eq!(tree("a < b << c"), "(a < (b << c))");
    }

    #[test]
    fn literals_in_hex_and_binary() {
        assert_eq!(tree("0xFF"), "bits:Some(255)");
        assert_eq!(
            tree("0x_ffff_FFFF_ffff_ffff"),
            "bits:Some(18446744073709551615)"
        );
        assert_eq!(tree("0b1010_0001"), "bits:Some(161)");
        assert_eq!(tree("0x1_0000_0000_0000_0000"), "bits:None");
        assert_eq!(tree("1_000_000"), "1000000");
    }

    #[test]
    fn hex_patterns_are_bit_patterns() {
        let source =
            "fn f(x: int) -> int = match x { 0xFFFF_FFFF_FFFF_FFFF => 1, 0b11 => 2, _ => 0 };";
        let file = parse(0, source).expect("parses");
        let Some(Item::Function(_, body)) = file.items.into_iter().next() else {
            panic!("no function");
        };
        let ExprKind::Match(_, arms) = body.kind else {
            panic!("no match");
        };
        let values: Vec<i128> = arms
            .iter()
            .filter_map(|a| match a.patterns[0] {
                Pattern::Int(v, _) => Some(v),
                _ => None,
            })
            .collect();
        assert_eq!(values, [-1, 3]);
    }
}
