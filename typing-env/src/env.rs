//! The environment: names with approximations, and must-alias classes kept by union-find. Every
//! class has one canonical element, the only one with a description; the others are aliases of
//! it (`z : =y`). Constants are names too, always canonical in their class. Adding a constraint
//! is a [`TypingEnv::meet`], which returns the refined approximation *and* the environment that
//! the constraint refined.

use super::approx::{Approx, Desc, Extension, Fields, Imm, Name, NumberKind, Shown};
use super::ints::Ints;
use imbl::{OrdMap, Vector};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::rc::Rc;

/// What a name stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A program variable.
    Variable,
    /// An existentially quantified name (one out of scope).
    Existential,
    /// A constant, a predefined name.
    Constant(Imm),
}

/// What a class is, as [`TypingEnv::own`] borrows it.
pub(super) enum Own<'a> {
    /// The class of a constant: this immediate.
    Constant(&'a Imm),
    /// The canonical name's description (never an alias).
    Described(&'a Approx),
}

#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub(super) label: Rc<str>,
    kind: Kind,
    /// The next name towards the canonical element of the class, or `None` for a canonical one.
    parent: Option<Name>,
    /// A canonical name's description (never an alias); unused otherwise.
    pub(super) approx: Approx,
}

/// A typing environment: names → approximations, plus must-alias classes.
///
/// It also keeps its history: the names it defined or changed, in order. An environment derived
/// from another (by [`define`](Self::define) and [`meet`](Self::meet)) extends its history, so
/// a join over a common ancestor reads what each branch changed from the history's tail instead
/// of comparing whole environments. Its tables are persistent (structurally shared), so
/// deriving an environment costs what it changes: a join of environments of any size that
/// differ in `k` names takes time in `k` (and the logarithm of the size).
#[derive(Clone, Debug, Default)]
pub struct TypingEnv {
    pub(super) entries: Vector<Entry>,
    constants: OrdMap<Imm, Name>,
    /// The latest variable or existential of each label, for [`lookup`](Self::lookup).
    labels: OrdMap<Rc<str>, Name>,
    pub(super) history: Vector<Name>,
    /// Whether some name has no value (the environment is contradictory).
    bottom: bool,
    /// How closures' code prints (a function's name, by index).
    code_names: Rc<Vec<String>>,
    /// How closures' value slots print (a function's capture names, by index).
    slot_names: Rc<Vec<Vec<String>>>,
    /// The top of the declared value domain integers fall back to past small sets of
    /// immediates (`None`: they fall back to `⊤`).
    ints: Option<Ints>,
    /// What the cases a meet in progress left alone know, added when it is done (always
    /// empty between meets).
    lifted: Vec<(Name, Approx)>,
    /// The most immediates a set keeps (`None`: [`TypingEnv::MAX_IMMS`]).
    max_imms: Option<usize>,
    /// The most values a set of naked numbers keeps, per kind (`None`: the default).
    max_numbers: Option<[usize; 4]>,
}

impl TypingEnv {
    /// The empty environment.
    pub fn new() -> TypingEnv {
        TypingEnv::default()
    }

    /// An environment with no names, with this one's settings (how code and value slots
    /// print, the declared domain, the most immediates a set keeps): the common ancestor of
    /// environments built afresh and joined, as a closure body's entries are under the lock.
    pub fn emptied(&self) -> TypingEnv {
        TypingEnv {
            code_names: self.code_names.clone(),
            slot_names: self.slot_names.clone(),
            ints: self.ints.clone(),
            max_imms: self.max_imms,
            max_numbers: self.max_numbers,
            ..TypingEnv::default()
        }
    }

    /// This environment, printing the code of closures by these function names.
    pub fn with_code_names(mut self, names: Vec<String>) -> TypingEnv {
        self.code_names = Rc::new(names);
        self
    }

    /// This environment, printing the value slots of closures by these names (a function's
    /// capture names, by function index): `[adder{k ↦ =k}]` instead of `[adder{=k}]`.
    pub fn with_slot_names(mut self, names: Vec<Vec<String>>) -> TypingEnv {
        self.slot_names = Rc::new(names);
        self
    }

    /// This environment, with integers falling back to the value domain `top` belongs to when
    /// a set of immediates would grow past [`TypingEnv::max_imms`] (or an operand is not a
    /// known set).
    pub fn with_ints(mut self, top: Ints) -> TypingEnv {
        self.ints = Some(top.top());
        self
    }

    /// The top of the value domain integers fall back to, if the environment has one.
    pub fn ints(&self) -> Option<&Ints> {
        self.ints.as_ref()
    }

