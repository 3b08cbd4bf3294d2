//! The escape analysis's transfer of one statement, on a heap and its values.
//!
//! Loads read the contents of what the object may be; a content of one operand forwards the
//! load, and the loaded name takes the stored operands' values (the reduction from the heap to
//! the declared value domain). Stores through one single object replace the field; any other
//! store adds to it. Storing into an object that code the function does not see can reach
//! makes the stored value escape there. Calls apply the callee's [`Summary`]; a call without
//! one is unknown code: its arguments escape and every exposed object's memory is forgotten.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::analysis::EscapeAnalysis;
use super::place::Place;
use super::places::EscapeKind;
use super::state::Heap;
use super::state::{Content, Loc, Object, Slot};
use super::states::{Disjunct, States};
use super::summary::Summary;
use crate::Site;
use crate::inputs;
use absinthe::engine::{Analysis, Direction};
use absinthe::lattice::Thresholds;
use absinthe::program::{BlockId, Cfg, Program};
use absinthe::program::{FuncId, NameId, Operand, Rhs, Stmt};
use absinthe::value::{NonRelational, ValueDomain};

/// What a statement did, for the facts read off the solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing the facts record.
    Other,
    /// A load read this content through these locations.
    Load(Content, BTreeSet<Loc>),
    /// A store through these locations; whether it replaced the field.
    Store {
        /// Whether the field was replaced.
        strong: bool,
        /// Where the object may be.
        targets: BTreeSet<Loc>,
    },
    /// A call applied these callees' summaries (`None`: unknown code).
    Call(Vec<Option<FuncId>>),
}

/// Applies `stmt` at `place` to the disjunct `d`.
pub fn statement<D: ValueDomain>(
    analysis: &EscapeAnalysis<'_, D>,
    place: Place,
    stmt: &Stmt,
    d: &mut Disjunct<D>,
) -> Step {
    analysis.values().transfer_stmt(stmt, &mut d.values);
    match stmt {
        Stmt::Assign { dest, rhs } => assign(analysis, place, *dest, rhs, d),
        Stmt::Store {
            object,
            field,
            value,
        } => store(d, *object, Slot::Field(*field), *value, place),
        Stmt::Call { callee, args } => {
            let callees = vec![Some(*callee)];
            let inputs = args.iter().map(|a| d.heap.points_of(*a)).collect();
            call(analysis, d, place, None, &callees, inputs, &[])
        }
        Stmt::Apply { callee, args } => apply(analysis, d, place, None, *callee, args),
    }
}

fn site(place: Place) -> Site {
    Site {
        block: place.block,
        index: place.index,
    }
}

fn assign<D: ValueDomain>(
    analysis: &EscapeAnalysis<'_, D>,
    place: Place,
    dest: NameId,
    rhs: &Rhs,
    d: &mut Disjunct<D>,
) -> Step {
    let heap = &mut d.heap;
    match rhs {
        Rhs::Use(o) => {
            let to = heap.points_of(*o);
            heap.define(dest, to);
        }
        Rhs::Binary(..) | Rhs::Tag(_) | Rhs::IsBlock(_) | Rhs::Address(_) | Rhs::Table(..) => {
            heap.define(dest, BTreeSet::new());
        }
        Rhs::Select(_, a, b) => {
            let mut to = heap.points_of(*a);
            to.extend(heap.points_of(*b));
            heap.define(dest, to);
        }
        Rhs::New => heap.allocate(dest, site(place), Object::fresh()),
        Rhs::Block(_, fields) => heap.allocate(dest, site(place), positional(fields, None)),
        Rhs::Closure(f, captures) => {
            heap.allocate(dest, site(place), positional(captures, Some(*f)));
        }
        Rhs::Sibling(c, g) => {
            // The sibling closure shares `c`'s captured values.
            let mut object = Object::fresh();
            let mut first = true;
            for loc in heap.points_of(*c) {
                let from = heap
                    .objects
                    .get(&loc)
                    .map_or_else(Object::opaque, |o| Object::clone(o));
                if first {
                    object.fields = from.fields;
                    object.rest = from.rest;
                    first = false;
                } else {
                    let slots: BTreeSet<Slot> = object
                        .fields
                        .keys()
                        .chain(from.fields.keys())
                        .copied()
                        .collect();
                    for s in slots {
                        let mut content = object.field(s).clone();
                        content.join_with(from.field(s));
                        object.fields.insert(s, content);
                    }
                    object.rest.join_with(&from.rest);
                }
            }
            object.code = Some(BTreeSet::from([*g]));
            heap.allocate(dest, site(place), object);
        }
        Rhs::MyClosure => heap.define(dest, BTreeSet::from([Loc::Unknown])),
        Rhs::Load(o, field) => return load(d, dest, *o, Slot::Field(*field)),
        Rhs::Field(o, i) => return load(d, dest, *o, Slot::Pos(*i)),
        Rhs::Call(callee, args) => {
            let inputs = args.iter().map(|a| heap.points_of(*a)).collect();
            return call(
                analysis,
                d,
                place,
                Some(dest),
                &[Some(*callee)],
                inputs,
                &[],
            );
        }
        Rhs::Apply(callee, args) => return apply(analysis, d, place, Some(dest), *callee, args),
    }
    Step::Other
}

