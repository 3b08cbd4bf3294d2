//! `sccp_ranges.dom` is sound on the fixed-width operations the random programs of the other
//! tests do not generate (unsigned comparisons, `trunc`, adding and subtracting constants near
//! the ends of the unsigned range): for abstract values made of small sets of extreme integers,
//! every concrete result lies in the abstract result, and branch refinement keeps every pair of
//! operands for which the comparison holds. It also decides the comparison LLVM's SCCP decides
//! with a wrapped range.

use absinthe::lattice::Lattice;
use absinthe::program::Op;
use absinthe::value::{Concrete, ValueDomain};
use absinthe_dsl_examples::dom::sccp_ranges::SccpRange;

/// Integers at the edges of the 8-, 32- and 64-bit ranges, signed and unsigned, and the values
/// of the wrapped-range case from zstd.
const SAMPLES: [i64; 22] = [
    0,
    1,
    2,
    -1,
    -2,
    7,
    8,
    255,
    256,
    16_777_214,
    2_097_152_000,
    -624_951_296,
    i32::MAX as i64,
    i32::MIN as i64,
    u32::MAX as i64,
    1 << 32,
    i64::MAX,
    i64::MIN,
    i64::MAX - 1,
    i64::MIN + 1,
    32,
    64,
];

/// The abstract values to combine: every single sample and every pair of samples (joined).
fn sets() -> Vec<Vec<i64>> {
    let mut sets: Vec<Vec<i64>> = SAMPLES.iter().map(|&x| vec![x]).collect();
    for (i, &x) in SAMPLES.iter().enumerate() {
        for &y in &SAMPLES[i + 1..] {
            sets.push(vec![x, y]);
        }
    }
    sets
}

fn abstraction(set: &[i64]) -> SccpRange {
    set.iter()
        .map(|&v| SccpRange::constant(v))
        .fold(SccpRange::bottom(), |acc, v| acc.join(&v))
}

#[test]
fn every_operation_is_sound_on_extreme_values() {
    let sets = sets();
    let mut checked = 0u64;
    for op in Op::ALL {
        for a in &sets {
            let abstract_a = abstraction(a);
            for x in a {
                assert!(abstract_a.contains(*x), "{abstract_a} lacks {x}");
            }
            for b in &sets {
                let abstract_b = abstraction(b);
                let result = SccpRange::binary(op, &abstract_a, &abstract_b);
                let refined = op
                    .negated()
                    .is_some()
                    .then(|| SccpRange::assume(op, &abstract_a, &abstract_b));
                for &x in a {
                    for &y in b {
                        let Some(z) = op.eval(x, y) else { continue };
                        checked += 1;
                        assert!(
                            result.contains(z),
                            "{x} {op} {y} = {z} not in {result} ({abstract_a} {op} {abstract_b})"
                        );
                        if let (Some((ra, rb)), 1) = (&refined, z) {
                            assert!(
                                ra.contains(x) && rb.contains(y),
                                "assume {x} {op} {y}: {ra}, {rb} ({abstract_a}, {abstract_b})"
                            );
                        }
                    }
                }
            }
        }
    }
    eprintln!("{checked} concrete results checked");
}

/// zstd's `ZSTD_loadDictionaryContent`: `select(c, -624951296, 2097152000) - 2`, truncated to
/// 32 bits, is never below 16777214 as an unsigned number, although its signed range spans zero.
#[test]
fn a_wrapped_range_decides_an_unsigned_comparison() {
    let selected = SccpRange::constant(-624_951_296).join(&SccpRange::constant(2_097_152_000));
    let minus_two = SccpRange::binary(Op::Sub, &selected, &SccpRange::constant(2));
    let truncated = SccpRange::binary(Op::Trunc, &minus_two, &SccpRange::constant(32));
    let below = SccpRange::binary(Op::ULt, &truncated, &SccpRange::constant(16_777_214));
    assert_eq!(
        below.as_constant(),
        Some(0),
        "{truncated} ult 16777214 = {below}"
    );
}

