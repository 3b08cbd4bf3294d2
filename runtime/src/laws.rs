//! The generic lattice-law checker: property tests of the laws written on [`Lattice`] and [`Top`].
//!
//! Every lattice in the repository, and any lattice a user writes, is checked by handing
//! [`check_lattice`] (and [`check_top`] when it has a top) a proptest strategy for its values,
//! and [`check_widening_terminates`] an infinite increasing chain;
//! [`strategies`] has one for each standard lattice. A violated law panics with the law's name
//! and a shrunk counterexample, so the checker is meant to be called from `#[test]` functions.

pub use proptest;

use std::any::type_name;
use std::fmt::Debug;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRng, TestRunner};

use crate::lattice::{
    Changed, Congruence, Dual, FiniteSum, Flat, Interval, JoinCost, Lattice, Lift, Parity,
    Powerset, Sign, Thresholds, Top,
};

/// How many extra steps, after an increasing chain stops growing, the widening sequence may take
/// before it must be stationary.
const WIDENING_SLACK: usize = 4;

/// The longest increasing chain fed to the widening.
const CHAIN_LENGTH: usize = 24;

/// Runs one property over `cases` generated values and panics, naming `law` and the shrunk
/// counterexample, when it fails.
fn run<T: Debug, S: Strategy<Value = T>>(
    lattice: &str,
    law: &str,
    cases: u32,
    strategy: S,
    property: impl Fn(T) -> Result<(), TestCaseError>,
) {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    run_on(TestRunner::new(config), lattice, law, strategy, property);
}

/// [`run`] with the values `runner` draws.
fn run_on<T: Debug, S: Strategy<Value = T>>(
    mut runner: TestRunner,
    lattice: &str,
    law: &str,
    strategy: S,
    property: impl Fn(T) -> Result<(), TestCaseError>,
) {
    match runner.run(&strategy, property) {
        Ok(()) => {}
        Err(TestError::Fail(reason, value)) => {
            panic!("{lattice}: law `{law}` violated: {reason}\nminimal failing input: {value:#?}")
        }
        Err(TestError::Abort(reason)) => panic!("{lattice}: checking `{law}` aborted: {reason}"),
    }
}

/// Fails the current case with `message` unless `condition` holds.
fn ensure(condition: bool, message: impl FnOnce() -> String) -> Result<(), TestCaseError> {
    if condition {
        Ok(())
    } else {
        Err(TestCaseError::fail(message()))
    }
}

