//! The concrete semantics the laws are checked against (valuations, `satisfies`), and the
//! drawing of cases (valuations, environments they satisfy, constraints true under them).

use std::collections::BTreeMap;

use absinthe::lattice::Interval;
use absinthe_typing_env::{
    Approx, ConcreteValue, Desc, Extension, Fields, Imm, Ints, Name, NumberKind, TypingEnv, admits,
};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// The number of cases of every law.
pub(crate) const CASES: u32 = 1024;

/// How many valuations (the valuation `V` and perturbations of it) compare two environments.
pub(crate) const SAMPLES: usize = 48;

pub(crate) fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        // Deterministic: the same cases on every run, and no regression file written.
        rng_seed: RngSeed::Fixed(0x7970_696e_675f_656e),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A script of choices and a seed for sampled valuations.
pub(crate) fn input() -> impl Strategy<Value = (Vec<u32>, u64)> {
    (prop::collection::vec(any::<u32>(), 8..400), any::<u64>())
}

// ---------------------------------------------------------------------------------------------
// Choices
// ---------------------------------------------------------------------------------------------

/// Where choices come from: a script (the first option once it runs out, so that shrinking
/// simplifies) or a seeded generator (for sampled valuations).
pub(crate) struct Choices {
    pub(crate) script: Vec<u32>,
    pub(crate) at: usize,
    pub(crate) rng: Option<u64>,
    /// Whether approximations drawn may have extensions (cases of immediates saying more).
    pub(crate) extensions: bool,
}

impl Choices {
    pub(crate) fn script(script: &[u32]) -> Choices {
        Choices {
            script: script.to_vec(),
            at: 0,
            rng: None,
            extensions: true,
        }
    }

    pub(crate) fn seeded(seed: u64) -> Choices {
        Choices {
            script: Vec::new(),
            at: 0,
            rng: Some(seed),
            extensions: true,
        }
    }

    /// A choice in `0..n` (0 is the simplest option).
    pub(crate) fn pick(&mut self, n: usize) -> usize {
        assert!(n > 0);
        let raw = match &mut self.rng {
            Some(state) => {
                // splitmix64
                *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = *state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            }
            None => {
                let c = self.script.get(self.at).copied().unwrap_or(0);
                self.at += 1;
                u64::from(c)
            }
        };
        (raw % n as u64) as usize
    }

    /// True once in `n` times (false is the simplest option).
    pub(crate) fn one_in(&mut self, n: usize) -> bool {
        self.pick(n) == n - 1
    }

    pub(crate) fn element<T: Copy>(&mut self, of: &[T]) -> T {
        of[self.pick(of.len())]
    }
}

// ---------------------------------------------------------------------------------------------
// Valuations and the semantics
// ---------------------------------------------------------------------------------------------

pub(crate) type CV = ConcreteValue;

/// The values of the variables (constants are read from the environment).
pub(crate) type Val = BTreeMap<Name, CV>;

pub(crate) const LABELS: [&str; 4] = ["a", "b", "c", "d"];

/// Small integers, simplest first.
pub(crate) const INTS: [i64; 9] = [0, 1, -1, 2, -2, 3, -3, 4, 5];

pub(crate) fn int(ch: &mut Choices) -> i64 {
    ch.element(&INTS)
}

pub(crate) fn value(ch: &mut Choices) -> CV {
    if ch.pick(3) < 2 {
        CV::Int(int(ch))
    } else {
        let tag = ch.pick(2) as u32;
        let len = 1 + ch.pick(2);
        CV::Block(tag, (0..len).map(|_| CV::Int(int(ch))).collect())
    }
}

