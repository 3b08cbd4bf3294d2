//! Function summaries: what a function's runs say of its inputs (parameters, then captures) and
//! of its result, as an environment extension with existentials. `let f x y = (x, y)` is
//! `{result : (=x, =y)}`; `map f (State (s, next)) = State (s, map.anon {next, f})` is
//! `{st : ?(=∃s, =∃next, …); result : (=∃s, [map_anon{next ↦ =∃next, f ↦ =f}])}`: the names the
//! function defined are out of scope in the caller, so they are existentials there, and what the
//! function learned of its parameters (the fields it read) comes back with them.
//!
//! At a call, the existentials become fresh existential names of the caller, the inputs its
//! arguments (an input the call does not bind, such as a capture of a direct call, an
//! existential too), and every constraint is met in: after `s2 = call map(sq, s1)` with
//! `s1 : (=0, =f1)`, the meet of `s1` with `?(=∃s, =∃next, …)` makes `∃s` the constant `0` and
//! `∃next` an alias of `f1`, so `s2 : (=0, [map_anon{next ↦ =f1, f ↦ =sq}])`.
//!
//! It is sound for the same reason a block's partial shape is: blocks are immutable, so what
//! held of an input when the function returned held of it at the call, and still does.

use super::approx::{Approx, Block, Desc, Extension, Fields, Name};
use super::env::TypingEnv;
use std::collections::BTreeMap;

/// The most existentials a summary keeps (past them, what it would name is expanded, as deep
/// as [`DEPTH`] allows).
const MAX_EXISTENTIALS: usize = 16;

/// How deep a description is exported into a summary before the rest is `⊤`.
const DEPTH: usize = 8;

/// What a function returns and what its runs say of its inputs, in terms of positions: `Name(i)`
/// is the `i`-th input (its parameters, then its captures) for `i` below [`Summary::inputs`], and
/// existential `i - inputs` past it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The result's approximation.
    pub result: Approx,
    /// What holds of inputs and existentials when the function returns, by position (only the
    /// positions it constrains).
    pub constraints: BTreeMap<Name, Approx>,
    /// How many inputs the function has.
    pub inputs: usize,
    /// Every position's label (the function's names of its inputs, then of the names each
    /// existential stands for).
    pub labels: Vec<String>,
}

impl Summary {
    /// A summary that says only `result` of a function of `inputs` inputs labelled `labels`.
    pub fn of_result(result: Approx, labels: Vec<String>) -> Summary {
        Summary {
            result,
            constraints: BTreeMap::new(),
            inputs: labels.len(),
            labels,
        }
    }

    /// The summary as the output prints it, `{st : ?(=∃s_1, …); result : (=∃s_1, …)}`, with
    /// `base`'s names of code and value slots ([`TypingEnv::with_code_names`]).
    pub fn text(&self, base: &TypingEnv) -> String {
        let mut env = base.clone();
        let names: Vec<Name> = self
            .labels
            .iter()
            .enumerate()
            .map(|(i, label)| match i < self.inputs {
                true => env.define(label, Approx::Top),
                false => env.define_existential(label, Approx::Top),
            })
            .collect();
        let rename = |n: Name| names[n.index()];
        let mut parts: Vec<String> = self
            .constraints
            .iter()
            .map(|(&n, a)| {
                let shown = env.show(&a.rename(&rename)).to_string();
                format!("{} : {shown}", env.label(rename(n)))
            })
            .collect();
        parts.push(format!(
            "result : {}",
            env.show(&self.result.rename(&rename))
        ));
        format!("{{{}}}", parts.join("; "))
    }
}

/// Writes what an environment says of some names in terms of positions.
pub(super) struct Exporter<'a> {
    env: &'a TypingEnv,
    /// The position of each class named so far, by canonical name.
    positions: BTreeMap<Name, Name>,
    labels: Vec<String>,
    inputs: usize,
    /// The canonical name of each input's class.
    classes: Vec<Name>,
    /// Existentials named but not yet described.
    pending: Vec<Name>,
}