/// Checks every law of [`Lattice`] on values drawn from `strategy`, `cases` cases per law.
///
/// Checked for all lattices: the partial order, bottom, join as an idempotent, commutative upper
/// bound, idempotent and commutative meet, exactness of join and meet on comparable operands
/// (`a ⊑ b` ⇒ `a ⊔ b = b` and `a ⊓ b = a`), the in-place forms and their [`Changed`] flags,
/// widening (with and without thresholds) as an upper bound that stabilises on increasing chains
/// built by joining random values, and narrowing staying between its operands. When
/// [`Lattice::EXACT`] holds, also: join least, meet a greatest lower bound, associativity and
/// absorption.
///
/// # Panics
///
/// When a law fails, with the law's name, an explanation and the shrunk values.
pub fn check_lattice<L: Lattice>(strategy: impl Strategy<Value = L>, cases: u32) {
    let name = type_name::<L>();
    let s = &strategy;
    let triples = (s, s, s);

    run(name, "order", cases, triples, |(a, b, c)| {
        ensure(a.leq(&a), || format!("`leq` is not reflexive on {a:?}"))?;
        ensure((a.leq(&b) && b.leq(&a)) == (a == b), || {
            format!("`a ⊑ b && b ⊑ a` disagrees with `a == b`: a = {a:?}, b = {b:?}")
        })?;
        // Random triples are rarely comparable; joins give comparable ones too.
        let ab = a.join(&b);
        let abc = ab.join(&c);
        for (x, y, z) in [(&a, &b, &c), (&a, &ab, &abc), (&b, &ab, &abc)] {
            ensure(!(x.leq(y) && y.leq(z)) || x.leq(z), || {
                format!("`leq` is not transitive: {x:?} ⊑ {y:?} ⊑ {z:?}")
            })?;
        }
        Ok(())
    });

    run(name, "bottom", cases, s, |a| {
        let bottom = L::bottom();
        ensure(bottom.is_bottom(), || {
            format!("`bottom()` is not `is_bottom`: {bottom:?}")
        })?;
        ensure(bottom.leq(&a), || format!("bottom is not below {a:?}"))?;
        ensure(a.is_bottom() == (a == bottom), || {
            format!("`is_bottom` disagrees with `== bottom()` on {a:?}")
        })
    });

    run(name, "join", cases, triples, |(a, b, c)| {
        let ab = a.join(&b);
        ensure(a.leq(&ab) && b.leq(&ab), || {
            format!("join is not an upper bound: a = {a:?}, b = {b:?}, a ⊔ b = {ab:?}")
        })?;
        ensure(a.join(&a) == a, || {
            format!("join is not idempotent on {a:?}")
        })?;
        let ba = b.join(&a);
        ensure(ab == ba, || {
            format!("join is not commutative: a = {a:?}, b = {b:?}, a ⊔ b = {ab:?}, b ⊔ a = {ba:?}")
        })?;
        let with_bottom = a.join(&L::bottom());
        ensure(with_bottom == a, || {
            format!("bottom is not neutral for join: a = {a:?}, a ⊔ ⊥ = {with_bottom:?}")
        })?;
        ensure(a.join(&ab) == ab, || {
            format!("join is not exact on comparable values: a = {a:?}, b = {ab:?}")
        })?;
        if L::EXACT {
            ensure(!(a.leq(&c) && b.leq(&c)) || ab.leq(&c), || {
                format!(
                    "join is not least: a = {a:?}, b = {b:?}, a ⊔ b = {ab:?}, upper bound c = {c:?}"
                )
            })?;
            let left = ab.join(&c);
            let right = a.join(&b.join(&c));
            ensure(left == right, || {
                format!(
                    "join is not associative: a = {a:?}, b = {b:?}, c = {c:?}, (a ⊔ b) ⊔ c = {left:?}, a ⊔ (b ⊔ c) = {right:?}"
                )
            })?;
        }
        Ok(())
    });

    run(name, "meet", cases, triples, |(a, b, c)| {
        let ab = a.meet(&b);
        ensure(a.meet(&a) == a, || {
            format!("meet is not idempotent on {a:?}")
        })?;
        let ba = b.meet(&a);
        ensure(ab == ba, || {
            format!("meet is not commutative: a = {a:?}, b = {b:?}, a ⊓ b = {ab:?}, b ⊓ a = {ba:?}")
        })?;
        let bottom = a.meet(&L::bottom());
        ensure(bottom.is_bottom(), || {
            format!("meet with bottom is not bottom: a = {a:?}, a ⊓ ⊥ = {bottom:?}")
        })?;
        let upper = a.join(&b);
        let met = a.meet(&upper);
        ensure(met == a, || {
            format!(
                "meet is not exact on comparable values (absorption): a = {a:?}, b = {upper:?}, a ⊓ b = {met:?}"
            )
        })?;
        if L::EXACT {
            ensure(ab.leq(&a) && ab.leq(&b), || {
                format!("meet is not a lower bound: a = {a:?}, b = {b:?}, a ⊓ b = {ab:?}")
            })?;
            ensure(!(c.leq(&a) && c.leq(&b)) || c.leq(&ab), || {
                format!(
                    "meet is not greatest: a = {a:?}, b = {b:?}, a ⊓ b = {ab:?}, lower bound c = {c:?}"
                )
            })?;
            let left = ab.meet(&c);
            let right = a.meet(&b.meet(&c));
            ensure(left == right, || {
                format!(
                    "meet is not associative: a = {a:?}, b = {b:?}, c = {c:?}, (a ⊓ b) ⊓ c = {left:?}, a ⊓ (b ⊓ c) = {right:?}"
                )
            })?;
            let absorbed = a.join(&ab);
            ensure(absorbed == a, || {
                format!("absorption fails: a = {a:?}, b = {b:?}, a ⊔ (a ⊓ b) = {absorbed:?}")
            })?;
        }
        Ok(())
    });

    run(name, "in-place forms", cases, (s, s), |(a, b)| {
        let mut x = a.clone();
        let changed = x.join_with(&b);
        let expected = a.join(&b);
        ensure(x == expected, || {
            format!(
                "`join_with` disagrees with `join`: a = {a:?}, b = {b:?}, join_with gave {x:?}, join gave {expected:?}"
            )
        })?;
        ensure(changed == Changed::from_bool(expected != a), || {
            format!("`join_with` reported {changed:?}: a = {a:?}, b = {b:?}, result {x:?}")
        })?;
        let mut y = a.clone();
        let changed = y.meet_with(&b);
        let expected = a.meet(&b);
        ensure(y == expected, || {
            format!(
                "`meet_with` disagrees with `meet`: a = {a:?}, b = {b:?}, meet_with gave {y:?}, meet gave {expected:?}"
            )
        })?;
        ensure(changed == Changed::from_bool(expected != a), || {
            format!("`meet_with` reported {changed:?}: a = {a:?}, b = {b:?}, result {y:?}")
        })
    });

    let thresholds = vec(strategies::int(), 0..6).prop_map(Thresholds::new);
    run(
        name,
        "widening is an upper bound",
        cases,
        (s, s, thresholds),
        |(a, b, t)| {
            for (how, w) in [
                ("widen", a.widen(&b)),
                ("widen_with_thresholds", a.widen_with_thresholds(&b, &t)),
            ] {
                ensure(a.leq(&w) && b.leq(&w), || {
                    format!(
                        "`{how}` is not an upper bound: a = {a:?}, b = {b:?}, thresholds = {t:?}, result {w:?}"
                    )
                })?;
            }
            Ok(())
        },
    );

    let chains = (vec(s, 1..CHAIN_LENGTH), vec(strategies::int(), 0..6));
    run(name, "widening stabilises", cases, chains, |(values, t)| {
        let t = Thresholds::new(t);
        // An increasing chain: the running joins of the random values.
        let mut chain = Vec::with_capacity(values.len());
        let mut acc = L::bottom();
        for v in &values {
            acc = acc.join(v);
            chain.push(acc.clone());
        }
        for with_thresholds in [false, true] {
            let widen = |w: &L, b: &L| {
                if with_thresholds {
                    w.widen_with_thresholds(b, &t)
                } else {
                    w.widen(b)
                }
            };
            let mut w = chain[0].clone();
            for b in &chain[1..] {
                let next = widen(&w, b);
                ensure(w.leq(&next) && b.leq(&next), || {
                    format!(
                        "widening sequence is not an increasing upper bound of the chain: w = {w:?}, b = {b:?}, w ∇ b = {next:?} (chain {chain:?}, thresholds {t:?})"
                    )
                })?;
                w = next;
            }
            // The chain has stopped growing: the widened sequence must become stationary.
            let last = chain.last().expect("chains are not empty");
            let mut steps = 0;
            loop {
                let next = widen(&w, last);
                if next == w {
                    break;
                }
                steps += 1;
                ensure(steps <= WIDENING_SLACK, || {
                    format!(
                        "widening sequence not stationary {WIDENING_SLACK} steps after the chain stopped growing: chain {chain:?}, last iterate {w:?}, next {next:?}, thresholds {t:?}"
                    )
                })?;
                w = next;
            }
        }
        Ok(())
    });

    run(name, "narrowing", cases, (s, s), |(a, b)| {
        // Pairs with `small ⊑ big`: (a, a ⊔ b) always, and (a ⊓ b, a) when the meet is exact.
        let mut pairs = vec![(a.clone(), a.join(&b))];
        if L::EXACT {
            pairs.push((a.meet(&b), a.clone()));
        }
        for (small, big) in pairs {
            let n = big.narrow(&small);
            ensure(small.leq(&n) && n.leq(&big), || {
                format!(
                    "narrowing does not stay between its operands: a = {big:?}, b = {small:?}, a △ b = {n:?}"
                )
            })?;
        }
        Ok(())
    });
}

