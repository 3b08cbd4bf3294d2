//! Concrete interpreters for the toy language and the core IR, the ground truth that analyses
//! are tested against.
//!
//! Both run within a step budget, report how they stopped as an enum and never panic, whatever
//! program they are given; observers see the environment before each step.

use absinthe::program::{
    BlockId, Cond, FieldId, FuncId, NameId, Op, Operand, Rhs, Stmt, Terminator,
};

use crate::function::{Function, Module};
use crate::toy::{Instr, ToyExpr, ToyProgram};

/// How a toy run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToyOutcome {
    /// Control reached the instruction count.
    Exit,
    /// The step budget ran out.
    OutOfSteps,
    /// Instruction `pc` read `name`, which had never been assigned.
    ReadUnassigned {
        /// The instruction.
        pc: usize,
        /// The name read.
        name: NameId,
    },
}

/// The result of a toy run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToyRun {
    /// How it stopped.
    pub outcome: ToyOutcome,
    /// The environment at the end (indexed by [`NameId`]).
    pub env: Vec<Option<i64>>,
    /// Instructions executed.
    pub steps: u64,
}

/// Runs `prog` from instruction 0 for at most `max_steps` instructions.
///
/// `observe(pc, env)` is called before every instruction executed and once more at exit with
/// `pc` equal to the instruction count. A jump to a target past the end counts as exit. When
/// the budget runs out no further observation is made; a read of a never-assigned name stops
/// the run before the instruction takes effect.
pub fn run_toy(
    prog: &ToyProgram,
    max_steps: u64,
    mut observe: impl FnMut(usize, &[Option<i64>]),
) -> ToyRun {
    let n = prog.instrs.len();
    let mut env: Vec<Option<i64>> = vec![None; prog.names.len()];
    let mut pc = 0usize;
    let mut steps = 0u64;
    let outcome = loop {
        let Some(instr) = prog.instrs.get(pc) else {
            observe(n, &env);
            break ToyOutcome::Exit;
        };
        if steps >= max_steps {
            break ToyOutcome::OutOfSteps;
        }
        observe(pc, &env);
        steps += 1;
        let read = |o: Operand| -> Result<i64, NameId> {
            match o {
                Operand::Int(v) => Ok(v),
                Operand::Name(x) => env.get(x.index()).copied().flatten().ok_or(x),
            }
        };
        let step = match instr {
            Instr::Assign { dest, rhs } => {
                let value = match *rhs {
                    ToyExpr::Use(a) => read(a),
                    ToyExpr::Binary(op, a, b) => {
                        read(a).and_then(|a| read(b).map(|b| op.eval(a, b).unwrap_or(0)))
                    }
                };
                value.map(|v| {
                    if let Some(slot) = env.get_mut(dest.index()) {
                        *slot = Some(v);
                    }
                    pc + 1
                })
            }
            Instr::Goto(t) => Ok(*t),
            Instr::CondGoto { cond, target } => {
                eval_cond(*cond, read).map(|taken| if taken { *target } else { pc + 1 })
            }
        };
        match step {
            Ok(next) => pc = next,
            Err(name) => break ToyOutcome::ReadUnassigned { pc, name },
        }
    };
    ToyRun {
        outcome,
        env,
        steps,
    }
}

/// Evaluates a condition on integers.
fn eval_cond<E>(cond: Cond, read: impl Fn(Operand) -> Result<i64, E>) -> Result<bool, E> {
    match cond {
        Cond::NonZero(a) => Ok(read(a)? != 0),
        Cond::Compare(op, a, b) => Ok(op.eval(read(a)?, read(b)?).unwrap_or(0) != 0),
    }
}

/// A value of the core IR: an integer or a reference to a heap object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A 64-bit integer.
    Int(i64),
    /// The heap object with this number.
    Ref(u32),
}

