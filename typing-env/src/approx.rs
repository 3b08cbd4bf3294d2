//! Approximations: what a typing environment knows of one value. Either an alias of a name (the
//! value *is* that name's value), or a description: a finite set of immediates, or a block with a
//! known tag and known (full) or some known (partial) fields, whose fields are approximations in
//! turn — so `(=y, B)` says "a pair whose first field is `y`", which is how relations between
//! fields and names are kept.

use super::ints::Ints;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::rc::Rc;

/// A name of the environment (a program variable, an existential, or a constant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(pub u32);

impl Name {
    /// Its index in the environment's tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An immediate: an integer or a constant constructor (as OCaml's `A` in `type t = A | B`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Imm {
    /// An integer.
    Int(i64),
    /// A constant constructor, by name.
    Ctor(Rc<str>),
}

impl Imm {
    /// The constant constructor `name`.
    pub fn ctor(name: &str) -> Imm {
        Imm::Ctor(Rc::from(name))
    }
}

impl fmt::Display for Imm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Imm::Int(n) => write!(f, "{n}"),
            Imm::Ctor(name) => f.write_str(name),
        }
    }
}

/// The fields of a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fields {
    /// A full shape: exactly these fields.
    Full(Vec<Approx>),
    /// A partial shape: at least one more field than the largest index, these known.
    Partial(BTreeMap<usize, Approx>),
}

impl Fields {
    /// The field at `index`, as far as it is known (`⊤` when the shape does not say).
    pub fn get(&self, index: usize) -> Option<&Approx> {
        match self {
            Fields::Full(fields) => fields.get(index),
            Fields::Partial(known) => known.get(&index),
        }
    }

    /// The same shape with `f` applied to every known field.
    pub fn map(&self, f: &dyn Fn(&Approx) -> Approx) -> Fields {
        match self {
            Fields::Full(fields) => Fields::Full(fields.iter().map(f).collect()),
            Fields::Partial(known) => {
                Fields::Partial(known.iter().map(|(&i, a)| (i, f(a))).collect())
            }
        }
    }

    /// Every known field.
    pub fn known(&self) -> Vec<&Approx> {
        match self {
            Fields::Full(fields) => fields.iter().collect(),
            Fields::Partial(known) => known.values().collect(),
        }
    }
}

/// A block: a tag and fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The constructor tag (0 for tuples and records).
    pub tag: u32,
    /// What is known of the fields.
    pub fields: Fields,
}

/// An environment extension: constraints on names (each name's approximation), added to an
/// environment together. A function's summary is one (`{result : (=x, =y)}`), and so is what a
/// case of a disjunction knows besides its own value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extension {
    /// The constraints, by name.
    pub constraints: BTreeMap<Name, Approx>,
}

impl Extension {
    /// No constraint.
    pub fn is_empty(&self) -> bool {
        self.constraints.is_empty()
    }

    /// Both sets of constraints (where both constrain a name, both approximations must hold:
    /// the environment they are added to meets them in turn).
    pub fn and(&self, other: &Extension) -> Vec<(Name, Approx)> {
        self.constraints
            .iter()
            .chain(&other.constraints)
            .map(|(&n, a)| (n, a.clone()))
            .collect()
    }

    /// One extension saying what both say: where both constrain a name, the constraint is
    /// [`Approx::conjoin`] of theirs.
    pub fn both(&self, other: &Extension) -> Extension {
        let mut constraints = self.constraints.clone();
        for (&n, a) in &other.constraints {
            let joined = match constraints.get(&n) {
                Some(mine) => Approx::conjoin(mine, a),
                None => a.clone(),
            };
            constraints.insert(n, joined);
        }
        Extension { constraints }
    }

    /// Whether some constraint is bottom (the case it belongs to cannot hold).
    pub fn is_contradictory(&self) -> bool {
        self.constraints.values().any(Approx::is_bottom)
    }

    /// The extension with every name renamed by `rename`.
    pub fn rename(&self, rename: &dyn Fn(Name) -> Name) -> Extension {
        Extension {
            constraints: self
                .constraints
                .iter()
                .map(|(&n, a)| (rename(n), a.rename(rename)))
                .collect(),
        }
    }
}

