//! The sparse map: the value of a name is stored only where it is defined, and a lookup walks the
//! dominator tree upward to the nearest definition.
//!
//! A block holds three kinds of values. Its assignments keep one value each (a *slot*). Its head
//! keeps φ summaries out of band: for most blocks a short sorted list of *entries* (the names
//! whose value may differ from the one at the immediate dominator: names merged from several
//! definitions, and names an incoming edge refines or a φ defines), and for *complete* blocks
//! (loop heads and their iterated dominance frontier) a value for every name. A lookup that walks
//! far leaves a forward pointer where it started, so the next one through there jumps. The store
//! knows nothing about transfer functions: the engine in `super::engine` decides what goes where.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::lattice::{Lattice, Top};
use crate::program::{BlockId, NameId};

/// A lookup that walks past this many blocks leaves a forward pointer at the block it started
/// from, so that later lookups through that block jump to the definition (use-forwarding)...
const FORWARD_AFTER: u32 = 16;
/// ...when the name has had at most this many definition sites: the pointers of names defined
/// all over the function would keep going stale.
const FORWARD_SITES: u32 = 4;

/// Marks "none" in the dense `u32` tables.
pub(crate) const NONE: u32 = u32::MAX;

/// The bits of a block's name filter that `name` sets: one in each half, from two multiplicative
/// hashes.
fn bits(name: NameId) -> [u64; 2] {
    [
        1u64 << (name.0.wrapping_mul(0x9E37_79B9) >> 26),
        1u64 << (name.0.wrapping_mul(0x85EB_CA6B) >> 26),
    ]
}

/// Whether the filter `filter` may hold `name`.
fn may_hold(filter: [u64; 2], name: NameId) -> bool {
    let [a, b] = bits(name);
    filter[0] & a != 0 && filter[1] & b != 0
}

/// Adds `name` to the filter `filter`.
fn hold(filter: &mut [u64; 2], name: NameId) {
    let [a, b] = bits(name);
    filter[0] |= a;
    filter[1] |= b;
}

/// What a lookup walk reads at each block, packed in 24 bytes.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The names the block's slots define or its entries hold, two hashed bits each (a Bloom
    /// filter): a clear bit proves the block does not mention the name, so the walk moves on.
    filter: [u64; 2],
    /// The immediate dominator, or `NONE` for the entry and for blocks never reached.
    idom: u32,
    /// Index into `complete` when the block keeps every name at its head, else `NONE`.
    complete: u32,
}

/// Values of names stored at their definitions over the dominator tree of one function.
#[derive(Debug)]
pub(crate) struct Store<D> {
    names: usize,
    nodes: Vec<Node>,
    /// Block `b`'s slots are `slot_base[b]..slot_base[b + 1]`: one per assignment, in order.
    slot_base: Vec<u32>,
    /// The name each slot defines; `NONE` until the block is first evaluated.
    slot_name: Vec<u32>,
    /// The value each slot got at the block's last evaluation.
    slot_value: Vec<D>,
    /// Head entries of the blocks that are not complete, sorted by name.
    entries: Vec<Box<[(NameId, D)]>>,
    /// The head values of the complete blocks, every name.
    complete: Vec<Box<[D]>>,
    /// Whether some execution may reach the block (its entry state is not bottom).
    reach: Vec<bool>,
    /// Parameters are top at the entry; every other name is bottom there.
    is_param: Vec<bool>,
    /// Per name: how many definition sites it has had (wrapping); a forward pointer recorded
    /// under an older count may skip a definition found since, and is ignored.
    epoch: Vec<u32>,
    /// Per block: whether some forward pointer starts there.
    forwarded: Vec<AtomicBool>,
    /// Forward pointers: `(block, name)` → (the block where a lookup of `name` from the end of
    /// `block` ends, `NONE` for the boundary; the name's epoch then). Read by key only.
    forwards: Mutex<HashMap<(u32, u32), (u32, u32)>>,
}

/// Where a lookup ended.
#[derive(Clone, Copy, Debug)]
enum Found {
    /// At a slot (of the block given).
    Slot(BlockId, usize),
    /// At a head entry (block, index in its entries).
    Entry(BlockId, usize),
    /// At a complete block.
    Complete(BlockId),
    /// Nowhere: the boundary value.
    Boundary,
}