    /// The most immediates a set keeps, unless the analysis declares otherwise
    /// ([`TypingEnv::with_max_imms`]).
    pub const MAX_IMMS: usize = absinthe::spec::AnalysisSpec::DEFAULT_IMMEDIATES as usize;

    /// This environment, keeping sets of up to `n` immediates (at least one) when arithmetic or
    /// a join makes them: an analysis's `immediates N;`.
    pub fn with_max_imms(mut self, n: usize) -> TypingEnv {
        self.max_imms = Some(n.max(1));
        self
    }

    /// This environment, keeping sets of up to `sizes[k]` naked numbers of the kind
    /// `NumberKind::ALL[k]` (at least one each): an analysis's `numbers float 4, …;`.
    pub fn with_max_numbers(mut self, sizes: [usize; 4]) -> TypingEnv {
        self.max_numbers = Some(sizes.map(|n| n.max(1)));
        self
    }

    /// The most values a set of naked numbers of `kind` keeps when arithmetic or a join makes
    /// it larger (past it: any value of the kind, or, for the integer kinds, a value of the
    /// declared domain).
    pub fn max_numbers(&self, kind: NumberKind) -> usize {
        self.all_max_numbers()[kind as usize]
    }

    /// [`TypingEnv::max_numbers`] of every kind, in the order of [`NumberKind::ALL`].
    pub(super) fn all_max_numbers(&self) -> [usize; 4] {
        self.max_numbers
            .unwrap_or([absinthe::spec::AnalysisSpec::DEFAULT_NUMBERS as usize; 4])
    }

    /// The most immediates a set keeps when arithmetic or a join makes it larger (past it, the
    /// set becomes a value of the declared domain, or `⊤`).
    pub fn max_imms(&self) -> usize {
        self.max_imms.unwrap_or(Self::MAX_IMMS)
    }

    /// The integers `approx` may be, as a value of the declared domain: `None` without one, or
    /// when `approx` (expanded) is not an integer of the domain or a set of integers.
    pub fn as_ints(&self, approx: &Approx) -> Option<Ints> {
        let top = self.ints.as_ref()?;
        match self.expand(approx, 1) {
            Approx::Top | Approx::Alias(_) => Some(top.clone()),
            Approx::Bottom => None,
            Approx::Known(Desc::Ints(value)) => Some(value),
            Approx::Known(Desc::Imms(cases)) => abstract_imms(top, cases.keys()),
            Approx::Known(Desc::Naked(naked)) => match &naked.values {
                Some(values) => abstract_imms(
                    top,
                    values
                        .iter()
                        .map(|&v| Imm::Int(v))
                        .collect::<Vec<_>>()
                        .iter(),
                ),
                None => Some(top.clone()),
            },
            Approx::Known(_) => None,
        }
    }

    fn add(&mut self, label: &str, kind: Kind, approx: Approx) -> Name {
        let name = Name(u32::try_from(self.entries.len()).expect("fewer than 2³² names"));
        let label: Rc<str> = Rc::from(label);
        if !matches!(kind, Kind::Constant(_)) {
            self.labels.insert(label.clone(), name);
        }
        self.entries.push_back(Entry {
            label,
            kind,
            parent: None,
            approx: Approx::Top,
        });
        self.history.push_back(name);
        // Defining a name is a constraint on a name that could be anything; `Top ⊓ a` never
        // fails unless `a` itself is bottom.
        if self.meet_top(&Approx::Alias(name), &approx).is_bottom() {
            self.make_bottom(name);
        }
        name
    }

    /// Makes `name` bottom: the environment is contradictory from here on.
    pub(super) fn make_bottom(&mut self, name: Name) {
        self.entries[name.index()].approx = Approx::Bottom;
        self.bottom = true;
    }

    /// Adds the variable `label` with approximation `approx` (`Approx::Alias(y)` makes it a
    /// must-alias of `y`).
    pub fn define(&mut self, label: &str, approx: Approx) -> Name {
        self.add(label, Kind::Variable, approx)
    }

    /// Adds an existentially quantified name (printed `∃label`).
    pub fn define_existential(&mut self, label: &str, approx: Approx) -> Name {
        self.add(label, Kind::Existential, approx)
    }

    /// The predefined name of the constant `imm`.
    pub fn constant(&mut self, imm: Imm) -> Name {
        if let Some(&name) = self.constants.get(&imm) {
            return name;
        }
        let label = imm.to_string();
        let name = self.add(
            &label,
            Kind::Constant(imm.clone()),
            Approx::imm(imm.clone()),
        );
        self.constants.insert(imm, name);
        name
    }

    /// The variable (or existential) called `label`, the latest one if several.
    pub fn lookup(&self, label: &str) -> Option<Name> {
        self.labels.get(label).copied()
    }

