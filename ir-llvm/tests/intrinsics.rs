//! The lowering of integer intrinsics computes exactly what LLVM defines: for every modelled
//! intrinsic, at widths from 2 to 64 bits, on edge values and on pseudo-random ones (a fixed
//! seed), the constant `sccp` and `sccp-ranges-dom` prove for the call (and for both fields of
//! an overflow intrinsic) equals a reference computed here in 128-bit arithmetic.
//!
//! One generated module holds every case, one function each; a failure names the intrinsic, the
//! width and the operands.

use std::collections::HashMap;
use std::fmt::Write as _;

use absinthe::engine::Limits;
use absinthe::lattice::Flat;
use absinthe::value::{DeclaredAnalysis, ValueDomain};
use absinthe_dsl_examples::dom::sccp_ranges::SccpRangesAnalysis;
use absinthe_llvm::analyze::{Fact, States, analyze_module};
use absinthe_llvm::flags::NswFlags;
use absinthe_llvm::{Memory, load_module, lower_module};

const WIDTHS: [u32; 9] = [2, 8, 13, 16, 31, 32, 48, 63, 64];

/// `x` as an `bits`-bit pattern read as signed.
fn sext(x: i128, bits: u32) -> i128 {
    let shift = 128 - bits;
    (x << shift) >> shift
}

/// `x` as an `bits`-bit pattern read as unsigned.
fn zext(x: i128, bits: u32) -> i128 {
    x & ((1i128 << bits) - 1)
}

/// What one call computes: the values the test expects for `%r` (and `%o`, the overflow bit).
#[derive(Debug)]
struct Case {
    intrinsic: &'static str,
    bits: u32,
    a: i128,
    b: i128,
    result: i128,
    overflow: Option<bool>,
}

fn reference(intrinsic: &'static str, bits: u32, a: i128, b: i128) -> Option<Case> {
    let (sa, sb, za, zb) = (sext(a, bits), sext(b, bits), zext(a, bits), zext(b, bits));
    let (min, max, umax) = (
        -(1i128 << (bits - 1)),
        (1i128 << (bits - 1)) - 1,
        (1i128 << bits) - 1,
    );
    let clamp = |x: i128, lo: i128, hi: i128| x.clamp(lo, hi);
    let (result, overflow) = match intrinsic {
        "sadd.with.overflow" => (sa + sb, Some(!(min..=max).contains(&(sa + sb)))),
        "ssub.with.overflow" => (sa - sb, Some(!(min..=max).contains(&(sa - sb)))),
        "smul.with.overflow" => (sa * sb, Some(!(min..=max).contains(&(sa * sb)))),
        "uadd.with.overflow" => (za + zb, Some(za + zb > umax)),
        "usub.with.overflow" => (za - zb, Some(za < zb)),
        "umul.with.overflow" => {
            let exact = (za as u128) * (zb as u128);
            (exact as i128, Some(exact > umax as u128))
        }
        "uadd.sat" => (clamp(za + zb, 0, umax), None),
        "usub.sat" => (clamp(za - zb, 0, umax), None),
        "sadd.sat" => (clamp(sa + sb, min, max), None),
        "ssub.sat" => (clamp(sa - sb, min, max), None),
        "smax" => (sa.max(sb), None),
        "smin" => (sa.min(sb), None),
        "umax" => (za.max(zb), None),
        "umin" => (za.min(zb), None),
        "abs" => (sa.abs(), None),
        "ctpop" => (i128::from(za.count_ones()), None),
        "ctlz" => (
            i128::from(za.leading_zeros()) - i128::from(128 - bits),
            None,
        ),
        "cttz" => (i128::from(za.trailing_zeros().min(bits)), None),
        "bswap" if bits % 16 == 0 => {
            let bytes = za.to_le_bytes();
            let n = (bits / 8) as usize;
            let mut swapped = 0i128;
            for (i, byte) in bytes[..n].iter().enumerate() {
                swapped |= i128::from(*byte) << (8 * (n - 1 - i));
            }
            (swapped, None)
        }
        _ => return None,
    };
    Some(Case {
        intrinsic,
        bits,
        a: sa,
        b: sb,
        result: sext(result, bits),
        overflow,
    })
}

const BINARY: [&str; 14] = [
    "sadd.with.overflow",
    "ssub.with.overflow",
    "smul.with.overflow",
    "uadd.with.overflow",
    "usub.with.overflow",
    "umul.with.overflow",
    "uadd.sat",
    "usub.sat",
    "sadd.sat",
    "ssub.sat",
    "smax",
    "smin",
    "umax",
    "umin",
];
const UNARY: [&str; 5] = ["abs", "ctpop", "ctlz", "cttz", "bswap"];

/// Edge values of a width, then pseudo-random ones (xorshift from a fixed seed).
fn operands(bits: u32, state: &mut u64) -> Vec<i128> {
    let (min, max) = (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1);
    let mut values = vec![0, 1, -1, 2, min, max, min + 1, max - 1, 3, 1 << (bits / 2)];
    for _ in 0..6 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        let shift = *state % u64::from(bits);
        values.push(sext(i128::from(*state >> shift), bits));
    }
    values
}