/// A concrete description: what a canonical name (or a field) is known to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Desc {
    /// One of these immediates (never empty: no immediate at all is bottom), each a case of a
    /// disjunction with what else holds when the value is that one (often nothing).
    Imms(BTreeMap<Imm, Extension>),
    /// A block of this shape.
    Block(Block),
    /// A block whose tag is one of these (at least two: a disjunction split on the tag, as a
    /// variant type's values are), each with what is known of its fields.
    Variant(BTreeMap<u32, Fields>),
    /// A block (or closure) whose tag is not known: what a join of blocks of different kinds
    /// gives.
    AnyBlock,
    /// A block (not a closure) whose tag is not known, with more fields than the largest index
    /// here and these fields known: what reading fields of a value of unknown shape says
    /// (`y = x[0]` on a parameter `x` gives `x : ?(=y, …)`). A partial shape without a tag.
    Untagged(BTreeMap<usize, Approx>),
    /// One of these immediates, or a block as the second part says (a block, a variant, a
    /// block of unknown tag or a closure): the top-level split of a variant type that mixes
    /// constant constructors (`A`) with constructors that carry values (`B of int`).
    Either(BTreeMap<Imm, Extension>, Box<Desc>),
    /// A closure: the code of this function, with these captured values (value slots).
    Closure(Closure),
    /// A naked number of one kind (a float, an `int32`, an `int64`, a `nativeint`): one of a
    /// small set of values, or any value of its kind. Never a block.
    Naked(Naked),
    /// An integer as the analysis's declared value domain describes it (never its top or
    /// bottom, never a single constant: those are `⊤`, `⊥` and an immediate): what a set of
    /// immediates becomes when it would grow past what the analysis keeps.
    Ints(Ints),
}

/// The kinds of naked numbers, each with its own small sets: what the simplifier keeps of
/// unboxed floats and fixed-width integers beside tagged immediates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NumberKind {
    /// An IEEE double, held as its bit pattern (what the core IR's `fadd`, `sitofp`, … make).
    Float,
    /// A 32-bit integer, sign-extended (what `trunc 32`, `fptosi 32` and `fbits 32` make).
    Int32,
    /// A 64-bit integer made from a float (`fptosi`, `fptoui`, `fbits` of a double).
    Int64,
    /// A machine-width integer: an address (`addr @g`).
    NativeInt,
}

impl NumberKind {
    /// Every kind, in the order declarations list them.
    pub const ALL: [NumberKind; 4] = [
        NumberKind::Float,
        NumberKind::Int32,
        NumberKind::Int64,
        NumberKind::NativeInt,
    ];

    /// The kind's name: `float`, `int32`, `int64`, `nativeint`.
    pub fn word(self) -> &'static str {
        match self {
            NumberKind::Float => "float",
            NumberKind::Int32 => "int32",
            NumberKind::Int64 => "int64",
            NumberKind::NativeInt => "nativeint",
        }
    }

    /// `v` written as OCaml writes a literal of the kind: `1.5`, `7l`, `7L`, `7n`.
    pub fn show(self, v: i64) -> String {
        match self {
            // Every NaN prints with its bits, so that two NaNs of a set stay two.
            NumberKind::Float => match f64::from_bits(v as u64) {
                f if f.is_nan() => format!("NaN:{:#x}", v as u64),
                f => format!("{f:?}"),
            },
            NumberKind::Int32 => format!("{v}l"),
            NumberKind::Int64 => format!("{v}L"),
            NumberKind::NativeInt => format!("{v}n"),
        }
    }
}

/// A naked number's approximation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Naked {
    /// Its kind.
    pub kind: NumberKind,
    /// One of these values (never empty), or `None`: any value of the kind.
    pub values: Option<BTreeSet<i64>>,
}

impl Naked {
    /// Whether the concrete `v` is one of the values described (any 64-bit pattern is a value
    /// of a kind, as [`Approx::naked`] keeps them).
    pub fn admits(&self, v: i64) -> bool {
        match &self.values {
            Some(values) => values.contains(&v),
            None => true,
        }
    }

    /// What both say: the values of both (bottom when none is left), of `self`'s kind.
    pub fn meet(&self, other: &Naked) -> Approx {
        let values = match (&self.values, &other.values) {
            (Some(a), Some(b)) => Some(a.intersection(b).copied().collect()),
            (Some(a), None) => Some(a.clone()),
            (None, b) => b.clone(),
        };
        Approx::naked(self.kind, values)
    }

    /// Both, as a set of at most `max` values of the same kind; `None` when the kinds differ.
    pub fn join(&self, other: &Naked, max: usize) -> Option<Approx> {
        if self.kind != other.kind {
            return None;
        }
        let values = match (&self.values, &other.values) {
            (Some(a), Some(b)) => {
                let both: BTreeSet<i64> = a.union(b).copied().collect();
                (both.len() <= max).then_some(both)
            }
            _ => None,
        };
        Some(Approx::naked(self.kind, values))
    }
}