    /// The canonical element of `name`'s class.
    pub fn canonical(&self, mut name: Name) -> Name {
        while let Some(parent) = self.entries[name.index()].parent {
            name = parent;
        }
        name
    }

    /// What the environment says of `name`: an alias of its canonical element, or (for a
    /// canonical name) its description.
    pub fn approx_of(&self, name: Name) -> Approx {
        let canonical = self.canonical(name);
        if canonical == name {
            self.entries[name.index()].approx.clone()
        } else {
            Approx::Alias(canonical)
        }
    }

    /// Whether the environment is contradictory (some name has no value: unreachable code).
    pub fn is_bottom(&self) -> bool {
        self.bottom
    }

    /// Meets `a` and `b` in this environment: the approximation of what both describe, and the
    /// environment refined by the constraint that they describe the same value. `None` when they
    /// cannot (the branch that assumes it is dead).
    ///
    /// Aliases are replaced by their canonical names, whose descriptions are met (recursively,
    /// field by field; a name already being met is not met again, which stops cycles). When one
    /// side is a name, its canonical element gets the result and the result is an alias of it;
    /// when both are, their classes merge (the constant, else the older name, stays canonical).
    pub fn meet(&self, a: &Approx, b: &Approx) -> Option<(Approx, TypingEnv)> {
        let mut env = self.clone();
        match env.meet_top(a, b) {
            Approx::Bottom => None,
            result => Some((result, env)),
        }
    }

    /// Adds the constraint that `name` is described by `approx` ([`meet`](Self::meet) of its
    /// alias with `approx`); `None` when that cannot hold.
    pub fn refine(&self, name: Name, approx: &Approx) -> Option<TypingEnv> {
        self.meet(&Approx::Alias(name), approx).map(|(_, env)| env)
    }

    fn canonical_approx(&self, approx: &Approx) -> Approx {
        match approx {
            Approx::Alias(n) => Approx::Alias(self.canonical(*n)),
            other => other.clone(),
        }
    }

    fn meet_in(&mut self, a: &Approx, b: &Approx, busy: &mut Vec<Name>) -> Approx {
        match (a, b) {
            (Approx::Bottom, _) | (_, Approx::Bottom) => Approx::Bottom,
            (Approx::Top, other) | (other, Approx::Top) => self.canonical_approx(other),
            (Approx::Alias(x), Approx::Alias(y)) => {
                let (x, y) = (self.canonical(*x), self.canonical(*y));
                if x == y || busy.contains(&x) || busy.contains(&y) {
                    return Approx::Alias(x);
                }
                busy.extend([x, y]);
                let (dx, dy) = (self.approx_of(x), self.approx_of(y));
                let met = self.meet_in(&dx, &dy, busy);
                busy.truncate(busy.len() - 2);
                if met.is_bottom() {
                    return Approx::Bottom;
                }
                let (keep, other) = if self.outranks(y, x) { (y, x) } else { (x, y) };
                self.entries[other.index()].parent = Some(keep);
                self.entries[other.index()].approx = Approx::Top;
                self.entries[keep.index()].approx = met;
                self.history.push_back(other);
                self.history.push_back(keep);
                Approx::Alias(keep)
            }
            (Approx::Alias(x), known) | (known, Approx::Alias(x)) => {
                let x = self.canonical(*x);
                if busy.contains(&x) {
                    return Approx::Alias(x);
                }
                busy.push(x);
                let current = self.approx_of(x);
                let met = self.meet_in(&current, known, busy);
                busy.pop();
                if met.is_bottom() {
                    return Approx::Bottom;
                }
                if self.entries[x.index()].approx != met {
                    self.entries[x.index()].approx = met;
                    self.history.push_back(x);
                }
                Approx::Alias(x)
            }
            (Approx::Known(p), Approx::Known(q)) => self.meet_desc(p, q, busy),
        }
    }

    /// Whether `name` is a constant.
    pub fn is_constant(&self, name: Name) -> bool {
        matches!(self.entries[name.index()].kind, Kind::Constant(_))
    }

    /// How many names the environment has.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the environment has no name.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether `a` should be the canonical element of a class merged with `b`'s: a constant
    /// always is, else the older name (it stays in scope longer).
    fn outranks(&self, a: Name, b: Name) -> bool {
        let constant = |n: Name| matches!(self.entries[n.index()].kind, Kind::Constant(_));
        match (constant(a), constant(b)) {
            (true, false) => true,
            (false, true) => false,
            _ => a < b,
        }
    }

