//! Lowering a whole module, or the functions one piece of a split module owns: the module's
//! function and symbol tables, skipping what cannot be lowered, and joining the pieces again.
//!
//! **Tables.** Function and symbol ids depend only on the module, never on which functions are
//! lowered: the function table lists the definitions, then the declarations (both in the
//! module's order), then the pseudo functions; the symbol table lists the global variables, then
//! the functions. So every piece of a split module (see [`crate::split`]) numbers them as the
//! whole module does, and [`join`] only has to put each piece's functions in their places.

use std::ops::Range;

use absinthe::program::{FuncId, SymbolId};
use absinthe_ir::{Function, Module};

use super::common::{
    ADDRESS, ASM, ATOMIC, Callees, FREEZE, FnLower, INDIRECT, LowerError, Lowered, Memory, Place,
    Symbols, UNKNOWN, VA_ARG, numbering, spelling,
};
use crate::ffi::{self, LlvmModule, Value};
use crate::flags::NswFlags;
use crate::load::contain_panics;

/// Lowers every defined function of `module`. `flags` gives the `nsw` flags (see
/// [`NswFlags`]); `progress(done, total)` is called after each function. A function LLVM's
/// verifier rejects (the parser does not run it) or whose lowering fails is skipped: it becomes
/// a bodyless function, and the error, with the instruction it happened at when known, is in
/// [`Lowered::skipped`].
pub fn lower_module(
    module: &LlvmModule,
    flags: &NswFlags,
    memory: Memory,
    progress: impl FnMut(usize, usize),
) -> Lowered {
    let definitions = module.functions().filter(|f| f.is_definition()).count();
    lower_functions(module, flags, memory, 0..definitions, progress)
}

/// Lowers the defined functions of `module` at positions `owned` among its definitions, as
/// [`lower_module`] does; the others are bodyless in [`Lowered::module`] and absent from
/// [`Lowered::functions`]. `progress(done, total)` counts the owned functions.
pub fn lower_functions(
    module: &LlvmModule,
    flags: &NswFlags,
    memory: Memory,
    owned: Range<usize>,
    mut progress: impl FnMut(usize, usize),
) -> Lowered {
    let defined: Vec<Value<'_>> = module.functions().filter(|f| f.is_definition()).collect();
    let little_endian = module.little_endian();
    let layout = module.layout();
    let (mut callees, mut symbols) = tables(module);
    let mut functions = Vec::with_capacity(defined.len());
    let mut infos = Vec::with_capacity(owned.len());
    let mut skipped = Vec::new();
    let mut verifier: Option<String> = None;
    let total = owned.len();
    for (i, &f) in defined.iter().enumerate() {
        let name = f.name().into_owned();
        if !owned.contains(&i) {
            functions.push(bodyless(name));
            continue;
        }
        let lowered = if module.verify(f) {
            let position = std::cell::Cell::new((0, 0));
            contain_panics(|| {
                let mut lowering = FnLower::new(
                    &mut callees,
                    &mut symbols,
                    flags.function(&name),
                    little_endian,
                    layout,
                );
                lowering.memory = memory;
                lowering.position = Some(&position);
                lowering.lower(f)
            })
            .map_err(|message| {
                let (b, index) = position.get();
                let at = f.blocks().get(b).map(|&bb| Place {
                    block: spelling_of_block(f, bb),
                    index,
                    text: bb.instructions().nth(index).map(Value::print),
                });
                (message, at)
            })
        } else {
            let message = verifier.get_or_insert_with(|| module.verifier_message());
            Err((
                format!(
                    "LLVM's verifier rejects it: {}",
                    crate::load::one_line(message)
                ),
                None,
            ))
        };
        match lowered {
            Ok((function, mut info)) => {
                info.func = FuncId::new(i);
                functions.push(function);
                infos.push(info);
            }
            Err((message, at)) => {
                skipped.push(LowerError {
                    function: name.clone(),
                    message,
                    at,
                });
                functions.push(bodyless(name));
            }
        }
        progress(i + 1 - owned.start, total);
    }
    functions.extend(
        callees
            .names
            .iter()
            .skip(defined.len())
            .cloned()
            .map(bodyless),
    );
    Lowered {
        module: Module {
            functions,
            fields: vec!["mem".to_owned()],
            symbols: symbols.names,
        },
        functions: infos,
        skipped,
    }
}

/// Joins the lowerings of the pieces of one module (in the pieces' order, each from
/// [`lower_functions`] with consecutive `owned` ranges that cover every definition) into the
/// lowering of the whole module. `None` when the pieces disagree on the module's tables (a
/// piece lowered a call to something the whole module's table does not list up front, such as
/// an alias), or do not cover the definitions: the caller then lowers the module whole.
pub fn join(mut pieces: Vec<(Range<usize>, Lowered)>) -> Option<Lowered> {
    let (_, first) = pieces.first()?;
    let (functions, symbols) = (first.module.functions.len(), first.module.symbols.clone());
    let definitions = pieces.last()?.0.end;
    let tail: Vec<String> = (first.module.functions.iter().skip(definitions))
        .map(|f| f.name.clone())
        .collect();
    let mut next = 0;
    for (owned, lowered) in &pieces {
        let names = lowered.module.functions.iter().skip(definitions);
        let same_tail = names.map(|f| &f.name).eq(tail.iter());
        if owned.start != next
            || lowered.module.functions.len() != functions
            || lowered.module.symbols != symbols
            || !same_tail
        {
            return None;
        }
        next = owned.end;
    }
    let mut whole = Lowered {
        module: Module {
            functions: Vec::with_capacity(functions),
            fields: vec!["mem".to_owned()],
            symbols,
        },
        functions: Vec::new(),
        skipped: Vec::new(),
    };
    let last = pieces.len() - 1;
    for (k, (owned, lowered)) in pieces.iter_mut().enumerate() {
        let mut own = std::mem::take(&mut lowered.module.functions);
        if k < last {
            own.truncate(owned.end);
        }
        whole.module.functions.extend(own.drain(owned.start..));
        whole.functions.append(&mut lowered.functions);
        whole.skipped.append(&mut lowered.skipped);
    }
    (whole.module.functions.len() == functions).then_some(whole)
}

/// A function without body (a declaration, pseudo function or skipped function).
fn bodyless(name: String) -> Function {
    Function::new(name, true, Vec::new(), Vec::new(), Vec::new())
}

/// The module's function and symbol tables before any function is lowered (see the module
/// documentation).
fn tables(module: &LlvmModule) -> (Callees, Symbols) {
    let mut callees = Callees::new(FuncId::new);
    for f in module.functions().filter(|f| f.is_definition()) {
        callees.id(&f.name());
    }
    for f in module.functions().filter(|f| !f.is_definition()) {
        callees.id(&f.name());
    }
    for pseudo in [ADDRESS, UNKNOWN, INDIRECT, ASM, FREEZE, VA_ARG, ATOMIC] {
        callees.id(pseudo);
    }
    let mut symbols = Symbols::new(SymbolId::new);
    for g in module.globals().chain(module.functions()) {
        symbols.id(&g.name());
    }
    (callees, symbols)
}

fn spelling_of_block(f: Value<'_>, bb: ffi::Block<'_>) -> String {
    let name = bb.name();
    if name.is_empty() {
        let numbers = numbering(f);
        bb.as_value()
            .map_or_else(String::new, |v| spelling(v, &numbers))
    } else {
        name.into_owned()
    }
}