/// Checks the laws of one reduction of a product (a `meet_ext`), applied as the product applies
/// it: `t ⊓ reduce(t, s)`, the target `t` refined by the source `s`. The laws:
///
/// - **refines**: the result is below `t`;
/// - **idempotent**: refining the result again by the same `s` changes nothing;
/// - **keeps members**: every integer both `t` and `s` contain (by [`Concrete::contains`]) is
///   in the result. A reduction may drop what the source excludes, never what both allow:
///   this is the law a wrong reduction breaks (`!i.contains(-1)` written for `!i.contains(0)`).
///
/// Values are drawn from the components' strategies, [`REDUCTION_CASES`] per law from a fixed
/// seed (the same on every run); the integers tried on each are every one from -8 to 8, the
/// extremes, one drawn at random, and the constants `t` and `s` stand for. `reduction` names it in the failure
/// message (the generated code passes its name and declaration).
///
/// # Panics
///
/// When a law fails, with the reduction, the law and the shrunk values.
pub fn check_reduction<T, S>(reduction: &str, reduce: impl Fn(&T, &S) -> T)
where
    T: Lattice + crate::value::Concrete + Arbitrary,
    S: crate::value::Concrete + Arbitrary,
{
    let apply = |t: &T, s: &S| t.meet(&reduce(t, s));
    let pairs = (T::strategy(), S::strategy(), strategies::int());
    // The same values on every run, and many of them: a wrong reduction is often wrong on a
    // narrow slice of pairs (a range that starts exactly at zero), which a few hundred random
    // draws can miss; a law that fails must fail every time.
    let run = |law: &str, property: &dyn Fn((T, S, i64)) -> Result<(), TestCaseError>| {
        let config = Config {
            cases: REDUCTION_CASES,
            failure_persistence: None,
            ..Config::default()
        };
        let rng = TestRng::deterministic_rng(config.rng_algorithm);
        let runner = TestRunner::new_with_rng(config, rng);
        run_on(runner, reduction, law, &pairs, property);
    };
    run("reduction refines", &|(t, s, _)| {
        let r = apply(&t, &s);
        ensure(r.leq(&t), || {
            format!("t ⊓ reduce(t, s) is not below t: t = {t:?}, s = {s:?}, result = {r:?}")
        })
    });
    run("reduction is idempotent", &|(t, s, _)| {
        let once = apply(&t, &s);
        let twice = apply(&once, &s);
        ensure(twice == once, || {
            format!(
                "refining again by the same source changes the result: t = {t:?}, s = {s:?}, \
                 once = {once:?}, twice = {twice:?}"
            )
        })
    });
    run("reduction keeps members", &|(t, s, v)| {
        let r = apply(&t, &s);
        let around_zero = (-8..=8).map(Some);
        let extremes = [i64::MIN, i64::MIN + 1, i64::MAX - 1, i64::MAX].map(Some);
        let drawn = [Some(v), t.as_constant(), s.as_constant()];
        for v in around_zero.chain(extremes).chain(drawn).flatten() {
            ensure(!(t.contains(v) && s.contains(v)) || r.contains(v), || {
                format!(
                    "{v} is in both the target and the source but not in the result: t = \
                     {t:?}, s = {s:?}, result = {r:?}"
                )
            })?;
        }
        Ok(())
    });
}