fn cases() -> Vec<Case> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut cases = Vec::new();
    for bits in WIDTHS {
        let values = operands(bits, &mut state);
        for (i, &a) in values.iter().enumerate() {
            for name in UNARY {
                cases.extend(reference(name, bits, a, 0));
            }
            // Every value against a few others: edges against edges and random ones.
            for &b in values.iter().skip(i % 4).step_by(3) {
                for name in BINARY {
                    cases.extend(reference(name, bits, a, b));
                }
            }
        }
    }
    cases
}

fn module(cases: &[Case]) -> String {
    let mut declared = HashMap::new();
    let mut text = String::new();
    for (k, c) in cases.iter().enumerate() {
        let ty = format!("i{}", c.bits);
        let name = format!("llvm.{}.{ty}", c.intrinsic);
        let overflow = c.overflow.is_some();
        let ret = if overflow {
            format!("{{ {ty}, i1 }}")
        } else {
            ty.clone()
        };
        let unary = UNARY.contains(&c.intrinsic);
        let flag = matches!(c.intrinsic, "abs" | "ctlz" | "cttz");
        let params = match (unary, flag) {
            (true, true) => format!("{ty}, i1"),
            (true, false) => ty.clone(),
            (false, _) => format!("{ty}, {ty}"),
        };
        declared
            .entry(name.clone())
            .or_insert_with(|| format!("declare {ret} @{name}({params})\n"));
        let args = match (unary, flag) {
            (true, true) => format!("{ty} {}, i1 false", c.a),
            (true, false) => format!("{ty} {}", c.a),
            (false, _) => format!("{ty} {}, {ty} {}", c.a, c.b),
        };
        let _ = writeln!(text, "define void @case{k}() {{\nentry:");
        if overflow {
            let _ = writeln!(text, "  %s = call {ret} @{name}({args})");
            let _ = writeln!(text, "  %r = extractvalue {ret} %s, 0");
            let _ = writeln!(text, "  %o = extractvalue {ret} %s, 1");
            let _ = writeln!(text, "  call void (...) @use({ty} %r, i1 %o)");
        } else {
            let _ = writeln!(text, "  %r = call {ret} @{name}({args})");
            let _ = writeln!(text, "  call void (...) @use({ty} %r, i1 false)");
        }
        let _ = writeln!(text, "  ret void\n}}\n");
    }
    let mut head: Vec<String> = declared.into_values().collect();
    head.sort();
    // `@use` is variadic in effect: one declaration per width would clash, so it takes any.
    format!("declare void @use(...)\n{}\n{text}", head.concat())
}

fn check<D: ValueDomain>(analysis: &str, cases: &[Case], lowered: &absinthe_llvm::Lowered) {
    let results = analyze_module::<D>(
        lowered,
        true,
        States::Auto,
        &Limits::default(),
        Some(std::num::NonZeroUsize::MIN),
        |_, _| {},
    );
    let mut failures = Vec::new();
    for (k, c) in cases.iter().enumerate() {
        let name = format!("case{k}");
        let Some(i) = lowered.functions.iter().position(|f| f.name == name) else {
            failures.push(format!("{name} was not lowered: {c:?}"));
            continue;
        };
        let info = &lowered.functions[i];
        let fact_of = |value: &str| {
            info.values
                .iter()
                .zip(&results[i].facts)
                .find(|(v, _)| v.name == value)
                .map(|(_, f)| *f)
        };
        let mut expect = vec![("r", c.result)];
        if let Some(o) = c.overflow {
            expect.push(("o", i128::from(o)));
        }
        for (value, want) in expect {
            let got = fact_of(value);
            if got != Some(Fact::Constant(want as i64)) {
                failures.push(format!(
                    "{analysis}: llvm.{}.i{}({}, {}): %{value} is {got:?}, expected {want}",
                    c.intrinsic, c.bits, c.a, c.b
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases wrong:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

#[test]
fn every_modelled_intrinsic_folds_to_its_exact_value() {
    let cases = cases();
    assert!(cases.len() > 2000, "{} cases", cases.len());
    let path = std::env::temp_dir().join(format!("absinthe-intrinsics-{}.ll", std::process::id()));
    std::fs::write(&path, module(&cases)).expect("write the generated module");
    let module = load_module(&path);
    let _ = std::fs::remove_file(&path);
    let module = module.unwrap_or_else(|e| panic!("the generated module: {e}"));
    let lowered = lower_module(&module, &NswFlags::none(), Memory::Erase, |_, _| {});
    assert!(lowered.skipped.is_empty(), "{:?}", lowered.skipped);
    check::<Flat<i64>>("sccp", &cases, &lowered);
    check::<<SccpRangesAnalysis as DeclaredAnalysis>::Domain>("sccp-ranges-dom", &cases, &lowered);
}