impl<D: Lattice + Top> Store<D> {
    /// An empty store for `names` names over blocks whose assignment counts are `slots`, with
    /// the immediate dominators `idom` (`NONE` for the entry and unreached blocks). Blocks listed
    /// in `complete` keep every name at their head.
    pub(crate) fn new(
        names: usize,
        idom: &[u32],
        slots: &[u32],
        complete: &[BlockId],
        params: &[NameId],
    ) -> Store<D> {
        let mut nodes: Vec<Node> = idom
            .iter()
            .map(|&idom| Node {
                filter: [0; 2],
                idom,
                complete: NONE,
            })
            .collect();
        let mut complete_values = Vec::with_capacity(complete.len());
        for &b in complete {
            nodes[b.index()].complete = complete_values.len() as u32;
            complete_values.push(vec![D::bottom(); names].into_boxed_slice());
        }
        let mut slot_base = Vec::with_capacity(slots.len() + 1);
        let mut total = 0u32;
        slot_base.push(0);
        for &count in slots {
            total += count;
            slot_base.push(total);
        }
        let mut is_param = vec![false; names];
        for p in params {
            if let Some(flag) = is_param.get_mut(p.index()) {
                *flag = true;
            }
        }
        Store {
            names,
            nodes,
            slot_base,
            slot_name: vec![NONE; total as usize],
            slot_value: vec![D::bottom(); total as usize],
            entries: (0..idom.len()).map(|_| Box::default()).collect(),
            complete: complete_values,
            reach: vec![false; idom.len()],
            is_param,
            epoch: vec![0; names],
            forwarded: (0..idom.len()).map(|_| AtomicBool::new(false)).collect(),
            forwards: Mutex::new(HashMap::new()),
        }
    }

    /// The number of names.
    pub(crate) fn names(&self) -> usize {
        self.names
    }

    /// The value of `name` at the function's entry: top for parameters, bottom otherwise.
    pub(crate) fn boundary(&self, name: NameId) -> D {
        if self.is_param.get(name.index()).copied().unwrap_or(false) {
            D::top()
        } else {
            D::bottom()
        }
    }

    /// The immediate dominator of `b`, if any.
    pub(crate) fn idom(&self, b: BlockId) -> Option<BlockId> {
        match self.nodes[b.index()].idom {
            NONE => None,
            d => Some(BlockId(d)),
        }
    }

    /// Whether `b` keeps a value for every name at its head.
    pub(crate) fn is_complete(&self, b: BlockId) -> bool {
        self.nodes[b.index()].complete != NONE
    }

    /// Whether the entry state of `b` is reachable.
    pub(crate) fn is_reachable(&self, b: BlockId) -> bool {
        self.reach[b.index()]
    }

    /// Sets whether the entry state of `b` is reachable.
    pub(crate) fn set_reachable(&mut self, b: BlockId, reachable: bool) {
        self.reach[b.index()] = reachable;
    }

    /// The slots of `b`, as indices into the slot tables.
    pub(crate) fn slots(&self, b: BlockId) -> std::ops::Range<usize> {
        self.slot_base[b.index()] as usize..self.slot_base[b.index() + 1] as usize
    }

    /// Records that `slot` (of block `b`) defines `name`: the block becomes a definition site.
    pub(crate) fn define(&mut self, b: BlockId, slot: usize, name: NameId) {
        self.slot_name[slot] = name.0;
        hold(&mut self.nodes[b.index()].filter, name);
        self.epoch[name.index()] = self.epoch[name.index()].wrapping_add(1);
    }

    /// The name `slot` defines, once its block was evaluated.
    pub(crate) fn slot_name(&self, slot: usize) -> Option<NameId> {
        match self.slot_name[slot] {
            NONE => None,
            name => Some(NameId(name)),
        }
    }

    /// The value of `slot`.
    pub(crate) fn slot(&self, slot: usize) -> &D {
        &self.slot_value[slot]
    }

    /// Replaces the value of `slot`, giving back the previous one.
    pub(crate) fn set_slot(&mut self, slot: usize, value: D) -> D {
        std::mem::replace(&mut self.slot_value[slot], value)
    }

    /// The head entries of `b` (empty for complete blocks).
    pub(crate) fn entries(&self, b: BlockId) -> &[(NameId, D)] {
        &self.entries[b.index()]
    }

