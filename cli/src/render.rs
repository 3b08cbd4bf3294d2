//! Renders analysis results as annotated text or as JSON.

use absinthe::lattice::{Lattice, Top};
use absinthe::value::{Env, ValueDomain};
use absinthe_interproc::{FuncSet, ProcValue};
use absinthe_ir::Module;
use serde_json::{Map, Value, json};

/// The JSON form of one abstract value: an integer for a constant, `"bottom"`, `"top"`, or the
/// value's display form (for example `"[0, 9]"`).
pub fn value_json<D: ValueDomain>(value: &D) -> Value {
    if value.is_bottom() {
        json!("bottom")
    } else if let Some(c) = value.as_constant() {
        json!(c)
    } else if value.is_top() {
        json!("top")
    } else {
        json!(value.to_string())
    }
}

/// The JSON object of a state: every name of `names`, in order, with its value (all `"bottom"`
/// when the point is unreachable).
pub fn env_json<D: ValueDomain>(env: &Env<D>, names: &[String]) -> Value {
    env_json_with(env, names, value_json)
}

/// [`env_json`] with each value shown by `show`.
pub fn env_json_with<D: Lattice>(
    env: &Env<D>,
    names: &[String],
    show: impl Fn(&D) -> Value,
) -> Value {
    let mut map = Map::new();
    for (i, name) in names.iter().enumerate() {
        let value = env.values().get(i).cloned().unwrap_or_else(D::bottom);
        map.insert(name.clone(), show(&value));
    }
    Value::Object(map)
}

/// The text form of a state: `x = 1, y = ⊤`, or `unreachable` ([`Env::text`]).
pub fn env_text<D: ValueDomain>(env: &Env<D>, names: &[String]) -> String {
    env.text(names)
}

/// [`env_text`] with each value shown by `show` ([`Env::text_with`]).
pub fn env_text_with<D: Lattice>(
    env: &Env<D>,
    names: &[String],
    show: impl Fn(&D) -> String,
) -> String {
    env.text_with(names, show)
}

/// Lays out `code` and `state` as one annotated line, the state starting at column `width`.
pub fn annotated(code: &str, state: &str, width: usize) -> String {
    format!("{code:<width$}  │ {state}")
}

/// `function` printed as core IR with `state(block, index)` after each statement and terminator
/// (asked in the printed order: per block, its statements then its terminator), one line each.
pub fn annotated_function(
    module: &Module,
    function: &absinthe_ir::function::Function,
    state: &mut dyn FnMut(absinthe::program::BlockId, usize) -> String,
) -> String {
    let mut printed = String::new();
    // Writing to a String cannot fail.
    let _ = absinthe_ir::air::print::write_function(&mut printed, module, function);
    // One line per item: the signature, per block its label, φs, statements and terminator,
    // then the closing brace.
    let mut states: Vec<Option<String>> = vec![None];
    for (b, block) in function.blocks().iter().enumerate() {
        states.push(None);
        states.extend(block.phis.iter().map(|_| None));
        for i in 0..=block.stmts.len() {
            states.push(Some(state(absinthe::program::BlockId(b as u32), i)));
        }
    }
    let lines: Vec<&str> = printed.lines().collect();
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        match states.get(i).cloned().flatten() {
            Some(state) => out.push_str(&annotated(line, &state, width)),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// A value with closures named by their functions: `3`, `closure {inc, dec}`, `⊤ | block`.
pub fn value_text<D: ValueDomain>(value: &ProcValue<D>, module: &Module) -> String {
    if value.funcs.is_empty() && !value.block {
        return value.int.to_string();
    }
    if value.is_top() {
        return "⊤".to_owned();
    }
    let mut parts = Vec::new();
    if !value.int.is_bottom() {
        parts.push(value.int.to_string());
    }
    match &value.funcs {
        FuncSet::Any => parts.push("any closure".to_owned()),
        FuncSet::Some(set) if !set.is_empty() => {
            let names: Vec<&str> = set
                .iter()
                .map(|&f| module.function(f).map_or("?", |f| f.name.as_str()))
                .collect();
            parts.push(format!("closure {{{}}}", names.join(", ")));
        }
        FuncSet::Some(_) => {}
    }
    if value.block {
        parts.push("block".to_owned());
    }
    parts.join(" | ")
}
