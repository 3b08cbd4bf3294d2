//! What flows into a block: the incoming states along its edges (snapshots for back edges),
//! joined, widened or narrowed at loop heads, and the head entries recomputed.

#[allow(clippy::wildcard_imports)]
use super::*;

impl<'a, D: ValueDomain, P: Program + ?Sized> Engine<'a, D, P> {
    /// Evaluates the edges into `b`, counting the work as the dense solver's `flow_into` does.
    pub(super) fn incoming(&mut self, b: BlockId) -> Incoming<D> {
        let range = self.in_offsets[b.index()] as usize..self.in_offsets[b.index() + 1] as usize;
        let target = self.schedule.position[b.index()];
        let boundary = b == self.program.entry();
        let mut edges = std::mem::take(&mut self.edges_buf);
        let mut flowing = u64::from(boundary);
        for &(from, index) in &self.in_edges[range] {
            let pf = self.schedule.position[from.index()];
            let source = if pf == NONE {
                None
            } else if pf >= target {
                let snapshot = &self.snapshots[self.snapshot_slot[from.index()] as usize];
                snapshot
                    .reach
                    .then_some(Source::Snapshot(&snapshot.values[..]))
            } else {
                self.store.is_reachable(from).then_some(Source::Exit(from))
            };
            let Some(source) = source else {
                edges.push(EdgeFlow::Dead);
                continue;
            };
            self.stats.edge_transfers += 1;
            let mut view = EdgeView {
                store: &self.store,
                source,
                defs: Vec::new(),
            };
            let (program, index) = (self.program, index as usize);
            if self
                .analysis
                .refine_edge_in(program, from, index, &mut view)
            {
                NonRelational::<D>::phis_in(program, from, index, &mut view);
                edges.push(EdgeFlow::Feasible(view.defs));
                flowing += 1;
            } else {
                edges.push(EdgeFlow::Infeasible);
            }
        }
        self.stats.joins += flowing.saturating_sub(1);
        Incoming { boundary, edges }
    }

    /// The value of `name` flowing in along incoming edge `i` of `b` (which is feasible with the
    /// writes `defs`).
    pub(super) fn edge_value(&self, b: BlockId, i: usize, defs: &[(NameId, D)], name: NameId) -> D {
        if let Some((_, value)) = defs.iter().find(|d| d.0 == name) {
            return value.clone();
        }
        let (from, _) = self.in_edges[self.in_offsets[b.index()] as usize + i];
        if self.schedule.position[from.index()] >= self.schedule.position[b.index()] {
            let snapshot = &self.snapshots[self.snapshot_slot[from.index()] as usize];
            snapshot.values[name.index()].clone()
        } else {
            self.store.value_at_exit(from, name)
        }
    }

    /// The join of what flows into `b` for `name` (the block is reachable).
    pub(super) fn flow_value(&self, b: BlockId, incoming: &Incoming<D>, name: NameId) -> D {
        let mut acc = incoming.boundary.then(|| self.store.boundary(name));
        for (i, edge) in incoming.edges.iter().enumerate() {
            if let EdgeFlow::Feasible(defs) = edge {
                let value = self.edge_value(b, i, defs, name);
                match &mut acc {
                    None => acc = Some(value),
                    Some(a) => {
                        a.join_with(&value);
                    }
                }
            }
        }
        acc.unwrap_or_else(D::bottom)
    }

    /// Visits the head of `b`: recomputes what flows in and updates its entry state as the dense
    /// solver would; reports what changed.
    pub(super) fn flow_in(&mut self, b: BlockId, phase: Phase) -> Result<EntryChange, StopReason> {
        let mut pending = self.take_pending(b);
        let incoming = self.incoming(b);
        let slot = self.schedule.head_slot[self.schedule.position[b.index()] as usize];
        let change = if slot != NONE {
            self.refresh_head(b, slot as usize, &incoming, &pending);
            match phase {
                Phase::Ascend => self.update_head(b, slot as usize),
                Phase::Descend => self.narrow_head(b, slot as usize),
            }
        } else if self.store.is_complete(b) {
            Ok(self.flow_complete(b, &incoming, &pending))
        } else {
            Ok(self.flow_entries(b, &incoming, &mut pending))
        };
        self.recycle(pending, incoming);
        change
    }

    /// Gives back the buffers a visit used, for the next visits.
    pub(super) fn recycle(&mut self, mut pending: Box<Pending>, incoming: Incoming<D>) {
        pending.reach = false;
        pending.all = false;
        pending.names.clear();
        pending.requests.clear();
        self.spare.push(pending);
        let mut edges = incoming.edges;
        edges.clear();
        self.edges_buf = edges;
    }