/// Bounds on a core IR run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Statements and terminators executed, over all frames.
    pub max_steps: u64,
    /// Frames alive at once, the top-level one included.
    pub max_depth: usize,
    /// What a call of a function without a body does.
    pub bodyless: Bodyless,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_steps: 1_000_000,
            max_depth: 256,
            bodyless: Bodyless::Trap,
        }
    }
}

/// What a call of a function of the module without a body (a declaration it does not define,
/// such as a C library function or a front end's pseudo function) does in a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bodyless {
    /// It traps ([`TrapReason::BadCall`]): a module that calls a function calls one it defines.
    #[default]
    Trap,
    /// It returns an integer drawn from this seed and the run's step count (mostly small,
    /// sometimes near the ends of the `i64` range, as [`crate::generate::Rng::literal`] draws),
    /// having read its arguments: what an unknown external function may return. Runs of a
    /// module lowered from LLVM IR, whose declarations and memory are such calls, go on past
    /// them this way.
    Draw(u64),
}

impl Bodyless {
    /// The value a call drawn at step `step` returns under `Draw(seed)`.
    fn draw(seed: u64, step: u64) -> i64 {
        crate::generate::Rng::new(seed ^ step.wrapping_mul(0xD6E8_FEB8_6659_FD93)).literal()
    }
}

/// Why execution trapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrapReason {
    /// `/` or `%` by zero.
    DivisionByZero,
    /// An arithmetic operation or comparison on a reference.
    ArithmeticOnRef,
    /// A load of a field never stored to.
    UnsetField,
    /// A load or store whose object is an integer.
    NotAnObject,
    /// `unreachable` was executed.
    Unreachable,
    /// A branch or switch on a reference.
    BranchOnRef,
    /// A call whose result is used returned nothing.
    NoReturnValue,
    /// A call to a function that does not exist, or with the wrong number of arguments.
    BadCall,
    /// `apply` of a value that is not a closure.
    NotAClosure,
    /// A field read by position (`a[i]`) or a `tag` of a value that is not a block, or a
    /// position past the block's fields.
    NotABlock,
    /// A `table` read at an index outside the table.
    OutOfTable,
    /// A load or store into an object of `new stack` whose frame has returned.
    DeadStackObject,
    /// The program is malformed (a missing block or φ entry); the parser never produces these.
    Malformed,
}

/// How a core IR run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The top-level function returned.
    Returned(Option<Value>),
    /// A `throw` was executed (in any frame; nothing catches).
    Threw(Option<Value>),
    /// Execution trapped at statement `index` of `block` of `func` (`index` equal to the
    /// statement count means the terminator).
    Trap {
        /// What went wrong.
        reason: TrapReason,
        /// The function.
        func: FuncId,
        /// The block.
        block: BlockId,
        /// The statement index.
        index: usize,
    },
    /// A name was read before any assignment.
    ReadUnassigned {
        /// The function.
        func: FuncId,
        /// The block.
        block: BlockId,
        /// The statement index.
        index: usize,
        /// The name read.
        name: NameId,
    },
    /// The step budget ran out.
    OutOfSteps,
    /// A call would have exceeded the depth limit.
    TooDeep,
}

/// Sees the top-level function's environment before each of its statements and terminators.
pub trait Observer {
    /// Called before statement `index` of `block` (`index` equal to the statement count for the
    /// terminator); φs of `block` have already been applied.
    fn before(&mut self, block: BlockId, index: usize, env: &[Option<Value>]);
}

impl<F: FnMut(BlockId, usize, &[Option<Value>])> Observer for F {
    fn before(&mut self, block: BlockId, index: usize, env: &[Option<Value>]) {
        self(block, index, env);
    }
}

/// Sees every frame's environment before each of its statements and terminators.
pub trait FrameObserver {
    /// Called before statement `index` of `block` of `func` (`index` equal to the statement
    /// count for the terminator) in a frame `depth` calls deep (1 for the top-level frame).
    fn before(
        &mut self,
        depth: usize,
        func: FuncId,
        block: BlockId,
        index: usize,
        env: &[Option<Value>],
    );

