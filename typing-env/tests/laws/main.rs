//! The laws of the typing environment (`absinthe_typing_env`), checked against a concrete
//! semantics written here, independently of the environment's own code.
//!
//! # The semantics
//!
//! A *valuation* gives every name of an environment a concrete value: an integer or a block (a
//! tag and fields). Constants are names whose value is always the constant. A valuation
//! *satisfies* an environment when the environment is not bottom and, for every name `n`:
//!
//! * `n` has the same value as the canonical element of its must-alias class, and
//! * `n`'s value is admitted by what the environment says of `n` ([`TypingEnv::approx_of`]),
//!   where an approximation admits a value as [`holds`] says: `⊤` admits anything, `⊥` nothing,
//!   an alias `=m` (at the top, in a field or in an extension alike) exactly the valuation's
//!   value of `m`, a set of immediates an integer of the set *whose case's extension holds*
//!   under the valuation, an interval of the declared domain an integer it contains, a block or
//!   a variant a block of a tag it lists whose fields (all of them for a full shape, at least one
//!   more than the largest known index for a partial one) are admitted by the shape's fields,
//!   `block` any block, and an "immediate or block" disjunction an integer of its immediates or
//!   a block its block part admits.
//!
//! The environment's own `admits` does not check aliases (it reads them as their class's
//! description), so it is only used as a cross-check of [`holds`].
//!
//! # How cases are drawn
//!
//! Each case is a script of choices (a vector of `u32`, which proptest shrinks: a shorter script
//! or smaller choices make a simpler case; past its end every choice is the first, simplest
//! option) and a seed for the valuations sampled to compare environments. A case first draws a
//! valuation `V` of three or four names (integers in `-3..=5`, blocks of tag 0 or 1 with one or
//! two integer fields, often equal to other names' values so that aliases have something to
//! say), then an environment `V` satisfies: each name defined with an approximation that admits
//! its value (⊤, its immediate, a small set holding it with extensions per case, an interval
//! holding it, an alias of an earlier name or of a constant of equal value, a full or partial
//! block shape of such fields, a variant or an "immediate or block" disjunction whose true part
//! admits it), then up to three refinements, each true under `V`. Half of the environments have
//! the integer fallback domain (intervals); intervals appear in approximations of both kinds.
//! Building the environment applies law 1 to every step: laws 2 to 6 skip a case whose
//! environment cannot be built, which law 1 reports.
//!
//! Failures print the script (shrunk by proptest) and, in the message, the environment, how it
//! was built, the constraint and the valuations involved.
//!
//! # The laws
//!
//! Each law runs [`CASES`] cases (from a fixed seed, so every run checks the same cases):
//! soundness of meet (law 1), meet is reductive (law 2), idempotent (law 3), `⊤` is neutral
//! (law 4), join is an upper bound (law 5), meet commutes up to meaning (law 6), and law 2b
//! (reductive whatever the sides and with extensions). Their first counterexamples, found
//! when the laws were written and fixed since (two extensions of one case on one name kept only
//! one constraint; a case lifted while its name was being met dropped its constraints; merging
//! "immediate or block" classes kept one side's blocks), are regression tests
//! ([`law2b_counterexamples`], [`law6b_counterexamples`]). Law 6b (the meet of two descriptions
//! commutes up to meaning) still fails in one place, a precision matter, and is `#[ignore]`d:
//! run it with `cargo test -p absinthe --test typing_env_laws -- --ignored`. No meet or join was
//! found unsound.

mod model;

use model::*;

use std::collections::BTreeMap;

use absinthe_typing_env::{Approx, Branch, Extension, Fields, Imm, Name, Proof, TypingEnv};
use proptest::prelude::*;