/// A block's or closure's object: position `i` holds operand `i`.
fn positional(operands: &[Operand], code: Option<FuncId>) -> Object {
    let mut object = Object::fresh();
    for (i, o) in operands.iter().enumerate() {
        object.fields.insert(Slot::Pos(i as u32), Content::of(*o));
    }
    object.code = Some(code.into_iter().collect());
    object
}

fn load<D: ValueDomain>(d: &mut Disjunct<D>, dest: NameId, object: Operand, slot: Slot) -> Step {
    let targets = d.heap.points_of(object);
    let content = d.heap.read(&targets, slot);
    let to = d.heap.points_of_content(&content);
    // The reduction: a load of known operands has one of their values.
    if !content.unknown
        && !content.unnamed
        && content.locs.is_empty()
        && !content.operands.is_empty()
    {
        let mut value = D::bottom();
        for &o in &content.operands {
            value = value.join(&NonRelational::<D>::operand(&d.values, o));
        }
        d.values.set(dest, value);
    }
    d.heap.define(dest, to);
    Step::Load(content, targets)
}

fn store<D: ValueDomain>(
    d: &mut Disjunct<D>,
    object: Operand,
    slot: Slot,
    value: Operand,
    place: Place,
) -> Step {
    let heap = &mut d.heap;
    let targets = heap.points_of(object);
    if targets.iter().any(|&l| heap.is_exposed(l)) {
        let roots = heap.points_of(value);
        heap.escape(roots, place, EscapeKind::Global);
    }
    heap.effects.note_write(&targets, slot);
    let strong = heap.write(&targets, slot, value);
    Step::Store { strong, targets }
}

/// `apply c(args)`: the summaries of the functions `c` may be a closure of, with their
/// captures; unknown code when `c` may be a closure the function did not make.
fn apply<D: ValueDomain>(
    analysis: &EscapeAnalysis<'_, D>,
    d: &mut Disjunct<D>,
    place: Place,
    dest: Option<NameId>,
    closure: Operand,
    args: &[Operand],
) -> Step {
    let heap = &d.heap;
    let closures = heap.points_of(closure);
    let mut inputs: Vec<BTreeSet<Loc>> = args.iter().map(|a| heap.points_of(*a)).collect();
    let mut code: BTreeSet<FuncId> = BTreeSet::new();
    let mut known = !closures.is_empty();
    let mut captures: Vec<BTreeSet<Loc>> = Vec::new();
    for loc in &closures {
        match heap
            .objects
            .get(loc)
            .and_then(|o| o.code.clone().map(|c| (o, c)))
        {
            Some((object, c)) if !c.is_empty() => {
                code.extend(c);
                for (&slot, content) in &object.fields {
                    if let Slot::Pos(i) = slot {
                        let i = i as usize;
                        if captures.len() <= i {
                            captures.resize(i + 1, BTreeSet::new());
                        }
                        captures[i].extend(heap.points_of_content(content));
                    }
                }
            }
            _ => known = false,
        }
    }
    if !known {
        let mut all = inputs;
        all.push(closures);
        return call(analysis, d, place, dest, &[None], all, &[]);
    }
    let callees: Vec<Option<FuncId>> = code.into_iter().map(Some).collect();
    inputs.extend(captures);
    let extra = [closure];
    call(analysis, d, place, dest, &callees, inputs, &extra)
}