    /// Called when the frame `depth` calls deep, of `func`, returns `value`, with the heap's
    /// objects as they are then (one field vector per object). Does nothing unless overridden.
    fn returning(
        &mut self,
        _depth: usize,
        _func: FuncId,
        _value: Option<Value>,
        _heap: &[Vec<Option<Value>>],
    ) {
    }
}

impl<F: FnMut(usize, FuncId, BlockId, usize, &[Option<Value>])> FrameObserver for F {
    fn before(
        &mut self,
        depth: usize,
        func: FuncId,
        block: BlockId,
        index: usize,
        env: &[Option<Value>],
    ) {
        self(depth, func, block, index, env);
    }
}

/// Shows a top-level [`Observer`] the top-level frame only.
struct TopLevel<'o>(&'o mut dyn Observer);

impl FrameObserver for TopLevel<'_> {
    fn before(
        &mut self,
        depth: usize,
        _: FuncId,
        block: BlockId,
        index: usize,
        env: &[Option<Value>],
    ) {
        if depth == 1 {
            self.0.before(block, index, env);
        }
    }
}

/// What a heap object is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// A mutable object from `new`, its fields indexed by [`FieldId`].
    Object,
    /// An immutable block with this constructor tag, its fields by position.
    Block(u32),
    /// A closure of this function, its captured values by position.
    Closure(FuncId),
}

/// An observer that does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    fn before(&mut self, _: BlockId, _: usize, _: &[Option<Value>]) {}
}

/// The result of a core IR run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// How it stopped.
    pub outcome: Outcome,
    /// Statements and terminators executed.
    pub steps: u64,
    /// The heap at the end: one field vector per object (indexed by [`FieldId`] for objects,
    /// by position for blocks and closures).
    pub heap: Vec<Vec<Option<Value>>>,
    /// What each heap object is, in the order of `heap`.
    pub kinds: Vec<ObjectKind>,
    /// Where each heap object was allocated, in the order of `heap` (object numbers grow with
    /// time, so a larger number is a younger object).
    pub sites: Vec<AllocSite>,
}

/// The statement that allocated a heap object: `new`, `block`, `closure`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AllocSite {
    /// The function.
    pub func: FuncId,
    /// The block.
    pub block: BlockId,
    /// The statement's position in the block.
    pub index: u32,
}

/// The heap of a run: field vectors and what each object is.
#[derive(Default)]
struct Heap {
    fields: Vec<Vec<Option<Value>>>,
    kinds: Vec<ObjectKind>,
    sites: Vec<AllocSite>,
    /// Per object, whether it was allocated on a stack frame that has returned.
    dead: Vec<bool>,
    /// The objects of `new stack` alive, with the depth of the frame that owns each, in the
    /// order of allocation (so deepest last: only the top frame allocates).
    on_stack: Vec<(usize, u32)>,
    /// Where the statement being executed is, for the objects it allocates.
    at: Option<AllocSite>,
}

impl Heap {
    fn alloc(&mut self, kind: ObjectKind, fields: Vec<Option<Value>>) -> Result<Value, Stop> {
        let r = u32::try_from(self.fields.len()).map_err(|_| Stop::Outcome(Outcome::OutOfSteps))?;
        self.fields.push(fields);
        self.kinds.push(kind);
        self.dead.push(false);
        self.sites.push(self.at.unwrap_or(AllocSite {
            func: FuncId(0),
            block: BlockId(0),
            index: 0,
        }));
        Ok(Value::Ref(r))
    }

    /// A `new stack` object owned by the frame `depth` calls deep.
    fn alloc_on_stack(&mut self, depth: usize) -> Result<Value, Stop> {
        let v = self.alloc(ObjectKind::Object, Vec::new())?;
        if let Value::Ref(r) = v {
            self.on_stack.push((depth, r));
        }
        Ok(v)
    }

