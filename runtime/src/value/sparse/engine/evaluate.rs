//! A visit's transfer: the block's statements re-evaluated (all, or with temporal sparsity only
//! those reading a changed name), and the names changed at its exit reported to successors.

#[allow(clippy::wildcard_imports)]
use super::*;

impl<'a, D: ValueDomain, P: Program + ?Sized> Engine<'a, D, P> {
    /// Applies the statements of `b` after its head changed by `change`; reports how its exit
    /// changed.
    pub(super) fn transfer(
        &mut self,
        b: BlockId,
        change: EntryChange,
    ) -> Result<ExitChange, StopReason> {
        if self.stats.visits >= self.limits.max_visits {
            return Err(StopReason::Budget {
                visits: self.stats.visits,
            });
        }
        self.stats.visits += 1;
        let stmts = self.program.stmts(b).len() as u64;
        let exit = match change {
            EntryChange::Unchanged => ExitChange::Nothing,
            EntryChange::Unreached => ExitChange::Reach,
            EntryChange::Reached => {
                let first = !std::mem::replace(&mut self.ever_reached[b.index()], true);
                self.register_body(b);
                self.evaluate_all(b, None);
                self.stats.evaluations += stmts;
                if first {
                    ExitChange::Reach
                } else {
                    ExitChange::All
                }
            }
            EntryChange::All => {
                self.evaluate_all(b, None);
                self.stats.evaluations += stmts;
                ExitChange::All
            }
            EntryChange::Names(names) if self.temporal => self.evaluate_changed(b, names),
            EntryChange::Names(names) => {
                self.stats.evaluations += stmts;
                self.evaluate_all(b, Some(names))
            }
        };
        self.update_snapshot(b, &exit);
        Ok(exit)
    }

    /// Marks in `self.defs` the last definition of each name in the immediate dominator of `b`
    /// (when `b` has no value of its own for every name), with the stamp returned.
    pub(super) fn mark_above(&mut self, b: BlockId) -> u32 {
        let above = self.defs.fresh();
        if self.store.is_complete(b) {
            return above;
        }
        if let Some(d) = self.store.idom(b) {
            for slot in self.store.slots(d) {
                if let Some(name) = self.store.slot_name(slot) {
                    self.defs.stamps[name.index()] = above;
                    self.def_slot[name.index()] = slot as u32;
                }
            }
        }
        above
    }

    /// Evaluates every statement of `b`. With `entry_changes` (the names that changed at its
    /// head) reports the names whose exit value changed; without, reports nothing (the caller
    /// knows everything may have changed).
    pub(super) fn evaluate_all(
        &mut self,
        b: BlockId,
        entry_changes: Option<Vec<NameId>>,
    ) -> ExitChange {
        let program: &'a P = self.program;
        let above = self.mark_above(b);
        let stamp = self.defs.fresh();
        let mut slot = self.store.slots(b).start;
        let mut changed_slots = std::mem::take(&mut self.changed_slots);
        for stmt in program.stmts(b) {
            let Stmt::Assign { dest, rhs } = stmt else {
                continue;
            };
            let value = {
                let view = BlockView {
                    store: &self.store,
                    block: b,
                    stamps: &self.defs.stamps,
                    slots: &self.def_slot,
                    stamp,
                    above,
                };
                NonRelational::<D>::eval_rhs(rhs, &view)
            };
            let old = self.store.set_slot(slot, value);
            if entry_changes.is_some() && old != *self.store.slot(slot) {
                changed_slots.push(slot);
            }
            self.defs.stamps[dest.index()] = stamp;
            self.def_slot[dest.index()] = slot as u32;
            slot += 1;
        }
        let Some(entry_changes) = entry_changes else {
            self.changed_slots = changed_slots;
            return ExitChange::Nothing;
        };
        self.exit_changes(stamp, entry_changes, changed_slots)
    }