    fn meet_desc(&mut self, p: &Desc, q: &Desc, busy: &mut Vec<Name>) -> Approx {
        match (p, q) {
            (Desc::Imms(a), Desc::Imms(b)) => {
                let mut cases: BTreeMap<Imm, Extension> = BTreeMap::new();
                for (imm, ext) in a {
                    if let Some(other) = b.get(imm) {
                        let both = ext.both(other);
                        if !both.is_contradictory() {
                            cases.insert(imm.clone(), both);
                        }
                    }
                }
                self.lift_cases(cases)
            }
            // A set of immediates met with integers of the declared domain: the integers of
            // the set the domain admits.
            (Desc::Imms(cases), Desc::Ints(ints)) | (Desc::Ints(ints), Desc::Imms(cases)) => {
                let kept = cases
                    .iter()
                    .filter(|(imm, _)| matches!(imm, Imm::Int(v) if ints.contains(*v)))
                    .map(|(imm, ext)| (imm.clone(), ext.clone()))
                    .collect();
                self.lift_cases(kept)
            }
            (Desc::Ints(x), Desc::Ints(y)) => Approx::ints(x.meet(y)),
            (Desc::Naked(x), Desc::Naked(y)) => x.meet(y),
            // A naked number met with immediates or integers of the declared domain: the values
            // both admit (any value of a kind is any 64-bit pattern: the integers as they are).
            (Desc::Imms(cases), Desc::Naked(naked)) | (Desc::Naked(naked), Desc::Imms(cases)) => {
                let kept: BTreeMap<Imm, Extension> = cases
                    .iter()
                    .filter(|(imm, _)| matches!(imm, Imm::Int(v) if naked.admits(*v)))
                    .map(|(imm, ext)| (imm.clone(), ext.clone()))
                    .collect();
                // Without extensions to lift, the numbers stay numbers of their kind.
                if kept.values().all(Extension::is_empty) {
                    let values = kept
                        .keys()
                        .filter_map(|imm| match imm {
                            Imm::Int(v) => Some(*v),
                            Imm::Ctor(_) => None,
                        })
                        .collect();
                    return Approx::naked(naked.kind, Some(values));
                }
                self.lift_cases(kept)
            }
            (Desc::Ints(ints), Desc::Naked(naked)) | (Desc::Naked(naked), Desc::Ints(ints)) => {
                match &naked.values {
                    Some(values) => Approx::naked(
                        naked.kind,
                        Some(
                            values
                                .iter()
                                .copied()
                                .filter(|&v| ints.contains(v))
                                .collect(),
                        ),
                    ),
                    None => Approx::ints(ints.clone()),
                }
            }
            (Desc::Either(imms, _), Desc::Naked(_)) => {
                self.meet_desc(&Desc::Imms(imms.clone()), q, busy)
            }
            (Desc::Naked(_), Desc::Either(imms, _)) => {
                self.meet_desc(p, &Desc::Imms(imms.clone()), busy)
            }
            (Desc::Either(imms, _), Desc::Ints(_)) => {
                self.meet_desc(&Desc::Imms(imms.clone()), q, busy)
            }
            (Desc::Ints(_), Desc::Either(imms, _)) => {
                self.meet_desc(p, &Desc::Imms(imms.clone()), busy)
            }
            // A value that is an immediate or a block, met with one that is only one of the two:
            // that part, met in full.
            (Desc::Either(imms, _), Desc::Imms(_)) => {
                self.meet_desc(&Desc::Imms(imms.clone()), q, busy)
            }
            (Desc::Imms(_), Desc::Either(imms, _)) => {
                self.meet_desc(p, &Desc::Imms(imms.clone()), busy)
            }
            (
                Desc::Either(_, blocks),
                Desc::Block(_)
                | Desc::Variant(_)
                | Desc::AnyBlock
                | Desc::Untagged(_)
                | Desc::Closure(_),
            ) => self.meet_desc(blocks, q, busy),
            (
                Desc::Block(_)
                | Desc::Variant(_)
                | Desc::AnyBlock
                | Desc::Untagged(_)
                | Desc::Closure(_),
                Desc::Either(_, blocks),
            ) => self.meet_desc(p, blocks, busy),
            (Desc::Either(ia, ba), Desc::Either(ib, bb)) => {
                let common: BTreeMap<Imm, Extension> = ia
                    .iter()
                    .filter_map(|(imm, ext)| {
                        let both = ext.both(ib.get(imm)?);
                        (!both.is_contradictory()).then(|| (imm.clone(), both))
                    })
                    .collect();
                let tags = |d: &Desc| {
                    Approx::Known(d.clone())
                        .block_cases()
                        .map(|c| c.into_keys().collect::<BTreeSet<u32>>())
                };
                let blocks_may_meet = match (tags(ba), tags(bb)) {
                    (Some(x), Some(y)) if x.is_disjoint(&y) => false,
                    // Whether the block parts can meet at all, asked of a copy (the meet may
                    // refine names, which only holds if the value is a block).
                    _ => !self
                        .clone()
                        .meet_desc(ba, bb, &mut busy.clone())
                        .is_bottom(),
                };
                match (common.is_empty(), blocks_may_meet) {
                    (true, false) => Approx::Bottom,
                    (true, true) => self.meet_desc(ba, bb, busy),
                    (false, false) => {
                        self.meet_desc(&Desc::Imms(ia.clone()), &Desc::Imms(ib.clone()), busy)
                    }
                    // Both parts may hold: which one is not known, so nothing may refine a
                    // name; the common immediates, and of the blocks what both sides say.
                    (false, true) => {
                        let blocks = match (&**ba, &**bb) {
                            // A block of unknown tag: its fields conjoined with each case's.
                            (Desc::Untagged(known), other) | (other, Desc::Untagged(known)) => {
                                let fields = Fields::Partial(known.clone());
                                match (Approx::Known(other.clone()).block_cases(), other) {
                                    (Some(cases), _) => Approx::variant(
                                        cases
                                            .iter()
                                            .map(|(t, f)| (*t, conjoin_fields(f, &fields)))
                                            .collect(),
                                    ),
                                    (None, Desc::Untagged(theirs)) => {
                                        match conjoin_fields(
                                            &Fields::Partial(theirs.clone()),
                                            &fields,
                                        ) {
                                            Fields::Partial(both) => {
                                                Approx::Known(Desc::Untagged(both))
                                            }
                                            Fields::Full(_) => unreachable!(
                                                "two partial shapes conjoin as a partial shape"
                                            ),
                                        }
                                    }
                                    // A block of any tag or a closure: what the fields say.
                                    (None, _) => Approx::Known(Desc::Untagged(known.clone())),
                                }
                            }
                            _ => match (
                                Approx::Known((**ba).clone()).block_cases(),
                                Approx::Known((**bb).clone()).block_cases(),
                            ) {
                                (Some(x), Some(y)) => Approx::variant(
                                    x.iter()
                                        .filter_map(|(t, fx)| {
                                            Some((*t, conjoin_fields(fx, y.get(t)?)))
                                        })
                                        .collect(),
                                ),
                                (Some(_), None) => Approx::Known((**ba).clone()),
                                (None, Some(_)) => Approx::Known((**bb).clone()),
                                (None, None) => Approx::Known((**ba).clone()),
                            },
                        };
                        let blocks = match blocks {
                            Approx::Known(d) => Approx::Known(self.canonical_desc(&d)),
                            other => other,
                        };
                        Approx::either(common, blocks)
                    }
                }
            }
            // A block of unknown tag: any block (or closure) is one.
            (
                Desc::AnyBlock,
                other @ (Desc::Block(_)
                | Desc::Variant(_)
                | Desc::Closure(_)
                | Desc::AnyBlock
                | Desc::Untagged(_)),
            )
            | (
                other @ (Desc::Block(_) | Desc::Variant(_) | Desc::Closure(_) | Desc::Untagged(_)),
                Desc::AnyBlock,
            ) => Approx::Known(self.canonical_desc(other)),
            // A block of unknown tag with some fields known: the other side's tags, each with
            // those fields met with its own (the meet of partial shapes of one tag).
            (
                Desc::Untagged(known),
                other @ (Desc::Block(_) | Desc::Variant(_) | Desc::Untagged(_)),
            )
            | (other @ (Desc::Block(_) | Desc::Variant(_)), Desc::Untagged(known)) => {
                self.meet_untagged(known, other, busy)
            }
            (Desc::Variant(_), Desc::Block(_) | Desc::Variant(_))
            | (Desc::Block(_), Desc::Variant(_)) => {
                let (a, b) = (
                    Approx::Known(p.clone()).block_cases().unwrap_or_default(),
                    Approx::Known(q.clone()).block_cases().unwrap_or_default(),
                );
                let block = |tag: u32, fields: &Fields| {
                    Desc::Block(super::approx::Block {
                        tag,
                        fields: fields.clone(),
                    })
                };
                // The tags both sides allow whose fields can meet (asked of a copy: which case
                // holds is not known yet, so nothing may be refined).
                let common: Vec<u32> = a
                    .keys()
                    .filter(|t| {
                        b.get(t).is_some_and(|fb| {
                            !self
                                .clone()
                                .meet_desc(&block(**t, &a[t]), &block(**t, fb), &mut busy.clone())
                                .is_bottom()
                        })
                    })
                    .copied()
                    .collect();
                match common.as_slice() {
                    [] => Approx::Bottom,
                    // One tag left: the blocks meet, fields and all.
                    [tag] => self.meet_desc(
                        &Desc::Block(super::approx::Block {
                            tag: *tag,
                            fields: a[tag].clone(),
                        }),
                        &Desc::Block(super::approx::Block {
                            tag: *tag,
                            fields: b[tag].clone(),
                        }),
                        busy,
                    ),
                    // Several: which case holds is not known, so no field may refine a name;
                    // each tag's fields are what both sides say of them, without refining.
                    tags => Approx::variant(
                        tags.iter()
                            .map(|t| {
                                let fields = conjoin_fields(&a[t], &b[t]);
                                (*t, fields.map(&|f| self.canonical_approx(f)))
                            })
                            .collect(),
                    ),
                }
            }
            (Desc::Block(a), Desc::Block(b)) => {
                if a.tag != b.tag {
                    return Approx::Bottom;
                }
                let fields = match (&a.fields, &b.fields) {
                    (Fields::Full(x), Fields::Full(y)) => {
                        if x.len() != y.len() {
                            return Approx::Bottom;
                        }
                        let mut out = Vec::with_capacity(x.len());
                        for (fx, fy) in x.iter().zip(y) {
                            match self.meet_in(fx, fy, busy) {
                                Approx::Bottom => return Approx::Bottom,
                                met => out.push(met),
                            }
                        }
                        Fields::Full(out)
                    }
                    (Fields::Full(full), Fields::Partial(known))
                    | (Fields::Partial(known), Fields::Full(full)) => {
                        if known.keys().next_back().is_some_and(|&i| i >= full.len()) {
                            return Approx::Bottom;
                        }
                        let mut out = Vec::with_capacity(full.len());
                        for (i, field) in full.iter().enumerate() {
                            let met = match known.get(&i) {
                                Some(k) => self.meet_in(field, k, busy),
                                None => self.canonical_approx(field),
                            };
                            if met.is_bottom() {
                                return Approx::Bottom;
                            }
                            out.push(met);
                        }
                        Fields::Full(out)
                    }
                    (Fields::Partial(x), Fields::Partial(y)) => {
                        let keys: BTreeSet<usize> = x.keys().chain(y.keys()).copied().collect();
                        let mut out = BTreeMap::new();
                        for i in keys {
                            let met = match (x.get(&i), y.get(&i)) {
                                (Some(fx), Some(fy)) => self.meet_in(fx, fy, busy),
                                (Some(f), None) | (None, Some(f)) => self.canonical_approx(f),
                                (None, None) => Approx::Top,
                            };
                            if met.is_bottom() {
                                return Approx::Bottom;
                            }
                            out.insert(i, met);
                        }
                        Fields::Partial(out)
                    }
                };
                Approx::Known(Desc::Block(super::approx::Block { tag: a.tag, fields }))
            }
            (Desc::Closure(a), Desc::Closure(b)) => {
                if a.code != b.code || a.slots.len() != b.slots.len() {
                    return Approx::Bottom;
                }
                let mut slots = Vec::with_capacity(a.slots.len());
                for (x, y) in a.slots.iter().zip(&b.slots) {
                    match self.meet_in(x, y, busy) {
                        Approx::Bottom => return Approx::Bottom,
                        met => slots.push(met),
                    }
                }
                Approx::closure(a.code, slots)
            }
            // Immediates, naked numbers, blocks and closures have no value in common.
            _ => Approx::Bottom,
        }
    }