    /// The frame `depth` calls deep returns: its stack objects die.
    fn release(&mut self, depth: usize) {
        while let Some(&(owner, r)) = self.on_stack.last() {
            if owner < depth {
                break;
            }
            self.on_stack.pop();
            if let Some(dead) = self.dead.get_mut(r as usize) {
                *dead = true;
            }
        }
    }

    fn kind(&self, v: Value) -> Option<ObjectKind> {
        match v {
            Value::Ref(r) => self.kinds.get(r as usize).copied(),
            Value::Int(_) => None,
        }
    }
}

struct Frame<'m> {
    id: FuncId,
    func: &'m Function,
    block: BlockId,
    index: usize,
    env: Vec<Option<Value>>,
    /// Where the caller wants the result (set while this frame's callee runs).
    result_to: Option<NameId>,
    /// The closure the function was applied through (`closure self`), if it was.
    closure: Option<Value>,
}

/// A stop inside a step: the outcome is built by the caller, who knows the place.
enum Stop {
    Trap(TrapReason),
    Unassigned(NameId),
    Outcome(Outcome),
}

/// Runs function `entry` of `module` with `args` until it returns, throws, traps or exceeds
/// `limits`. `observer` sees only the top-level frame.
pub fn run(
    module: &Module,
    entry: FuncId,
    args: &[i64],
    limits: &Limits,
    observer: &mut dyn Observer,
) -> Run {
    run_all_frames(module, entry, args, limits, &mut TopLevel(observer))
}

/// [`run`], showing `observer` every frame, callees included.
pub fn run_all_frames(
    module: &Module,
    entry: FuncId,
    args: &[i64],
    limits: &Limits,
    observer: &mut dyn FrameObserver,
) -> Run {
    let mut heap = Heap::default();
    let mut steps = 0u64;
    let outcome = match module.function(entry) {
        Some(func) if func.params.len() == args.len() && limits.max_depth > 0 => {
            let args: Vec<Value> = args.iter().map(|&a| Value::Int(a)).collect();
            let frame = new_frame(entry, func, &args, &[]);
            execute(module, frame, limits, observer, &mut heap, &mut steps)
        }
        Some(_) if limits.max_depth == 0 => Outcome::TooDeep,
        _ => Outcome::Trap {
            reason: TrapReason::BadCall,
            func: entry,
            block: BlockId(0),
            index: 0,
        },
    };
    Run {
        outcome,
        steps,
        heap: heap.fields,
        kinds: heap.kinds,
        sites: heap.sites,
    }
}

/// A frame of `func` with its parameters bound to `args` and its captures to `captured`
/// (missing captures stay unassigned).
fn new_frame<'m>(
    id: FuncId,
    func: &'m Function,
    args: &[Value],
    captured: &[Option<Value>],
) -> Frame<'m> {
    let mut env = vec![None; func.names.len()];
    for (p, &a) in func.params.iter().zip(args) {
        if let Some(slot) = env.get_mut(p.index()) {
            *slot = Some(a);
        }
    }
    for (c, &v) in func.captures.iter().zip(captured) {
        if let Some(slot) = env.get_mut(c.index()) {
            *slot = v;
        }
    }
    Frame {
        id,
        func,
        block: BlockId(0),
        index: 0,
        env,
        result_to: None,
        closure: None,
    }
}

fn read(env: &[Option<Value>], o: Operand) -> Result<Value, Stop> {
    match o {
        Operand::Int(v) => Ok(Value::Int(v)),
        Operand::Name(n) => env
            .get(n.index())
            .copied()
            .flatten()
            .ok_or(Stop::Unassigned(n)),
    }
}

fn read_int(env: &[Option<Value>], o: Operand, on_ref: TrapReason) -> Result<i64, Stop> {
    match read(env, o)? {
        Value::Int(v) => Ok(v),
        Value::Ref(_) => Err(Stop::Trap(on_ref)),
    }
}

