//! `trace --format html`: one self-contained page (no network: the script and styles are inline)
//! that replays an analysis's run on its control-flow graph. What the page shows and how it is
//! driven is in the book's chapter "Watching an analysis"; what it is given is built here:
//!
//! - the function: names, and per block its printed lines, its box in the layout, and for each
//!   line what it defines, what it reads and which rules of the domain compute it;
//! - the run: the [`Recorder`](super::record)'s events and interned strings;
//! - the final states and why the engine stopped;
//! - when `verify` finds a concrete run the analysis misses, that run's path through the graph,
//!   where it left the analysis, and the rule it blames.
//!
//! The heap analyses' page ([`rows_page`]) is the same page with states as rows
//! (`rows.rs`), the function's facts, and what the heap checks found in concrete runs.

use super::common::{Run, Subject};
use super::layout::layout;
use super::record::{Recorder, Valued};
use super::rows::{Recorded, Rows};
use crate::driver::analyze_function_with;
use crate::verify::{Culprit, VerifyConfig, failing_path, verify_function};
use absinthe::engine::{Solution, solve_traced};
use absinthe::program::FuncId;
use absinthe::program::{BlockId, Cfg, Cond, NameId, Operand, Program, Rhs, Stmt, Terminator};
use absinthe::relational::Relation;
use absinthe::value::{Env, StateRepr, ValueDomain};
use serde_json::{Value, json};

/// The page's styles and script, kept as files of their own so that they read as CSS and
/// JavaScript.
const STYLE: &str = include_str!("viewer.css");
const SCRIPT: &str = include_str!("viewer.js");

/// Pixels per character and per line of a block's text (the page's monospace font at 12px).
const CHAR_WIDTH: f64 = 7.3;
const LINE_HEIGHT: f64 = 16.0;

/// The page for `run` of `domain` (the analysis `analyze` runs for `D`: `NonRelational<D>`, or
/// the relational engine for a domain with a `relation`), with `verify_runs` concrete runs
/// looking for a state the analysis misses.
pub(super) fn page<D: ValueDomain, A: Valued<D>>(
    run: &Run<'_>,
    domain: &A,
    relation: Option<Relation>,
    verify_runs: usize,
) -> String {
    let f = &run.subject.function;
    let mut recorder = Recorder::new(f, domain);
    let solution = solve_traced(f, domain, run.limits, &mut recorder);
    let result = result_json(f, &solution, &mut recorder);
    let mut strings = std::mem::take(&mut recorder.strings);
    let events = std::mem::take(&mut recorder.events);
    let relations = std::mem::take(&mut recorder.relations).into_values();
    let blocks = blocks_json::<D>(run.subject, &mut strings, true);
    let verify = verify_json::<D>(run, verify_runs);
    let data = json!({
        "format": "absinthe-viewer",
        "version": 1,
        "analysis": run.analysis,
        "function": f.name,
        "names": f.names,
        "blocks": blocks,
        "back_edges": run.subject.back_edges().iter()
            .map(|(from, to)| json!([from.index(), to.index()])).collect::<Vec<_>>(),
        "strings": strings.into_strings(),
        "events": events,
        "result": result,
        "verify": verify,
        "relation": relation.map(|r| r.to_string()),
        "relations": relations,
    });
    html(&f.name, run.analysis, &data)
}

/// The page around `data`, titled by the function and the analysis.
fn html(function: &str, analysis: &str, data: &Value) -> String {
    // `</` inside the data would end its script element early.
    let data = serde_json::to_string(data)
        .unwrap_or_default()
        .replace("</", "<\\/");
    let title = escape(&format!("{function} — {analysis} (absinthe trace)"));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <script id=\"trace-data\" type=\"application/json\">{data}</script>\n\
         <script>\n{SCRIPT}</script>\n</body>\n</html>\n"
    )
}