    /// A block of unknown tag whose fields `known` says, met with `other`, a block, a variant
    /// or another block of unknown tag.
    fn meet_untagged(
        &mut self,
        known: &BTreeMap<usize, Approx>,
        other: &Desc,
        busy: &mut Vec<Name>,
    ) -> Approx {
        let partial = |tag: u32, fields: &BTreeMap<usize, Approx>| {
            Desc::Block(super::approx::Block {
                tag,
                fields: Fields::Partial(fields.clone()),
            })
        };
        match other {
            Desc::Block(b) => self.meet_desc(&partial(b.tag, known), other, busy),
            Desc::Variant(cases) => {
                let fields = Fields::Partial(known.clone());
                let mine = cases.keys().map(|&t| (t, fields.clone())).collect();
                self.meet_desc(&Desc::Variant(mine), other, busy)
            }
            // Two partial shapes, met as if of one tag.
            Desc::Untagged(theirs) => {
                match self.meet_desc(&partial(0, known), &partial(0, theirs), busy) {
                    Approx::Known(Desc::Block(super::approx::Block {
                        fields: Fields::Partial(met),
                        ..
                    })) => Approx::Known(Desc::Untagged(met)),
                    Approx::Bottom => Approx::Bottom,
                    met => unreachable!(
                        "two partial shapes of one tag meet as a partial shape or nothing, not \
                         {met:?}"
                    ),
                }
            }
            _ => unreachable!("a block of unknown tag meets blocks here, not {other:?}"),
        }
    }