/// Checks that widening stabilises on one infinite increasing chain, `chain(0) ⊑ chain(1) ⊑ …`.
///
/// Random chains built by joining a strategy's values soon stop growing, so they cannot tell a
/// widening from a join; this check feeds the widening a chain that never stops (for intervals,
/// `[0, i]`). It asserts that each iterate is an upper bound of the chain element it was given,
/// and that the widened sequence changes at most `max_changes` times over the first
/// `4 * max_changes + 64` elements. `chain` must be increasing; the check panics otherwise.
///
/// # Panics
///
/// When the chain is not increasing, or the widening is not an upper bound or keeps changing.
pub fn check_widening_terminates<L: Lattice>(chain: impl Fn(u64) -> L, max_changes: usize) {
    let name = type_name::<L>();
    let steps = 4 * max_changes as u64 + 64;
    let mut previous = chain(0);
    let mut w = previous.clone();
    let mut changes = 0;
    for i in 1..=steps {
        let b = chain(i);
        assert!(
            previous.leq(&b),
            "{name}: the chain given to `check_widening_terminates` is not increasing at step {i}: {previous:?} then {b:?}"
        );
        let next = w.widen(&b);
        assert!(
            w.leq(&next) && b.leq(&next),
            "{name}: law `widening is an upper bound` violated at step {i}: w = {w:?}, b = {b:?}, w ∇ b = {next:?}"
        );
        if next != w {
            changes += 1;
            assert!(
                changes <= max_changes,
                "{name}: law `widening stabilises` violated: the widened sequence changed {changes} times in {i} steps of an infinite chain (allowed {max_changes}); last iterate {next:?}, chain element {b:?}"
            );
        }
        previous = b;
        w = next;
    }
}

/// Checks the laws of [`Top`] on values drawn from `strategy`: `top()` is greatest and `is_top`,
/// and `is_top` agrees with `== top()`; for exact lattices `top` also absorbs joins and is
/// neutral for meets.
///
/// # Panics
///
/// When a law fails, with the law's name, an explanation and the shrunk value.
pub fn check_top<L: Top>(strategy: impl Strategy<Value = L>, cases: u32) {
    let name = type_name::<L>();
    run(name, "top", cases, &strategy, |a| {
        let top = L::top();
        ensure(top.is_top(), || format!("`top()` is not `is_top`: {top:?}"))?;
        ensure(a.leq(&top), || format!("{a:?} is not below top {top:?}"))?;
        ensure(a.is_top() == (a == top), || {
            format!("`is_top` disagrees with `== top()` on {a:?}")
        })?;
        let joined = a.join(&top);
        ensure(joined == top, || {
            format!("a ⊔ ⊤ is not ⊤: a = {a:?}, a ⊔ ⊤ = {joined:?}")
        })?;
        if L::EXACT {
            let met = a.meet(&top);
            ensure(met == a, || {
                format!("⊤ is not neutral for meet: a = {a:?}, a ⊓ ⊤ = {met:?}")
            })?;
        }
        Ok(())
    });
}