/// A closure's code and value slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Closure {
    /// The function whose code it runs (its index in the module).
    pub code: u32,
    /// The captured values, in the order of the function's capture list.
    pub slots: Vec<Approx>,
}

/// An approximation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Approx {
    /// No value: the point is unreachable.
    Bottom,
    /// Any value.
    Top,
    /// The value of this name (`=x`).
    Alias(Name),
    /// A concrete description.
    Known(Desc),
}

impl Approx {
    /// One immediate.
    pub fn imm(imm: Imm) -> Approx {
        Approx::Known(Desc::Imms(BTreeMap::from([(imm, Extension::default())])))
    }

    /// The constant constructor `name`.
    pub fn ctor(name: &str) -> Approx {
        Approx::imm(Imm::ctor(name))
    }

    /// Any of these immediates (bottom when there are none).
    pub fn imms(imms: impl IntoIterator<Item = Imm>) -> Approx {
        let cases: BTreeMap<Imm, Extension> = imms
            .into_iter()
            .map(|imm| (imm, Extension::default()))
            .collect();
        Approx::cases(cases)
    }

    /// A disjunction of immediates, each with its extension (bottom when there are none).
    pub fn cases(cases: BTreeMap<Imm, Extension>) -> Approx {
        if cases.is_empty() {
            Approx::Bottom
        } else {
            Approx::Known(Desc::Imms(cases))
        }
    }

    /// An integer of a declared value domain: `⊤`, `⊥` or one immediate when it is one of
    /// those.
    pub fn ints(value: Ints) -> Approx {
        if value.is_bottom() {
            Approx::Bottom
        } else if value.is_top() {
            Approx::Top
        } else if let Some(c) = value.as_constant() {
            Approx::imm(Imm::Int(c))
        } else {
            Approx::Known(Desc::Ints(value))
        }
    }

    /// A naked number of `kind`: one of `values` (bottom for none), or any value of the kind.
    /// Any `int32` is `⊤`: past a set, integers are the declared domain's business, and the
    /// 32-bit range is not kept (so that any value of a kind is any 64-bit pattern).
    pub fn naked(kind: NumberKind, values: Option<BTreeSet<i64>>) -> Approx {
        match values {
            Some(values) if values.is_empty() => Approx::Bottom,
            None if kind == NumberKind::Int32 => Approx::Top,
            values => Approx::Known(Desc::Naked(Naked { kind, values })),
        }
    }

    /// A tuple (a block with tag 0) of these fields.
    pub fn tuple(fields: impl IntoIterator<Item = Approx>) -> Approx {
        Approx::block(0, fields)
    }

    /// A block with `tag` and exactly these fields.
    pub fn block(tag: u32, fields: impl IntoIterator<Item = Approx>) -> Approx {
        Approx::Known(Desc::Block(Block {
            tag,
            fields: Fields::Full(fields.into_iter().collect()),
        }))
    }

    /// A block with `tag` of which only `index` is known to be `field` (as a projection says).
    pub fn projection(tag: u32, index: usize, field: Approx) -> Approx {
        Approx::Known(Desc::Block(Block {
            tag,
            fields: Fields::Partial(BTreeMap::from([(index, field)])),
        }))
    }

    /// A block of unknown tag of which only `index` is known to be `field` (as a projection of
    /// a value of unknown shape says).
    pub fn untagged(index: usize, field: Approx) -> Approx {
        Approx::Known(Desc::Untagged(BTreeMap::from([(index, field)])))
    }

    /// A block whose tag is one of `cases`' (bottom for none, a plain block for one).
    pub fn variant(mut cases: BTreeMap<u32, Fields>) -> Approx {
        match cases.len() {
            0 => Approx::Bottom,
            1 => {
                let (tag, fields) = cases.pop_first().expect("one case");
                Approx::Known(Desc::Block(Block { tag, fields }))
            }
            _ => Approx::Known(Desc::Variant(cases)),
        }
    }