proptest! {
    #![proptest_config(config())]

    /// **Law 1, soundness of meet.** If a valuation satisfies an environment, and a constraint
    /// `n = c` holds under it (the value of `n` is admitted by `c`), then meeting `=n` with `c`
    /// is not bottom, the environment it gives is still satisfied by the valuation, and the
    /// approximation it returns admits the value of `n`. (Building the environment already
    /// applies this law to every definition and refinement, and the check cross-checks the
    /// semantics with the environment's own `admits`.)
    #[test]
    fn law1_meet_is_sound((script, _seed) in input()) {
        let mut ch = Choices::script(&script);
        let mut w = match world(&mut ch) {
            Ok(w) => w,
            Err(why) => return Err(TestCaseError::fail(why)),
        };
        let (n, c) = constraint(&mut ch, &mut w);
        let before = w.env.clone();
        let what = format!("={} ⊓ {}", before.label(n), before.show(&c));
        let met = before.meet(&Approx::Alias(n), &c);
        if let Err(why) = check_sound_meet(&before, met.as_ref(), &w.val, &w.val[&n], &what) {
            return Err(TestCaseError::fail(format!("{why}\n  built by:\n  {}", w.log())));
        }
    }

    /// **Law 2, meet is reductive.** Meeting only adds knowledge: every valuation that
    /// satisfies the environment after a meet satisfies it before. Checked on perturbations of
    /// the valuation (one or two names changed), for `=n ⊓ c` and `c ⊓ =n`, with approximations
    /// drawn *without extensions*: with them the law does not hold (law 2b).
    #[test]
    fn law2_meet_is_reductive((script, seed) in input()) {
        reductive(&script, seed, false)?;
    }

    /// **Law 2b, meet is reductive, whatever the sides**: law 2 with extensions drawn, and
    /// also for merging two classes (`=n ⊓ =m`, `=m ⊓ =n`, for `m` of `n`'s value). Its first
    /// counterexamples are kept as [`law2b_counterexamples`].
    #[test]
    fn law2b_meet_is_reductive_whatever_the_sides((script, seed) in input()) {
        reductive(&script, seed, true)?;
    }

    /// **Law 3, meet is idempotent.** Meeting the same constraint a second time teaches the
    /// environment nothing: it accepts exactly the same sampled valuations.
    ///
    /// Weakened from "prints the same": a description met with `⊤` is stored as it is, so a
    /// one-case set of immediates with an extension (`c : (0{a : 1})`, or such a field) keeps
    /// its extension, while meeting it again with itself goes through the meet of two sets,
    /// which lifts the extension of a single case into the environment (`c : 0`, `a : 1`). Both
    /// mean the same, but print otherwise. The printed form is checked to be stable from the
    /// second meet on: a third meet prints as the second.
    #[test]
    fn law3_meet_is_idempotent((script, seed) in input()) {
        let mut ch = Choices::script(&script);
        let Ok(mut w) = world(&mut ch) else { return Ok(()) };
        let (n, c) = constraint(&mut ch, &mut w);
        let before = w.env.clone();
        let Some((_, once)) = before.meet(&Approx::Alias(n), &c) else { return Ok(()) };
        let again = |env: &TypingEnv, nth: &str| match env.meet(&Approx::Alias(n), &c) {
            Some((_, env)) => Ok(env),
            None => Err(TestCaseError::fail(format!(
                "={} ⊓ {} is bottom the {nth} time: {before} → … → {env} → ⊥\n  built by:\n  {}",
                before.label(n),
                before.show(&c),
                w.log()
            ))),
        };
        let twice = again(&once, "second")?;
        let thrice = again(&twice, "third")?;
        let samples = samples(seed, &w.vars, &w.val);
        let (a, b) = (accepted(&once, &samples), accepted(&twice, &samples));
        if a != b {
            let i = a.iter().zip(&b).position(|(x, y)| x != y).expect("a difference");
            return Err(TestCaseError::fail(format!(
                "={} ⊓ {} twice accepts other valuations: {before} → {once} → {twice}; {} {} \
                 after once, {} after twice\n  built by:\n  {}",
                before.label(n),
                before.show(&c),
                show_val(&before, &samples[i]),
                if a[i] { "accepted" } else { "rejected" },
                if b[i] { "accepted" } else { "rejected" },
                w.log()
            )));
        }
        prop_assert_eq!(
            twice.to_string(),
            thrice.to_string(),
            "={} ⊓ {} three times prints otherwise than twice: {} → {} → …\n  built by:\n  {}",
            before.label(n),
            before.show(&c),
            before,
            once,
            w.log()
        );
    }

    /// **Law 4, ⊤ is neutral.** Meeting `⊤` into a name (on either side) is never bottom and
    /// changes nothing: the environment prints the same and accepts the same valuations. Checked
    /// on the built environment and on the one a random meet gives.
    #[test]
    fn law4_top_is_neutral((script, seed) in input()) {
        let mut ch = Choices::script(&script);
        let Ok(mut w) = world(&mut ch) else { return Ok(()) };
        let (n, c) = constraint(&mut ch, &mut w);
        let mut envs = vec![w.env.clone()];
        if let Some((_, after)) = w.env.meet(&Approx::Alias(n), &c) {
            envs.push(after);
        }
        let samples = samples(seed, &w.vars, &w.val);
        for env in &envs {
            for &m in &w.vars {
                for (a, b) in [(Approx::Alias(m), Approx::Top), (Approx::Top, Approx::Alias(m))] {
                    let Some((_, met)) = env.meet(&a, &b) else {
                        return Err(TestCaseError::fail(format!(
                            "{} ⊓ {} is bottom in {env}",
                            env.show(&a),
                            env.show(&b)
                        )));
                    };
                    let what = format!("{} ⊓ {} in {env}", env.show(&a), env.show(&b));
                    prop_assert_eq!(met.to_string(), env.to_string(), "{}", what);
                    prop_assert_eq!(
                        accepted(&met, &samples),
                        accepted(env, &samples),
                        "{} accepts other valuations",
                        what
                    );
                }
            }
        }
    }

    /// **Law 5, soundness of join.** Two branches are derived from an ancestor by refinements
    /// (and up to two definitions of their own), each true under its own valuation `Vᵢ` (each
    /// also satisfies the ancestor: `V` or a perturbation of it that does); each passes an
    /// argument admitting some value `aᵢ` (sometimes a second argument `bᵢ`). The join is an upper
    /// bound: it is satisfied by `Vᵢ` restricted to the ancestor's names, with the parameter `p`
    /// (and `q`) given `aᵢ` (and `bᵢ`), for both branches. Existentials the join introduces
    /// (for names the branches defined) are existentially quantified: some values for them,
    /// searched among the branch's values and their fields, must complete the valuation.
    #[test]
    fn law5_join_is_sound((script, seed) in input()) {
        let mut ch = Choices::script(&script);
        let Ok(w) = world(&mut ch) else { return Ok(()) };
        let ancestor = &w.env;
        let mut candidates = vec![w.val.clone()];
        candidates.extend(
            samples(seed, &w.vars, &w.val)
                .into_iter()
                .skip(1)
                .filter(|s| sat(ancestor, s)),
        );
        let two_params = ch.one_in(3);
        let params: &[&str] = if two_params { &["p", "q"] } else { &["p"] };
        // What each parameter gets in a branch that defined names of its own: anything (0), one
        // of those names (1) or a pair of one, `(=t, =t)` (2). Chosen for both branches at once,
        // so that the join often pairs their names into an existential.
        let shapes: Vec<usize> = params.iter().map(|_| ch.pick(3)).collect();
        let mut built = Vec::new();
        for branch in 0..2 {
            let mut val = candidates[ch.pick(candidates.len())].clone();
            let mut env = ancestor.clone();
            let mut vars = w.vars.clone();
            let mut log = vec![format!("branch {branch}, under {}", show_val(ancestor, &val))];
            // Names of the branch's own (which the join expands, or pairs into existentials).
            let mut locals = Vec::new();
            for label in ["t", "u"].into_iter().take(ch.pick(3)) {
                let v = if ch.one_in(2) {
                    value(&mut ch)
                } else {
                    val[&ch.element(&vars)].clone()
                };
                let scope = names(&env);
                let approx = truthful(&mut ch, &mut env, &val, &v, &scope, 2);
                log.push(format!(
                    "define {label} : {}   (value {})",
                    env.show(&approx),
                    show_value(&v)
                ));
                let t = env.define(label, approx);
                val.insert(t, v);
                vars.push(t);
                locals.push(t);
            }
            for _ in 0..ch.pick(4) {
                let n = ch.element(&vars);
                let scope = names(&env);
                let v = val[&n].clone();
                let c = truthful(&mut ch, &mut env, &val, &v, &scope, 2);
                log.push(format!("refine {} with {}", env.label(n), env.show(&c)));
                match env.refine(n, &c) {
                    Some(e) => env = e,
                    None => {
                        return Err(TestCaseError::fail(format!(
                            "a refinement true under the valuation is bottom\n  {}\n  ancestor \
                             built by:\n  {}",
                            log.join("\n  "),
                            w.log()
                        )))
                    }
                }
            }
            if let Err(why) = satisfies(&env, &val) {
                return Err(TestCaseError::fail(format!(
                    "branch {env} is not satisfied by {}: {why}\n  {}\n  ancestor built by:\n  {}",
                    show_val(&env, &val),
                    log.join("\n  "),
                    w.log()
                )));
            }
            let mut args = Vec::new();
            let mut arg_values = Vec::new();
            for &shape in &shapes {
                let (a, approx) = if !locals.is_empty() && shape > 0 {
                    let t = ch.element(&locals);
                    if shape == 2 {
                        let v = val[&t].clone();
                        (CV::Block(0, vec![v.clone(), v]), Approx::tuple([Approx::Alias(t), Approx::Alias(t)]))
                    } else {
                        (val[&t].clone(), Approx::Alias(t))
                    }
                } else {
                    let a = if ch.one_in(2) { val[&ch.element(&vars)].clone() } else { value(&mut ch) };
                    let scope = names(&env);
                    let approx = truthful(&mut ch, &mut env, &val, &a, &scope, 2);
                    (a, approx)
                };
                log.push(format!("passes {}   (value {})", env.show(&approx), show_value(&a)));
                args.push(approx);
                arg_values.push(a);
            }
            built.push((env, val, args, arg_values, log));
        }
        let branches: Vec<Branch<'_>> = built
            .iter()
            .map(|(env, _, args, _, _)| Branch { env, args })
            .collect();
        let (joined, names_of_params) = ancestor.join(&branches, params);
        for (env, val, _, arg_values, log) in &built {
            let mut restricted: Val = val
                .iter()
                .filter(|(n, _)| n.index() < ancestor.len())
                .map(|(&n, v)| (n, v.clone()))
                .collect();
            for (&p, a) in names_of_params.iter().zip(arg_values) {
                restricted.insert(p, a.clone());
            }
            // The existentials of the join stand for values of names the branches defined.
            let mut candidates = Vec::new();
            for v in val.values().chain(arg_values) {
                with_parts(v, &mut candidates);
            }
            if let Err(why) = satisfiable(&joined, &restricted, &candidates) {
                let others: Vec<String> = built
                    .iter()
                    .map(|(e, _, _, _, l)| format!("{e}\n    {}", l.join("\n    ")))
                    .collect();
                return Err(TestCaseError::fail(format!(
                    "the join {joined} of {ancestor} is not satisfied by {} (from the branch \
                     {env}, {}): {why}\n  branches:\n  {}\n  ancestor built by:\n  {}",
                    show_val(&joined, &restricted),
                    log.join("; "),
                    others.join("\n  "),
                    w.log()
                )));
            }
        }
    }

    /// **Law 6, meet is commutative up to meaning.** `=n ⊓ c` and `c ⊓ =n` accept exactly the
    /// same sampled valuations. Where both sides are other than one name, the two orders are
    /// only checked to be sound (law 1: not bottom, the environment still satisfied, the result
    /// admitting the value of `n`): `=n ⊓ =m` and `=m ⊓ =n` for a name `m` of equal value, and
    /// `c₁ ⊓ c₂` and `c₂ ⊓ c₁` for two descriptions both true of `n` (then the result given to
    /// `n`). That these also mean the same is law 6b, which does not hold (see there).
    #[test]
    fn law6_meet_commutes_up_to_meaning((script, seed) in input()) {
        two_descriptions(&script, seed, false)?;
    }

    /// **Law 7, the specialised queries are sound.** What `prove_is_block`, `prove_tags`,
    /// `prove_immediates` and `prove_field` prove of a name holds of its value in a valuation
    /// that satisfies the environment, and none says `Invalid` of a name that has a value (a
    /// field is `Invalid` only where the value has no such field).
    #[test]
    fn law7_queries_are_sound((script, _seed) in input()) {
        let mut ch = Choices::script(&script);
        let w = match world(&mut ch) {
            Ok(w) => w,
            Err(why) => return Err(TestCaseError::fail(why)),
        };
        for n in names(&w.env) {
            if let Err(why) = queries_hold(&w.env, &w.val, n) {
                return Err(TestCaseError::fail(format!("{why}\n  built by:\n  {}", w.log())));
            }
        }
    }

}

