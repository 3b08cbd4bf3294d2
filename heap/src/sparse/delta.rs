//! Deltas between alias heaps and between disjunctions of them: what the sparse store keeps for a
//! block instead of its whole entry state. An alias heap's delta shifts the generation of every
//! object of a site at once, drops objects, edits the variables (and, rarely, the generation) of
//! others and adds new ones; a disjunction's delta describes each of its disjuncts against one
//! disjunct of the base.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::mem::size_of;

use super::DeltaState;
use crate::{AliasHeap, Object, Site};
use absinthe::lattice::{FiniteSum, Generation, JoinCost, Lattice};
use absinthe::program::NameId;

/// At most this many base objects of a site are tried as the origin of one new object.
const CANDIDATES: usize = 64;

/// What turns one [`AliasHeap`] (the base) into another (the target).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapDelta {
    /// The target itself: used when the base or the target is bottom.
    Whole(AliasHeap),
    /// Edits of a reachable base that give a reachable target.
    Edit(HeapEdit),
}

/// Edits of a reachable heap, in the order [`DeltaState::apply`] makes them: every object of a
/// shifted site ages by the site's shift, dropped objects leave, edited objects change their
/// variables or generation, fresh objects come in. Objects of the base are named by their
/// position in the base's (sorted) order, so an edit needs no copy of the object it edits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapEdit {
    shifts: Box<[(Site, u32)]>,
    dropped: Box<[u32]>,
    edits: Box<[ObjectEdit]>,
    fresh: Box<[FreshObject]>,
}

/// One object of the base that survives with other variables or another generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectEdit {
    base: u32,
    added: u32,
    /// The added variables, then the removed ones.
    vars: Box<[NameId]>,
    generation: Option<Generation>,
}

/// An object of the target that no object of the base turns into cheaply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FreshObject {
    /// Its allocation site.
    pub site: Site,
    /// The variables pointing to it, sorted.
    pub vars: Box<[NameId]>,
    /// Its generation.
    pub generation: Generation,
}

impl HeapEdit {
    /// The generation shifts: per allocation site, how many generations every object of that
    /// site ages between the base and the target (sites that do not age are left out).
    pub fn shifts(&self) -> &[(Site, u32)] {
        &self.shifts
    }

    /// The shift of `site` (0 when it does not age).
    pub fn shift(&self, site: Site) -> u32 {
        self.shifts
            .binary_search_by_key(&site, |(s, _)| *s)
            .map_or(0, |k| self.shifts[k].1)
    }

    /// The positions (in the base's order) of the objects that disappear.
    pub fn dropped(&self) -> &[u32] {
        &self.dropped
    }

    /// The objects of the base that survive changed, by position.
    pub fn edits(&self) -> &[ObjectEdit] {
        &self.edits
    }

    /// The objects of the target made from nothing.
    pub fn fresh(&self) -> &[FreshObject] {
        &self.fresh
    }

    /// Whether the edit changes nothing.
    pub fn is_identity(&self) -> bool {
        self.shifts.is_empty()
            && self.dropped.is_empty()
            && self.edits.is_empty()
            && self.fresh.is_empty()
    }
}

impl ObjectEdit {
    /// The position of the edited object in the base's order.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// The variables that now point to the object too.
    pub fn added(&self) -> &[NameId] {
        self.vars.get(..self.added as usize).unwrap_or(&[])
    }

    /// The variables that no longer point to it.
    pub fn removed(&self) -> &[NameId] {
        self.vars.get(self.added as usize..).unwrap_or(&[])
    }

    /// Its generation in the target when it is not the base's generation shifted by the site's
    /// shift.
    pub fn generation(&self) -> Option<Generation> {
        self.generation
    }
}

/// How many variables are in one set and not the other.
fn symmetric_difference(a: &BTreeSet<NameId>, b: &BTreeSet<NameId>) -> usize {
    a.symmetric_difference(b).count()
}