/// A call of each of `callees` in turn (any one may be the one called), whose inputs point to
/// `inputs` (arguments, then captures). `also` are operands the call hands over besides its
/// inputs (the closure applied), which escape with the inputs if a callee is unknown.
fn call<D: ValueDomain>(
    analysis: &EscapeAnalysis<'_, D>,
    d: &mut Disjunct<D>,
    place: Place,
    dest: Option<NameId>,
    callees: &[Option<FuncId>],
    inputs: Vec<BTreeSet<Loc>>,
    also: &[Operand],
) -> Step {
    let heap = &mut d.heap;
    let mut result: BTreeSet<Loc> = BTreeSet::new();
    let mut applied = Vec::with_capacity(callees.len());
    for callee in callees {
        let summary = callee.and_then(|f| analysis.callees().summary(f));
        match summary {
            Some(summary) if summary.inputs.len() == inputs.len() => {
                applied.push(*callee);
                result.extend(apply_summary(heap, &summary, &inputs, place));
            }
            _ => {
                applied.push(None);
                let mut roots: BTreeSet<Loc> = inputs.iter().flatten().copied().collect();
                for &o in also {
                    roots.extend(heap.points_of(o));
                }
                heap.escape(roots, place, EscapeKind::Global);
                heap.forget_exposed();
                heap.effects.calls_unknown = true;
                result.insert(Loc::Unknown);
            }
        }
    }
    if let Some(dest) = dest {
        heap.define(dest, result);
    }
    Step::Call(applied)
}

/// The effects of a callee with `summary` on the caller's heap; where the result may point.
fn apply_summary(
    heap: &mut Heap,
    summary: &Summary,
    inputs: &[BTreeSet<Loc>],
    place: Place,
) -> BTreeSet<Loc> {
    // Everything the callee can reach: what a field it wrote, or what it returns other than an
    // input itself, may be.
    let reach = heap.reachable(inputs.iter().flatten().copied());
    // What the callee can reach through its inputs' fields as it is called: its unknown
    // objects, with whatever unknown code holds.
    let mut inside = heap.reachable_inside(inputs.iter().flatten().copied());
    inside.insert(Loc::Unknown);
    let written_content = Content {
        locs: reach.clone(),
        unknown: true,
        ..Content::default()
    };
    for (effect, roots) in summary.inputs.iter().zip(inputs) {
        // An input reachable from the result through fields sits in an object the caller may
        // know only as unknown: it escapes.
        if effect.global || effect.returned_inside {
            heap.escape(roots.iter().copied(), place, EscapeKind::Global);
        }
        if effect.thrown {
            heap.escape(roots.iter().copied(), place, EscapeKind::Thrown);
        }
        for &slot in &effect.writes {
            written(heap, roots, slot, &written_content);
        }
    }
    // The same for objects the callee reached through its inputs' fields.
    let others = &summary.others;
    if others.global || others.returned_inside {
        heap.escape(inside.iter().copied(), place, EscapeKind::Global);
    }
    if others.thrown {
        heap.escape(inside.iter().copied(), place, EscapeKind::Thrown);
    }
    if summary.writes_unknown {
        for &loc in &reach {
            if let Some(o) = heap.objects.get_mut(&loc) {
                let o = Arc::make_mut(o);
                for content in o.fields.values_mut() {
                    content.join_with(&written_content);
                }
                o.rest.join_with(&written_content);
            }
            note_unknown_write(heap, loc);
        }
    }
    if summary.calls_unknown {
        heap.forget_exposed();
        heap.effects.calls_unknown = true;
    }
    let mut result = BTreeSet::new();
    for &i in &summary.returns_inputs {
        if let Some(roots) = inputs.get(i as usize) {
            result.extend(roots.iter().copied());
        }
    }
    if summary.returns_other {
        // Something the callee made, got from unknown code, or read through its inputs' fields
        // (now, after its writes).
        result.insert(Loc::Unknown);
        result.extend(heap.reachable_inside(inputs.iter().flatten().copied()));
    }
    result
}