/// Checks law 7 for `n`.
fn queries_hold(env: &TypingEnv, val: &Val, n: Name) -> Result<(), String> {
    let v = value_of(env, val, n);
    let fail = |query: &str, answer: String| {
        Err(format!(
            "{query}({}) = {answer} in {env}, but its value is {}",
            env.label(n),
            show_value(&v)
        ))
    };
    match env.prove_is_block(n) {
        Proof::Proved(b) if b != matches!(v, CV::Block(..) | CV::Closure(..)) => {
            return fail("prove_is_block", format!("{b}"));
        }
        Proof::Invalid => return fail("prove_is_block", "invalid".into()),
        _ => {}
    }
    match env.prove_tags(n) {
        Proof::Proved(tags) if !matches!(&v, CV::Block(tag, _) if tags.contains(tag)) => {
            return fail("prove_tags", format!("{tags:?}"));
        }
        Proof::Invalid => return fail("prove_tags", "invalid".into()),
        _ => {}
    }
    match env.prove_immediates(n) {
        Proof::Proved(imms)
            if !matches!(&v, CV::Int(i) if imms.contains(&Imm::Int(*i)))
                && !imms.iter().any(|imm| matches!(imm, Imm::Ctor(_))) =>
        {
            return fail("prove_immediates", format!("{imms:?}"));
        }
        Proof::Invalid => return fail("prove_immediates", "invalid".into()),
        _ => {}
    }
    for index in 0..3 {
        let field = match &v {
            CV::Block(_, fields) => fields.get(index),
            _ => None,
        };
        match (env.prove_field(n, index), field) {
            (Proof::Proved(a), Some(f)) if !holds(env, val, &a, f) => {
                return fail(&format!("prove_field[{index}]"), env.show(&a).to_string());
            }
            (Proof::Proved(a), None) => {
                return fail(&format!("prove_field[{index}]"), env.show(&a).to_string());
            }
            (Proof::Invalid, Some(_)) => {
                return fail(&format!("prove_field[{index}]"), "invalid".into());
            }
            _ => {}
        }
    }
    Ok(())
}

