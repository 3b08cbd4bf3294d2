//! One heap of the escape analysis: where each name may point, what each abstract object's
//! fields may hold, and where each object has escaped so far.
//!
//! Abstract locations ([`Loc`]) are the objects a function can tell apart: the most recent
//! object of an allocation site and the older ones of the same site (the recency abstraction, a
//! generation count cut at "0 or more"), each caller object a parameter or capture refers to on
//! entry, and everything else ([`Loc::Unknown`]: objects read from memory the analysis does not
//! follow, or made by callees). The most recent object of a site and a parameter's object are
//! one object each, so a field store through a name that points to nothing else replaces the
//! field (a strong update); a store through anything else adds to what the field may hold (a
//! weak update).
//!
//! A field holds a [`Content`]: the operands it may have been stored from (names of the
//! function, literals), the locations of values no operand names (a name redefined since, in a
//! loop's next iteration; what a callee wrote), whether it may hold something unknown, and whether it may be unset. A load
//! whose content is one operand and nothing else reads that operand's value: it is forwarded.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

use super::super::Site;
use super::place::Place;
use super::places::{EscapeKind, Escapes};
use absinthe::program::{FieldId, FuncId, NameId, Operand};

/// An abstract location: a set of run-time objects the analysis keeps apart from the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Loc {
    /// The most recent object allocated at the site in this call of the function.
    Recent(Site),
    /// The older objects allocated at the site in this call.
    Old(Site),
    /// The object parameter (or, past the parameters, capture) `i` referred to on entry.
    Param(u32),
    /// Any object the function did not allocate and did not receive as a parameter or capture:
    /// read from caller or escaped memory, or made by a callee.
    Unknown,
}

impl Loc {
    /// Whether the location is one run-time object at a time (a field store through it alone
    /// may replace the field).
    pub fn is_single(self) -> bool {
        matches!(self, Loc::Recent(_) | Loc::Param(_))
    }

    /// The allocation site, for the function's own objects.
    pub fn site(self) -> Option<Site> {
        match self {
            Loc::Recent(s) | Loc::Old(s) => Some(s),
            Loc::Param(_) | Loc::Unknown => None,
        }
    }
}

/// A field of an object: a named field of a `new` object, or a position of a block or closure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Slot {
    /// `o.f`.
    Field(FieldId),
    /// `b[i]` of a block, or capture `i` of a closure.
    Pos(u32),
}

/// What a field may hold (the seed's `MemoryInfo`: uninitialized, or aliased to a set of
/// values, maybe undefined).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Content {
    /// Operands the field may have been stored from, still holding the stored value.
    pub operands: BTreeSet<Operand>,
    /// Locations the field may point to through values no operand names: values of names
    /// redefined since (a loop's next iteration), or values a callee wrote.
    pub locs: BTreeSet<Loc>,
    /// Whether the field may hold a value no operand names any more (the value of a name
    /// redefined since): such a load is not forwarded, whatever else the field holds.
    pub unnamed: bool,
    /// Whether the field may hold a value the analysis does not know (of the caller, a
    /// callee, or unknown code).
    pub unknown: bool,
    /// Whether the field may be unset.
    pub maybe_unset: bool,
}

impl Content {
    /// A field never written: reading it traps.
    pub fn unset() -> Content {
        Content {
            maybe_unset: true,
            ..Content::default()
        }
    }

    /// A field of memory the analysis does not follow.
    pub fn unknown() -> Content {
        Content {
            unknown: true,
            maybe_unset: true,
            ..Content::default()
        }
    }

    /// A field just written with `value`.
    pub fn of(value: Operand) -> Content {
        Content {
            operands: BTreeSet::from([value]),
            ..Content::default()
        }
    }

    /// What either may hold.
    pub fn join_with(&mut self, other: &Content) {
        self.operands.extend(other.operands.iter().copied());
        self.locs.extend(other.locs.iter().copied());
        self.unnamed |= other.unnamed;
        self.unknown |= other.unknown;
        self.maybe_unset |= other.maybe_unset;
    }

