//! Values the interpreter made, remembered per thread: literals and reduced products.
//!
//! Literals: `ValueDomain::constant(c)` is a function of `c` and of the running analysis alone
//! (rules and reductions are pure), and programs repeat their literals (`0`, `1`, small sizes
//! and bounds), so each thread keeps the last value made for each of a few literals instead of
//! running the product's literal rules and reductions for it again. The value given is the one
//! those would make, so results are the same.
//!
//! Reductions: a product's reductions are a function of the components they start from, and
//! an analysis meets the same few abstract values again and again (top, a sign, a constant), so
//! each thread keeps the last reduced value made from each of a table of component values (when
//! every component is a plain value, compared as data) and gives it for the same components
//! again (a thread that finds few stops looking for a while: see [`Payoff`]). While reductions
//! are recorded nothing is remembered or given, so that every change is logged.
//!
//! Both tables are per thread, as the engines call a value domain's operations with nothing to
//! carry them, and hold values only (never the loaded file): an entry is given in the run that
//! made it only (`Session::id`), and one of a run that ended stays, unused, until it is written
//! over (at most `SLOTS` literals and `MADE_SLOTS` reduced values per thread).

use crate::val::{Payload, Val};
use absinthe::lattice::{Address, Flat};
use absinthe::product::recording_reductions;
use std::cell::{Cell, RefCell};

/// How many literals a thread remembers (a direct-mapped table: literal `c` has one entry,
/// `c mod SLOTS`).
const SLOTS: usize = 256;

/// One remembered literal: the run it was made in, the literal, its value.
type Entry = (u64, i64, Val);

thread_local! {
    /// This thread's remembered literals. It holds values, never the loaded file: an entry made
    /// in another run (another file, or another analysis of the same file) is never given, as
    /// its run's id differs, and is overwritten.
    static LITERALS: RefCell<Vec<Option<Entry>>> = const { RefCell::new(Vec::new()) };
}

/// The value of the literal `c` in the run `run` (see `Session::id`): remembered, else made by
/// `make` and remembered. While reductions are recorded (`absinthe trace`), every literal is
/// made, so that its reductions are logged as the generated code logs them.
pub(crate) fn literal(run: u64, c: i64, make: impl FnOnce() -> Val) -> Val {
    if recording_reductions() {
        return make();
    }
    // Bits of `c` as the slot: the literals programs repeat are small, and land apart.
    let slot = (c as u64 as usize) % SLOTS;
    let found = LITERALS.with_borrow(|table| match table.get(slot) {
        Some(Some((r, k, v))) if *r == run && *k == c => Some(v.clone()),
        _ => None,
    });
    if let Some(v) = found {
        return v;
    }
    // Made outside the borrow: making it may make other literals (a rule that calls `constant`
    // is not one the language has, but nothing here needs to rely on that).
    let v = make();
    LITERALS.with_borrow_mut(|table| {
        if table.is_empty() {
            table.resize_with(SLOTS, || None);
        }
        table[slot] = Some((run, c, v.clone()));
    });
    v
}

/// How many reduced values a thread remembers (direct-mapped by the hash of the components
/// reduced).
const MADE_SLOTS: usize = 1024;

/// The most components a remembered product value has (the reduced value's components are
/// copied to an array of this size before reducing).
pub(crate) const MAX_PARTS: usize = 8;

/// One remembered reduction: the run, the product's type id, the most rounds its reductions
/// ran, the components before and the value after.
struct Made {
    run: u64,
    product: usize,
    rounds: u32,
    before: Box<[Val]>,
    after: Val,
}

thread_local! {
    /// This thread's remembered values, as [`LITERALS`]: values only, given in their run only.
    /// At most `MADE_SLOTS` of them, each a product value and its operands' components.
    static MADE: RefCell<Vec<Option<Made>>> = const { RefCell::new(Vec::new()) };

    /// How this thread's remembered reductions pay off (see [`worth_it`]).
    static PAYOFF: Cell<Payoff> = const { Cell::new(Payoff { tried: 0, found: 0, resting: 0 }) };
}

/// Remembering costs a lookup and a copy for every reduction: where the values are all new
/// (straight-line code computing ever new ranges) it only costs. Each thread counts, by windows
/// of `WINDOW` lookups, how many found their value; after a window where fewer than one in
/// `WORTH` did, it rests for `REST` reductions (run without looking up or remembering), then
/// tries again.
#[derive(Clone, Copy)]
struct Payoff {
    tried: u32,
    found: u32,
    resting: u32,
}

/// See [`Payoff`].
const WINDOW: u32 = 256;
/// See [`Payoff`].
const WORTH: u32 = 8;
/// See [`Payoff`].
const REST: u32 = 4096;