/// The estimated bytes of one object in an [`AliasHeap`]: its map entry and its variable set.
fn object_bytes(vars: usize) -> usize {
    size_of::<(Object, Generation)>() + 16 + vars * size_of::<NameId>()
}

/// Per site, the shift most objects kept by both heaps agree on (ties to the smaller shift).
fn choose_shifts(pairs: &[(&Object, Generation, Generation)]) -> Box<[(Site, u32)]> {
    let mut votes: BTreeMap<(Site, u32), u32> = BTreeMap::new();
    for ((site, _), before, after) in pairs {
        if let (Generation::AtMost(x), Generation::AtMost(y)) = (before, after) {
            if y >= x {
                *votes.entry((*site, y - x)).or_insert(0) += 1;
            }
        }
    }
    let mut best: BTreeMap<Site, (u32, u32)> = BTreeMap::new();
    for ((site, shift), count) in votes {
        let slot = best.entry(site).or_insert((shift, count));
        if count > slot.1 {
            *slot = (shift, count);
        }
    }
    best.into_iter()
        .filter(|(_, (shift, _))| *shift > 0)
        .map(|(site, (shift, _))| (site, shift))
        .collect()
}

impl DeltaState for AliasHeap {
    type Delta = HeapDelta;

    fn delta(base: &AliasHeap, target: &AliasHeap) -> HeapDelta {
        if base.is_bottom() || target.is_bottom() {
            return HeapDelta::Whole(target.clone());
        }
        let b: Vec<(&Object, Generation)> = base.objects().map(|(o, g)| (o, *g)).collect();
        let t: Vec<(&Object, Generation)> = target.objects().map(|(o, g)| (o, *g)).collect();
        // Both are sorted by object: one merge finds the kept, the lost and the new objects.
        let (mut kept, mut lost, mut new) = (Vec::new(), Vec::new(), Vec::new());
        let (mut i, mut j) = (0, 0);
        while i < b.len() && j < t.len() {
            match b[i].0.cmp(t[j].0) {
                Ordering::Less => {
                    lost.push(i);
                    i += 1;
                }
                Ordering::Greater => {
                    new.push(j);
                    j += 1;
                }
                Ordering::Equal => {
                    kept.push((i, j));
                    i += 1;
                    j += 1;
                }
            }
        }
        lost.extend(i..b.len());
        new.extend(j..t.len());
        let pairs: Vec<(&Object, Generation, Generation)> = kept
            .iter()
            .map(|&(i, j)| (b[i].0, b[i].1, t[j].1))
            .collect();
        let mut edit = HeapEdit {
            shifts: choose_shifts(&pairs),
            ..HeapEdit::default()
        };
        let shifted = |i: usize| b[i].1.plus(edit.shift(b[i].0.0));
        let mut edits: Vec<ObjectEdit> = kept
            .iter()
            .filter(|&&(i, j)| shifted(i) != t[j].1)
            .map(|&(i, j)| ObjectEdit {
                base: i as u32,
                added: 0,
                vars: Box::new([]),
                generation: Some(t[j].1),
            })
            .collect();
        // Each new object comes from the lost object of its site closest to it, when editing
        // that one costs no more than writing the new one out.
        let mut used = vec![false; lost.len()];
        let mut fresh = Vec::new();
        let mut start = 0;
        for &j in &new {
            let ((site, vars), generation) = (t[j].0, t[j].1);
            while start < lost.len() && b[lost[start]].0.0 < *site {
                start += 1;
            }
            let mut best: Option<(usize, usize)> = None;
            for (k, &i) in lost.iter().enumerate().skip(start).take(CANDIDATES) {
                if b[i].0.0 != *site {
                    break;
                }
                if used[k] {
                    continue;
                }
                let cost = symmetric_difference(&b[i].0.1, vars);
                if best.is_none_or(|(c, _)| cost < c) {
                    best = Some((cost, k));
                }
            }
            match best {
                Some((cost, k)) if cost <= vars.len() => {
                    used[k] = true;
                    let i = lost[k];
                    let from = &b[i].0.1;
                    let added: Vec<NameId> = vars.difference(from).copied().collect();
                    let count = added.len() as u32;
                    let mut changed = added;
                    changed.extend(from.difference(vars).copied());
                    edits.push(ObjectEdit {
                        base: i as u32,
                        added: count,
                        vars: changed.into_boxed_slice(),
                        generation: (shifted(i) != generation).then_some(generation),
                    });
                }
                _ => fresh.push(FreshObject {
                    site: *site,
                    vars: vars.iter().copied().collect(),
                    generation,
                }),
            }
        }
        edits.sort_by_key(|e| e.base);
        edit.dropped = lost
            .iter()
            .zip(&used)
            .filter(|(_, used)| !**used)
            .map(|(&i, _)| i as u32)
            .collect();
        edit.edits = edits.into_boxed_slice();
        edit.fresh = fresh.into_boxed_slice();
        HeapDelta::Edit(edit)
    }