    /// The immediates `cases` as an approximation: bottom for none, and when one case is left,
    /// what it knows is to be added to the environment once the meet in progress is done (so
    /// that no name being met misses it).
    fn lift_cases(&mut self, mut cases: BTreeMap<Imm, Extension>) -> Approx {
        if cases.len() == 1 {
            let (imm, ext) = cases.pop_first().expect("one case");
            self.lifted.extend(ext.constraints);
            return Approx::imm(imm);
        }
        Approx::cases(cases)
    }

    /// `a ⊓ b` from the top: the meet, then what the cases it left alone know, in turn.
    fn meet_top(&mut self, a: &Approx, b: &Approx) -> Approx {
        let result = self.meet_in(a, b, &mut Vec::new());
        if result.is_bottom() {
            self.lifted.clear();
            return Approx::Bottom;
        }
        while let Some((name, approx)) = self.lifted.pop() {
            if self
                .meet_in(&Approx::Alias(name), &approx, &mut Vec::new())
                .is_bottom()
            {
                self.lifted.clear();
                return Approx::Bottom;
            }
        }
        result
    }

    /// `desc` with its aliases made canonical.
    fn canonical_desc(&self, desc: &Desc) -> Desc {
        match Approx::Known(desc.clone()) {
            Approx::Known(Desc::Block(b)) => Desc::Block(super::approx::Block {
                tag: b.tag,
                fields: b.fields.map(&|f| self.canonical_approx(f)),
            }),
            Approx::Known(Desc::Variant(cases)) => Desc::Variant(
                cases
                    .iter()
                    .map(|(&t, fields)| (t, fields.map(&|f| self.canonical_approx(f))))
                    .collect(),
            ),
            Approx::Known(Desc::Closure(c)) => Desc::Closure(super::approx::Closure {
                code: c.code,
                slots: c.slots.iter().map(|f| self.canonical_approx(f)).collect(),
            }),
            Approx::Known(Desc::Untagged(known)) => Desc::Untagged(
                known
                    .iter()
                    .map(|(&i, f)| (i, self.canonical_approx(f)))
                    .collect(),
            ),
            _ => desc.clone(),
        }
    }