/// `k` values, often equal to an earlier one (or with a field equal to an earlier integer).
pub(crate) fn values(ch: &mut Choices, k: usize) -> Vec<CV> {
    let mut out: Vec<CV> = Vec::new();
    for i in 0..k {
        let v = if i > 0 && ch.one_in(3) {
            out[ch.pick(i)].clone()
        } else {
            let mut v = value(ch);
            if let CV::Block(_, fields) = &mut v {
                let ints: Vec<CV> = out
                    .iter()
                    .filter(|v| matches!(v, CV::Int(_)))
                    .cloned()
                    .collect();
                for f in fields.iter_mut() {
                    if !ints.is_empty() && ch.one_in(2) {
                        *f = ints[ch.pick(ints.len())].clone();
                    }
                }
            }
            v
        };
        out.push(v);
    }
    out
}

pub(crate) fn value_of(env: &TypingEnv, val: &Val, n: Name) -> CV {
    if env.is_constant(n) {
        CV::Int(
            env.label(n)
                .parse()
                .expect("only integer constants are used"),
        )
    } else {
        match val.get(&n) {
            Some(v) => v.clone(),
            None => panic!("the valuation has no value for {}", env.label(n)),
        }
    }
}

/// Whether `approx` admits `v` under `val` (in `env`, which only tells constants' values).
pub(crate) fn holds(env: &TypingEnv, val: &Val, approx: &Approx, v: &CV) -> bool {
    match approx {
        Approx::Bottom => false,
        Approx::Top => true,
        Approx::Alias(m) => *v == value_of(env, val, *m),
        Approx::Known(desc) => holds_desc(env, val, desc, v),
    }
}

pub(crate) fn holds_desc(env: &TypingEnv, val: &Val, desc: &Desc, v: &CV) -> bool {
    match desc {
        Desc::Imms(cases) => holds_imms(env, val, cases, v),
        Desc::Ints(ints) => matches!(v, CV::Int(x) if ints.contains(*x)),
        Desc::Naked(naked) => matches!(v, CV::Int(x) if naked.admits(*x)),
        Desc::Block(block) => {
            matches!(v, CV::Block(tag, fields) if *tag == block.tag
                && holds_fields(env, val, &block.fields, fields))
        }
        Desc::Variant(cases) => matches!(v, CV::Block(tag, fields)
            if cases.get(tag).is_some_and(|shape| holds_fields(env, val, shape, fields))),
        Desc::AnyBlock => matches!(v, CV::Block(..) | CV::Closure(..)),
        Desc::Untagged(known) => matches!(v, CV::Block(_, fields)
            if holds_fields(env, val, &Fields::Partial(known.clone()), fields)),
        Desc::Either(imms, blocks) => match v {
            CV::Int(_) => holds_imms(env, val, imms, v),
            _ => holds_desc(env, val, blocks, v),
        },
        Desc::Closure(closure) => matches!(v, CV::Closure(code, slots)
            if *code == closure.code
                && slots.len() == closure.slots.len()
                && closure.slots.iter().zip(slots).all(|(a, s)| holds(env, val, a, s))),
    }
}

/// An integer of the set, whose case's extension holds.
pub(crate) fn holds_imms(
    env: &TypingEnv,
    val: &Val,
    cases: &BTreeMap<Imm, Extension>,
    v: &CV,
) -> bool {
    let CV::Int(x) = v else {
        return false;
    };
    cases.get(&Imm::Int(*x)).is_some_and(|ext| {
        ext.constraints
            .iter()
            .all(|(&n, a)| holds(env, val, a, &value_of(env, val, n)))
    })
}

pub(crate) fn holds_fields(env: &TypingEnv, val: &Val, shape: &Fields, fields: &[CV]) -> bool {
    match shape {
        Fields::Full(approxes) => {
            approxes.len() == fields.len()
                && approxes
                    .iter()
                    .zip(fields)
                    .all(|(a, f)| holds(env, val, a, f))
        }
        Fields::Partial(known) => known
            .iter()
            .all(|(&i, a)| fields.get(i).is_some_and(|f| holds(env, val, a, f))),
    }
}