/// Types with a default proptest strategy: every standard lattice, the integers and `bool`
/// (payloads of flat enums), and every type `#[lattice]` declares, for which the strategy is
/// generated from the strategies of its parts.
pub trait Arbitrary: Sized + Debug {
    /// The strategy the law checker draws values from.
    fn strategy() -> BoxedStrategy<Self>;
}

/// A lattice that knows how to check its own laws: `#[lattice]` implements it, so one line in a
/// test (`<Interval as Laws>::check_laws()`) runs the whole checker on a declared type.
pub trait Laws: Lattice + Arbitrary {
    /// Runs [`check_laws`] (and [`check_laws_with_top`] when the lattice has a top).
    ///
    /// # Panics
    ///
    /// When a law fails, with the law's name and a shrunk counterexample.
    fn check_laws();

    /// Where the operations a law is about were declared (`law` as the checker names it:
    /// `join`, `order`, `widening stabilises`, …), for the failure message; declared lattices
    /// say it (a `.dom` lattice names the line of a written-out operation).
    fn law_origin(law: &str) -> Option<String> {
        let _ = law;
        None
    }
}

/// Runs `check`, a law check; when it panics on a law for which `origin` knows where the
/// operation was declared, panics again with that place added to the message.
///
/// # Panics
///
/// When `check` does.
pub fn locate_failure(origin: fn(&str) -> Option<String>, check: impl FnOnce()) {
    let Err(payload) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)) else {
        return;
    };
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_string()));
    let law = message.as_deref().and_then(|m| {
        let start = m
            .find("law `")
            .map(|i| i + 5)
            .or_else(|| m.find("checking `").map(|i| i + 10))?;
        let len = m[start..].find('`')?;
        Some(m[start..start + len].to_string())
    });
    match (message, law.and_then(|l| origin(&l))) {
        (Some(message), Some(place)) => panic!(
            "{message}
the operation: {place}"
        ),
        _ => std::panic::resume_unwind(payload),
    }
}

/// How many cases [`check_laws`] and [`check_laws_with_top`] run per law.
pub const DEFAULT_CASES: u32 = 256;

/// How many cases [`check_reduction`] runs per law, from a fixed seed.
pub const REDUCTION_CASES: u32 = 4096;

/// Checks every law of [`Lattice`] on `L`, drawing values from [`Arbitrary::strategy`].
///
/// # Panics
///
/// When a law fails, as [`check_lattice`] does.
pub fn check_laws<L: Lattice + Arbitrary>() {
    check_lattice(L::strategy(), DEFAULT_CASES);
}

/// [`check_laws`], then the laws of [`Top`].
///
/// # Panics
///
/// When a law fails, as [`check_lattice`] and [`check_top`] do.
pub fn check_laws_with_top<L: Top + Arbitrary>() {
    check_laws::<L>();
    check_top(L::strategy(), DEFAULT_CASES);
}

macro_rules! arbitrary_from {
    ($($ty:ty => $strategy:expr),* $(,)?) => {
        $(impl Arbitrary for $ty {
            fn strategy() -> BoxedStrategy<Self> {
                $strategy.boxed()
            }
        })*
    };
}

arbitrary_from! {
    i64 => strategies::int(),
    bool => any::<bool>(),
    u8 => 0u8..8,
    u32 => strategies::key(),
    Flat<i64> => strategies::flat(),
    Interval => strategies::interval(),
    Sign => strategies::sign(),
    crate::lattice::Address => strategies::address(),
    Parity => strategies::parity(),
    crate::lattice::Generation => strategies::generation(),
    Congruence => strategies::congruence(),
    Powerset<u8> => strategies::powerset(),
    crate::relational::Octagon => strategies::octagon(),
    crate::relational::Zone => strategies::zone(),
    crate::relational::Packed<crate::relational::Octagon> => strategies::packed(),
    crate::relational::Packed<crate::relational::Zone> => strategies::packed(),
}