    /// What `name`'s class is, borrowed from the environment (no clone, no alias followed past
    /// the class): a constant's value, or the canonical name's description.
    pub(super) fn own(&self, name: Name) -> Own<'_> {
        let entry = &self.entries[self.canonical(name).index()];
        match &entry.kind {
            Kind::Constant(imm) => Own::Constant(imm),
            _ => Own::Described(&entry.approx),
        }
    }

    /// `approx` with every alias replaced by what its class is known to be, as deep as `depth`
    /// (a query: "what is `x`?" — `(A, ⊤)` where the environment says `(=y, ⊤)` and `y : A`).
    pub fn expand(&self, approx: &Approx, depth: usize) -> Approx {
        match approx {
            Approx::Alias(n) if depth > 0 => {
                let canonical = self.canonical(*n);
                match &self.entries[canonical.index()].kind {
                    Kind::Constant(imm) => Approx::imm(imm.clone()),
                    _ => self.expand(&self.approx_of(canonical), depth - 1),
                }
            }
            Approx::Known(Desc::Closure(c)) if depth > 0 => {
                Approx::closure(c.code, c.slots.iter().map(|a| self.expand(a, depth - 1)))
            }
            Approx::Known(Desc::Block(block)) if depth > 0 => {
                let fields = match &block.fields {
                    Fields::Full(fields) => {
                        Fields::Full(fields.iter().map(|f| self.expand(f, depth - 1)).collect())
                    }
                    Fields::Partial(known) => Fields::Partial(
                        known
                            .iter()
                            .map(|(&i, f)| (i, self.expand(f, depth - 1)))
                            .collect(),
                    ),
                };
                Approx::Known(Desc::Block(super::approx::Block {
                    tag: block.tag,
                    fields,
                }))
            }
            Approx::Known(Desc::Either(imms, blocks)) if depth > 0 => Approx::either(
                imms.clone(),
                self.expand(&Approx::Known((**blocks).clone()), depth),
            ),
            Approx::Known(Desc::Variant(cases)) if depth > 0 => Approx::Known(Desc::Variant(
                cases
                    .iter()
                    .map(|(&t, fields)| (t, fields.map(&|f| self.expand(f, depth - 1))))
                    .collect(),
            )),
            Approx::Known(Desc::Untagged(known)) if depth > 0 => Approx::Known(Desc::Untagged(
                known
                    .iter()
                    .map(|(&i, f)| (i, self.expand(f, depth - 1)))
                    .collect(),
            )),
            other => other.clone(),
        }
    }

    /// What `name` is known to be, aliases expanded ([`expand`](Self::expand)).
    pub fn describe(&self, name: Name) -> Approx {
        self.expand(&Approx::Alias(name), 16)
    }

    /// How `name` prints: its label, or a constant's value.
    pub fn label(&self, name: Name) -> String {
        let entry = &self.entries[name.index()];
        match entry.kind {
            Kind::Existential => format!("∃{}", entry.label),
            _ => entry.label.to_string(),
        }
    }

    /// The name's label as it was defined (an existential's without its `∃`).
    pub fn plain_label(&self, name: Name) -> String {
        self.entries[name.index()].label.to_string()
    }

    /// `approx`, printed with this environment's names.
    pub fn show<'a>(&'a self, approx: &'a Approx) -> impl fmt::Display + 'a {
        struct Show<'a>(&'a TypingEnv, &'a Approx);
        impl fmt::Display for Show<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let name = |n: Name| self.0.label(n);
                let code = |c: u32| {
                    self.0
                        .code_names
                        .get(c as usize)
                        .cloned()
                        .unwrap_or_else(|| format!("f{c}"))
                };
                let slot = |c: u32, i: usize| {
                    let names = self.0.slot_names.get(c as usize)?;
                    names.get(i).cloned()
                };
                Shown {
                    approx: self.1,
                    name: &name,
                    code: &code,
                    slot: &slot,
                }
                .fmt(f)
            }
        }
        Show(self, approx)
    }

    /// The must-alias classes with more than one name, each sorted by age.
    pub fn classes(&self) -> Vec<Vec<Name>> {
        let mut classes: BTreeMap<Name, Vec<Name>> = BTreeMap::new();
        for i in 0..self.entries.len() {
            let name = Name(i as u32);
            classes.entry(self.canonical(name)).or_default().push(name);
        }
        classes.into_values().filter(|c| c.len() > 1).collect()
    }
}