/// Whether `val` satisfies `env`; the reason when it does not.
pub(crate) fn satisfies(env: &TypingEnv, val: &Val) -> Result<(), String> {
    if env.is_bottom() {
        return Err("the environment is bottom".to_owned());
    }
    for n in names(env) {
        let v = value_of(env, val, n);
        let canonical = env.canonical(n);
        let cv = value_of(env, val, canonical);
        if cv != v {
            return Err(format!(
                "{} = {} but the canonical element of its class, {}, = {}",
                env.label(n),
                show_value(&v),
                env.label(canonical),
                show_value(&cv)
            ));
        }
        let approx = env.approx_of(n);
        if !holds(env, val, &approx, &v) {
            return Err(format!(
                "{} = {} is not {}",
                env.label(n),
                show_value(&v),
                env.show(&approx)
            ));
        }
    }
    Ok(())
}

pub(crate) fn sat(env: &TypingEnv, val: &Val) -> bool {
    satisfies(env, val).is_ok()
}

pub(crate) fn names(env: &TypingEnv) -> Vec<Name> {
    (0..env.len()).map(|i| Name(i as u32)).collect()
}

pub(crate) fn show_value(v: &CV) -> String {
    match v {
        CV::Int(x) => x.to_string(),
        CV::Block(tag, fields) => {
            let fields: Vec<String> = fields.iter().map(show_value).collect();
            format!("#{tag}({})", fields.join(", "))
        }
        other => format!("{other:?}"),
    }
}

pub(crate) fn show_val(env: &TypingEnv, val: &Val) -> String {
    let parts: Vec<String> = val
        .iter()
        .map(|(&n, v)| {
            let label = if n.index() < env.len() {
                env.label(n)
            } else {
                format!("#{}", n.0)
            };
            format!("{label} = {}", show_value(v))
        })
        .collect();
    format!("{{{}}}", parts.join(", "))
}