    /// Whether every value `self` allows, `other` allows.
    pub fn leq(&self, other: &Content) -> bool {
        self.operands.is_subset(&other.operands)
            && self.locs.is_subset(&other.locs)
            && (!self.unnamed || other.unnamed)
            && (!self.unknown || other.unknown)
            && (!self.maybe_unset || other.maybe_unset)
    }

    /// The one operand a load of this field reads, if the field holds nothing else (a set field
    /// reads it; an unset one traps).
    pub fn forwarded(&self) -> Option<Operand> {
        match (
            self.unknown || self.unnamed,
            self.locs.is_empty(),
            self.operands.len(),
        ) {
            (false, true, 1) => self.operands.first().copied(),
            _ => None,
        }
    }
}

impl fmt::Display for Content {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = self.operands.iter().map(operand_text).collect();
        if !self.locs.is_empty() {
            parts.push(format!(
                "values to {}",
                self.locs
                    .iter()
                    .map(|l| format!("{l}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if self.unnamed {
            parts.push("earlier values".to_owned());
        }
        if self.unknown {
            parts.push("?".to_owned());
        }
        let body = parts.join(", ");
        match (self.maybe_unset, body.is_empty()) {
            (true, true) => f.write_str("unset"),
            (true, false) => write!(f, "{{{body}}} or unset"),
            (false, _) => write!(f, "{{{body}}}"),
        }
    }
}

fn operand_text(o: &Operand) -> String {
    match o {
        Operand::Name(n) => format!("%{}", n.index()),
        Operand::Int(c) => c.to_string(),
    }
}

/// An abstract object (the seed's `ObjectInfo` with its escapes): its fields, what the fields
/// not listed hold, the functions it may be a closure of, and where it has escaped.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Object {
    /// Fields written or read since the object was made (or reached).
    pub fields: BTreeMap<Slot, Content>,
    /// What every other field holds.
    pub rest: Content,
    /// The functions it may be a closure of; `None` when unknown.
    pub code: Option<BTreeSet<FuncId>>,
    /// Where it has escaped so far.
    pub escape: Escapes,
}

impl Object {
    /// A fresh object: every field unset.
    pub fn fresh() -> Object {
        Object {
            fields: BTreeMap::new(),
            rest: Content::unset(),
            code: Some(BTreeSet::new()),
            escape: Escapes::default(),
        }
    }

    /// An object whose memory the analysis does not know.
    pub fn opaque() -> Object {
        Object {
            fields: BTreeMap::new(),
            rest: Content::unknown(),
            code: None,
            escape: Escapes::default(),
        }
    }

    /// What `slot` holds.
    pub fn field(&self, slot: Slot) -> &Content {
        self.fields.get(&slot).unwrap_or(&self.rest)
    }

    /// Every content of the object: its listed fields, then what the others hold.
    pub fn contents(&self) -> impl Iterator<Item = &Content> {
        self.fields.values().chain(std::iter::once(&self.rest))
    }

    fn contents_mut(&mut self) -> impl Iterator<Item = &mut Content> {
        self.fields
            .values_mut()
            .chain(std::iter::once(&mut self.rest))
    }

    /// Whether the memory is already forgotten ([`Object::forget_memory`] would change nothing).
    fn is_forgotten(&self) -> bool {
        self.fields.is_empty() && self.code.is_none() && self.rest == Content::unknown()
    }

    /// Forgets what the fields hold (code that the analysis does not see may have written them).
    pub fn forget_memory(&mut self) {
        self.fields.clear();
        self.rest = Content::unknown();
        self.code = None;
    }

    fn join_with(&mut self, other: &Object) {
        let slots: BTreeSet<Slot> = self
            .fields
            .keys()
            .chain(other.fields.keys())
            .copied()
            .collect();
        for slot in slots {
            let mut c = self.field(slot).clone();
            c.join_with(other.field(slot));
            self.fields.insert(slot, c);
        }
        self.rest.join_with(&other.rest);
        self.code = match (self.code.take(), &other.code) {
            (Some(mut a), Some(b)) => {
                a.extend(b.iter().copied());
                Some(a)
            }
            _ => None,
        };
        self.escape.join_with(&other.escape);
    }

    fn leq(&self, other: &Object) -> bool {
        let slots = self.fields.keys().chain(other.fields.keys());
        slots
            .into_iter()
            .all(|&s| self.field(s).leq(other.field(s)))
            && self.rest.leq(&other.rest)
            && match (&self.code, &other.code) {
                (_, None) => true,
                (None, Some(_)) => false,
                (Some(a), Some(b)) => a.is_subset(b),
            }
            && self.escape.leq(&other.escape)
    }
}

/// One heap: where every name may point and the abstract objects that exist.
///
/// # Laws
///
/// Ordered pointwise: points-to sets and field contents by inclusion, escape places by
/// inclusion, unknown closure code above every known set; an object one side lacks is absent
/// (no run made it), below any object. Join is the pointwise union; the height is finite for a
/// given function (locations, operands and places are the function's own).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Heap {
    /// Where each name may point; a name not listed points to no object (an integer, or not
    /// yet defined).
    pub points: BTreeMap<NameId, BTreeSet<Loc>>,
    /// The objects that may exist. Shared between heaps until one of them changes the object
    /// (`Arc::make_mut`), so that copying a heap copies pointers, not objects.
    pub objects: BTreeMap<Loc, Arc<Object>>,
    /// What the function did so far to memory it does not own, for its summary.
    pub effects: Effects,
}

/// What a function does to memory it does not own, gathered along the way to its exits (the
/// parts of the seed's `ArgEscapeCache` about callee memory effects).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Effects {
    /// Fields written through each parameter's (or capture's) object itself.
    pub writes: BTreeMap<u32, BTreeSet<Slot>>,
    /// Whether it may write memory reached from a parameter's fields, or a callee's.
    pub writes_unknown: bool,
    /// Whether it may run code the analysis does not see (an unknown call).
    pub calls_unknown: bool,
}