    fn apply(base: &AliasHeap, delta: &HeapDelta) -> AliasHeap {
        let edit = match delta {
            HeapDelta::Whole(heap) => return heap.clone(),
            HeapDelta::Edit(edit) => edit,
        };
        let mut dropped = edit.dropped.iter().peekable();
        let mut edits = edit.edits.iter().peekable();
        let mut objects: Vec<(Object, Generation)> = Vec::new();
        for (i, ((site, vars), g)) in base.objects().enumerate() {
            let i = i as u32;
            if dropped.next_if(|&&d| d == i).is_some() {
                continue;
            }
            let g = g.plus(edit.shift(*site));
            match edits.next_if(|e| e.base == i) {
                Some(e) => {
                    let mut vars = vars.clone();
                    vars.extend(e.added().iter().copied());
                    for v in e.removed() {
                        vars.remove(v);
                    }
                    objects.push(((*site, vars), e.generation.unwrap_or(g)));
                }
                None => objects.push(((*site, vars.clone()), g)),
            }
        }
        objects.extend(
            edit.fresh
                .iter()
                .map(|f| ((f.site, f.vars.iter().copied().collect()), f.generation)),
        );
        AliasHeap::of(objects)
    }

    fn delta_bytes(delta: &HeapDelta) -> usize {
        match delta {
            HeapDelta::Whole(heap) => size_of::<HeapDelta>() + heap.state_bytes(),
            HeapDelta::Edit(e) => {
                size_of::<HeapDelta>()
                    + size_of_val(&*e.shifts)
                    + size_of_val(&*e.dropped)
                    + size_of_val(&*e.edits)
                    + e.edits.iter().map(|o| size_of_val(&*o.vars)).sum::<usize>()
                    + size_of_val(&*e.fresh)
                    + e.fresh.iter().map(|f| size_of_val(&*f.vars)).sum::<usize>()
            }
        }
    }

    fn state_bytes(&self) -> usize {
        size_of::<AliasHeap>()
            + self
                .objects()
                .map(|((_, vars), _)| object_bytes(vars.len()))
                .sum::<usize>()
    }

    fn is_identity(delta: &HeapDelta) -> bool {
        matches!(delta, HeapDelta::Edit(e) if e.is_identity())
    }
}

/// What turns one disjunction ([`FiniteSum`]) into another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DisjunctsDelta<D: DeltaState> {
    /// The target equals the base.
    Same,
    /// The target's disjuncts themselves (when the base is bottom, or when describing them
    /// costs more than writing them out).
    Whole(Box<[D]>),
    /// Each disjunct of the target, as a delta against the base's disjunct at the given
    /// position (the target's bottom is the empty list).
    Parts(Box<[(u32, D::Delta)]>),
}