/// Whether this reduction should be looked up and remembered (see [`Payoff`]).
pub(crate) fn worth_it() -> bool {
    PAYOFF.with(|p| {
        let mut payoff = p.get();
        let worth = payoff.resting == 0;
        if !worth {
            payoff.resting -= 1;
            p.set(payoff);
        }
        worth
    })
}

/// Counts a lookup, and whether it `found` its value (see [`Payoff`]).
fn tried(found: bool) {
    PAYOFF.with(|p| {
        let mut payoff = p.get();
        payoff.tried += 1;
        payoff.found += u32::from(found);
        if payoff.tried == WINDOW {
            if payoff.found * WORTH < WINDOW {
                payoff.resting = REST;
            }
            (payoff.tried, payoff.found) = (0, 0);
        }
        p.set(payoff);
    });
}

/// A product value's components (`parts`), when every one is a plain value that [`same`]
/// compares (an interval, a constant, an element without a boxed payload, …): their hash.
/// `None` for the others, which are not remembered.
pub(crate) fn key(parts: &[Val]) -> Option<u64> {
    if parts.len() > MAX_PARTS {
        return None;
    }
    let mut h: u64 = 0;
    let mut mix = |x: u64| h = (h.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    for p in parts {
        match p {
            Val::Int(i) => mix(*i as u64),
            Val::Bool(b) => mix(u64::from(*b)),
            Val::Interval(x) => {
                mix(x.lo().map_or(1, |v| v as u64));
                mix(x.hi().map_or(2, |v| v as u64));
            }
            Val::Constant(Flat::Bottom) => mix(3),
            Val::Constant(Flat::Value(v)) => mix(*v as u64 ^ 4),
            Val::Constant(Flat::Top) => mix(5),
            Val::Enum(i, Payload::None) => mix(*i as u64),
            Val::Enum(i, Payload::Int(v)) => {
                mix(*i as u64);
                mix(*v as u64);
            }
            // Told apart by `same`: few of them occur.
            Val::Num(_) => mix(6),
            Val::Address(Address::At(s, o)) => {
                mix(u64::from(s.0));
                mix(*o as u64);
            }
            Val::Address(Address::Bottom) => mix(7),
            Val::Address(Address::Top) => mix(8),
            _ => return None,
        }
    }
    Some(h)
}

/// Whether `a` and `b`, two of the values [`key`] hashes, are the same value (as data, not as
/// the lattice's equality: reductions are functions of their operands' representation).
fn same(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => x == y,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Interval(x), Val::Interval(y)) => x == y,
        (Val::Constant(x), Val::Constant(y)) => x == y,
        (Val::Enum(i, Payload::None), Val::Enum(j, Payload::None)) => i == j,
        (Val::Enum(i, Payload::Int(x)), Val::Enum(j, Payload::Int(y))) => i == j && x == y,
        (Val::Num(x), Val::Num(y)) => x == y,
        (Val::Address(x), Val::Address(y)) => x == y,
        _ => false,
    }
}

/// The value the reductions of the product `product`, at most `rounds` rounds, made in the run
/// `run` of a value whose components are `parts` (hashed to `hash` by [`key`]), if this thread
/// remembers it.
pub(crate) fn reduced(
    (run, product, rounds): (u64, usize, u32),
    hash: u64,
    parts: &[Val],
) -> Option<Val> {
    if recording_reductions() {
        return None;
    }
    let found = MADE.with_borrow(|table| match table.get(slot_of(hash)) {
        Some(Some(m))
            if m.run == run
                && m.product == product
                && m.rounds == rounds
                && m.before.len() == parts.len()
                && m.before.iter().zip(parts).all(|(a, b)| same(a, b)) =>
        {
            Some(m.after.clone())
        }
        _ => None,
    });
    tried(found.is_some());
    found
}

/// Remembers that the reductions of `product` (at most `rounds` rounds) in the run `run` made
/// `after` of the components `before` (hashed to `hash`). The slot's components are written
/// over where they are when there are as many, so that remembering allocates nothing then.
pub(crate) fn remember(
    (run, product, rounds): (u64, usize, u32),
    hash: u64,
    before: &[Val],
    after: &Val,
) {
    if recording_reductions() {
        return;
    }
    MADE.with_borrow_mut(|table| {
        if table.is_empty() {
            table.resize_with(MADE_SLOTS, || None);
        }
        let slot = &mut table[slot_of(hash)];
        match slot {
            Some(m) if m.before.len() == before.len() => {
                m.before.clone_from_slice(before);
                (m.run, m.product, m.rounds) = (run, product, rounds);
                m.after = after.clone();
            }
            _ => {
                *slot = Some(Made {
                    run,
                    product,
                    rounds,
                    before: before.into(),
                    after: after.clone(),
                })
            }
        }
    });
}

/// The slot of `hash` in the table of values made.
fn slot_of(hash: u64) -> usize {
    (hash >> 32) as usize % MADE_SLOTS
}