impl Effects {
    fn join_with(&mut self, other: &Effects) {
        for (i, slots) in &other.writes {
            self.writes
                .entry(*i)
                .or_default()
                .extend(slots.iter().copied());
        }
        self.writes_unknown |= other.writes_unknown;
        self.calls_unknown |= other.calls_unknown;
    }

    fn leq(&self, other: &Effects) -> bool {
        self.writes
            .iter()
            .all(|(i, s)| other.writes.get(i).is_some_and(|o| s.is_subset(o)))
            && (!self.writes_unknown || other.writes_unknown)
            && (!self.calls_unknown || other.calls_unknown)
    }

    /// Notes a write of `slot` through `targets`.
    pub fn note_write(&mut self, targets: &BTreeSet<Loc>, slot: Slot) {
        for t in targets {
            match t {
                Loc::Param(i) => {
                    self.writes.entry(*i).or_default().insert(slot);
                }
                Loc::Unknown => self.writes_unknown = true,
                Loc::Recent(_) | Loc::Old(_) => {}
            }
        }
    }
}

impl Heap {
    /// The heap on entry of a function: each parameter and capture points to its own caller
    /// object (`inputs`, in order), and unknown objects exist.
    pub fn entry(inputs: &[NameId]) -> Heap {
        let mut heap = Heap::default();
        let opaque = Arc::new(Object::opaque());
        heap.objects.insert(Loc::Unknown, opaque.clone());
        for (i, &p) in inputs.iter().enumerate() {
            let loc = Loc::Param(i as u32);
            heap.objects.insert(loc, opaque.clone());
            heap.points.entry(p).or_default().insert(loc);
        }
        heap
    }

    /// Where `o` may point.
    pub fn points_of(&self, o: Operand) -> BTreeSet<Loc> {
        match o {
            Operand::Name(n) => self.points.get(&n).cloned().unwrap_or_default(),
            Operand::Int(_) => BTreeSet::new(),
        }
    }

    /// Calls `f` with every location a value read from `content` may point to (some maybe more
    /// than once): [`Heap::points_of_content`] without building the set.
    fn for_each_content_target(&self, content: &Content, mut f: impl FnMut(Loc)) {
        content.locs.iter().copied().for_each(&mut f);
        for o in &content.operands {
            if let Operand::Name(n) = o {
                if let Some(set) = self.points.get(n) {
                    set.iter().copied().for_each(&mut f);
                }
            }
        }
        if content.unknown {
            f(Loc::Unknown);
        }
    }