    /// Either one of the immediates `imms` or a value `blocks` describes (a block, a variant, a
    /// block of unknown tag or a closure); `⊤` when `blocks` is not one of those.
    pub fn either(imms: BTreeMap<Imm, Extension>, blocks: Approx) -> Approx {
        match blocks {
            Approx::Bottom => Approx::cases(imms),
            _ if imms.is_empty() => blocks,
            Approx::Known(
                desc @ (Desc::Block(_)
                | Desc::Variant(_)
                | Desc::AnyBlock
                | Desc::Untagged(_)
                | Desc::Closure(_)),
            ) => Approx::Known(Desc::Either(imms, Box::new(desc))),
            _ => Approx::Top,
        }
    }

    /// The immediates this may be (with their extensions) and what it is when it is a block:
    /// `None` for `⊤`, aliases and integers of a declared domain.
    pub fn split(&self) -> Option<(BTreeMap<Imm, Extension>, Approx)> {
        match self {
            Approx::Bottom => Some((BTreeMap::new(), Approx::Bottom)),
            Approx::Known(Desc::Imms(cases)) => Some((cases.clone(), Approx::Bottom)),
            Approx::Known(Desc::Either(imms, blocks)) => {
                Some((imms.clone(), Approx::Known((**blocks).clone())))
            }
            // Integers of a declared domain are no set of immediates.
            Approx::Known(Desc::Ints(_) | Desc::Naked(_)) | Approx::Top | Approx::Alias(_) => None,
            Approx::Known(_) => Some((BTreeMap::new(), self.clone())),
        }
    }

    /// The cases of a block description by tag (one for a block), `None` for anything else.
    pub fn block_cases(&self) -> Option<BTreeMap<u32, Fields>> {
        match self {
            Approx::Known(Desc::Block(b)) => Some(BTreeMap::from([(b.tag, b.fields.clone())])),
            Approx::Known(Desc::Variant(cases)) => Some(cases.clone()),
            _ => None,
        }
    }

    /// A closure of function `code` capturing `slots`.
    pub fn closure(code: u32, slots: impl IntoIterator<Item = Approx>) -> Approx {
        Approx::Known(Desc::Closure(Closure {
            code,
            slots: slots.into_iter().collect(),
        }))
    }

    /// What both `a` and `b` say, found without an environment: exact when one is `⊤`, they
    /// are equal, or both are immediates (sets, whose common cases keep both extensions) or
    /// integers of a declared domain; otherwise `a` (which says less than both, never more).
    pub fn conjoin(a: &Approx, b: &Approx) -> Approx {
        match (a, b) {
            (Approx::Top, x) | (x, Approx::Top) => x.clone(),
            (Approx::Bottom, _) | (_, Approx::Bottom) => Approx::Bottom,
            _ if a == b => a.clone(),
            (Approx::Known(Desc::Imms(p)), Approx::Known(Desc::Imms(q))) => Approx::cases(
                p.iter()
                    .filter_map(|(imm, e)| {
                        let both = e.both(q.get(imm)?);
                        (!both.is_contradictory()).then(|| (imm.clone(), both))
                    })
                    .collect(),
            ),
            (Approx::Known(Desc::Ints(x)), Approx::Known(Desc::Ints(y))) => Approx::ints(x.meet(y)),
            (Approx::Known(Desc::Naked(x)), Approx::Known(Desc::Naked(y))) => x.meet(y),
            (Approx::Known(Desc::Imms(cases)), Approx::Known(Desc::Ints(ints)))
            | (Approx::Known(Desc::Ints(ints)), Approx::Known(Desc::Imms(cases))) => Approx::cases(
                cases
                    .iter()
                    .filter(|(imm, _)| matches!(imm, Imm::Int(v) if ints.contains(*v)))
                    .map(|(imm, e)| (imm.clone(), e.clone()))
                    .collect(),
            ),
            // A block of unknown tag and a description of blocks: the description (which says
            // the value is a block, and more).
            (Approx::Known(Desc::AnyBlock), x @ Approx::Known(blocks))
            | (x @ Approx::Known(blocks), Approx::Known(Desc::AnyBlock))
                if matches!(
                    blocks,
                    Desc::Block(_) | Desc::Variant(_) | Desc::Closure(_) | Desc::Untagged(_)
                ) =>
            {
                x.clone()
            }
            _ => a.clone(),
        }
    }

    /// Whether this is bottom.
    pub fn is_bottom(&self) -> bool {
        matches!(self, Approx::Bottom)
    }