fn binary(env: &[Option<Value>], op: Op, a: Operand, b: Operand) -> Result<Value, Stop> {
    let a = read_int(env, a, TrapReason::ArithmeticOnRef)?;
    let b = read_int(env, b, TrapReason::ArithmeticOnRef)?;
    op.eval(a, b)
        .map(Value::Int)
        .ok_or(Stop::Trap(TrapReason::DivisionByZero))
}

fn set(env: &mut [Option<Value>], n: NameId, v: Value) {
    if let Some(slot) = env.get_mut(n.index()) {
        *slot = Some(v);
    }
}

/// The heap index of the `new` object `o` holds.
fn object(env: &[Option<Value>], heap: &Heap, o: Operand) -> Result<usize, Stop> {
    let v = read(env, o)?;
    match (v, heap.kind(v)) {
        (Value::Ref(r), Some(ObjectKind::Object)) if heap.dead.get(r as usize) == Some(&true) => {
            Err(Stop::Trap(TrapReason::DeadStackObject))
        }
        (Value::Ref(r), Some(ObjectKind::Object)) => Ok(r as usize),
        _ => Err(Stop::Trap(TrapReason::NotAnObject)),
    }
}

fn read_all(env: &[Option<Value>], operands: &[Operand]) -> Result<Vec<Option<Value>>, Stop> {
    operands.iter().map(|&o| read(env, o).map(Some)).collect()
}

/// What a statement does besides possibly stopping.
enum Effect<'m> {
    /// Go on with the next statement, after an optional assignment.
    Next(Option<(NameId, Value)>),
    /// Run a callee first; its result goes to `NameId` if any.
    Call(Frame<'m>, Option<NameId>),
    /// A function without a body was called under [`Bodyless::Draw`]: the value drawn goes to
    /// `NameId` if any, and the next statement follows.
    Drawn(Option<NameId>),
}

/// Where control goes after a terminator.
enum Flow {
    Jump(BlockId),
    Return(Option<Value>),
    Throw(Option<Value>),
}

fn execute<'m>(
    module: &'m Module,
    top: Frame<'m>,
    limits: &Limits,
    observer: &mut dyn FrameObserver,
    heap: &mut Heap,
    steps: &mut u64,
) -> Outcome {
    let mut stack = vec![top];
    loop {
        let depth = stack.len();
        let Some(frame) = stack.last_mut() else {
            return Outcome::Returned(None);
        };
        let Some(block) = frame.func.block(frame.block) else {
            return stopped(frame, Stop::Trap(TrapReason::Malformed));
        };
        if *steps >= limits.max_steps {
            return Outcome::OutOfSteps;
        }
        observer.before(depth, frame.id, frame.block, frame.index, &frame.env);
        *steps += 1;
        let Some(stmt) = block.stmts.get(frame.index) else {
            match terminate(&block.term, &frame.env) {
                Ok(Flow::Jump(to)) => {
                    if let Err(stop) = enter(frame, to) {
                        return stopped(frame, stop);
                    }
                }
                Ok(Flow::Return(v)) => {
                    observer.returning(depth, frame.id, v, &heap.fields);
                    stack.pop();
                    heap.release(depth);
                    let Some(caller) = stack.last_mut() else {
                        return Outcome::Returned(v);
                    };
                    if let Some(dest) = caller.result_to.take() {
                        let Some(v) = v else {
                            return stopped(caller, Stop::Trap(TrapReason::NoReturnValue));
                        };
                        set(&mut caller.env, dest, v);
                    }
                    caller.index += 1;
                }
                Ok(Flow::Throw(v)) => return Outcome::Threw(v),
                Err(stop) => return stopped(frame, stop),
            }
            continue;
        };
        match statement(module, frame, stmt, heap, depth, limits) {
            Ok(Effect::Next(assigned)) => {
                if let Some((dest, v)) = assigned {
                    set(&mut frame.env, dest, v);
                }
                frame.index += 1;
            }
            Ok(Effect::Call(callee, result_to)) => {
                frame.result_to = result_to;
                stack.push(callee);
            }
            Ok(Effect::Drawn(result_to)) => {
                if let (Some(dest), Bodyless::Draw(seed)) = (result_to, limits.bodyless) {
                    set(
                        &mut frame.env,
                        dest,
                        Value::Int(Bodyless::draw(seed, *steps)),
                    );
                }
                frame.index += 1;
            }
            Err(stop) => return stopped(frame, stop),
        }
    }
}