/// `{x : (=y, B); y : A; z : =y | aliases : {y, z}}`: every variable and existential in order
/// with what the environment says of it, then the classes of more than one name.
impl fmt::Display for TypingEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        for (i, entry) in self.entries.iter().enumerate() {
            let prefix = match entry.kind {
                Kind::Variable => "",
                Kind::Existential => "∃",
                Kind::Constant(_) => continue,
            };
            let approx = self.approx_of(Name(i as u32));
            parts.push(format!("{prefix}{} : {}", entry.label, self.show(&approx)));
        }
        write!(f, "{{{}", parts.join("; "))?;
        let classes = self.classes();
        if !classes.is_empty() {
            let shown: Vec<String> = classes
                .iter()
                .map(|c| {
                    let labels: Vec<String> = c.iter().map(|&n| self.label(n)).collect();
                    format!("{{{}}}", labels.join(", "))
                })
                .collect();
            write!(f, " | aliases : {}", shown.join(", "))?;
        }
        f.write_str("}")
    }
}

/// The join of the abstractions of `imms` in `top`'s domain; `None` if one is a constructor.
pub(super) fn abstract_imms<'a>(top: &Ints, imms: impl Iterator<Item = &'a Imm>) -> Option<Ints> {
    let mut out: Option<Ints> = None;
    for imm in imms {
        let Imm::Int(v) = imm else {
            return None;
        };
        let c = top.constant(*v);
        out = Some(match out {
            Some(acc) => acc.join(&c),
            None => c,
        });
    }
    out
}

/// What two shapes of one tag both say of the fields, found without an environment (field by
/// field, [`Approx::conjoin`]); shapes of different lengths keep the first.
fn conjoin_fields(a: &Fields, b: &Fields) -> Fields {
    match (a, b) {
        (Fields::Full(x), Fields::Full(y)) if x.len() == y.len() => Fields::Full(
            x.iter()
                .zip(y)
                .map(|(p, q)| Approx::conjoin(p, q))
                .collect(),
        ),
        (Fields::Full(full), Fields::Partial(known))
        | (Fields::Partial(known), Fields::Full(full))
            if known.keys().all(|&i| i < full.len()) =>
        {
            Fields::Full(
                full.iter()
                    .enumerate()
                    .map(|(i, f)| match known.get(&i) {
                        Some(k) => Approx::conjoin(f, k),
                        None => f.clone(),
                    })
                    .collect(),
            )
        }
        (Fields::Partial(x), Fields::Partial(y)) => {
            let mut out = x.clone();
            for (&i, q) in y {
                let both = match x.get(&i) {
                    Some(p) => Approx::conjoin(p, q),
                    None => q.clone(),
                };
                out.insert(i, both);
            }
            Fields::Partial(out)
        }
        _ => a.clone(),
    }
}