/// The page of an analysis whose states are rows (the heap analyses, `heap.rs`): the same
/// page, its `names` the rows' labels and `rows` true; `facts` are titled lists of lines shown
/// under the states, and `verify` what the heap checks found (`null`: not run).
pub(super) fn rows_page<S>(
    subject: &Subject,
    (analysis, direction): (&str, absinthe::spec::Direction),
    mut recorded: Recorded,
    solution: &Solution<S>,
    rows: &dyn Fn(&S) -> Option<Rows>,
    facts: &[(String, Vec<String>)],
    verify: Value,
) -> String {
    let f = &subject.function;
    let entry: Vec<Value> = solution
        .entry
        .iter()
        .map(|s| recorded.state(rows(s)))
        .collect();
    let exit: Vec<Value> = solution
        .exit
        .iter()
        .map(|s| recorded.state(rows(s)))
        .collect();
    let mut strings = std::mem::take(&mut recorded.strings);
    // The why trees that show rules are a value analysis's: no rules (any domain will do).
    let blocks = blocks_json::<absinthe::lattice::Flat<i64>>(subject, &mut strings, false);
    let facts: Vec<Value> = facts
        .iter()
        .map(|(title, lines)| json!([title, lines]))
        .collect();
    let data = json!({
        "format": "absinthe-viewer",
        "version": 1,
        "analysis": analysis,
        "function": f.name,
        "rows": true,
        "direction": direction.word(),
        "names": recorded.keys,
        "variables": f.names,
        "blocks": blocks,
        "back_edges": subject.back_edges().iter()
            .map(|(from, to)| json!([from.index(), to.index()])).collect::<Vec<_>>(),
        "strings": strings.into_strings(),
        "events": recorded.events,
        "result": {
            "stop": super::common::stop_json(&solution.stop),
            "entry": entry,
            "exit": exit,
        },
        "facts": facts,
        "verify": verify,
    });
    html(&f.name, analysis, &data)
}

/// Text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// An operand for the viewer: a name's index, or a constant's text.
fn operand_json(operand: Operand) -> Value {
    match operand {
        Operand::Name(n) => json!(n.index()),
        Operand::Int(c) => json!(c.to_string()),
    }
}

/// The rules of `D` that compute `rhs`, interned.
fn rhs_rules<D: ValueDomain>(rhs: &Rhs, strings: &mut super::record::Interner) -> Vec<u32> {
    let texts: Vec<String> = match rhs {
        Rhs::Binary(op, a, b) => {
            let mut texts = D::rules_binary(*op);
            for operand in [a, b] {
                if let Operand::Int(c) = operand {
                    texts.extend(
                        D::rules_constant()
                            .into_iter()
                            .map(|rule| format!("literal {c}: {rule}")),
                    );
                }
            }
            texts
        }
        Rhs::Use(Operand::Int(c)) => D::rules_constant()
            .into_iter()
            .map(|rule| format!("literal {c}: {rule}"))
            .collect(),
        Rhs::Use(Operand::Name(_)) => vec!["a copy".to_owned()],
        Rhs::Select(..) => vec!["a select: the chosen operand, or both joined".to_owned()],
        Rhs::IsBlock(_) => vec!["0 or 1".to_owned()],
        Rhs::Address(_) => vec!["an address: the domain's `address` rule".to_owned()],
        Rhs::Table(..) => vec!["a table read: the entries the index may select, joined".to_owned()],
        _ => vec!["not modelled by a value analysis: top".to_owned()],
    };
    texts.iter().map(|t| strings.intern(t)).collect()
}

/// Per block: label, lines, successors, its box, and what each line defines, reads and (with
/// `rules`) which rules of `D` compute it. Lines are the block's φs, then its statements, then
/// its terminator.
fn blocks_json<D: ValueDomain>(
    subject: &Subject,
    strings: &mut super::record::Interner,
    rules: bool,
) -> Vec<Value> {
    let f = &subject.function;
    let sizes: Vec<(f64, f64)> = subject
        .blocks
        .iter()
        .map(|(label, lines)| {
            let widest = lines
                .iter()
                .chain(std::iter::once(label))
                .map(|l| l.chars().count())
                .max()
                .unwrap_or(0)
                .max(24);
            (
                widest as f64 * CHAR_WIDTH + 16.0,
                (lines.len() + 2) as f64 * LINE_HEIGHT + 12.0,
            )
        })
        .collect();
    let mut edges = Vec::new();
    for b in 0..f.block_count() {
        for s in f.successors(BlockId::new(b)) {
            edges.push((b, s.index()));
        }
    }
    let back: Vec<(usize, usize)> = subject
        .back_edges()
        .iter()
        .map(|(a, b)| (a.index(), b.index()))
        .collect();
    let placed = layout(&sizes, &edges, &back);
    subject
        .blocks
        .iter()
        .enumerate()
        .map(|(i, (label, lines))| {
            let b = BlockId::new(i);
            let phis: Vec<Value> = f
                .phis(b)
                .iter()
                .map(|phi| {
                    let from: Vec<Value> = phi
                        .incoming
                        .iter()
                        .map(|(pred, operand)| json!([pred.index(), operand_json(*operand)]))
                        .collect();
                    json!({"def": phi.dest.index(), "from": from})
                })
                .collect();
            let stmts: Vec<Value> = f
                .stmts(b)
                .iter()
                .map(|stmt| {
                    let mut uses = Vec::new();
                    stmt.for_each_use(|o| uses.push(operand_json(o)));
                    match stmt {
                        Stmt::Assign { dest, rhs } => json!({
                            "def": dest.index(), "uses": uses,
                            "rules": if rules { rhs_rules::<D>(rhs, strings) } else { Vec::new() },
                        }),
                        _ => json!({"def": -1, "uses": uses, "rules": []}),
                    }
                })
                .collect();
            let cond = match f.terminator(b) {
                Terminator::Branch {
                    cond: Cond::Compare(op, x, y),
                    ..
                } if rules => {
                    let rules: Vec<u32> = D::rules_assume(*op)
                        .iter()
                        .map(|t| strings.intern(t))
                        .collect();
                    json!({"uses": [operand_json(*x), operand_json(*y)], "rules": rules})
                }
                Terminator::Branch {
                    cond: Cond::NonZero(x),
                    ..
                } => json!({"uses": [operand_json(*x)], "rules": []}),
                _ => Value::Null,
            };
            let successors: Vec<usize> = f.successors(b).iter().map(|s| s.index()).collect();
            let p = placed[i];
            json!({
                "label": label, "lines": lines, "successors": successors,
                "x": p.x.round(), "y": p.y.round(), "w": p.width.round(), "h": p.height.round(),
                "phis": phis, "stmts": stmts, "cond": cond,
            })
        })
        .collect()
}