/// Executes one statement of `frame`.
fn statement<'m>(
    module: &'m Module,
    frame: &Frame<'m>,
    stmt: &Stmt,
    heap: &mut Heap,
    depth: usize,
    limits: &Limits,
) -> Result<Effect<'m>, Stop> {
    let env = &frame.env;
    heap.at = Some(AllocSite {
        func: frame.id,
        block: frame.block,
        index: frame.index as u32,
    });
    let assign = |dest: NameId, v: Value| Ok(Effect::Next(Some((dest, v))));
    match stmt {
        Stmt::Assign { dest, rhs } => match rhs {
            Rhs::Use(a) => assign(*dest, read(env, *a)?),
            Rhs::Binary(op, a, b) => assign(*dest, binary(env, *op, *a, *b)?),
            Rhs::New if frame.func.is_stack_allocation(frame.block, frame.index) => {
                assign(*dest, heap.alloc_on_stack(depth)?)
            }
            Rhs::New => assign(*dest, heap.alloc(ObjectKind::Object, Vec::new())?),
            Rhs::Load(o, field) => {
                let obj = object(env, heap, *o)?;
                let v = heap
                    .fields
                    .get(obj)
                    .and_then(|fields| fields.get(field.index()))
                    .copied()
                    .flatten()
                    .ok_or(Stop::Trap(TrapReason::UnsetField))?;
                assign(*dest, v)
            }
            Rhs::Call(callee, args) => match drawn(module, env, *callee, args, limits)? {
                true => Ok(Effect::Drawn(Some(*dest))),
                false => call(module, env, *callee, args, depth, limits)
                    .map(|f| Effect::Call(f, Some(*dest))),
            },
            Rhs::Select(c, a, b) => {
                let taken = read_int(env, *c, TrapReason::BranchOnRef)? != 0;
                assign(*dest, read(env, if taken { *a } else { *b })?)
            }
            Rhs::Closure(f, captured) => {
                if module
                    .function(*f)
                    .is_none_or(|func| func.captures.len() != captured.len())
                {
                    return Err(Stop::Trap(TrapReason::BadCall));
                }
                let values = read_all(env, captured)?;
                assign(*dest, heap.alloc(ObjectKind::Closure(*f), values)?)
            }
            // A function slot: a closure of `g` sharing the values `c` captured.
            Rhs::Sibling(c, g) => {
                let closure = read(env, *c)?;
                let (Value::Ref(r), Some(ObjectKind::Closure(_))) = (closure, heap.kind(closure))
                else {
                    return Err(Stop::Trap(TrapReason::NotAClosure));
                };
                let values: Vec<Option<Value>> =
                    heap.fields.get(r as usize).cloned().unwrap_or_default();
                if module
                    .function(*g)
                    .is_none_or(|func| func.captures.len() != values.len())
                {
                    return Err(Stop::Trap(TrapReason::BadCall));
                }
                assign(*dest, heap.alloc(ObjectKind::Closure(*g), values)?)
            }
            Rhs::MyClosure => match frame.closure {
                Some(closure) => assign(*dest, closure),
                None => Err(Stop::Trap(TrapReason::NotAClosure)),
            },
            Rhs::Apply(c, args) => apply(module, env, heap, *c, args, depth, limits)
                .map(|f| Effect::Call(f, Some(*dest))),
            Rhs::Block(tag, fields) => {
                let values = read_all(env, fields)?;
                assign(*dest, heap.alloc(ObjectKind::Block(*tag), values)?)
            }
            Rhs::Field(b, index) => {
                let v = read(env, *b)?;
                let Some(ObjectKind::Block(_)) = heap.kind(v) else {
                    return Err(Stop::Trap(TrapReason::NotABlock));
                };
                let Value::Ref(r) = v else {
                    return Err(Stop::Trap(TrapReason::NotABlock));
                };
                let field = heap
                    .fields
                    .get(r as usize)
                    .and_then(|fields| fields.get(*index as usize))
                    .copied()
                    .flatten()
                    .ok_or(Stop::Trap(TrapReason::NotABlock))?;
                assign(*dest, field)
            }
            Rhs::Tag(b) => match heap.kind(read(env, *b)?) {
                Some(ObjectKind::Block(tag)) => assign(*dest, Value::Int(i64::from(tag))),
                _ => Err(Stop::Trap(TrapReason::NotABlock)),
            },
            Rhs::IsBlock(a) => {
                let is_block = matches!(read(env, *a)?, Value::Ref(_));
                assign(*dest, Value::Int(i64::from(is_block)))
            }
            Rhs::Address(s) => assign(*dest, Value::Int(absinthe::program::symbol_address(*s))),
            Rhs::Table(entries, i) => {
                let k = read_int(env, *i, TrapReason::ArithmeticOnRef)?;
                let v = usize::try_from(k)
                    .ok()
                    .and_then(|k| entries.get(k))
                    .ok_or(Stop::Trap(TrapReason::OutOfTable))?;
                assign(*dest, Value::Int(*v))
            }
        },
        Stmt::Apply { callee, args } => {
            apply(module, env, heap, *callee, args, depth, limits).map(|f| Effect::Call(f, None))
        }
        Stmt::Store {
            object: o,
            field,
            value,
        } => {
            let obj = object(env, heap, *o)?;
            let v = read(env, *value)?;
            let fields = heap
                .fields
                .get_mut(obj)
                .ok_or(Stop::Trap(TrapReason::NotAnObject))?;
            store_field(fields, *field, v);
            Ok(Effect::Next(None))
        }
        Stmt::Call { callee, args } => match drawn(module, env, *callee, args, limits)? {
            true => Ok(Effect::Drawn(None)),
            false => call(module, env, *callee, args, depth, limits).map(|f| Effect::Call(f, None)),
        },
    }
}