    /// Where a value read from `content` may point.
    pub fn points_of_content(&self, content: &Content) -> BTreeSet<Loc> {
        let mut out: BTreeSet<Loc> = content.locs.clone();
        for &o in &content.operands {
            out.extend(self.points_of(o));
        }
        if content.unknown {
            out.insert(Loc::Unknown);
        }
        out
    }

    /// Whether `loc` may be reached by code or memory the function does not see: a caller
    /// object, an unknown one, or one of the function's own that escaped to such code.
    pub fn is_exposed(&self, loc: Loc) -> bool {
        match loc {
            Loc::Param(_) | Loc::Unknown => true,
            Loc::Recent(_) | Loc::Old(_) => self
                .objects
                .get(&loc)
                .is_some_and(|o| !o.escape.global().is_empty()),
        }
    }

    /// Defines `dest` anew as pointing to `to`: fields that held `dest`'s previous value keep
    /// its locations instead (the name now holds another value).
    pub fn define(&mut self, dest: NameId, to: BTreeSet<Loc>) {
        let old = self.points.remove(&dest).unwrap_or_default();
        let name = Operand::Name(dest);
        for object in self.objects.values_mut() {
            // Read first: an object that does not hold the name stays shared.
            if !object.contents().any(|c| c.operands.contains(&name)) {
                continue;
            }
            for content in Arc::make_mut(object).contents_mut() {
                if content.operands.remove(&name) {
                    content.locs.extend(old.iter().copied());
                    content.unnamed = true;
                }
            }
        }
        if !to.is_empty() {
            self.points.insert(dest, to);
        }
    }

    /// `dest = new` (or a block, or a closure) at `site`: the site's previous recent object
    /// joins its older ones, and `dest` points to a fresh object.
    pub fn allocate(&mut self, dest: NameId, site: Site, object: Object) {
        let recent = Loc::Recent(site);
        if let Some(previous) = self.objects.remove(&recent) {
            let old = Loc::Old(site);
            match self.objects.get_mut(&old) {
                Some(o) => Arc::make_mut(o).join_with(&previous),
                None => {
                    self.objects.insert(old, previous);
                }
            }
            for set in self.points.values_mut() {
                if set.remove(&recent) {
                    set.insert(old);
                }
            }
            for object in self.objects.values_mut() {
                if !object.contents().any(|c| c.locs.contains(&recent)) {
                    continue;
                }
                for content in Arc::make_mut(object).contents_mut() {
                    if content.locs.remove(&recent) {
                        content.locs.insert(old);
                    }
                }
            }
        }
        self.define(dest, BTreeSet::from([recent]));
        self.objects.insert(recent, Arc::new(object));
    }

    /// The content a load of `slot` through a name pointing to `targets` reads.
    pub fn read(&self, targets: &BTreeSet<Loc>, slot: Slot) -> Content {
        let mut out: Option<Content> = None;
        for loc in targets {
            let content = match self.objects.get(loc) {
                Some(o) => o.field(slot).clone(),
                None => Content::unknown(),
            };
            match &mut out {
                Some(c) => c.join_with(&content),
                None => out = Some(content),
            }
        }
        out.unwrap_or_default()
    }

    /// The locations other than `targets` that may be the same run-time object as one of them:
    /// an exposed object of the function's own may be one of the unknown objects (unknown code
    /// may hand it back); a parameter's object may be another parameter's or an unknown one;
    /// an unknown object may be any parameter's or any exposed object of the function's own.
    /// Two different objects of the function's own never are, nor one of its own and a
    /// parameter's (made before the call).
    pub fn aliases(&self, targets: &BTreeSet<Loc>) -> Vec<Loc> {
        let (mut params, mut unknown, mut own) = (false, false, false);
        for &t in targets {
            match t {
                Loc::Recent(_) | Loc::Old(_) => unknown |= self.is_exposed(t),
                Loc::Param(_) => {
                    params = true;
                    unknown = true;
                }
                Loc::Unknown => {
                    params = true;
                    own = true;
                }
            }
        }
        self.objects
            .keys()
            .copied()
            .filter(|l| !targets.contains(l))
            .filter(|&l| match l {
                Loc::Param(_) => params,
                Loc::Unknown => unknown,
                Loc::Recent(_) | Loc::Old(_) => own && self.is_exposed(l),
            })
            .collect()
    }