    /// The head entries of `b`, mutable (values only; use [`Store::add_entry`] to add names).
    pub(crate) fn entries_mut(&mut self, b: BlockId) -> &mut [(NameId, D)] {
        &mut self.entries[b.index()]
    }

    /// Whether `b` has a head entry for `name`.
    pub(crate) fn has_entry(&self, b: BlockId, name: NameId) -> bool {
        let list = &self.entries[b.index()];
        !list.is_empty() && list.binary_search_by_key(&name, |e| e.0).is_ok()
    }

    /// Adds a head entry for `name` at the (not complete) block `b`, holding `value`.
    pub(crate) fn add_entry(&mut self, b: BlockId, name: NameId, value: D) {
        let list = &mut self.entries[b.index()];
        if let Err(at) = list.binary_search_by_key(&name, |e| e.0) {
            let mut grown = Vec::with_capacity(list.len() + 1);
            grown.extend_from_slice(&list[..at]);
            grown.push((name, value));
            grown.extend_from_slice(&list[at..]);
            *list = grown.into_boxed_slice();
            hold(&mut self.nodes[b.index()].filter, name);
            self.epoch[name.index()] = self.epoch[name.index()].wrapping_add(1);
        }
    }

    /// The head values of the complete block `b`, every name.
    pub(crate) fn complete(&self, b: BlockId) -> &[D] {
        &self.complete[self.nodes[b.index()].complete as usize]
    }

    /// The head values of the complete block `b`, mutable.
    pub(crate) fn complete_mut(&mut self, b: BlockId) -> &mut [D] {
        &mut self.complete[self.nodes[b.index()].complete as usize]
    }

    /// The value of `name` at the head of `b`, looking through the dominators; `None` means the
    /// boundary value.
    fn entry_ref(&self, b: BlockId, name: NameId) -> Option<&D> {
        let node = self.nodes[b.index()];
        if node.complete != NONE {
            return self.complete[node.complete as usize].get(name.index());
        }
        if may_hold(node.filter, name) {
            if let Ok(i) = self.entries[b.index()].binary_search_by_key(&name, |e| e.0) {
                return Some(&self.entries[b.index()][i].1);
            }
        }
        match node.idom {
            NONE => None,
            d => self.exit_ref(BlockId(d), name),
        }
    }

    /// The value of `name` at the end of `b`: its last definition in `b`, else its value at the
    /// head of `b`; `None` means the boundary value.
    fn exit_ref(&self, b: BlockId, name: NameId) -> Option<&D> {
        match self.resolve(b, name) {
            Found::Slot(_, s) => Some(&self.slot_value[s]),
            Found::Entry(d, i) => Some(&self.entries[d.index()][i].1),
            Found::Complete(d) => {
                self.complete[self.nodes[d.index()].complete as usize].get(name.index())
            }
            Found::Boundary => None,
        }
    }

    /// Where the lookup of `name` at the end of `start` ends: the walk up the dominator tree,
    /// following forward pointers, and leaving one at `start` when the walk was long.
    fn resolve(&self, start: BlockId, name: NameId) -> Found {
        let mut b = start;
        let mut steps = 0u32;
        let found = loop {
            let node = self.nodes[b.index()];
            if may_hold(node.filter, name) {
                let slots = self.slots(b);
                if let Some(i) = self.slot_name[slots.clone()]
                    .iter()
                    .rposition(|&n| n == name.0)
                {
                    break Found::Slot(b, slots.start + i);
                }
                if node.complete == NONE {
                    let list = &self.entries[b.index()];
                    if let Ok(i) = list.binary_search_by_key(&name, |e| e.0) {
                        break Found::Entry(b, i);
                    }
                }
            }
            if node.complete != NONE {
                break Found::Complete(b);
            }
            if self.forwarded[b.index()].load(Ordering::Relaxed) {
                let target = self.forward(b, name);
                if let Some((t, epoch)) = target {
                    if epoch == self.epoch[name.index()] {
                        if t == NONE {
                            break Found::Boundary;
                        }
                        b = BlockId(t);
                        steps += 1;
                        continue;
                    }
                }
            }
            match node.idom {
                NONE => break Found::Boundary,
                d => b = BlockId(d),
            }
            steps += 1;
        };
        if steps > FORWARD_AFTER && self.epoch[name.index()] <= FORWARD_SITES {
            let target = match found {
                Found::Slot(d, _) | Found::Entry(d, _) | Found::Complete(d) => d.0,
                Found::Boundary => NONE,
            };
            let epoch = self.epoch[name.index()];
            self.forwards_map()
                .insert((start.0, name.0), (target, epoch));
            self.forwarded[start.index()].store(true, Ordering::Relaxed);
        }
        found
    }