impl<R: 'static> Arbitrary for crate::relational::Bounds<R> {
    fn strategy() -> BoxedStrategy<Self> {
        strategies::interval()
            .prop_map(crate::relational::Bounds::within)
            .boxed()
    }
}

impl Arbitrary for crate::lattice::Names {
    fn strategy() -> BoxedStrategy<Self> {
        strategies::names().boxed()
    }
}

impl Arbitrary for crate::lattice::Steps {
    fn strategy() -> BoxedStrategy<Self> {
        strategies::steps().boxed()
    }
}

impl<L: Arbitrary + Top + 'static> Arbitrary for Dual<L> {
    fn strategy() -> BoxedStrategy<Self> {
        L::strategy().prop_map(Dual).boxed()
    }
}

impl<L: Arbitrary + Lattice + 'static> Arbitrary for Lift<L> {
    fn strategy() -> BoxedStrategy<Self> {
        prop_oneof![1 => Just(Lift::Bottom), 4 => L::strategy().prop_map(Lift::Lifted)].boxed()
    }
}

impl<D, const N: usize, C> Arbitrary for FiniteSum<D, N, C>
where
    D: Arbitrary + Lattice + Ord + 'static,
    C: JoinCost<D> + 'static,
{
    fn strategy() -> BoxedStrategy<Self> {
        vec(D::strategy(), 0..6)
            .prop_map(FiniteSum::from_values)
            .boxed()
    }
}

/// Proptest strategies for the standard lattices, biased towards the corner cases: small values
/// that collide often, plus `i64::MIN`/`i64::MAX` and their neighbours so that infinite bounds
/// and overflow are exercised.
pub mod strategies {
    use proptest::collection::vec;
    use proptest::prelude::*;

    use crate::lattice::{
        Congruence, Dual, FiniteSum, Flat, Interval, JoinCost, Lattice, Lift, MapKey, MapLattice,
        Parity, Powerset, Sign, Top,
    };

    /// An `i64`: mostly in `-8..=8`, sometimes an extreme or an arbitrary value.
    pub fn int() -> impl Strategy<Value = i64> + Clone {
        prop_oneof![
            6 => -8i64..=8,
            1 => prop_oneof![
                Just(i64::MIN),
                Just(i64::MIN + 1),
                Just(i64::MAX - 1),
                Just(i64::MAX),
            ],
            1 => any::<i64>(),
        ]
    }

    /// [`Flat`] over `i64`: bottom, top, or a value from a small range (so values collide).
    pub fn flat() -> impl Strategy<Value = Flat<i64>> + Clone {
        prop_oneof![
            1 => Just(Flat::Bottom),
            1 => Just(Flat::Top),
            4 => prop_oneof![-3i64..=3, Just(i64::MIN), Just(i64::MAX)].prop_map(Flat::Value),
        ]
    }

    /// [`Interval`]: empty, full, constants, and intervals between two [`int`]s.
    pub fn interval() -> impl Strategy<Value = Interval> + Clone {
        prop_oneof![
            1 => Just(Interval::empty()),
            1 => Just(Interval::top()),
            2 => int().prop_map(Interval::constant),
            6 => (int(), int()).prop_map(|(a, b)| Interval::new(a.min(b), a.max(b))),
        ]
    }

    /// [`Names`](crate::lattice::Names): every name, or a set of a few of eight names (so
    /// that sets overlap).
    pub fn names() -> impl Strategy<Value = crate::lattice::Names> + Clone {
        use crate::lattice::Names;
        use crate::terms::ParamId;
        prop_oneof![
            1 => Just(Names::All),
            6 => vec(0u32..8, 0..5)
                .prop_map(|ps| Names::Set(ps.into_iter().map(ParamId).collect())),
        ]
    }

    /// [`Steps`](crate::lattice::Steps): ⊤, or a few constants and offsets of four parameters.
    pub fn steps() -> impl Strategy<Value = crate::lattice::Steps> + Clone {
        use crate::lattice::{Step, Steps};
        use crate::terms::ParamId;
        let step = prop_oneof![
            (-2i64..=2).prop_map(Step::Const),
            (0u32..4, -2i64..=2).prop_map(|(p, c)| Step::Offset(ParamId(p), c)),
        ];
        prop_oneof![
            1 => Just(Steps::Top),
            6 => vec(step, 0..4).prop_map(|s| Steps::Set(s.into_iter().collect())),
        ]
    }

