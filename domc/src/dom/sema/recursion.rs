//! `fn` helpers may not recurse, directly or through each other: a body is an expression with
//! no bound on how often it may call itself, so a recursive helper could run forever (and
//! overflow the stack of the analysis). Each cycle of the call graph is reported once, at the
//! call that closes it in the first-declared function of the cycle.

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::dom::ast::{Expr, ExprKind};
use crate::dom::check::BUILTIN_FUNCTIONS;

/// The user functions called in `e`, with the range of each call's name, in source order.
fn calls<'e>(e: &'e Expr, out: &mut Vec<(&'e str, Range<usize>)>) {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bits(_) | ExprKind::Bool(_) | ExprKind::Path(_) => {}
        ExprKind::Call(path, args) => {
            if let [name] = path.as_slice() {
                out.push((name.text.as_str(), name.span.clone()));
            }
            for a in args {
                calls(a, out);
            }
        }
        ExprKind::Field(base, _) => calls(base, out),
        ExprKind::StructLit(_, fields) => {
            for (_, value) in fields {
                calls(value, out);
            }
        }
        ExprKind::Tuple(parts) => {
            for p in parts {
                calls(p, out);
            }
        }
        ExprKind::Unary(_, a) => calls(a, out),
        ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) | ExprKind::LetTuple(_, a, b) => {
            calls(a, out);
            calls(b, out);
        }
        ExprKind::If(c, t, f) => {
            calls(c, out);
            calls(t, out);
            calls(f, out);
        }
        ExprKind::Match(scrutinee, arms) => {
            calls(scrutinee, out);
            for arm in arms {
                calls(&arm.body, out);
            }
        }
    }
}

impl Sema {
    /// Reports every cycle of calls between `fn`s.
    pub(super) fn check_function_recursion(&mut self, files: &[(Place, Vec<Item>)]) {
        // The functions in declaration order, with their file and body, and whether each
        // declares `recursion N` (and so may call itself).
        let mut fns: Vec<(&str, FileId, &Expr)> = Vec::new();
        let mut limited: Vec<bool> = Vec::new();
        for (place, items) in files {
            for item in items {
                if let Item::Function(sig, body) = item {
                    if !fns.iter().any(|(n, _, _)| *n == sig.name.text) {
                        fns.push((sig.name.text.as_str(), place.file, body));
                        limited.push(sig.recursion.is_some());
                    }
                }
            }
        }
        let index = |name: &str| fns.iter().position(|(n, _, _)| *n == name);
        // The call edges of each function: callee index and the call's range.
        // A call of a function with a recursion limit to itself is no edge: its depth is bounded.
        let edges: Vec<Vec<(usize, Range<usize>)>> = (fns.iter().enumerate())
            .map(|(i, (_, _, body))| {
                let mut out = Vec::new();
                calls(body, &mut out);
                out.into_iter()
                    .filter(|(callee, _)| !BUILTIN_FUNCTIONS.contains(callee))
                    .filter_map(|(callee, span)| index(callee).map(|j| (j, span)))
                    .filter(|(j, _)| !(*j == i && limited[i]))
                    .collect()
            })
            .collect();
        // The shortest chain of calls from `from` to `to` (both included), if any.
        let path = |from: usize, to: usize| -> Option<Vec<usize>> {
            let mut parent: Vec<Option<usize>> = vec![None; fns.len()];
            let mut seen = vec![false; fns.len()];
            let mut queue = std::collections::VecDeque::from([from]);
            seen[from] = true;
            while let Some(f) = queue.pop_front() {
                if f == to {
                    let mut chain = vec![to];
                    let mut at = to;
                    while let Some(p) = parent[at] {
                        chain.push(p);
                        at = p;
                    }
                    chain.reverse();
                    return Some(chain);
                }
                for (g, _) in &edges[f] {
                    if !seen[*g] {
                        seen[*g] = true;
                        parent[*g] = Some(f);
                        queue.push_back(*g);
                    }
                }
            }
            None
        };
        let mut reported = vec![false; fns.len()];
        for f in 0..fns.len() {
            if reported[f] {
                continue;
            }
            // The first call in `f` that leads back to `f`.
            let Some((chain, span)) = edges[f]
                .iter()
                .find_map(|(g, span)| path(*g, f).map(|chain| (chain, span.clone())))
            else {
                continue;
            };
            for &g in &chain {
                reported[g] = true;
            }
            let names: Vec<&str> = std::iter::once(f)
                .chain(chain.iter().copied())
                .map(|g| fns[g].0)
                .collect();
            let message = if names.len() == 2 {
                format!("`{}` calls itself", names[0])
            } else {
                format!(
                    "`{}` calls itself through {}",
                    names[0],
                    names[1..names.len() - 1]
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            self.error_help(
                fns[f].1,
                span,
                format!("{message} ({})", names.join(" → ")),
                "a recursive call",
                "a `fn` may call itself only when it says how deep (a call that never returns \
                 would stop the analysis): `fn f(…) -> T recursion 64 = …`, where a call past \
                 the limit fails and the rule falls back to its sound default; a cycle through \
                 several `fn`s is not allowed"
                    .into(),
            );
        }
    }
}