impl<'a> Exporter<'a> {
    pub(super) fn new(env: &'a TypingEnv, inputs: &[Name]) -> Exporter<'a> {
        let mut positions = BTreeMap::new();
        for (i, &p) in inputs.iter().enumerate() {
            positions.entry(env.canonical(p)).or_insert(Name(i as u32));
        }
        Exporter {
            env,
            positions,
            labels: inputs.iter().map(|&p| env.plain_label(p)).collect(),
            inputs: inputs.len(),
            classes: inputs.iter().map(|&p| env.canonical(p)).collect(),
            pending: Vec::new(),
        }
    }

    /// What `env` says of the inputs and of the existentials they reach, by position, with
    /// every position's label.
    pub(super) fn inputs(mut self) -> (BTreeMap<Name, Approx>, Vec<String>) {
        let mut constraints = self.constrain_inputs();
        self.describe_pending(&mut constraints);
        (constraints, self.labels)
    }

    /// What `env` says of each input, by position (`=i` for an input in the class of an
    /// earlier input `i`).
    fn constrain_inputs(&mut self) -> BTreeMap<Name, Approx> {
        let mut constraints = BTreeMap::new();
        for i in 0..self.inputs {
            let position = Name(i as u32);
            let class = self.classes[i];
            let constraint = if self.positions[&class] != position {
                Approx::Alias(self.positions[&class])
            } else {
                let description = self.env.approx_of(class);
                self.export(&description, DEPTH)
            };
            if constraint != Approx::Top {
                constraints.insert(position, constraint);
            }
        }
        constraints
    }

    /// The summary with `result`'s approximation, and what is known of the inputs and of every
    /// existential the two mention.
    pub(super) fn summary(mut self, result: Name) -> Summary {
        let mut constraints = self.constrain_inputs();
        let class = self.env.canonical(result);
        let result = match self.positions.get(&class) {
            Some(&position) => Approx::Alias(position),
            None => {
                let description = self.env.approx_of(class);
                self.export(&description, DEPTH)
            }
        };
        self.describe_pending(&mut constraints);
        Summary {
            result,
            constraints,
            inputs: self.inputs,
            labels: self.labels,
        }
    }

    /// Describes every existential named so far (and those their descriptions name).
    fn describe_pending(&mut self, constraints: &mut BTreeMap<Name, Approx>) {
        while let Some(class) = self.pending.pop() {
            let position = self.positions[&class];
            let description = self.env.approx_of(class);
            let constraint = self.export(&description, DEPTH);
            if constraint != Approx::Top {
                constraints.insert(position, constraint);
            }
        }
    }

    /// The position standing for `name`'s class: an input's, or a new existential's; `None`
    /// for a constant (whose description says it all) or past [`MAX_EXISTENTIALS`].
    fn position(&mut self, name: Name) -> Option<Name> {
        let class = self.env.canonical(name);
        if let Some(&position) = self.positions.get(&class) {
            return Some(position);
        }
        if self.env.is_constant(class) || self.labels.len() - self.inputs >= MAX_EXISTENTIALS {
            return None;
        }
        let position = Name(self.labels.len() as u32);
        self.positions.insert(class, position);
        self.labels.push(self.env.plain_label(class));
        self.pending.push(class);
        Some(position)
    }

    /// `approx` in terms of positions.
    fn export(&mut self, approx: &Approx, depth: usize) -> Approx {
        let sub = depth.saturating_sub(1);
        match approx {
            Approx::Bottom
            | Approx::Top
            | Approx::Known(Desc::AnyBlock | Desc::Ints(_) | Desc::Naked(_)) => approx.clone(),
            Approx::Alias(n) => match self.position(*n) {
                Some(position) => Approx::Alias(position),
                None if depth == 0 => Approx::Top,
                None => {
                    let description = self.env.approx_of(*n);
                    self.export(&description, sub)
                }
            },
            Approx::Known(Desc::Imms(cases)) => Approx::cases(self.cases(cases, sub)),
            Approx::Known(Desc::Block(block)) => Approx::Known(Desc::Block(Block {
                tag: block.tag,
                fields: self.fields(&block.fields, sub),
            })),
            Approx::Known(Desc::Variant(cases)) => Approx::Known(Desc::Variant(
                cases
                    .iter()
                    .map(|(&tag, fields)| (tag, self.fields(fields, sub)))
                    .collect(),
            )),
            Approx::Known(Desc::Untagged(known)) => Approx::Known(Desc::Untagged(
                known
                    .iter()
                    .map(|(&i, a)| (i, self.export(a, sub)))
                    .collect(),
            )),
            Approx::Known(Desc::Closure(c)) => {
                let slots: Vec<Approx> = c.slots.iter().map(|a| self.export(a, sub)).collect();
                Approx::closure(c.code, slots)
            }
            Approx::Known(Desc::Either(imms, blocks)) => {
                let imms = self.cases(imms, sub);
                let blocks = self.export(&Approx::Known((**blocks).clone()), sub);
                Approx::either(imms, blocks)
            }
        }
    }

    /// Fields in terms of positions.
    fn fields(&mut self, fields: &Fields, depth: usize) -> Fields {
        match fields {
            Fields::Full(fields) => {
                Fields::Full(fields.iter().map(|a| self.export(a, depth)).collect())
            }
            Fields::Partial(known) => Fields::Partial(
                known
                    .iter()
                    .map(|(&i, a)| (i, self.export(a, depth)))
                    .collect(),
            ),
        }
    }

    /// Cases of immediates in terms of positions: a constraint on a name no position stands
    /// for is dropped (saying less is sound).
    fn cases(
        &mut self,
        cases: &BTreeMap<super::approx::Imm, Extension>,
        depth: usize,
    ) -> BTreeMap<super::approx::Imm, Extension> {
        cases
            .iter()
            .map(|(imm, extension)| {
                let mut constraints = BTreeMap::new();
                for (&n, a) in &extension.constraints {
                    if let Some(position) = self.position(n) {
                        constraints.insert(position, self.export(a, depth));
                    }
                }
                (imm.clone(), Extension { constraints })
            })
            .collect()
    }
}

/// Applies `summary` at a call in `env`: position `i` is `bound[i]` for the inputs the call
/// binds, and a fresh existential for the others and for the summary's existentials; every
/// constraint is met in. The result's approximation, or `None` when a constraint contradicts
/// what the caller knows (the call cannot return here).
pub(crate) fn instantiate(
    env: &mut TypingEnv,
    summary: &Summary,
    bound: &[Option<Name>],
) -> Option<Approx> {
    let mut used = Vec::new();
    summary.result.names(&mut used);
    for (&n, a) in &summary.constraints {
        used.push(n);
        a.names(&mut used);
    }
    let mut names: BTreeMap<Name, Name> = BTreeMap::new();
    used.sort();
    used.dedup();
    for position in used {
        let i = position.index();
        let name = match bound.get(i).copied().flatten() {
            Some(name) if i < summary.inputs => name,
            _ => {
                let Some(label) = summary.labels.get(i) else {
                    unreachable!(
                        "a summary labels each of its {} positions",
                        summary.labels.len()
                    )
                };
                env.define_existential(label, Approx::Top)
            }
        };
        names.insert(position, name);
    }
    let rename = |n: Name| match names.get(&n) {
        Some(&name) => name,
        None => unreachable!("position {} of a summary is one it mentions", n.index()),
    };
    for (&position, constraint) in &summary.constraints {
        *env = env.refine(rename(position), &constraint.rename(&rename))?;
    }
    Some(summary.result.rename(&rename))
}