    /// A store of `value` into `slot` through a name pointing to `targets`; whether it replaced
    /// the field (a strong update). The targets' [aliases](Heap::aliases) may be the same
    /// run-time object as a target, so they may hold the value too.
    pub fn write(&mut self, targets: &BTreeSet<Loc>, slot: Slot, value: Operand) -> bool {
        let strong = targets.len() == 1 && targets.iter().all(|l| l.is_single());
        let content = Content::of(value);
        let also = self.aliases(targets);
        for loc in targets.iter().copied().chain(also) {
            let Some(object) = self.objects.get_mut(&loc) else {
                continue;
            };
            let object = Arc::make_mut(object);
            if strong && targets.contains(&loc) {
                object.fields.insert(slot, content.clone());
            } else {
                let mut c = object.field(slot).clone();
                c.join_with(&content);
                object.fields.insert(slot, c);
            }
        }
        strong
    }

    /// Every location reachable from `roots` through fields, `roots` included.
    pub fn reachable(&self, roots: impl IntoIterator<Item = Loc>) -> BTreeSet<Loc> {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<Loc> = roots.into_iter().collect();
        while let Some(loc) = stack.pop() {
            if !seen.insert(loc) {
                continue;
            }
            if let Some(object) = self.objects.get(&loc) {
                for content in object.contents() {
                    self.for_each_content_target(content, |l| {
                        if !seen.contains(&l) {
                            stack.push(l);
                        }
                    });
                }
            }
        }
        seen
    }

    /// The locations reachable from `roots` through one field or more (a root among them only
    /// when a cycle leads back to it).
    pub fn reachable_inside(&self, roots: impl IntoIterator<Item = Loc>) -> BTreeSet<Loc> {
        let mut firsts = BTreeSet::new();
        for loc in roots {
            if let Some(object) = self.objects.get(&loc) {
                for content in object.contents() {
                    self.for_each_content_target(content, |l| {
                        firsts.insert(l);
                    });
                }
            }
        }
        self.reachable(firsts)
    }

    /// Marks everything reachable from `roots` as escaped at `place`, in the way `kind` says.
    pub fn escape(&mut self, roots: impl IntoIterator<Item = Loc>, place: Place, kind: EscapeKind) {
        for loc in self.reachable(roots) {
            if let Some(object) = self.objects.get_mut(&loc) {
                // An object that already escaped there is left as it is (and stays shared).
                if !object.escape.places(kind).contains(&place) {
                    Arc::make_mut(object).escape.note(kind, place);
                }
            }
        }
    }

    /// Drops the objects the function can no longer tell apart from unknown ones, so that the
    /// heap keeps only what is live (a function with many allocation sites does not carry every
    /// site's objects to every point). Kept are the objects names point to, the parameters' and
    /// captures' objects, the unknown objects, and what those reach through fields, except
    /// through the fields of exposed objects: what an exposed object holds is exposed too, and
    /// an exposed object no name points to is one of the unknown objects from then on (unknown
    /// code may still reach it, and the unknown objects' fields may hold anything already).
    /// Fields that held a dropped object hold an unknown one instead. Objects no one can reach
    /// are simply gone. Escapes noted so far stay in the states before the drop, where the
    /// facts read them.
    pub fn collect(&mut self) {
        let mut live: BTreeSet<Loc> = BTreeSet::new();
        let mut stack: Vec<Loc> = self
            .points
            .values()
            .flatten()
            .copied()
            .chain(
                self.objects
                    .keys()
                    .copied()
                    .filter(|l| matches!(l, Loc::Param(_) | Loc::Unknown)),
            )
            .collect();
        while let Some(loc) = stack.pop() {
            if !live.insert(loc) {
                continue;
            }
            let Some(object) = self.objects.get(&loc) else {
                continue;
            };
            let exposed = self.is_exposed(loc);
            for content in object.contents() {
                self.for_each_content_target(content, |l| {
                    // An exposed object's field that holds another exposed object is the
                    // caller's business: that target stays live only through a name.
                    let callers = exposed && self.is_exposed(l);
                    if !(live.contains(&l) || callers) {
                        stack.push(l);
                    }
                });
            }
        }
        if live.len() >= self.objects.len() {
            return;
        }
        let dropped: BTreeSet<Loc> = self
            .objects
            .keys()
            .copied()
            .filter(|l| !live.contains(l))
            .collect();
        self.objects.retain(|loc, _| live.contains(loc));
        for object in self.objects.values_mut() {
            if !object
                .contents()
                .any(|c| c.locs.iter().any(|l| dropped.contains(l)))
            {
                continue;
            }
            for content in Arc::make_mut(object).contents_mut() {
                let before = content.locs.len();
                content.locs.retain(|l| !dropped.contains(l));
                if content.locs.len() < before {
                    content.locs.insert(Loc::Unknown);
                }
            }
        }
    }