impl<D, const N: usize, C> DeltaState for FiniteSum<D, N, C>
where
    D: DeltaState + Lattice + Ord,
    C: JoinCost<D>,
{
    type Delta = DisjunctsDelta<D>;

    fn delta(base: &Self, target: &Self) -> DisjunctsDelta<D> {
        if base == target {
            return DisjunctsDelta::Same;
        }
        let whole = || DisjunctsDelta::Whole(target.values().to_vec().into_boxed_slice());
        if base.is_bottom() {
            return whole();
        }
        let mut parts = Vec::with_capacity(target.values().len());
        for t in target.values() {
            // A disjunct the base has too costs nothing; otherwise the base's disjunct it
            // differs least from.
            let part = match base.values().iter().position(|b| b == t) {
                Some(k) => (k as u32, D::delta(&base.values()[k], t)),
                None => {
                    let mut best: Option<(usize, u32, D::Delta)> = None;
                    for (k, b) in base.values().iter().enumerate() {
                        let d = D::delta(b, t);
                        let bytes = D::delta_bytes(&d);
                        if best.as_ref().is_none_or(|(c, _, _)| bytes < *c) {
                            best = Some((bytes, k as u32, d));
                        }
                    }
                    match best {
                        Some((_, k, d)) => (k, d),
                        None => return whole(),
                    }
                }
            };
            parts.push(part);
        }
        let delta = DisjunctsDelta::Parts(parts.into_boxed_slice());
        if Self::delta_bytes(&delta) >= target.state_bytes() {
            whole()
        } else {
            delta
        }
    }

    fn apply(base: &Self, delta: &DisjunctsDelta<D>) -> Self {
        match delta {
            DisjunctsDelta::Same => base.clone(),
            DisjunctsDelta::Whole(values) => FiniteSum::from_values(values.iter().cloned()),
            DisjunctsDelta::Parts(parts) => FiniteSum::from_values(parts.iter().map(|(k, d)| {
                match base.values().get(*k as usize) {
                    Some(b) => D::apply(b, d),
                    None => D::apply(&D::bottom(), d),
                }
            })),
        }
    }

    fn delta_bytes(delta: &DisjunctsDelta<D>) -> usize {
        size_of::<DisjunctsDelta<D>>()
            + match delta {
                DisjunctsDelta::Same => 0,
                DisjunctsDelta::Whole(values) => values.iter().map(D::state_bytes).sum(),
                DisjunctsDelta::Parts(parts) => parts
                    .iter()
                    .map(|(_, d)| size_of::<u32>() + D::delta_bytes(d))
                    .sum(),
            }
    }

    fn state_bytes(&self) -> usize {
        size_of::<Self>() + self.values().iter().map(D::state_bytes).sum::<usize>()
    }

    fn is_identity(delta: &DisjunctsDelta<D>) -> bool {
        matches!(delta, DisjunctsDelta::Same)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use absinthe::program::BlockId;

    type Heaps = FiniteSum<AliasHeap, 4>;

    fn site(i: u32) -> Site {
        Site {
            block: BlockId(0),
            index: i,
        }
    }

    fn object(s: u32, vars: &[u32], g: u32) -> (Object, Generation) {
        (
            (site(s), vars.iter().map(|&v| NameId(v)).collect()),
            Generation::AtMost(g),
        )
    }

    fn edit(delta: &HeapDelta) -> &HeapEdit {
        match delta {
            HeapDelta::Edit(e) => e,
            HeapDelta::Whole(h) => panic!("expected an edit, got the whole {h}"),
        }
    }

    fn round_trip(base: &AliasHeap, target: &AliasHeap) -> HeapDelta {
        let d = AliasHeap::delta(base, target);
        assert_eq!(&AliasHeap::apply(base, &d), target, "{d:?}");
        d
    }

    #[test]
    fn an_allocation_in_a_loop_shifts_its_site_once_for_all_its_objects() {
        // x = new at site 1 ages every object of site 1; site 0 does not move.
        let base = AliasHeap::of([
            object(0, &[0], 0),
            object(1, &[1], 0),
            object(1, &[2], 1),
            object(1, &[3], 2),
        ]);
        let target = AliasHeap::of([
            object(0, &[0], 0),
            object(1, &[1], 1),
            object(1, &[2], 2),
            object(1, &[3], 3),
            object(1, &[4], 0),
        ]);
        let d = round_trip(&base, &target);
        let e = edit(&d);
        assert_eq!(e.shifts(), [(site(1), 1)]);
        assert_eq!(e.shift(site(0)), 0);
        assert!(e.edits().is_empty() && e.dropped().is_empty());
        assert_eq!(e.fresh().len(), 1);
        assert_eq!(e.fresh()[0].vars.as_ref(), [NameId(4)]);
        // The delta is smaller than the heap it describes.
        assert!(AliasHeap::delta_bytes(&d) < target.state_bytes());
    }

    #[test]
    fn an_object_gains_and_loses_variables_without_being_copied() {
        let base = AliasHeap::of([object(0, &[0, 1, 2], 0), object(1, &[3], 0)]);
        // y = x adds 5 to the first object; 1 is killed; the second object dies.
        let target = AliasHeap::of([object(0, &[0, 2, 5], 0)]);
        let d = round_trip(&base, &target);
        let e = edit(&d);
        assert_eq!(e.dropped(), [1]);
        assert_eq!(e.edits().len(), 1);
        assert_eq!(e.edits()[0].base(), 0);
        assert_eq!(e.edits()[0].added(), [NameId(5)]);
        assert_eq!(e.edits()[0].removed(), [NameId(1)]);
        assert_eq!(e.edits()[0].generation(), None);
        assert!(e.shifts().is_empty() && e.fresh().is_empty());
    }

    #[test]
    fn generations_that_disagree_with_the_shift_are_written_out() {
        let base = AliasHeap::of([object(0, &[0], 0), object(0, &[1], 1), object(0, &[2], 1)]);
        let target = AliasHeap::of([
            object(0, &[0], 2),
            object(0, &[1], 3),
            (
                (site(0), BTreeSet::from([NameId(2)])),
                Generation::Unbounded,
            ),
        ]);
        let d = round_trip(&base, &target);
        let e = edit(&d);
        assert_eq!(e.shifts(), [(site(0), 2)]);
        assert_eq!(e.edits().len(), 1);
        assert_eq!(e.edits()[0].generation(), Some(Generation::Unbounded));
    }

    #[test]
    fn identical_heaps_give_an_empty_edit_and_bottom_a_whole_state() {
        let heap = AliasHeap::of([object(0, &[0], 0)]);
        let d = round_trip(&heap, &heap);
        assert!(AliasHeap::is_identity(&d));
        let d = round_trip(&AliasHeap::bottom(), &heap);
        assert_eq!(d, HeapDelta::Whole(heap.clone()));
        round_trip(&heap, &AliasHeap::bottom());
        round_trip(&AliasHeap::empty(), &heap);
        round_trip(&heap, &AliasHeap::empty());
    }

    #[test]
    fn disjunctions_are_described_disjunct_by_disjunct() {
        let a = AliasHeap::of([object(0, &[0, 1], 0)]);
        let b = AliasHeap::of([object(0, &[0], 0), object(0, &[1], 1)]);
        let c = AliasHeap::of([object(0, &[0], 1), object(0, &[3], 0)]);
        let base = Heaps::from_values([a.clone(), b.clone()]);
        let target = Heaps::from_values([a.clone(), b.clone(), c]);
        let d = Heaps::delta(&base, &target);
        assert_eq!(Heaps::apply(&base, &d), target);
        let DisjunctsDelta::Parts(parts) = &d else {
            panic!("expected parts: {d:?}")
        };
        // `a` and `b` are kept as they are; `c` is an edit of one of them.
        assert_eq!(parts.len(), 3);
        assert!(
            parts
                .iter()
                .filter(|(_, p)| AliasHeap::is_identity(p))
                .count()
                == 2
        );
        assert_eq!(Heaps::delta(&target, &target), DisjunctsDelta::Same);
        for (x, y) in [
            (Heaps::bottom(), target.clone()),
            (target.clone(), Heaps::bottom()),
            (Heaps::single(a), base.clone()),
            (target.clone(), base),
        ] {
            let d = Heaps::delta(&x, &y);
            assert_eq!(Heaps::apply(&x, &d), y, "{d:?}");
        }
    }
}