/// Whether `val`, extended with values for the names of `env` it lacks (the existentials a join
/// may introduce: names the branches defined, paired), satisfies `env`. The existentials'
/// values are searched among `candidates`; the reason of the first attempt when none works.
pub(crate) fn satisfiable(env: &TypingEnv, val: &Val, candidates: &[CV]) -> Result<(), String> {
    let missing: Vec<Name> = names(env)
        .into_iter()
        .filter(|&n| !env.is_constant(n) && !val.contains_key(&n))
        .collect();
    if missing.is_empty() {
        return satisfies(env, val);
    }
    let mut candidates = candidates.to_vec();
    candidates.dedup();
    let mut first = None;
    let mut choice = vec![0usize; missing.len()];
    'search: for _ in 0..20_000 {
        let mut extended = val.clone();
        for (&n, &c) in missing.iter().zip(&choice) {
            extended.insert(n, candidates[c].clone());
        }
        match satisfies(env, &extended) {
            Ok(()) => return Ok(()),
            Err(why) => {
                first.get_or_insert(why);
            }
        }
        for c in choice.iter_mut() {
            *c += 1;
            if *c < candidates.len() {
                continue 'search;
            }
            *c = 0;
        }
        break;
    }
    Err(format!(
        "{} (and no values among {} for the existentials make it hold)",
        first.unwrap_or_default(),
        candidates
            .iter()
            .map(show_value)
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// `v` and the values of its fields, recursively.
pub(crate) fn with_parts(v: &CV, out: &mut Vec<CV>) {
    if !out.contains(v) {
        out.push(v.clone());
    }
    if let CV::Block(_, fields) = v {
        for f in fields {
            with_parts(f, out);
        }
    }
}

/// Which of `samples` satisfy `env`.
pub(crate) fn accepted(env: &TypingEnv, samples: &[Val]) -> Vec<bool> {
    samples.iter().map(|w| sat(env, w)).collect()
}

// ---------------------------------------------------------------------------------------------
// Approximations
// ---------------------------------------------------------------------------------------------

/// An interval holding `x` (an immediate when it holds only `x`), sometimes unbounded on a side.
/// A naked number of some kind: a few values (with `x` among them when given), or any value
/// of a kind.
pub(crate) fn naked(ch: &mut Choices, x: Option<i64>) -> Approx {
    let kind = ch.element(&NumberKind::ALL);
    if ch.one_in(4) {
        return Approx::naked(kind, None);
    }
    let mut values: std::collections::BTreeSet<i64> = (0..ch.pick(3)).map(|_| int(ch)).collect();
    values.extend(x);
    if values.is_empty() {
        values.insert(int(ch));
    }
    Approx::naked(kind, Some(values))
}

pub(crate) fn interval_holding(ch: &mut Choices, x: i64) -> Approx {
    let lo = if ch.one_in(5) {
        i64::MIN
    } else {
        x - ch.pick(3) as i64
    };
    let hi = if ch.one_in(5) {
        i64::MAX
    } else {
        x + ch.pick(3) as i64
    };
    Approx::ints(Ints::of(Interval::new(lo, hi)))
}

/// An approximation that need not admit anything in particular.
pub(crate) fn arbitrary(
    ch: &mut Choices,
    env: &mut TypingEnv,
    scope: &[Name],
    depth: usize,
) -> Approx {
    match ch.pick(8) {
        0 => Approx::Top,
        6 => naked(ch, None),
        1 => Approx::imm(Imm::Int(int(ch))),
        2 => Approx::imms([Imm::Int(int(ch)), Imm::Int(int(ch))]),
        3 => {
            let x = int(ch);
            interval_holding(ch, x)
        }
        4 if !scope.is_empty() => Approx::Alias(ch.element(scope)),
        5 if depth > 0 => Approx::Known(arbitrary_blocks(ch, env, scope, depth)),
        _ => Approx::Known(Desc::AnyBlock),
    }
}

pub(crate) fn arbitrary_fields(
    ch: &mut Choices,
    env: &mut TypingEnv,
    scope: &[Name],
    depth: usize,
) -> Fields {
    let len = 1 + ch.pick(2);
    let mut fields = Vec::new();
    for _ in 0..len {
        fields.push(if depth > 0 {
            arbitrary(ch, env, scope, depth - 1)
        } else {
            Approx::Top
        });
    }
    if ch.one_in(3) {
        Fields::Partial(fields.into_iter().enumerate().skip(ch.pick(2)).collect())
    } else {
        Fields::Full(fields)
    }
}

/// A description of blocks (a block, a variant or `block`) that need not admit anything.
pub(crate) fn arbitrary_blocks(
    ch: &mut Choices,
    env: &mut TypingEnv,
    scope: &[Name],
    depth: usize,
) -> Desc {
    match ch.pick(4) {
        0 => Desc::AnyBlock,
        1 => Desc::Block(absinthe_typing_env::Block {
            tag: ch.pick(2) as u32,
            fields: arbitrary_fields(ch, env, scope, depth),
        }),
        2 => Desc::Untagged(partial(arbitrary_fields(ch, env, scope, depth))),
        _ => Desc::Variant(BTreeMap::from([
            (0, arbitrary_fields(ch, env, scope, depth)),
            (
                1 + ch.pick(2) as u32,
                arbitrary_fields(ch, env, scope, depth),
            ),
        ])),
    }
}

/// An extension that holds under `val`: constraints on names of `scope`, each admitting the
/// name's value.
pub(crate) fn true_extension(
    ch: &mut Choices,
    env: &mut TypingEnv,
    val: &Val,
    scope: &[Name],
    depth: usize,
) -> Extension {
    let mut constraints = BTreeMap::new();
    if ch.extensions && depth > 0 && !scope.is_empty() && ch.one_in(3) {
        for _ in 0..1 + ch.pick(2) {
            let n = ch.element(scope);
            let v = value_of(env, val, n);
            let a = truthful(ch, env, val, &v, scope, depth - 1);
            constraints.insert(n, a);
        }
    }
    Extension { constraints }
}

/// An extension that need not hold (for a case the value is not).
pub(crate) fn any_extension(
    ch: &mut Choices,
    env: &mut TypingEnv,
    scope: &[Name],
    depth: usize,
) -> Extension {
    let mut constraints = BTreeMap::new();
    if ch.extensions && depth > 0 && !scope.is_empty() && ch.one_in(3) {
        let n = ch.element(scope);
        constraints.insert(n, arbitrary(ch, env, scope, depth - 1));
    }
    Extension { constraints }
}

/// Cases of immediates holding `x` (with an extension true under `val`) and maybe others (with
/// any extension).
pub(crate) fn cases_holding(
    ch: &mut Choices,
    env: &mut TypingEnv,
    val: &Val,
    x: i64,
    scope: &[Name],
    depth: usize,
) -> BTreeMap<Imm, Extension> {
    let mut cases = BTreeMap::new();
    for _ in 0..ch.pick(3) {
        let other = int(ch);
        if other != x {
            let ext = any_extension(ch, env, scope, depth);
            cases.insert(Imm::Int(other), ext);
        }
    }
    if ch.one_in(6) {
        cases.insert(Imm::ctor("A"), Extension::default());
    }
    let ext = true_extension(ch, env, val, scope, depth);
    cases.insert(Imm::Int(x), ext);
    cases
}

/// Cases of immediates that need not hold anything in particular.
pub(crate) fn any_cases(
    ch: &mut Choices,
    env: &mut TypingEnv,
    scope: &[Name],
    depth: usize,
) -> BTreeMap<Imm, Extension> {
    let mut cases = BTreeMap::new();
    for _ in 0..1 + ch.pick(2) {
        let ext = any_extension(ch, env, scope, depth);
        cases.insert(Imm::Int(int(ch)), ext);
    }
    cases
}

/// Fields admitting `fields` under `val`: a full shape or a partial one.
pub(crate) fn true_fields(
    ch: &mut Choices,
    env: &mut TypingEnv,
    val: &Val,
    fields: &[CV],
    scope: &[Name],
    depth: usize,
) -> Fields {
    let mut approxes = Vec::new();
    for f in fields {
        approxes.push(if depth > 0 {
            truthful(ch, env, val, f, scope, depth - 1)
        } else {
            Approx::Top
        });
    }
    if ch.one_in(3) {
        Fields::Partial(
            approxes
                .into_iter()
                .enumerate()
                .filter(|_| ch.pick(3) > 0)
                .collect(),
        )
    } else {
        Fields::Full(approxes)
    }
}

/// A description of blocks admitting the block `#tag(fields)`.
pub(crate) fn true_blocks(
    ch: &mut Choices,
    env: &mut TypingEnv,
    val: &Val,
    tag: u32,
    fields: &[CV],
    scope: &[Name],
    depth: usize,
) -> Desc {
    match ch.pick(5) {
        0 | 1 => Desc::Block(absinthe_typing_env::Block {
            tag,
            fields: true_fields(ch, env, val, fields, scope, depth),
        }),
        2 => {
            let mine = true_fields(ch, env, val, fields, scope, depth);
            let mut cases = BTreeMap::from([(tag, mine)]);
            for _ in 0..1 + ch.pick(2) {
                let other = ch.pick(3) as u32;
                if other != tag {
                    let shape = arbitrary_fields(ch, env, scope, depth);
                    cases.insert(other, shape);
                }
            }
            match Approx::variant(cases) {
                Approx::Known(desc) => desc,
                _ => unreachable!("a variant of at least one tag"),
            }
        }
        3 => Desc::Untagged(partial(true_fields(ch, env, val, fields, scope, depth))),
        _ => Desc::AnyBlock,
    }
}

/// The fields of a shape as a partial shape (every field of a full one known).
fn partial(fields: Fields) -> BTreeMap<usize, Approx> {
    match fields {
        Fields::Full(full) => full.into_iter().enumerate().collect(),
        Fields::Partial(known) => known,
    }
}

/// An approximation admitting `v` under `val`; its aliases name names of `scope` (or
/// constants) of equal value.
pub(crate) fn truthful(
    ch: &mut Choices,
    env: &mut TypingEnv,
    val: &Val,
    v: &CV,
    scope: &[Name],
    depth: usize,
) -> Approx {
    let equal: Vec<Name> = scope
        .iter()
        .copied()
        .filter(|&n| value_of(env, val, n) == *v)
        .collect();
    match v {
        CV::Int(x) => match ch.pick(9) {
            0 => Approx::Top,
            8 => naked(ch, Some(*x)),
            1 => Approx::imm(Imm::Int(*x)),
            2 => Approx::cases(cases_holding(ch, env, val, *x, scope, depth)),
            3 => interval_holding(ch, *x),
            4 if !equal.is_empty() => Approx::Alias(ch.element(&equal)),
            5 => Approx::Alias(env.constant(Imm::Int(*x))),
            6 => {
                let imms = cases_holding(ch, env, val, *x, scope, depth);
                let blocks = arbitrary_blocks(ch, env, scope, depth.saturating_sub(1));
                Approx::either(imms, Approx::Known(blocks))
            }
            _ => Approx::imms([Imm::Int(*x), Imm::Int(int(ch))]),
        },
        CV::Block(tag, fields) => match ch.pick(6) {
            0 => Approx::Top,
            1 | 2 => Approx::Known(true_blocks(ch, env, val, *tag, fields, scope, depth)),
            3 => {
                let imms = any_cases(ch, env, scope, depth);
                let blocks = true_blocks(ch, env, val, *tag, fields, scope, depth);
                Approx::either(imms, Approx::Known(blocks))
            }
            4 if !equal.is_empty() => Approx::Alias(ch.element(&equal)),
            _ => Approx::block(
                *tag,
                fields
                    .iter()
                    .map(|f| {
                        if depth > 0 {
                            truthful(ch, env, val, f, scope, depth - 1)
                        } else {
                            Approx::Top
                        }
                    })
                    .collect::<Vec<_>>(),
            ),
        },
        _ => Approx::Top,
    }
}

// ---------------------------------------------------------------------------------------------
// Worlds: a valuation and an environment it satisfies
// ---------------------------------------------------------------------------------------------

pub(crate) struct World {
    pub(crate) env: TypingEnv,
    pub(crate) vars: Vec<Name>,
    pub(crate) val: Val,
    /// How the environment was built.
    pub(crate) log: Vec<String>,
}

impl World {
    pub(crate) fn log(&self) -> String {
        self.log.join("\n  ")
    }
}

/// A valuation and an environment it satisfies (built by definitions and refinements each true
/// under it); `Err` when a step does not keep the valuation (a failure of the soundness of
/// meet).
pub(crate) fn world(ch: &mut Choices) -> Result<World, String> {
    let with_ints = ch.one_in(2);
    let mut env = if with_ints {
        TypingEnv::new().with_ints(Ints::top_of::<Interval>())
    } else {
        TypingEnv::new()
    };
    let k = 3 + ch.pick(2);
    let values = values(ch, k);
    let mut val = Val::new();
    let mut vars = Vec::new();
    let mut log = vec![format!("with_ints: {with_ints}")];
    for (i, v) in values.iter().enumerate() {
        let scope = names(&env);
        let approx = truthful(ch, &mut env, &val, v, &scope, 2);
        log.push(format!(
            "define {} : {}   (value {})",
            LABELS[i],
            env.show(&approx),
            show_value(v)
        ));
        let n = env.define(LABELS[i], approx);
        val.insert(n, v.clone());
        vars.push(n);
        if let Err(why) = satisfies(&env, &val) {
            return Err(format!(
                "after `{}`: {env}\n  not satisfied by {}: {why}\n  built by:\n  {}",
                log.last().expect("a step"),
                show_val(&env, &val),
                log.join("\n  ")
            ));
        }
    }
    for _ in 0..ch.pick(4) {
        let n = ch.element(&vars);
        let scope = names(&env);
        let v = val[&n].clone();
        let c = truthful(ch, &mut env, &val, &v, &scope, 2);
        log.push(format!("refine {} with {}", env.label(n), env.show(&c)));
        let refined = env.refine(n, &c);
        match refined.map(|e| (satisfies(&e, &val), e)) {
            Some((Ok(()), e)) => env = e,
            Some((Err(why), e)) => {
                return Err(format!(
                    "after `{}`: {e}\n  not satisfied by {}: {why}\n  built by:\n  {}",
                    log.last().expect("a step"),
                    show_val(&env, &val),
                    log.join("\n  ")
                ));
            }
            None => {
                return Err(format!(
                    "`{}` is bottom in {env}, though {} satisfies it\n  built by:\n  {}",
                    log.last().expect("a step"),
                    show_val(&env, &val),
                    log.join("\n  ")
                ));
            }
        }
    }
    Ok(World {
        env,
        vars,
        val,
        log,
    })
}

/// `val` with one or two variables changed (to a new value, another variable's value, or a
/// nearby value).
pub(crate) fn perturb(ch: &mut Choices, vars: &[Name], val: &Val) -> Val {
    let mut w = val.clone();
    for _ in 0..1 + ch.pick(2) {
        let n = ch.element(vars);
        let new = match ch.pick(4) {
            0 => value(ch),
            1 => w[&ch.element(vars)].clone(),
            _ => match &w[&n] {
                CV::Int(x) => CV::Int(x + [-1, 1, 2, -2][ch.pick(4)]),
                CV::Block(tag, fields) => {
                    let mut fields = fields.clone();
                    match ch.pick(3) {
                        0 => CV::Block(1 - (*tag).min(1), fields),
                        1 => {
                            let i = ch.pick(fields.len());
                            fields[i] = CV::Int(int(ch));
                            CV::Block(*tag, fields)
                        }
                        _ => {
                            if fields.len() > 1 {
                                fields.pop();
                            } else {
                                fields.push(CV::Int(int(ch)));
                            }
                            CV::Block(*tag, fields)
                        }
                    }
                }
                other => other.clone(),
            },
        };
        w.insert(n, new);
    }
    w
}

/// `val` and perturbations of it.
pub(crate) fn samples(seed: u64, vars: &[Name], val: &Val) -> Vec<Val> {
    let mut ch = Choices::seeded(seed);
    let mut out = vec![val.clone()];
    while out.len() < SAMPLES {
        out.push(perturb(&mut ch, vars, val));
    }
    out
}

/// A constraint true under the world's valuation: a variable and an approximation admitting its
/// value (which may add constants to the world's environment).
pub(crate) fn constraint(ch: &mut Choices, w: &mut World) -> (Name, Approx) {
    let n = ch.element(&w.vars);
    let scope = names(&w.env);
    let v = w.val[&n].clone();
    let c = truthful(ch, &mut w.env, &w.val, &v, &scope, 2);
    (n, c)
}

/// The soundness checks of one meet `before ⊓ (a = b)` whose result should admit `value`.
pub(crate) fn check_sound_meet(
    before: &TypingEnv,
    met: Option<&(Approx, TypingEnv)>,
    val: &Val,
    value: &CV,
    what: &str,
) -> Result<(), String> {
    let Some((result, after)) = met else {
        return Err(format!(
            "{what} is bottom in {before}, though {} satisfies both",
            show_val(before, val)
        ));
    };
    if let Err(why) = satisfies(after, val) {
        return Err(format!(
            "{what} in {before} gives {after}, not satisfied by {}: {why}",
            show_val(before, val)
        ));
    }
    if !holds(after, val, result, value) {
        return Err(format!(
            "{what} in {before} gives the approximation {}, which does not admit {} (in {after}, \
             under {})",
            after.show(result),
            show_value(value),
            show_val(before, val)
        ));
    }
    // Cross-check of `holds` with the environment's own (weaker) `admits`.
    for n in names(after) {
        let v = value_of(after, val, n);
        if !admits(after, &Approx::Alias(n), &v, 8) {
            return Err(format!(
                "cross-check: {} = {} satisfies {after} but `admits` rejects it",
                after.label(n),
                show_value(&v)
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The laws
// ---------------------------------------------------------------------------------------------