    /// The forward pointer of `name` at `b`, if any.
    fn forward(&self, b: BlockId, name: NameId) -> Option<(u32, u32)> {
        self.forwards_map().get(&(b.0, name.0)).copied()
    }

    /// The forward pointers (a poisoned lock only means a panic elsewhere; the map is intact).
    fn forwards_map(&self) -> std::sync::MutexGuard<'_, HashMap<(u32, u32), (u32, u32)>> {
        self.forwards
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The value of `name` at the head of `b`.
    pub(crate) fn value_at_entry(&self, b: BlockId, name: NameId) -> D {
        self.entry_ref(b, name)
            .cloned()
            .unwrap_or_else(|| self.boundary(name))
    }

    /// The value of `name` at the head of `b` as seen from its immediate dominator: what `b`
    /// would hold without an entry of its own.
    pub(crate) fn value_above(&self, b: BlockId, name: NameId) -> D {
        match self.nodes[b.index()].idom {
            NONE => self.boundary(name),
            d => self
                .exit_ref(BlockId(d), name)
                .cloned()
                .unwrap_or_else(|| self.boundary(name)),
        }
    }

    /// The value of `name` at the end of `b`.
    pub(crate) fn value_at_exit(&self, b: BlockId, name: NameId) -> D {
        self.exit_ref(b, name)
            .cloned()
            .unwrap_or_else(|| self.boundary(name))
    }

    /// Writes the value of every name at the head of `b` into `out` (of length `names`); `seen`
    /// and `stamp` as for [`Store::materialize_exit`].
    pub(crate) fn materialize_entry(
        &self,
        b: BlockId,
        out: &mut [D],
        seen: &mut [u32],
        stamp: u32,
    ) {
        let node = self.nodes[b.index()];
        if node.complete != NONE {
            out.clone_from_slice(&self.complete[node.complete as usize]);
            return;
        }
        for (name, value) in self.entries[b.index()].iter() {
            seen[name.index()] = stamp;
            out[name.index()] = value.clone();
        }
        match node.idom {
            NONE => {
                for (name, slot) in out.iter_mut().enumerate() {
                    if seen[name] != stamp {
                        *slot = self.boundary(NameId::new(name));
                    }
                }
            }
            d => self.materialize_exit(BlockId(d), out, seen, stamp),
        }
    }

    /// Writes the value of every name at the end of `b` into `out` (of length `names`), walking
    /// the dominators once; `seen` is scratch of the same length, `stamp` a value not yet in it.
    /// Names already marked with `stamp` in `seen` are left alone.
    pub(crate) fn materialize_exit(&self, b: BlockId, out: &mut [D], seen: &mut [u32], stamp: u32) {
        let mut missing = seen.iter().filter(|&&s| s != stamp).count();
        let mut block = b;
        loop {
            for s in self.slots(block).rev() {
                let name = self.slot_name[s] as usize;
                if name != NONE as usize && seen[name] != stamp {
                    seen[name] = stamp;
                    out[name] = self.slot_value[s].clone();
                    missing -= 1;
                }
            }
            let node = self.nodes[block.index()];
            if node.complete != NONE {
                let values = &self.complete[node.complete as usize];
                for (name, value) in values.iter().enumerate() {
                    if seen[name] != stamp {
                        out[name] = value.clone();
                    }
                }
                return;
            }
            for (name, value) in self.entries[block.index()].iter() {
                if seen[name.index()] != stamp {
                    seen[name.index()] = stamp;
                    out[name.index()] = value.clone();
                    missing -= 1;
                }
            }
            if missing == 0 {
                return;
            }
            match node.idom {
                NONE => break,
                d => block = BlockId(d),
            }
        }
        for (name, slot) in out.iter_mut().enumerate() {
            if seen[name] != stamp {
                *slot = self.boundary(NameId::new(name));
            }
        }
    }
}
