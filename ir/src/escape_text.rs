//! The escape and alias analysis's results (`absinthe_heap::escape`) written with a core-IR
//! function's own names: the heaps at a point and the facts about the whole function (forwarded
//! loads, strong and weak stores, allocations and where they escape, the summary). Shared by the
//! command line's `--analysis escape` and the tests.

use std::collections::BTreeSet;

use absinthe::program::Operand;
use absinthe_heap::escape::{
    Content, Escape, FunctionFacts, Heap, Loc, Place, Slot, States, Summary,
};

use crate::function::{Function, Module};

/// A place as `label:index`.
pub fn place_text(function: &Function, place: &Place) -> String {
    let label = function
        .blocks()
        .get(place.block.index())
        .map_or("?", |b| b.label.as_str());
    format!("{label}:{}", place.index)
}

/// An operand: a name or a literal.
pub fn operand_text(function: &Function, operand: &Operand) -> String {
    match operand {
        Operand::Name(n) => function
            .names
            .get(n.index())
            .cloned()
            .unwrap_or_else(|| format!("%{}", n.index())),
        Operand::Int(c) => c.to_string(),
    }
}

/// The function's inputs (parameters, then captures) by name.
fn inputs(function: &Function) -> Vec<&str> {
    function
        .params
        .iter()
        .chain(&function.captures)
        .map(|n| function.names.get(n.index()).map_or("?", String::as_str))
        .collect()
}

/// A location: an allocation site as `label:index` (`…·old` for its older objects), an input by
/// its name with `^` (the object it referred to on entry), `?` for an unknown object.
pub fn loc_text(function: &Function, loc: &Loc) -> String {
    let site = |s: &absinthe_heap::Site| {
        place_text(
            function,
            &Place {
                block: s.block,
                index: s.index,
            },
        )
    };
    match loc {
        Loc::Recent(s) => site(s),
        Loc::Old(s) => format!("{}·old", site(s)),
        Loc::Param(i) => format!(
            "^{}",
            inputs(function).get(*i as usize).copied().unwrap_or("?")
        ),
        Loc::Unknown => "?".to_owned(),
    }
}

fn locs_text(function: &Function, locs: &BTreeSet<Loc>) -> String {
    let parts: Vec<String> = locs.iter().map(|l| loc_text(function, l)).collect();
    parts.join(" | ")
}

/// A slot: `.name` for a field, `[i]` for a position.
pub fn slot_text(module: &Module, slot: &Slot) -> String {
    match slot {
        Slot::Field(f) => format!(".{}", module.field_name(*f)),
        Slot::Pos(i) => format!("[{i}]"),
    }
}

/// What a field may hold: `{a}`, `{a, 3}`, `{a, earlier values}`, `{?} or unset`.
pub fn content_text(function: &Function, content: &Content) -> String {
    let mut parts: Vec<String> = content
        .operands
        .iter()
        .map(|o| operand_text(function, o))
        .collect();
    if !content.locs.is_empty() {
        parts.push(format!("→{}", locs_text(function, &content.locs)));
    }
    if content.unnamed {
        parts.push("earlier values".to_owned());
    }
    if content.unknown {
        parts.push("?".to_owned());
    }
    let body = parts.join(", ");
    match (content.maybe_unset, body.is_empty()) {
        (true, true) => "unset".to_owned(),
        (true, false) => format!("{{{body}}} or unset"),
        (false, _) => format!("{{{body}}}"),
    }
}

/// Where an object escapes, with places as `label:index`.
pub fn escape_text(function: &Function, escape: &Escape) -> String {
    if escape.is_none() {
        return "no escape".to_owned();
    }
    let mut parts = Vec::new();
    for (word, places) in [
        ("returned", &escape.returned),
        ("thrown", &escape.thrown),
        ("escapes", &escape.global),
    ] {
        if !places.is_empty() {
            let at: Vec<String> = places.iter().map(|p| place_text(function, p)).collect();
            parts.push(format!("{word} at {}", at.join(" ")));
        }
    }
    parts.join("; ")
}