/// Whether a call of `callee` on `args` returns a drawn value instead of running: `callee` has
/// no body and `limits` says to draw ([`Bodyless::Draw`]). Its arguments are read all the same,
/// so that a call on an unassigned name stops the run as any other call does.
fn drawn(
    module: &Module,
    env: &[Option<Value>],
    callee: FuncId,
    args: &[Operand],
    limits: &Limits,
) -> Result<bool, Stop> {
    let bodyless = module
        .function(callee)
        .is_some_and(|f| f.blocks().is_empty());
    if !bodyless || limits.bodyless == Bodyless::Trap {
        return Ok(false);
    }
    read_all(env, args)?;
    Ok(true)
}

fn store_field(fields: &mut Vec<Option<Value>>, field: FieldId, v: Value) {
    if fields.len() <= field.index() {
        fields.resize(field.index() + 1, None);
    }
    fields[field.index()] = Some(v);
}

/// The frame of a call, after checking the callee, the arity and the depth.
fn call<'m>(
    module: &'m Module,
    env: &[Option<Value>],
    callee: FuncId,
    args: &[Operand],
    depth: usize,
    limits: &Limits,
) -> Result<Frame<'m>, Stop> {
    enter_function(module, env, callee, args, &[], depth, limits)
}

/// The frame of `apply c(args)`: `c` must hold a closure of a function taking `args.len()`
/// parameters.
fn apply<'m>(
    module: &'m Module,
    env: &[Option<Value>],
    heap: &Heap,
    c: Operand,
    args: &[Operand],
    depth: usize,
    limits: &Limits,
) -> Result<Frame<'m>, Stop> {
    let closure = read(env, c)?;
    let (Value::Ref(r), Some(ObjectKind::Closure(f))) = (closure, heap.kind(closure)) else {
        return Err(Stop::Trap(TrapReason::NotAClosure));
    };
    let captured = heap.fields.get(r as usize).map_or(&[][..], Vec::as_slice);
    let mut frame = enter_function(module, env, f, args, captured, depth, limits)?;
    frame.closure = Some(closure);
    Ok(frame)
}