/// A state as the viewer stores it: `null` when unreachable, else each name's interned value.
fn state_json<D: ValueDomain>(
    names: usize,
    env: &Env<D>,
    strings: &mut super::record::Interner,
) -> Value {
    if !env.is_reachable() {
        return Value::Null;
    }
    (0..names)
        .map(|n| json!(strings.intern(&env.get(NameId::new(n)).to_string())))
        .collect()
}

/// The final states, and with a relation the index of each one's relation (`null` when
/// unreachable).
fn result_json<D: ValueDomain, A: Valued<D>>(
    f: &absinthe_ir::Function,
    solution: &Solution<A::State>,
    recorder: &mut Recorder<'_, D, A>,
) -> Value {
    let n = f.names.len();
    let mut states = |states: &[A::State]| -> Vec<Value> {
        states
            .iter()
            .map(|s| state_json(n, A::env(s), &mut recorder.strings))
            .collect()
    };
    let (entry, exit) = (states(&solution.entry), states(&solution.exit));
    let mut relations = |states: &[A::State]| -> Vec<Value> {
        states
            .iter()
            .map(|s| match A::env(s).is_reachable() {
                true => json!(recorder.relation_index(s)),
                false => Value::Null,
            })
            .collect()
    };
    let relation = json!({"entry": relations(&solution.entry), "exit": relations(&solution.exit)});
    json!({
        "stop": super::common::stop_json(&solution.stop),
        "entry": entry,
        "exit": exit,
        "relation": relation,
    })
}

/// `verify` on the traced function: the first concrete run the analysis misses, with its path.
fn verify_json<D: ValueDomain>(run: &Run<'_>, runs: usize) -> Value {
    if runs == 0 {
        return Value::Null;
    }
    let f = &run.subject.function;
    let Some(index) = run
        .subject
        .module
        .functions
        .iter()
        .position(|g| g.name == f.name)
    else {
        return Value::Null;
    };
    let func = FuncId::new(index);
    let config = VerifyConfig {
        runs,
        thresholds: run.thresholds,
        ..VerifyConfig::default()
    };
    let analysis = analyze_function_with::<D>(
        f,
        run.conditional,
        run.thresholds,
        StateRepr::Dense,
        run.limits,
    );
    let report = verify_function(&run.subject.module, func, &analysis, &config);
    let Some(violation) = report.violations.first() else {
        return json!({"runs": report.runs, "violation": null});
    };
    let path: Vec<usize> = failing_path(&run.subject.module, func, &analysis, violation, &config)
        .iter()
        .map(|b| b.index())
        .collect();
    let culprit = match &violation.culprit {
        Some(Culprit::Statement { at, .. }) => {
            json!({"block": at.block.index(), "index": at.index})
        }
        Some(Culprit::Edge { from, to, .. }) => json!({"from": from, "to": to}),
        Some(Culprit::Join { from, to, .. }) => json!({"from": from, "to": to, "join": true}),
        None => Value::Null,
    };
    json!({
        "runs": report.runs,
        "violation": {
            "culprit": culprit,
            "args": violation.args,
            "block": violation.at.block.index(),
            "index": violation.at.index,
            "text": violation.text,
            "name": violation.name,
            "concrete": violation.concrete,
            "abstract": violation.abstract_value,
            "rule": violation.rule(),
            "path": path,
        },
    })
}