/// One heap: where the names holding objects point, then the fields of the function's own
/// objects and of its inputs' that are known (`box → bb0:0 · bb0:0.contents = {a}`), then
/// which of them have escaped so far.
pub fn heap_text(module: &Module, function: &Function, heap: &Heap) -> String {
    let mut parts: Vec<String> = heap
        .points
        .iter()
        .filter(|(_, to)| !to.is_empty())
        .map(|(n, to)| {
            format!(
                "{} → {}",
                operand_text(function, &Operand::Name(*n)),
                locs_text(function, to)
            )
        })
        .collect();
    for (loc, object) in &heap.objects {
        if *loc == Loc::Unknown {
            continue;
        }
        for (slot, content) in &object.fields {
            parts.push(format!(
                "{}{} = {}",
                loc_text(function, loc),
                slot_text(module, slot),
                content_text(function, content)
            ));
        }
    }
    let escaped: Vec<String> = heap
        .objects
        .iter()
        .filter(|(l, o)| !matches!(l, Loc::Unknown | Loc::Param(_)) && !o.escape.is_none())
        .map(|(l, _)| loc_text(function, l))
        .collect();
    if !escaped.is_empty() {
        parts.push(format!("escaped: {}", escaped.join(", ")));
    }
    if parts.is_empty() {
        "no objects".to_owned()
    } else {
        parts.join(" · ")
    }
}

/// The disjunction at a point: its heaps joined by `⊔`, or `unreachable`.
pub fn states_text<D: absinthe::lattice::Lattice>(
    module: &Module,
    function: &Function,
    states: &States<D>,
) -> String {
    if states.disjuncts().is_empty() {
        return "unreachable".to_owned();
    }
    let parts: Vec<String> = states
        .disjuncts()
        .iter()
        .map(|d| format!("[{}]", heap_text(module, function, &d.heap)))
        .collect();
    parts.join(" ⊔ ")
}

/// The facts about one function, a line each: forwarded loads, strong and weak stores,
/// allocations (where they escape, whether they can be replaced by scalars or sunk), then the
/// summary callers apply.
pub fn facts_text<D>(module: &Module, function: &Function, facts: &FunctionFacts<D>) -> String {
    let mut out = String::new();
    for (p, fact) in &facts.loads {
        out += &format!(
            "  load {} → {}\n",
            place_text(function, p),
            fact.forwarded
                .as_ref()
                .map_or("not forwarded".to_owned(), |o| operand_text(function, o))
        );
    }
    for (p, strong) in &facts.stores {
        out += &format!(
            "  store {} {}\n",
            place_text(function, p),
            if *strong { "strong" } else { "weak" }
        );
    }
    for a in &facts.allocations {
        out += &format!(
            "  alloc {} {}: {}{}{}\n",
            place_text(
                function,
                &Place {
                    block: a.site.block,
                    index: a.site.index
                }
            ),
            operand_text(function, &Operand::Name(a.dest)),
            escape_text(function, &a.escape),
            if a.scalar { "; scalar" } else { "" },
            a.sink_to.map_or(String::new(), |b| format!(
                "; sink to {}",
                function
                    .blocks()
                    .get(b.index())
                    .map_or("?", |b| b.label.as_str())
            ))
        );
    }
    if !facts.alias_groups.is_empty() {
        let groups: Vec<String> = facts
            .alias_groups
            .iter()
            .map(|group| {
                let names: Vec<&str> = group
                    .iter()
                    .map(|n| function.names.get(n.index()).map_or("?", String::as_str))
                    .collect();
                format!("{{{}}}", names.join(", "))
            })
            .collect();
        out += &format!("  may alias: {}\n", groups.join(" "));
    }
    out += &summary_text(module, function, &facts.summary);
    out
}

/// A function's summary: what it does with each input, what it returns, and its other effects.
pub fn summary_text(module: &Module, function: &Function, summary: &Summary) -> String {
    let inputs = inputs(function);
    let mut out = String::new();
    for (name, e) in inputs.iter().zip(&summary.inputs) {
        let mut words = Vec::new();
        for (w, on) in [
            ("returned", e.returned),
            ("thrown", e.thrown),
            ("escapes", e.global),
        ] {
            if on {
                words.push(w.to_owned());
            }
        }
        for slot in &e.writes {
            words.push(format!("writes {}", slot_text(module, slot)));
        }
        if !words.is_empty() {
            out += &format!("  input {name}: {}\n", words.join(", "));
        }
    }
    let returns: Vec<&str> = summary
        .returns_inputs
        .iter()
        .map(|&i| inputs.get(i as usize).copied().unwrap_or("?"))
        .chain(summary.returns_other.then_some("other"))
        .collect();
    if !returns.is_empty() {
        out += &format!("  returns {}\n", returns.join(" or "));
    }
    if summary.writes_unknown {
        out += "  writes unknown memory\n";
    }
    if summary.calls_unknown {
        out += "  calls unknown code\n";
    }
    out
}