/// A callee may have written `slot` of whatever `roots` point to: the field may now hold
/// `content` too (the old content stays possible: the callee may not have written it).
fn written(heap: &mut Heap, roots: &BTreeSet<Loc>, slot: Slot, content: &Content) {
    let mut targets: Vec<Loc> = roots
        .iter()
        .copied()
        .filter(|l| heap.objects.contains_key(l))
        .collect();
    targets.extend(heap.aliases(roots));
    for loc in targets {
        if let Some(o) = heap.objects.get_mut(&loc) {
            let o = Arc::make_mut(o);
            let mut c = o.field(slot).clone();
            c.join_with(content);
            o.fields.insert(slot, c);
        }
        let mut one = BTreeSet::new();
        one.insert(loc);
        heap.effects.note_write(&one, slot);
    }
}

fn note_unknown_write(heap: &mut Heap, loc: Loc) {
    match loc {
        Loc::Param(_) | Loc::Unknown => heap.effects.writes_unknown = true,
        Loc::Recent(_) | Loc::Old(_) => {}
    }
}

impl<D: ValueDomain, P: Program + Cfg + ?Sized> Analysis<P> for EscapeAnalysis<'_, D> {
    type State = States<D>;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, program: &P) -> States<D> {
        let heap = Heap::entry(&inputs(program));
        let values = Analysis::<P>::boundary_state(&self.values, program);
        States::single(heap, values, self.heaps)
    }

    fn transfer_block(&self, program: &P, block: BlockId, state: &mut States<D>) {
        // The state is the engine's own copy: its heaps change in place.
        let mut out = std::mem::take(&mut state.disjuncts);
        for d in &mut out {
            for (index, stmt) in program.stmts(block).iter().enumerate() {
                let place = Place {
                    block,
                    index: index as u32,
                };
                statement(self, place, stmt, d);
            }
        }
        *state = States::of(out, self.heaps);
    }

    fn transfer_edge(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        state: &States<D>,
    ) -> States<D> {
        let to = program.successors(from).get(succ_index).copied();
        let mut out = Vec::with_capacity(state.disjuncts.len());
        for d in &state.disjuncts {
            let values =
                Analysis::<P>::transfer_edge(&self.values, program, from, succ_index, &d.values);
            if !values.is_reachable() {
                continue;
            }
            let mut heap = d.heap.clone();
            if let Some(to) = to {
                // φs copy in parallel: every source is read before any destination is set.
                let copies: Vec<(NameId, Operand)> = program
                    .phis(to)
                    .iter()
                    .filter_map(|phi| {
                        phi.incoming
                            .iter()
                            .find(|(b, _)| *b == from)
                            .map(|(_, o)| (phi.dest, *o))
                    })
                    .collect();
                let sources: Vec<_> = copies.iter().map(|(_, o)| heap.points_of(*o)).collect();
                for ((dest, _), points) in copies.iter().zip(sources) {
                    heap.define(*dest, points);
                }
            }
            heap.collect();
            heap.fold_exposed(self.exposed);
            out.push(Disjunct { heap, values });
        }
        States::of(out, self.heaps)
    }

    fn transfer_evaluations(&self, program: &P, block: BlockId) -> u64 {
        program.stmts(block).len() as u64
    }

    fn loop_thresholds(&self, program: &P, blocks: &[BlockId]) -> Thresholds {
        Analysis::<P>::loop_thresholds(&self.values, program, blocks)
    }
}