    /// Appends every name the approximation mentions (in fields, slots and extensions) to
    /// `out`.
    pub fn names(&self, out: &mut Vec<Name>) {
        match self {
            Approx::Alias(n) => out.push(*n),
            Approx::Known(Desc::Block(block)) => {
                block.fields.known().iter().for_each(|f| f.names(out))
            }
            Approx::Known(Desc::Variant(cases)) => cases
                .values()
                .flat_map(Fields::known)
                .for_each(|f| f.names(out)),
            Approx::Known(Desc::Closure(c)) => c.slots.iter().for_each(|f| f.names(out)),
            Approx::Known(Desc::Untagged(known)) => known.values().for_each(|f| f.names(out)),
            Approx::Known(Desc::Imms(cases)) => {
                for ext in cases.values() {
                    for (&n, a) in &ext.constraints {
                        out.push(n);
                        a.names(out);
                    }
                }
            }
            Approx::Known(Desc::Either(imms, blocks)) => {
                Approx::Known(Desc::Imms(imms.clone())).names(out);
                Approx::Known((**blocks).clone()).names(out);
            }
            Approx::Known(Desc::AnyBlock | Desc::Ints(_) | Desc::Naked(_))
            | Approx::Top
            | Approx::Bottom => {}
        }
    }

    /// The approximation with every name renamed by `rename`.
    pub fn rename(&self, rename: &dyn Fn(Name) -> Name) -> Approx {
        match self {
            Approx::Bottom
            | Approx::Top
            | Approx::Known(Desc::AnyBlock | Desc::Ints(_) | Desc::Naked(_)) => self.clone(),
            Approx::Alias(n) => Approx::Alias(rename(*n)),
            Approx::Known(Desc::Variant(cases)) => Approx::Known(Desc::Variant(
                cases
                    .iter()
                    .map(|(&t, fields)| (t, fields.map(&|f| f.rename(rename))))
                    .collect(),
            )),
            Approx::Known(Desc::Imms(cases)) => Approx::Known(Desc::Imms(
                cases
                    .iter()
                    .map(|(imm, ext)| (imm.clone(), ext.rename(rename)))
                    .collect(),
            )),
            Approx::Known(Desc::Block(block)) => Approx::Known(Desc::Block(Block {
                tag: block.tag,
                fields: match &block.fields {
                    Fields::Full(fields) => {
                        Fields::Full(fields.iter().map(|f| f.rename(rename)).collect())
                    }
                    Fields::Partial(known) => {
                        Fields::Partial(known.iter().map(|(&i, f)| (i, f.rename(rename))).collect())
                    }
                },
            })),
            Approx::Known(Desc::Closure(c)) => {
                Approx::closure(c.code, c.slots.iter().map(|a| a.rename(rename)))
            }
            Approx::Known(Desc::Untagged(known)) => Approx::Known(Desc::Untagged(
                known.iter().map(|(&i, f)| (i, f.rename(rename))).collect(),
            )),
            Approx::Known(Desc::Either(imms, blocks)) => {
                let imms = match Approx::Known(Desc::Imms(imms.clone())).rename(rename) {
                    Approx::Known(Desc::Imms(cases)) => cases,
                    _ => BTreeMap::new(),
                };
                Approx::either(imms, Approx::Known((**blocks).clone()).rename(rename))
            }
        }
    }
}