proptest! {
    // More cases: the counterexamples need two "immediate or block" or variant descriptions
    // (or extended cases) to meet, which few cases draw.
    #![proptest_config(ProptestConfig { cases: 8 * CASES, ..config() })]

    /// **Law 6b, meet is commutative up to meaning, whatever the sides**: `=n ⊓ =m` and
    /// `=m ⊓ =n` (merging two classes) accept the same sampled valuations, and so do `c₁ ⊓ c₂`
    /// then giving the result to `n` and `c₂ ⊓ c₁` then `n`. Its first counterexamples are
    /// kept as [`law6b_counterexamples`]; it still fails where two extensions constrain one
    /// name with aliases or blocks on both sides (`(-3{a : =a} | 4) ⊓ (-3{a : =4} | 4)`): without
    /// an environment the two constraints cannot be made one, and the meet keeps the first side's
    /// (sound, not commutative).
    #[test]
    #[ignore = "two extensions constraining one name with aliases on both sides keep the first \
                side's constraint: see the law's documentation"]
    fn law6b_meet_of_descriptions_commutes_up_to_meaning((script, seed) in input()) {
        two_descriptions(&script, seed, true)?;
    }
}

/// The smallest cases where law 2b failed (fixed since; kept as regressions): the environment
/// after a meet accepted a valuation the environment before rejected, because the meet forgot
/// something the environment knew. The causes, as they were:
///
/// 1. Two cases of one immediate extending on the same name keep only the second's constraint
///    (`Extension::and` says both must hold, but the meet collects them into a map by name):
///    `{y : ⊤; x : (1{y : 5} | 2)}` refined by `x = (1{y : ⊤})` is `{y : ⊤; x : 1}`, which
///    accepts `{y = 0, x = 1}` (exactly, `y : 5`).
/// 2. A case lifted while its name is being met drops its constraints on that name (the guard
///    against cycles, "a name already being met is not met again", skips the constraint
///    instead of keeping it): `{y : ⊤; x : (0 | 5{y : =x})}` refined by `x = 5` is
///    `{y : ⊤; x : 5}`, which accepts `{y = 0, x = 5}` (exactly, `y : =x`). The same happens to
///    a class being merged: `=c ⊓ =d` with `c : (0 | 5{b : =d})`, `d : 5` forgets `b = d`.
/// 3. Merging two classes whose descriptions are both "immediate or block" with common
///    immediates and blocks that may meet keeps the first side's blocks only (the same for two
///    variants with several common tags, which keep the first side's fields):
///    `{x : (1 | #0(3)); y : (1 | 2 | #0(4))}` with `=y ⊓ =x` is `{x : (1 | #0(4)); y : =x}`,
///    which accepts `x = y = #0(4)`, which `x : (1 | #0(3))` rejected (exactly, `x : 1`).
#[test]
fn law2b_counterexamples() {
    let int = |x: i64| Approx::imm(Imm::Int(x));
    let cases_of = |cases: Vec<(i64, Extension)>| {
        cases
            .into_iter()
            .map(|(x, e)| (Imm::Int(x), e))
            .collect::<BTreeMap<Imm, Extension>>()
    };
    let on = |n: Name, a: Approx| Extension {
        constraints: BTreeMap::from([(n, a)]),
    };
    let plain = Extension::default;
    let mut failures = Vec::new();
    let mut check = |before: &TypingEnv, a: Approx, b: Approx, w: Val| {
        let (_, after) = before.meet(&a, &b).expect("not bottom");
        if sat(&after, &w) && !sat(before, &w) {
            failures.push(format!(
                "{} ⊓ {}: {before} → {after}, which accepts {} ({})",
                before.show(&a),
                before.show(&b),
                show_val(before, &w),
                satisfies(before, &w).expect_err("rejected before")
            ));
        }
    };
    // 1. Two extensions of one case on the same name.
    let mut env = TypingEnv::new();
    let y = env.define("y", Approx::Top);
    let x = env.define(
        "x",
        Approx::cases(cases_of(vec![(1, on(y, int(5))), (2, plain())])),
    );
    check(
        &env,
        Approx::Alias(x),
        Approx::cases(cases_of(vec![(1, on(y, Approx::Top))])),
        Val::from([(y, CV::Int(0)), (x, CV::Int(1))]),
    );
    // 2. A lifted case mentioning the name being met.
    let mut env = TypingEnv::new();
    let y = env.define("y", Approx::Top);
    let x = env.define("x", Approx::Top);
    let env = env
        .refine(
            x,
            &Approx::cases(cases_of(vec![(0, plain()), (5, on(y, Approx::Alias(x)))])),
        )
        .expect("not bottom");
    check(
        &env,
        Approx::Alias(x),
        int(5),
        Val::from([(y, CV::Int(0)), (x, CV::Int(5))]),
    );
    let mut env = TypingEnv::new();
    let b = env.define("b", Approx::Top);
    let d = env.define("d", int(5));
    let c = env.define(
        "c",
        Approx::cases(cases_of(vec![(0, plain()), (5, on(b, Approx::Alias(d)))])),
    );
    check(
        &env,
        Approx::Alias(c),
        Approx::Alias(d),
        Val::from([(b, CV::Int(0)), (d, CV::Int(5)), (c, CV::Int(5))]),
    );
    // 3. Merging two "immediate or block" classes.
    let (env, x, y) = either_classes();
    let block = CV::Block(0, vec![CV::Int(4)]);
    check(
        &env,
        Approx::Alias(y),
        Approx::Alias(x),
        Val::from([(x, block.clone()), (y, block)]),
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Law 2 (and, with `full`, law 2b) on the case drawn from `script` and `seed`.
fn reductive(script: &[u32], seed: u64, full: bool) -> Result<(), TestCaseError> {
    let mut ch = Choices::script(script);
    ch.extensions = full;
    let Ok(mut w) = world(&mut ch) else {
        return Ok(());
    };
    let (n, c) = constraint(&mut ch, &mut w);
    let before = w.env.clone();
    let mut meets = vec![(Approx::Alias(n), c.clone()), (c, Approx::Alias(n))];
    if full {
        let v = &w.val[&n];
        let equals: Vec<Name> = w
            .vars
            .iter()
            .copied()
            .filter(|&m| m != n && w.val[&m] == *v)
            .collect();
        if !equals.is_empty() {
            let m = ch.element(&equals);
            meets.push((Approx::Alias(n), Approx::Alias(m)));
            meets.push((Approx::Alias(m), Approx::Alias(n)));
        }
    }
    let samples = samples(seed, &w.vars, &w.val);
    for (a, b) in &meets {
        let Some((_, after)) = before.meet(a, b) else {
            continue;
        };
        for s in &samples {
            if sat(&after, s) {
                if let Err(why) = satisfies(&before, s) {
                    return Err(TestCaseError::fail(format!(
                        "{} satisfies {after} ({} ⊓ {}) but not {before}: {why}\n  built by:\n  \
                         {}",
                        show_val(&before, s),
                        before.show(a),
                        before.show(b),
                        w.log()
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Law 6 (and, with `equal`, law 6b) on the case drawn from `script` and `seed`.
fn two_descriptions(script: &[u32], seed: u64, equal: bool) -> Result<(), TestCaseError> {
    let mut ch = Choices::script(script);
    let Ok(mut w) = world(&mut ch) else {
        return Ok(());
    };
    let (n, c) = constraint(&mut ch, &mut w);
    let scope = names(&w.env);
    let v = w.val[&n].clone();
    let c2 = truthful(&mut ch, &mut w.env, &w.val, &v, &scope, 2);
    let env = w.env.clone();
    let samples = samples(seed, &w.vars, &w.val);
    let accepts = |met: Option<(Approx, TypingEnv)>| -> Vec<bool> {
        match met {
            Some((_, e)) => accepted(&e, &samples),
            None => vec![false; samples.len()],
        }
    };
    let left = accepts(env.meet(&Approx::Alias(n), &c));
    let right = accepts(env.meet(&c, &Approx::Alias(n)));
    prop_assert_eq!(
        &left,
        &right,
        "=n ⊓ c and c ⊓ =n differ, n = {}, c = {}, in {}\n  built by:\n  {}",
        env.label(n),
        env.show(&c),
        env,
        w.log()
    );
    // Two names of equal value, merged in either order: both sound, and (law 6b) of one
    // meaning.
    let equals: Vec<Name> = w
        .vars
        .iter()
        .copied()
        .filter(|&m| m != n && w.val[&m] == v)
        .collect();
    if !equals.is_empty() {
        let m = ch.element(&equals);
        let (x, y) = (Approx::Alias(n), Approx::Alias(m));
        let merged = |a: &Approx, b: &Approx| -> Result<TypingEnv, TestCaseError> {
            let what = format!("{} ⊓ {}", env.show(a), env.show(b));
            let met = env.meet(a, b);
            check_sound_meet(&env, met.as_ref(), &w.val, &v, &what)
                .map_err(|why| TestCaseError::fail(format!("{why}\n  built by:\n  {}", w.log())))?;
            Ok(met.expect("checked").1)
        };
        let (one, other) = (merged(&x, &y)?, merged(&y, &x)?);
        let (a, b) = (accepted(&one, &samples), accepted(&other, &samples));
        if equal && a != b {
            let i = a
                .iter()
                .zip(&b)
                .position(|(p, q)| p != q)
                .expect("a difference");
            return Err(TestCaseError::fail(format!(
                "={n} ⊓ ={m} and ={m} ⊓ ={n} differ in {env}:\n  {one} {} {}\n  {other} {} \
                 it\n  built by:\n  {}",
                if a[i] { "accepts" } else { "rejects" },
                show_val(&env, &samples[i]),
                if b[i] { "accepts" } else { "rejects" },
                w.log(),
                n = env.label(n),
                m = env.label(m),
            )));
        }
    }
    // Two descriptions met with each other, the result then given to `n`.
    let both = |a: &Approx, b: &Approx| -> Result<TypingEnv, String> {
        let what = format!("{} ⊓ {}", env.show(a), env.show(b));
        let met = env.meet(a, b);
        check_sound_meet(&env, met.as_ref(), &w.val, &v, &what)?;
        let (r, e) = met.expect("checked");
        let what = format!("={} ⊓ {}", e.label(n), e.show(&r));
        let met = e.meet(&Approx::Alias(n), &r);
        check_sound_meet(&e, met.as_ref(), &w.val, &v, &what)?;
        Ok(met.expect("checked").1)
    };
    let (one, other) = match (both(&c, &c2), both(&c2, &c)) {
        (Ok(one), Ok(other)) => (one, other),
        (Err(why), _) | (_, Err(why)) => {
            return Err(TestCaseError::fail(format!(
                "{why}\n  built by:\n  {}",
                w.log()
            )));
        }
    };
    let (a, b) = (accepted(&one, &samples), accepted(&other, &samples));
    if equal && a != b {
        let i = a
            .iter()
            .zip(&b)
            .position(|(x, y)| x != y)
            .expect("a difference");
        return Err(TestCaseError::fail(format!(
            "c₁ ⊓ c₂ and c₂ ⊓ c₁ (then given to {}) differ, c₁ = {}, c₂ = {}, in {env}:\n  \
             {one} {} {}\n  {other} {} it\n  built by:\n  {}",
            env.label(n),
            env.show(&c),
            env.show(&c2),
            if a[i] { "accepts" } else { "rejects" },
            show_val(&env, &samples[i]),
            if b[i] { "accepts" } else { "rejects" },
            w.log()
        )));
    }
    Ok(())
}

/// The smallest cases where law 6b failed (fixed since; kept as regressions): `x : ⊤`, `y : ⊤`, two descriptions `c₁`, `c₂` met in
/// both orders and the result given to `x`; a valuation one order accepts and the other
/// rejects. All three are sound (each result is above the exact meet) but keep one side's part
/// where the exact meet would keep both:
///
/// 1. "immediate or block" with "immediate or block", both parts possible: the common
///    immediates and the *first* side's blocks (`(1 | #0(3)) ⊓ (1 | 2 | #0(4))` is
///    `(1 | #0(3))`, the other way `(1 | #0(4))`; exactly, `1`). The code says so ("the first
///    side's blocks are sound").
/// 2. Variant with variant, several common tags: the *first* side's fields
///    (`(#0(3) | #1()) ⊓ (#0(4) | #1())` is `(#0(3) | #1())`, the other way `(#0(4) | #1())`;
///    exactly, `#1()`). The code says so too.
/// 3. Two sets of immediates whose common case both extend on the same name:
///    `(1{y : 5} | 2) ⊓ (1{y : 6} | 2)` is `(1{y : 6} | 2)`, the other way `(1{y : 5} | 2)`;
///    exactly, `2` (`y` cannot be both). `Extension::and` says "where both constrain a name,
///    both approximations must hold", but the meet collects its pairs into a map by name, which
///    keeps only the second side's. So `refine x (1{y : 5} | 2)` then `refine x (1{y : 6} | 2)`
///    then `refine x 1` gives `{x : 1; y : 6}`, not bottom.
///
/// And, the first cause seen through aliases: merging two classes meets their descriptions in
/// the order of the sides, so with `x : (1 | #0(3))` and `y : (1 | 2 | #0(4))`, `=x ⊓ =y` gives
/// `x : (1 | #0(3))` and `=y ⊓ =x` gives `x : (1 | #0(4))` (exactly, `1`): the valuation
/// `x = y = #0(3)` satisfies the first only.
#[test]
fn law6b_counterexamples() {
    let int = |x: i64| Approx::imm(Imm::Int(x));
    let cases_of = |cases: Vec<(i64, Extension)>| {
        cases
            .into_iter()
            .map(|(x, e)| (Imm::Int(x), e))
            .collect::<BTreeMap<Imm, Extension>>()
    };
    let mut env = TypingEnv::new();
    let x = env.define("x", Approx::Top);
    let y = env.define("y", Approx::Top);
    let on_y = |a: Approx| Extension {
        constraints: BTreeMap::from([(y, a)]),
    };
    let plain = Extension::default;
    let val = |vx: CV, vy: CV| Val::from([(x, vx), (y, vy)]);
    let counterexamples = [
        (
            Approx::either(cases_of(vec![(1, plain())]), Approx::block(0, [int(3)])),
            Approx::either(
                cases_of(vec![(1, plain()), (2, plain())]),
                Approx::block(0, [int(4)]),
            ),
            val(CV::Block(0, vec![CV::Int(3)]), CV::Int(0)),
        ),
        (
            Approx::variant(BTreeMap::from([
                (0, Fields::Full(vec![int(3)])),
                (1, Fields::Full(vec![])),
            ])),
            Approx::variant(BTreeMap::from([
                (0, Fields::Full(vec![int(4)])),
                (1, Fields::Full(vec![])),
            ])),
            val(CV::Block(0, vec![CV::Int(3)]), CV::Int(0)),
        ),
        (
            Approx::cases(cases_of(vec![(1, on_y(int(5))), (2, plain())])),
            Approx::cases(cases_of(vec![(1, on_y(int(6))), (2, plain())])),
            val(CV::Int(1), CV::Int(6)),
        ),
    ];
    let mut failures = Vec::new();
    for (c1, c2, w) in &counterexamples {
        let given = |a: &Approx, b: &Approx| {
            let (r, e) = env.meet(a, b).expect("not bottom");
            let shown = e.show(&r).to_string();
            (shown, e.refine(x, &r).expect("not bottom"))
        };
        let ((r1, one), (r2, other)) = (given(c1, c2), given(c2, c1));
        if sat(&one, w) != sat(&other, w) {
            failures.push(format!(
                "{} ⊓ {} = {r1}, the other way {r2}: {} satisfies {one}: {}, {other}: {}",
                env.show(c1),
                env.show(c2),
                show_val(&env, w),
                sat(&one, w),
                sat(&other, w)
            ));
        }
    }
    // Merging two classes meets their descriptions in the order of the sides.
    let (env, x, y) = either_classes();
    let w = Val::from([
        (x, CV::Block(0, vec![CV::Int(3)])),
        (y, CV::Block(0, vec![CV::Int(3)])),
    ]);
    let (_, one) = env
        .meet(&Approx::Alias(x), &Approx::Alias(y))
        .expect("1 in both");
    let (_, other) = env
        .meet(&Approx::Alias(y), &Approx::Alias(x))
        .expect("1 in both");
    if sat(&one, &w) != sat(&other, &w) {
        failures.push(format!(
            "=x ⊓ =y in {env} is {one}, =y ⊓ =x is {other}: {} satisfies the first: {}, the \
             second: {}",
            show_val(&env, &w),
            sat(&one, &w),
            sat(&other, &w)
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `{x : (1 | #0(3)); y : (1 | 2 | #0(4))}`: two "immediate or block" classes whose blocks
/// cannot meet (exactly, `x ⊓ y` is `1`).
fn either_classes() -> (TypingEnv, Name, Name) {
    let int = |x: i64| Approx::imm(Imm::Int(x));
    let plain = Extension::default;
    let mut env = TypingEnv::new();
    let x = env.define(
        "x",
        Approx::either(
            BTreeMap::from([(Imm::Int(1), plain())]),
            Approx::block(0, [int(3)]),
        ),
    );
    let y = env.define(
        "y",
        Approx::either(
            BTreeMap::from([(Imm::Int(1), plain()), (Imm::Int(2), plain())]),
            Approx::block(0, [int(4)]),
        ),
    );
    (env, x, y)
}