    /// Past `bound` exposed objects of the function's own, makes them all unknown objects:
    /// names and fields that pointed to one point to an unknown object instead. Each may be an
    /// unknown object already (unknown code can reach it), whose fields may hold anything, so
    /// this only forgets; it bounds the heap of a function whose names may point to more and more
    /// escaped objects as it goes (each loop that may run zero times adds to what a name may
    /// hold), as the seed's analysis does for every object that escapes everywhere.
    pub fn fold_exposed(&mut self, bound: usize) {
        let exposed: BTreeSet<Loc> = self
            .objects
            .keys()
            .copied()
            .filter(|&l| l.site().is_some() && self.is_exposed(l))
            .collect();
        if exposed.len() <= bound {
            return;
        }
        let fold = |set: &mut BTreeSet<Loc>| {
            let before = set.len();
            set.retain(|l| !exposed.contains(l));
            if set.len() < before {
                set.insert(Loc::Unknown);
            }
        };
        self.objects.retain(|loc, _| !exposed.contains(loc));
        self.points.values_mut().for_each(&fold);
        for object in self.objects.values_mut() {
            if !object
                .contents()
                .any(|c| c.locs.iter().any(|l| exposed.contains(l)))
            {
                continue;
            }
            Arc::make_mut(object)
                .contents_mut()
                .for_each(|c| fold(&mut c.locs));
        }
    }

    /// Code the function does not see ran: every exposed object may have been written.
    pub fn forget_exposed(&mut self) {
        let exposed: Vec<Loc> = self
            .objects
            .keys()
            .copied()
            .filter(|&l| self.is_exposed(l))
            .collect();
        for loc in exposed {
            if let Some(o) = self.objects.get_mut(&loc) {
                if !o.is_forgotten() {
                    Arc::make_mut(o).forget_memory();
                }
            }
        }
    }

    /// The pointwise union.
    pub fn join_with(&mut self, other: &Heap) {
        for (name, set) in &other.points {
            self.points
                .entry(*name)
                .or_default()
                .extend(set.iter().copied());
        }
        for (loc, object) in &other.objects {
            match self.objects.get_mut(loc) {
                // Joining an object with itself changes nothing.
                Some(o) if Arc::ptr_eq(o, object) => {}
                Some(o) => Arc::make_mut(o).join_with(object),
                None => {
                    self.objects.insert(*loc, object.clone());
                }
            }
        }
        self.effects.join_with(&other.effects);
    }

    /// Whether `self` is below `other`.
    pub fn leq(&self, other: &Heap) -> bool {
        self.points
            .iter()
            .all(|(n, set)| other.points.get(n).is_some_and(|o| set.is_subset(o)))
            && self.objects.iter().all(|(l, o)| {
                other
                    .objects
                    .get(l)
                    .is_some_and(|p| Arc::ptr_eq(o, p) || o.leq(p))
            })
            && self.effects.leq(&other.effects)
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Recent(s) => write!(f, "bb{}:{}", s.block.index(), s.index),
            Loc::Old(s) => write!(f, "bb{}:{}·old", s.block.index(), s.index),
            Loc::Param(i) => write!(f, "arg{i}"),
            Loc::Unknown => f.write_str("?"),
        }
    }
}