/// Addresses: abstract values made of one or two of a few addresses (two symbols at offsets 0
/// and 8) and small integers. Every operation's concrete result under the concrete layout lies
/// in the abstract result, and branch refinement keeps every pair for which a comparison holds;
/// `p - q` and `p == q` of one symbol and `==` of a symbol and null are decided, `==` of two
/// distinct symbols is not (a linker may merge them).
#[test]
fn addresses_are_sound_and_decided() {
    use absinthe::program::{SymbolId, symbol_address};
    // (abstract, concrete) pairs.
    let address = |s: u32, o: i64| {
        let p = SccpRange::binary(
            Op::Add,
            &SccpRange::address(SymbolId(s)),
            &SccpRange::constant(o),
        );
        (p, symbol_address(SymbolId(s)) + o)
    };
    let mut singles: Vec<(SccpRange, i64)> = vec![address(0, 0), address(0, 8), address(1, 0)];
    singles.extend([0, 8, -8, 1].map(|v| (SccpRange::constant(v), v)));
    let mut sets: Vec<(SccpRange, Vec<i64>)> =
        singles.iter().map(|(a, v)| (a.clone(), vec![*v])).collect();
    for (i, (a, x)) in singles.iter().enumerate() {
        for (b, y) in &singles[i + 1..] {
            sets.push((a.join(b), vec![*x, *y]));
        }
    }
    let mut checked = 0;
    for (a, xs) in &sets {
        for (b, ys) in &sets {
            for op in Op::ALL {
                let result = SccpRange::binary(op, a, b);
                for &x in xs {
                    for &y in ys {
                        let Some(z) = op.eval(x, y) else { continue };
                        assert!(
                            result.contains(z),
                            "{a} {op} {b} = {result} lacks {x} {op} {y} = {z}"
                        );
                        checked += 1;
                        if op.is_comparison() && z == 1 {
                            let (ra, rb) = SccpRange::assume(op, a, b);
                            assert!(ra.contains(x) && rb.contains(y), "assume {a} {op} {b}");
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
    let (g, g8, h) = (address(0, 0).0, address(0, 8).0, address(1, 0).0);
    let null = SccpRange::constant(0);
    assert_eq!(SccpRange::binary(Op::Sub, &g8, &g).as_constant(), Some(8));
    assert_eq!(SccpRange::binary(Op::Eq, &g, &h).as_constant(), None);
    assert_eq!(SccpRange::binary(Op::Ne, &g, &null).as_constant(), Some(1));
    assert_eq!(SccpRange::binary(Op::Eq, &g8, &g).as_constant(), Some(0));
    let back = SccpRange::binary(Op::Sub, &g8, &SccpRange::constant(8));
    assert_eq!(SccpRange::binary(Op::Eq, &back, &g).as_constant(), Some(1));
    assert_eq!(back.as_address(), Some((SymbolId(0), 0)));
    assert_eq!(SccpRange::binary(Op::Eq, &g8, &h).as_constant(), None);
}

/// A table read: the entry at a constant index, the entries a range of indices selects, nothing
/// outside the table; every entry the index may select is kept.
#[test]
fn table_reads_join_the_entries_the_index_selects() {
    let entries = [5, 7, 9, 11];
    let at = |index: &SccpRange| SccpRange::table(&entries, index);
    assert_eq!(at(&SccpRange::constant(2)).as_constant(), Some(9));
    assert!(at(&SccpRange::constant(4)).is_bottom());
    assert!(at(&SccpRange::constant(-1)).is_bottom());
    let first_two = SccpRange::constant(0).join(&SccpRange::constant(1));
    let read = at(&first_two);
    assert!(
        read.contains(5) && read.contains(7) && !read.contains(9),
        "{read}"
    );
    let anything = at(&<SccpRange as absinthe::lattice::Top>::top());
    assert!(entries.iter().all(|&v| anything.contains(v)), "{anything}");
}