    /// Recomputes, into `out`, what flows into the complete block `b`: every name when `full`
    /// (or when an edge's feasibility changed), else the names `pending` reports and the names the
    /// edges write. Returns whether anything flows in, and the recomputed names (`None`: all).
    pub(super) fn complete_flow(
        &mut self,
        b: BlockId,
        incoming: &Incoming<D>,
        pending: &Pending,
        out: &mut [D],
        full: bool,
    ) -> (bool, Option<Vec<NameId>>) {
        let base = self.in_offsets[b.index()] as usize;
        let mut feasibility_changed = false;
        for (i, edge) in incoming.edges.iter().enumerate() {
            let feasible = matches!(edge, EdgeFlow::Feasible(_));
            if self.edge_feasible[base + i] != feasible {
                self.edge_feasible[base + i] = feasible;
                feasibility_changed = true;
            }
            self.edge_live[base + i] = !matches!(edge, EdgeFlow::Dead);
        }
        if !incoming.reachable() {
            return (false, Some(Vec::new()));
        }
        if full || feasibility_changed || pending.reach || pending.all {
            self.flow_all(b, incoming, out);
            return (true, None);
        }
        let mut names: Vec<NameId> = pending.names.clone();
        for edge in &incoming.edges {
            if let EdgeFlow::Feasible(defs) = edge {
                names.extend(defs.iter().map(|d| d.0));
            }
        }
        names.sort_unstable();
        names.dedup();
        for &name in &names {
            out[name.index()] = self.flow_value(b, incoming, name);
        }
        (true, Some(names))
    }

    /// Writes into `out` what flows into `b` for every name.
    pub(super) fn flow_all(&mut self, b: BlockId, incoming: &Incoming<D>, out: &mut [D]) {
        let mut started = false;
        if incoming.boundary {
            for (name, slot) in out.iter_mut().enumerate() {
                *slot = self.store.boundary(NameId::new(name));
            }
            started = true;
        }
        let base = self.in_offsets[b.index()] as usize;
        let mut buf = std::mem::take(&mut self.buf);
        for (i, edge) in incoming.edges.iter().enumerate() {
            let EdgeFlow::Feasible(defs) = edge else {
                continue;
            };
            let (from, _) = self.in_edges[base + i];
            if self.schedule.position[from.index()] >= self.schedule.position[b.index()] {
                let snapshot = &self.snapshots[self.snapshot_slot[from.index()] as usize];
                buf.clone_from_slice(&snapshot.values);
            } else {
                let stamp = self.seen.fresh();
                self.store
                    .materialize_exit(from, &mut buf, &mut self.seen.stamps, stamp);
            }
            for (name, value) in defs {
                buf[name.index()] = value.clone();
            }
            if started {
                for (acc, value) in out.iter_mut().zip(buf.iter()) {
                    acc.join_with(value);
                }
            } else {
                out.clone_from_slice(&buf);
                started = true;
            }
        }
        self.buf = buf;
    }

    /// Brings the head `b`'s record of what flows in up to date.
    pub(super) fn refresh_head(
        &mut self,
        b: BlockId,
        slot: usize,
        incoming: &Incoming<D>,
        pending: &Pending,
    ) {
        let full = !self.heads[slot].fresh;
        let mut out = std::mem::take(&mut self.heads[slot].new_values);
        let (reach, _) = self.complete_flow(b, incoming, pending, &mut out, full);
        let head = &mut self.heads[slot];
        head.new_values = out;
        head.new_reach = reach;
        head.fresh = reach;
    }