    /// Temporal sparsity: evaluates only the statements of `b` that read a name whose value
    /// changed (at the head, as `entry_changes` says, or earlier in the block); reports the names
    /// whose exit value changed.
    pub(super) fn evaluate_changed(
        &mut self,
        b: BlockId,
        entry_changes: Vec<NameId>,
    ) -> ExitChange {
        let changed = self.changed.fresh();
        for n in &entry_changes {
            self.changed.stamps[n.index()] = changed;
        }
        let uses = &self.uses[b.index()];
        if !uses
            .iter()
            .any(|n| self.changed.stamps[n.index()] == changed)
        {
            // No statement reads a changed name: only the names passing through change.
            let stamp = self.defs.fresh();
            for slot in self.store.slots(b) {
                if let Some(name) = self.store.slot_name(slot) {
                    self.defs.stamps[name.index()] = stamp;
                }
            }
            let mut names = entry_changes;
            names.retain(|n| self.defs.stamps[n.index()] != stamp);
            return names_exit(names);
        }
        let program: &'a P = self.program;
        let above = self.mark_above(b);
        let stamp = self.defs.fresh();
        let mut slot = self.store.slots(b).start;
        let mut changed_slots = std::mem::take(&mut self.changed_slots);
        for stmt in program.stmts(b) {
            let Stmt::Assign { dest, rhs } = stmt else {
                continue;
            };
            let mut stale = false;
            value_reads(rhs, |n| stale |= self.changed.stamps[n.index()] == changed);
            let mut now_changed = false;
            if stale {
                let value = {
                    let view = BlockView {
                        store: &self.store,
                        block: b,
                        stamps: &self.defs.stamps,
                        slots: &self.def_slot,
                        stamp,
                        above,
                    };
                    NonRelational::<D>::eval_rhs(rhs, &view)
                };
                self.stats.evaluations += 1;
                let old = self.store.set_slot(slot, value);
                if old != *self.store.slot(slot) {
                    changed_slots.push(slot);
                    now_changed = true;
                }
            }
            self.changed.stamps[dest.index()] = if now_changed { changed } else { 0 };
            self.defs.stamps[dest.index()] = stamp;
            self.def_slot[dest.index()] = slot as u32;
            slot += 1;
        }
        self.exit_changes(stamp, entry_changes, changed_slots)
    }

    /// The names whose value at the exit of the block just evaluated changed: those whose last
    /// definition in it changed (slots in `changed_slots`), and those that changed at its head and
    /// are not defined in it. `stamp` marks the names the block defines in
    /// `self.defs`.
    pub(super) fn exit_changes(
        &mut self,
        stamp: u32,
        entry_changes: Vec<NameId>,
        mut changed_slots: Vec<usize>,
    ) -> ExitChange {
        let mut passing = entry_changes;
        passing.retain(|n| self.defs.stamps[n.index()] != stamp);
        passing.reserve(changed_slots.len());
        for slot in changed_slots.drain(..) {
            let Some(name) = self.store.slot_name(slot) else {
                continue;
            };
            if self.def_slot[name.index()] as usize == slot {
                passing.push(name);
            }
        }
        self.changed_slots = changed_slots;
        names_exit(passing)
    }

    /// Keeps the snapshot of a back-edge source equal to its exit state.
    pub(super) fn update_snapshot(&mut self, b: BlockId, exit: &ExitChange) {
        let slot = self.snapshot_slot[b.index()];
        if slot == NONE {
            return;
        }
        let reachable = self.store.is_reachable(b);
        let snapshot = &mut self.snapshots[slot as usize];
        match exit {
            ExitChange::Nothing => {}
            ExitChange::Names(names) => {
                for &name in names {
                    snapshot.values[name.index()] = self.store.value_at_exit(b, name);
                }
            }
            ExitChange::Reach | ExitChange::All => {
                snapshot.reach = reachable;
                if reachable {
                    let stamp = self.seen.fresh();
                    self.store.materialize_exit(
                        b,
                        &mut snapshot.values,
                        &mut self.seen.stamps,
                        stamp,
                    );
                }
            }
        }
    }
}