/// The frame of function `callee` with `args` read from `env` and its captures bound to
/// `captured`, after checking the callee, the arity and the depth.
fn enter_function<'m>(
    module: &'m Module,
    env: &[Option<Value>],
    callee: FuncId,
    args: &[Operand],
    captured: &[Option<Value>],
    depth: usize,
    limits: &Limits,
) -> Result<Frame<'m>, Stop> {
    let func = module
        .function(callee)
        .filter(|f| f.params.len() == args.len())
        .ok_or(Stop::Trap(TrapReason::BadCall))?;
    let values = args
        .iter()
        .map(|&a| read(env, a))
        .collect::<Result<Vec<Value>, Stop>>()?;
    if depth >= limits.max_depth {
        return Err(Stop::Outcome(Outcome::TooDeep));
    }
    Ok(new_frame(callee, func, &values, captured))
}

/// Evaluates a terminator.
fn terminate(term: &Terminator, env: &[Option<Value>]) -> Result<Flow, Stop> {
    let optional = |o: &Option<Operand>| o.map(|o| read(env, o)).transpose();
    Ok(match term {
        Terminator::Goto(t) => Flow::Jump(*t),
        Terminator::Branch {
            cond,
            then_to,
            else_to,
        } => {
            let holds = match *cond {
                Cond::NonZero(a) => read_int(env, a, TrapReason::BranchOnRef)? != 0,
                Cond::Compare(op, a, b) => {
                    let a = read_int(env, a, TrapReason::BranchOnRef)?;
                    let b = read_int(env, b, TrapReason::BranchOnRef)?;
                    op.eval(a, b).unwrap_or(0) != 0
                }
            };
            Flow::Jump(if holds { *then_to } else { *else_to })
        }
        Terminator::Switch { on, cases, default } => {
            let v = read_int(env, *on, TrapReason::BranchOnRef)?;
            let target = cases
                .iter()
                .find(|&&(case, _)| case == v)
                .map_or(*default, |&(_, t)| t);
            Flow::Jump(target)
        }
        Terminator::Return(o) => Flow::Return(optional(o)?),
        Terminator::Throw(o) => Flow::Throw(optional(o)?),
        Terminator::Unreachable => return Err(Stop::Trap(TrapReason::Unreachable)),
    })
}

/// Moves `frame` along the edge to `to`, applying `to`'s φs as one parallel copy.
fn enter(frame: &mut Frame<'_>, to: BlockId) -> Result<(), Stop> {
    let from = frame.block;
    let block = frame
        .func
        .block(to)
        .ok_or(Stop::Trap(TrapReason::Malformed))?;
    if !block.phis.is_empty() {
        let mut values = Vec::with_capacity(block.phis.len());
        for phi in &block.phis {
            let &(_, o) = phi
                .incoming
                .iter()
                .find(|(p, _)| *p == from)
                .ok_or(Stop::Trap(TrapReason::Malformed))?;
            values.push((phi.dest, read(&frame.env, o)?));
        }
        for (dest, v) in values {
            set(&mut frame.env, dest, v);
        }
    }
    frame.block = to;
    frame.index = 0;
    Ok(())
}

/// The outcome for a stop at the current place of `frame`.
fn stopped(frame: &Frame<'_>, stop: Stop) -> Outcome {
    match stop {
        Stop::Trap(reason) => Outcome::Trap {
            reason,
            func: frame.id,
            block: frame.block,
            index: frame.index,
        },
        Stop::Unassigned(name) => Outcome::ReadUnassigned {
            func: frame.id,
            block: frame.block,
            index: frame.index,
            name,
        },
        Stop::Outcome(o) => o,
    }
}