/// An approximation printed with the names of its environment.
pub struct Shown<'a> {
    pub(crate) approx: &'a Approx,
    pub(crate) name: &'a dyn Fn(Name) -> String,
    pub(crate) code: &'a dyn Fn(u32) -> String,
    /// The name of a closure's value slot, by code and position, where the module says it.
    pub(crate) slot: &'a dyn Fn(u32, usize) -> Option<String>,
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sub = |approx| Shown {
            approx,
            name: self.name,
            code: self.code,
            slot: self.slot,
        };
        match self.approx {
            Approx::Bottom => f.write_str("⊥"),
            Approx::Top => f.write_str("⊤"),
            Approx::Alias(n) => write!(f, "={}", (self.name)(*n)),
            Approx::Known(Desc::Imms(cases)) => {
                let parts = self.imm_parts(cases);
                let extended = cases.values().any(|e| !e.is_empty());
                if extended && parts.len() > 1 {
                    write!(f, "({})", parts.join(" | "))
                } else {
                    f.write_str(&parts.join(" | "))
                }
            }
            Approx::Known(Desc::Closure(c)) => {
                // `[adder{k ↦ =k}]` where the module names the slots, `[adder{=k}]` otherwise.
                let slots: Vec<String> = c
                    .slots
                    .iter()
                    .enumerate()
                    .map(|(i, a)| match (self.slot)(c.code, i) {
                        Some(slot) => format!("{slot} ↦ {}", sub(a)),
                        None => sub(a).to_string(),
                    })
                    .collect();
                write!(f, "[{}{{{}}}]", (self.code)(c.code), slots.join(", "))
            }
            Approx::Known(Desc::Block(block)) => {
                if block.tag != 0 {
                    write!(f, "#{}", block.tag)?;
                }
                self.fields(&block.fields, f)
            }
            Approx::Known(Desc::Variant(cases)) => {
                write!(f, "({})", self.variant_parts(cases).join(" | "))
            }
            Approx::Known(Desc::AnyBlock) => f.write_str("block"),
            // `?(=y, …)`: a block whose tag is not known.
            Approx::Known(Desc::Untagged(known)) => {
                write!(f, "?{}", FieldsShown(self, &Fields::Partial(known.clone())))
            }
            Approx::Known(Desc::Ints(value)) => write!(f, "{value}"),
            // `1.5 | 2.5`, `7l`, or the kind for any value of it: `float`.
            Approx::Known(Desc::Naked(naked)) => match &naked.values {
                Some(values) => {
                    let parts: Vec<String> = values.iter().map(|&v| naked.kind.show(v)).collect();
                    f.write_str(&parts.join(" | "))
                }
                None => f.write_str(naked.kind.word()),
            },
            Approx::Known(Desc::Either(imms, blocks)) => {
                let mut parts = self.imm_parts(imms);
                match &**blocks {
                    Desc::Variant(cases) => parts.extend(self.variant_parts(cases)),
                    // Beside immediates a block always shows its tag: `(0 | #0(=y))`, not
                    // `(0 | (=y))`.
                    Desc::Block(block) => parts.push(format!(
                        "#{}{}",
                        block.tag,
                        FieldsShown(self, &block.fields)
                    )),
                    other => parts.push(
                        Shown {
                            approx: &Approx::Known(other.clone()),
                            name: self.name,
                            code: self.code,
                            slot: self.slot,
                        }
                        .to_string(),
                    ),
                }
                write!(f, "({})", parts.join(" | "))
            }
        }
    }
}

impl Shown<'_> {
    /// Each immediate, with its extension when it has one: `A`, `B{x : =y}`.
    fn imm_parts(&self, cases: &BTreeMap<Imm, Extension>) -> Vec<String> {
        cases
            .iter()
            .map(|(imm, ext)| {
                if ext.is_empty() {
                    return imm.to_string();
                }
                let constraints: Vec<String> = ext
                    .constraints
                    .iter()
                    .map(|(&n, a)| {
                        let shown = Shown {
                            approx: a,
                            name: self.name,
                            code: self.code,
                            slot: self.slot,
                        };
                        format!("{} : {shown}", (self.name)(n))
                    })
                    .collect();
                format!("{imm}{{{}}}", constraints.join("; "))
            })
            .collect()
    }

    /// Each case of a variant: `#0(=y)`, `#1(=z, ⊤, …)`.
    fn variant_parts(&self, cases: &BTreeMap<u32, Fields>) -> Vec<String> {
        cases
            .iter()
            .map(|(tag, fields)| {
                let mut text = format!("#{tag}");
                let mut shown = String::new();
                let _ = fmt::write(&mut shown, format_args!("{}", FieldsShown(self, fields)));
                text.push_str(&shown);
                text
            })
            .collect()
    }
    /// `(a, b)`, or `(a, ⊤, c, …)` for a partial shape.
    fn fields(&self, fields: &Fields, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", FieldsShown(self, fields))
    }
}

/// A block's fields printed with the names of an environment.
struct FieldsShown<'s, 'a>(&'s Shown<'a>, &'s Fields);

impl fmt::Display for FieldsShown<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (shown, fields) = (self.0, self.1);
        let sub = |approx| Shown {
            approx,
            name: shown.name,
            code: shown.code,
            slot: shown.slot,
        };
        let parts: Vec<String> = match fields {
            Fields::Full(fields) => fields.iter().map(|a| sub(a).to_string()).collect(),
            Fields::Partial(known) => {
                let len = known.keys().next_back().map_or(0, |&i| i + 1);
                let mut parts: Vec<String> = (0..len)
                    .map(|i| known.get(&i).map_or("⊤".to_owned(), |a| sub(a).to_string()))
                    .collect();
                parts.push("…".to_owned());
                parts
            }
        };
        write!(f, "({})", parts.join(", "))
    }
}