    /// An [`Address`](crate::lattice::Address): bottom, top, or one of three symbols at a small
    /// offset (so that equal addresses are drawn often).
    pub fn address() -> impl Strategy<Value = crate::lattice::Address> + Clone {
        use crate::lattice::Address;
        use crate::program::SymbolId;
        prop_oneof![
            1 => Just(Address::Bottom),
            1 => Just(Address::Top),
            4 => (0u32..3, -2i64..=2).prop_map(|(s, o)| Address::At(SymbolId(s), o)),
        ]
    }

    /// Any of the eight [`Sign`]s.
    pub fn sign() -> impl Strategy<Value = Sign> + Clone {
        prop_oneof![
            Just(Sign::Bottom),
            Just(Sign::Neg),
            Just(Sign::Zero),
            Just(Sign::Pos),
            Just(Sign::NonPos),
            Just(Sign::NonNeg),
            Just(Sign::NonZero),
            Just(Sign::Top),
        ]
    }

    /// A generation counter: bottom, small bounds, huge bounds and unbounded.
    pub fn generation() -> impl Strategy<Value = crate::lattice::Generation> + Clone {
        use crate::lattice::Generation;
        prop_oneof![
            Just(Generation::Bottom),
            (0u32..6).prop_map(Generation::AtMost),
            (u32::MAX - 2..=u32::MAX).prop_map(Generation::AtMost),
            Just(Generation::Unbounded),
        ]
    }

    /// Any of the four [`Parity`] values.
    pub fn parity() -> impl Strategy<Value = Parity> + Clone {
        prop_oneof![
            Just(Parity::Bottom),
            Just(Parity::Even),
            Just(Parity::Odd),
            Just(Parity::Top),
        ]
    }

    /// [`Congruence`]: bottom, top, constants and classes with small or huge moduli.
    pub fn congruence() -> impl Strategy<Value = Congruence> + Clone {
        let modulus = prop_oneof![
            8 => 1u64..=12,
            1 => prop_oneof![
                Just(u64::MAX),
                Just(u64::MAX - 1),
                Just(1u64 << 63),
                Just((1u64 << 62) + 1),
            ],
            1 => any::<u64>(),
        ];
        prop_oneof![
            1 => Just(Congruence::empty()),
            1 => Just(Congruence::top()),
            3 => int().prop_map(Congruence::constant),
            5 => (modulus, int()).prop_map(|(a, b)| Congruence::new(a, b)),
        ]
    }

    /// [`crate::relational::Octagon`]: bottom, top and up to five octagonal constraints over
    /// three variables, small bounds or 64-bit extremes.
    pub fn octagon() -> impl Strategy<Value = crate::relational::Octagon> + Clone {
        use crate::relational::Octagon;
        let bound = prop_oneof![
            8 => -6i64..6,
            1 => prop_oneof![Just(i64::MIN), Just(i64::MAX), Just(i64::MIN + 1)],
        ];
        let constraint = (0u8..5, 0usize..3, 0usize..3, bound);
        prop_oneof![
            1 => Just(Octagon::bottom()),
            1 => Just(Octagon::top()),
            8 => vec(constraint, 1..6).prop_map(|cs| {
                let mut o = Octagon::top();
                for (kind, x, y, c) in cs {
                    match kind {
                        0 => o.add_difference(x, y, c),
                        1 => o.add_sum(x, y, c),
                        2 => o.add_neg_sum(x, y, c),
                        3 => o.add_upper(x, c),
                        _ => o.add_lower(x, c),
                    }
                }
                o
            }),
        ]
    }

    /// [`crate::relational::Zone`]: bottom, top and up to five difference or bound constraints
    /// over three variables, small bounds or 64-bit extremes.
    pub fn zone() -> impl Strategy<Value = crate::relational::Zone> + Clone {
        use crate::relational::Zone;
        let bound = prop_oneof![
            8 => -6i64..6,
            1 => prop_oneof![Just(i64::MIN), Just(i64::MAX), Just(i64::MIN + 1)],
        ];
        let constraint = (0u8..3, 0usize..3, 0usize..3, bound);
        prop_oneof![
            1 => Just(Zone::bottom()),
            1 => Just(Zone::top()),
            8 => vec(constraint, 1..6).prop_map(|cs| {
                let mut z = Zone::top();
                for (kind, x, y, c) in cs {
                    match kind {
                        0 => z.add_difference(x, y, c),
                        1 => z.add_upper(x, c),
                        _ => z.add_lower(x, c),
                    }
                }
                z
            }),
        ]
    }

