//! Printing kernel terms: every application with its label, so that parsing the text gives the
//! same terms back.

use absinthe::terms::{Term, TermId, Terms};
use std::fmt::Write as _;

/// The text of `terms`, one line; parsing it gives `terms` back.
pub fn print_terms(terms: &Terms) -> String {
    let mut out = String::new();
    // An explicit stack: terms may nest as deep as the parser allows, or deeper when built in
    // memory.
    enum Step {
        Term(TermId),
        Text(&'static str),
        Name(String),
    }
    let mut stack = vec![Step::Term(terms.root)];
    while let Some(step) = stack.pop() {
        let t = match step {
            Step::Text(s) => {
                out.push_str(s);
                continue;
            }
            Step::Name(s) => {
                out.push_str(&s);
                continue;
            }
            Step::Term(t) => t,
        };
        match terms.term(t) {
            Term::Const(c) => {
                let _ = write!(out, "{c}");
            }
            Term::Prim(p) => {
                let _ = write!(out, "{p}");
            }
            Term::Param(p) => out.push_str(terms.param_name(*p)),
            Term::Lambda { params, body } => {
                out.push_str("(lambda (");
                let names: Vec<&str> = params.iter().map(|&p| terms.param_name(p)).collect();
                out.push_str(&names.join(" "));
                out.push_str(") ");
                stack.push(Step::Text(")"));
                stack.push(Step::Term(*body));
            }
            Term::App { label, op, args } => {
                let _ = write!(out, "{label}:(");
                stack.push(Step::Text(")"));
                for &a in args.iter().rev() {
                    stack.push(Step::Term(a));
                    stack.push(Step::Text(" "));
                }
                stack.push(Step::Term(*op));
            }
            Term::Letrec { bindings, body } => {
                out.push_str("(letrec (");
                stack.push(Step::Text(")"));
                stack.push(Step::Term(*body));
                stack.push(Step::Text(") "));
                for (i, &(p, bound)) in bindings.iter().enumerate().rev() {
                    stack.push(Step::Text(")"));
                    stack.push(Step::Term(bound));
                    stack.push(Step::Text(" "));
                    stack.push(Step::Name(terms.param_name(p).to_owned()));
                    stack.push(Step::Text(if i == 0 { "(" } else { " (" }));
                }
            }
        }
    }
    out.push('\n');
    out
}