    /// The dense solver's `update_head` on the complete state of the head `b`.
    pub(super) fn update_head(
        &mut self,
        b: BlockId,
        slot: usize,
    ) -> Result<EntryChange, StopReason> {
        let old_reach = self.store.is_reachable(b);
        let head = &self.heads[slot];
        if env_leq(
            head.new_reach,
            &head.new_values,
            old_reach,
            self.store.complete(b),
        ) {
            return Ok(EntryChange::Unchanged);
        }
        if head.joins < self.limits.widening_delay {
            self.heads[slot].joins += 1;
            self.stats.joins += 1;
            let new = std::mem::take(&mut self.heads[slot].new_values);
            let change = self.join_into_complete(b, &new);
            self.heads[slot].new_values = new;
            return Ok(change);
        }
        let (program, analysis) = (self.program, self.analysis);
        let wto = &self.schedule.wto;
        let head = &mut self.heads[slot];
        let thresholds = head.thresholds.get_or_insert_with(|| {
            analysis.loop_thresholds(program, wto.component(b).unwrap_or_default())
        });
        let new = &head.new_values;
        let old = self.store.complete(b);
        // The widened state; `None` when the widening gives back the previous state.
        let widened: Vec<D> = if old_reach {
            old.iter()
                .zip(new.iter())
                .map(|(a, n)| a.widen_with_thresholds(n, thresholds))
                .collect()
        } else {
            new.to_vec()
        };
        self.stats.widenings += 1;
        if !(env_leq(old_reach, old, true, &widened)
            && env_leq(head.new_reach, new, true, &widened))
        {
            return Err(StopReason::LawViolation {
                block: b,
                message: format!(
                    "widening is not an upper bound of its arguments: previous {:?}, new {:?}, \
                     widened {:?}",
                    env(old_reach, old),
                    env(head.new_reach, new),
                    env(true, &widened)
                ),
            });
        }
        if old_reach && widened[..] == old[..] {
            return Ok(EntryChange::Unchanged);
        }
        head.widenings += 1;
        if head.widenings > MAX_WIDENINGS_PER_HEAD {
            return Err(StopReason::LawViolation {
                block: b,
                message: format!(
                    "widening did not stabilise after {MAX_WIDENINGS_PER_HEAD} changes; last: \
                     previous {:?}, new {:?}, widened {:?}",
                    env(old_reach, old),
                    env(head.new_reach, new),
                    env(true, &widened)
                ),
            });
        }
        Ok(self.replace_complete(b, widened))
    }

    /// The dense solver's `narrow_head` on the complete state of the head `b`.
    pub(super) fn narrow_head(
        &mut self,
        b: BlockId,
        slot: usize,
    ) -> Result<EntryChange, StopReason> {
        let old_reach = self.store.is_reachable(b);
        let head = &self.heads[slot];
        let old = self.store.complete(b);
        if !env_leq(head.new_reach, &head.new_values, old_reach, old) {
            // Not a post-fixpoint here: leave the state and let the ascending phase repair it.
            self.schedule.push(b);
            return Ok(EntryChange::Unchanged);
        }
        let narrowed_reach = old_reach && head.new_reach;
        let narrowed: Vec<D> = if narrowed_reach {
            old.iter()
                .zip(head.new_values.iter())
                .map(|(a, n)| a.narrow(n))
                .collect()
        } else {
            Vec::new()
        };
        self.stats.narrowings += 1;
        let lower = env_leq(head.new_reach, &head.new_values, narrowed_reach, &narrowed);
        if !(lower && env_leq(narrowed_reach, &narrowed, old_reach, old)) {
            return Err(StopReason::LawViolation {
                block: b,
                message: format!(
                    "narrowing left the interval between its arguments: previous {:?}, \
                     new {:?}, narrowed {:?}",
                    env(old_reach, old),
                    env(head.new_reach, &head.new_values),
                    env(narrowed_reach, &narrowed)
                ),
            });
        }
        if narrowed_reach == old_reach && (!old_reach || narrowed[..] == old[..]) {
            return Ok(EntryChange::Unchanged);
        }
        if !narrowed_reach {
            self.store.set_reachable(b, false);
            return Ok(EntryChange::Unreached);
        }
        Ok(self.replace_complete(b, narrowed))
    }

    /// Joins `new` into the complete state of `b`, as `Env::join_with` does.
    pub(super) fn join_into_complete(&mut self, b: BlockId, new: &[D]) -> EntryChange {
        if !self.store.is_reachable(b) {
            self.store.complete_mut(b).clone_from_slice(new);
            self.store.set_reachable(b, true);
            return EntryChange::Reached;
        }
        let mut changes = Vec::new();
        for (name, (value, n)) in self
            .store
            .complete_mut(b)
            .iter_mut()
            .zip(new.iter())
            .enumerate()
        {
            if value.join_with(n).changed() {
                changes.push(NameId::new(name));
            }
        }
        names_change(changes)
    }

    /// Replaces the complete state of `b` by `values` (reachable), reporting what changed.
    pub(super) fn replace_complete(&mut self, b: BlockId, values: Vec<D>) -> EntryChange {
        let was_reachable = self.store.is_reachable(b);
        self.store.set_reachable(b, true);
        let stored = self.store.complete_mut(b);
        if !was_reachable {
            for (slot, value) in stored.iter_mut().zip(values) {
                *slot = value;
            }
            return EntryChange::Reached;
        }
        let mut changes = Vec::new();
        for (name, (slot, value)) in stored.iter_mut().zip(values).enumerate() {
            if *slot != value {
                *slot = value;
                changes.push(NameId::new(name));
            }
        }
        names_change(changes)
    }