    /// [`crate::relational::Packed`]: bottom, top and up to six constraints over five names in
    /// the packs `{0, 1, 2}`, `{3, 4}` (constraints across packs keep their bounds), small
    /// bounds or 64-bit extremes.
    pub fn packed<R: crate::relational::Relational + Clone>()
    -> impl Strategy<Value = crate::relational::Packed<R>> + Clone {
        use crate::relational::{Constraint, Packed, Partition, Relational};
        let bound = prop_oneof![
            8 => -6i128..6,
            1 => prop_oneof![
                Just(i128::from(i64::MIN)),
                Just(i128::from(i64::MAX)),
                Just(i128::from(i64::MIN) + 1)
            ],
        ];
        let constraint =
            (0u8..5, 0usize..5, 0usize..5, bound).prop_map(|(kind, x, y, c)| match kind {
                0 => Constraint::Difference(x, y, c),
                1 => Constraint::Sum(x, y, c),
                2 => Constraint::NegSum(x, y, c),
                3 => Constraint::Upper(x, c),
                _ => Constraint::Lower(x, c),
            });
        let partition = std::sync::Arc::new(Partition::new(5, [(0, 1), (1, 2), (3, 4)], 8));
        prop_oneof![
            1 => Just(Packed::bottom()),
            1 => Just(Packed::top()),
            1 => Just(Packed::top_over(partition.clone())),
            8 => vec(constraint, 1..7).prop_map(move |cs| {
                let mut p = Packed::top_over(partition.clone());
                for c in cs {
                    p.add_constraint(c);
                }
                p
            }),
        ]
    }

    /// [`Powerset`] of `u8` over the finite universe `0..8` (so that joins stabilise).
    pub fn powerset() -> impl Strategy<Value = Powerset<u8>> + Clone {
        vec(0u8..8, 0..6).prop_map(|xs| xs.into_iter().collect())
    }

    /// A key from a small set, including the extreme `u32`s (so branches on the top bit occur).
    pub fn key() -> impl Strategy<Value = u32> + Clone {
        prop_oneof![
            6 => 0u32..8,
            1 => prop_oneof![Just(u32::MAX), Just(1u32 << 31), Just((1u32 << 31) - 1)],
        ]
    }

    /// A [`MapLattice`] with up to six bindings from [`key`] to values of `values`.
    pub fn map<K: MapKey + From<u32> + 'static, V: Lattice + 'static>(
        values: impl Strategy<Value = V> + Clone,
    ) -> impl Strategy<Value = MapLattice<K, V>> + Clone {
        vec((key(), values), 0..7)
            .prop_map(|bindings| bindings.into_iter().map(|(k, v)| (K::from(k), v)).collect())
    }

    /// [`Lift`] of `inner`: the new bottom or a lifted value.
    pub fn lift<L: Lattice + 'static>(
        inner: impl Strategy<Value = L> + Clone,
    ) -> impl Strategy<Value = Lift<L>> + Clone {
        prop_oneof![1 => Just(Lift::Bottom), 4 => inner.prop_map(Lift::Lifted)]
    }

    /// [`Dual`] of `inner`.
    pub fn dual<L: Top + 'static>(
        inner: impl Strategy<Value = L> + Clone,
    ) -> impl Strategy<Value = Dual<L>> + Clone {
        inner.prop_map(Dual)
    }

    /// [`FiniteSum`] of up to five values of `inner` (merged down to `N`).
    pub fn finite_sum<D: Lattice + Ord + 'static, const N: usize, C: JoinCost<D> + 'static>(
        inner: impl Strategy<Value = D> + Clone,
    ) -> impl Strategy<Value = FiniteSum<D, N, C>> + Clone {
        vec(inner, 0..6).prop_map(FiniteSum::from_values)
    }
}

#[cfg(test)]
mod tests {
    use super::locate_failure;

    fn origin(law: &str) -> Option<String> {
        (law == "join").then(|| "`join`, written out at bounds.dom:20:5".to_string())
    }

    fn message(check: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let payload = std::panic::catch_unwind(|| locate_failure(origin, check))
            .expect_err("the check fails");
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_string()))
            .unwrap_or_default()
    }

    #[test]
    fn a_failed_law_names_the_place_of_its_operation() {
        let m = message(|| panic!("Bounds: law `join` violated: not commutative"));
        assert!(m.starts_with("Bounds: law `join` violated"), "{m}");
        assert!(
            m.ends_with("the operation: `join`, written out at bounds.dom:20:5"),
            "{m}"
        );
        // A law without a known place keeps its message as it was.
        let m = message(|| panic!("Bounds: law `order` violated: not transitive"));
        assert_eq!(m, "Bounds: law `order` violated: not transitive");
        // A passing check says nothing.
        locate_failure(origin, || {});
    }
}