    /// Visits the head of the complete block `b` that is not a loop head: its state is what flows
    /// in.
    pub(super) fn flow_complete(
        &mut self,
        b: BlockId,
        incoming: &Incoming<D>,
        pending: &Pending,
    ) -> EntryChange {
        let old_reach = self.store.is_reachable(b);
        let mut out = std::mem::take(&mut self.buf_new);
        let (reach, names) = self.complete_flow(b, incoming, pending, &mut out, !old_reach);
        let change = if !reach {
            if old_reach {
                self.store.set_reachable(b, false);
                EntryChange::Unreached
            } else {
                EntryChange::Unchanged
            }
        } else if !old_reach {
            self.store.complete_mut(b).clone_from_slice(&out);
            self.store.set_reachable(b, true);
            EntryChange::Reached
        } else {
            let stored = self.store.complete_mut(b);
            let mut changes = Vec::new();
            let mut compare = |name: usize| {
                if stored[name] != out[name] {
                    stored[name] = out[name].clone();
                    changes.push(NameId::new(name));
                }
            };
            match names {
                None => (0..out.len()).for_each(&mut compare),
                Some(names) => names.iter().for_each(|n| compare(n.index())),
            }
            names_change(changes)
        };
        self.buf_new = out;
        change
    }

    /// Visits the head of a block that is not complete: recomputes its entries, and checks the
    /// names passing through it that changed above it.
    pub(super) fn flow_entries(
        &mut self,
        b: BlockId,
        incoming: &Incoming<D>,
        pending: &mut Pending,
    ) -> EntryChange {
        let reach_old = self.store.is_reachable(b);
        let reach_new = incoming.reachable();
        // The values passing through `b` come from its immediate dominator; every change of them
        // reaches `b` through each predecessor that stayed reachable.
        let base = self.in_offsets[b.index()] as usize;
        let mut kept_live = incoming.boundary;
        for (i, edge) in incoming.edges.iter().enumerate() {
            let live = !matches!(edge, EdgeFlow::Dead);
            kept_live |= live && self.edge_live[base + i];
            self.edge_live[base + i] = live;
            self.edge_feasible[base + i] = matches!(edge, EdgeFlow::Feasible(_));
        }
        if !reach_new || !reach_old {
            // The entries' values do not matter while the block is unreachable; they are all
            // recomputed when it becomes reachable.
            for &name in &pending.requests {
                self.store.add_entry(b, name, D::bottom());
            }
        }
        if !reach_new {
            if reach_old {
                self.store.set_reachable(b, false);
                return EntryChange::Unreached;
            }
            return EntryChange::Unchanged;
        }
        if !reach_old {
            self.register_head(b);
            self.recompute_entries(b, incoming);
            self.store.set_reachable(b, true);
            return EntryChange::Reached;
        }
        // A new entry starts with the value the name had passing through `b`. If that value
        // changed since the last visit (a predecessor reports it), the name changed at `b`'s head
        // whatever the entry's value now.
        let mut moved = Vec::new();
        for &name in &pending.requests {
            if !self.store.has_entry(b, name) {
                self.store
                    .add_entry(b, name, self.store.value_above(b, name));
                if pending.names.contains(&name) {
                    moved.push(name);
                }
            }
        }
        let mut changes = self.recompute_entries(b, incoming);
        if pending.all || (pending.reach && !kept_live) {
            return EntryChange::All;
        }
        for name in moved {
            if !changes.contains(&name) {
                changes.push(name);
            }
        }
        // A name without an entry passes through `b`: it changed as its predecessors report.
        let mut passing = std::mem::take(&mut pending.names);
        if !self.store.entries(b).is_empty() {
            passing.retain(|&n| !self.store.has_entry(b, n));
        }
        passing.extend(changes);
        names_change(passing)
    }

    /// Recomputes the head entries of `b` from its incoming edges; gives the entries that changed.
    pub(super) fn recompute_entries(&mut self, b: BlockId, incoming: &Incoming<D>) -> Vec<NameId> {
        let new: Vec<D> = self
            .store
            .entries(b)
            .iter()
            .map(|&(name, _)| self.flow_value(b, incoming, name))
            .collect();
        let mut changes = Vec::new();
        for (entry, value) in self.store.entries_mut(b).iter_mut().zip(new) {
            if entry.1 != value {
                entry.1 = value;
                changes.push(entry.0);
            }
        }
        changes
    }
}
