//! A typing environment as an abstract domain, after the static analysis of OCaml's Flambda 2
//! simplifier: names mapped to approximations (finite sets of immediates, blocks with full or
//! partial shapes whose fields are approximations), must-alias classes kept by union-find with
//! one canonical element per class (the only one with a description), constants as predefined
//! canonical names, and a meet that returns the refined approximation together with the
//! environment the constraint refined — which is how a branch on `y = A` after `y = fst x`
//! teaches the environment that `x : (A, ⊤)`.
//!
//! Disjunctions of immediates carry an [`Extension`] per case (what else holds when the value is
//! that one), lifted into the environment when a meet leaves one case. An environment keeps the
//! history of the names it changed, so [`TypingEnv::join`] over a common ancestor only joins
//! what the branches changed, keeping the names they defined as existentials where both
//! branches relate them alike and expanding them elsewhere. Function summaries are
//! extensions ([`TypingEnv::summary`], [`TypingEnv::apply_summary`]).

mod approx;
mod env;
mod flow;
mod ints;
mod join;
mod lock;
mod module;
mod queries;
mod summary;

pub use approx::{Approx, Block, Closure, Desc, Extension, Fields, Imm, Naked, Name, NumberKind};
pub use env::TypingEnv;
pub use flow::{BlockEnvs, ConcreteValue, EnvSolution, admits, analyze, analyze_with};
pub use ints::Ints;
pub use join::Branch;
pub use module::{solve_declared, solve_module, summarize, summary_holds, with_module_names};
pub use queries::Proof;
pub use summary::Summary;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn shown(env: &TypingEnv, approx: &Approx) -> String {
        env.show(approx).to_string()
    }

    #[test]
    fn the_first_meet_example_of_the_talk() {
        // {x : (A, ⊤); y : ⊤}  =x ⊓ (=y, B)  →  {x : (=y, B); y : A}  =x
        let mut env = TypingEnv::new();
        let x = env.define("x", Approx::tuple([Approx::ctor("A"), Approx::Top]));
        let y = env.define("y", Approx::Top);
        assert_eq!(env.to_string(), "{x : (A, ⊤); y : ⊤}");
        let constraint = Approx::tuple([Approx::Alias(y), Approx::ctor("B")]);
        let (result, env) = env
            .meet(&Approx::Alias(x), &constraint)
            .expect("compatible");
        assert_eq!(shown(&env, &result), "=x");
        assert_eq!(env.to_string(), "{x : (=y, B); y : A}");
    }

    #[test]
    fn the_second_meet_example_of_the_talk() {
        // {x : (=y, ⊤); y : ⊤; z : A}  =x ⊓ (=z, ⊤)
        //   →  {x : (=y, ⊤); y : A; z : =y | aliases : {y, z}}  =x
        let mut env = TypingEnv::new();
        let x = env.define("x", Approx::Top);
        let y = env.define("y", Approx::Top);
        let z = env.define("z", Approx::ctor("A"));
        let env = env
            .refine(x, &Approx::tuple([Approx::Alias(y), Approx::Top]))
            .expect("compatible");
        assert_eq!(env.to_string(), "{x : (=y, ⊤); y : ⊤; z : A}");
        let constraint = Approx::tuple([Approx::Alias(z), Approx::Top]);
        let (result, env) = env
            .meet(&Approx::Alias(x), &constraint)
            .expect("compatible");
        assert_eq!(shown(&env, &result), "=x");
        assert_eq!(
            env.to_string(),
            "{x : (=y, ⊤); y : A; z : =y | aliases : {y, z}}"
        );
    }

    /// `let block = x, x in match block with A, A | B, B | A, B | B, A`: the mixed cases are
    /// unreachable, the others refine `x`.
    #[test]
    fn field_to_field_proves_the_mixed_cases_unreachable() {
        let mut env = TypingEnv::new();
        let x = env.define("x", Approx::imms([Imm::ctor("A"), Imm::ctor("B")]));
        let block = env.define("block", Approx::tuple([Approx::Alias(x), Approx::Alias(x)]));
        let case = |a: &str, b: &str| {
            env.refine(block, &Approx::tuple([Approx::ctor(a), Approx::ctor(b)]))
        };
        let both_a = case("A", "A").expect("reachable");
        assert_eq!(shown(&both_a, &both_a.describe(x)), "A");
        let both_b = case("B", "B").expect("reachable");
        assert_eq!(shown(&both_b, &both_b.describe(x)), "B");
        assert!(case("A", "B").is_none());
        assert!(case("B", "A").is_none());
    }

    /// `let y = fst x in match y with A -> …`: in the branch, `x : (A, ⊤)`.
    #[test]
    fn a_branch_on_a_projection_refines_the_block() {
        let mut env = TypingEnv::new();
        let x = env.define("x", Approx::tuple([Approx::Top, Approx::Top]));
        let y = env.define("y", Approx::Top);
        // Binding `y = fst x` relates `x[0]` and `y`.
        let env = env
            .refine(x, &Approx::projection(0, 0, Approx::Alias(y)))
            .expect("compatible");
        assert_eq!(env.to_string(), "{x : (=y, ⊤); y : ⊤}");
        let branch = env.refine(y, &Approx::ctor("A")).expect("reachable");
        assert_eq!(branch.to_string(), "{x : (=y, ⊤); y : A}");
        assert_eq!(shown(&branch, &branch.describe(x)), "(A, ⊤)");
    }

    /// `let block = x, y in fst block + snd block`: the projections read back `x` and `y`.
    #[test]
    fn projections_of_a_built_block_read_back_its_fields() {
        let mut env = TypingEnv::new();
        let x = env.define("x", Approx::Top);
        let y = env.define("y", Approx::Top);
        let block = env.define("block", Approx::tuple([Approx::Alias(x), Approx::Alias(y)]));
        let a = env.define("a", Approx::Top);
        let env = env
            .refine(block, &Approx::projection(0, 0, Approx::Alias(a)))
            .expect("compatible");
        let b = {
            let mut env = env.clone();
            let b = env.define("b", Approx::Top);
            let env = env
                .refine(block, &Approx::projection(0, 1, Approx::Alias(b)))
                .expect("compatible");
            assert_eq!(env.canonical(a), x);
            assert_eq!(env.canonical(b), y);
            env
        };
        assert_eq!(
            b.to_string(),
            "{x : ⊤; y : ⊤; block : (=x, =y); a : =x; b : =y | aliases : {x, a}, {y, b}}"
        );
    }

    #[test]
    fn constants_are_canonical_names() {
        let mut env = TypingEnv::new();
        let x = env.define("x", Approx::Top);
        let three = env.constant(Imm::Int(3));
        let (result, env) = env
            .meet(&Approx::Alias(x), &Approx::Alias(three))
            .expect("compatible");
        assert_eq!(shown(&env, &result), "=3");
        assert_eq!(env.canonical(x), three);
        assert_eq!(env.to_string(), "{x : =3 | aliases : {x, 3}}");
        assert!(env.refine(x, &Approx::imm(Imm::Int(4))).is_none());
    }

    #[test]
    fn shapes_tags_and_kinds_that_disagree_are_bottom() {
        let mut env = TypingEnv::new();
        let x = env.define("x", Approx::tuple([Approx::Top, Approx::Top]));
        assert!(env.refine(x, &Approx::tuple([Approx::Top])).is_none());
        assert!(
            env.refine(x, &Approx::block(1, [Approx::Top, Approx::Top]))
                .is_none()
        );
        assert!(
            env.refine(x, &Approx::projection(0, 2, Approx::Top))
                .is_none()
        );
        assert!(env.refine(x, &Approx::ctor("A")).is_none());
        let partial = env
            .refine(x, &Approx::projection(0, 1, Approx::ctor("B")))
            .expect("compatible");
        assert_eq!(partial.to_string(), "{x : (⊤, B)}");
    }

    #[test]
    fn a_cycle_through_names_terminates() {
        // x : (=x, ⊤), a block whose first field is itself.
        let mut env = TypingEnv::new();
        let x = env.define("x", Approx::Top);
        let env = env
            .refine(x, &Approx::tuple([Approx::Alias(x), Approx::Top]))
            .expect("compatible");
        let again = env
            .refine(x, &Approx::tuple([Approx::Alias(x), Approx::ctor("A")]))
            .expect("compatible");
        assert_eq!(again.to_string(), "{x : (=x, A)}");
    }

    /// `let tag, arg = if cond then A, y else B, z in …`: the join keeps which `arg` goes with
    /// which tag, and a later `tag = A` gives back `arg = y`.
    #[test]
    fn variant_unboxing_keeps_each_case_s_argument() {
        let mut env = TypingEnv::new();
        let cond = env.define("cond", Approx::imms([Imm::Int(0), Imm::Int(1)]));
        let y = env.define("y", Approx::Top);
        let z = env.define("z", Approx::Top);
        let then = env
            .refine(cond, &Approx::imm(Imm::Int(1)))
            .expect("reachable");
        let otherwise = env
            .refine(cond, &Approx::imm(Imm::Int(0)))
            .expect("reachable");
        let then_args = [Approx::ctor("A"), Approx::Alias(y)];
        let else_args = [Approx::ctor("B"), Approx::Alias(z)];
        let (joined, params) = env.join(
            &[
                Branch {
                    env: &then,
                    args: &then_args,
                },
                Branch {
                    env: &otherwise,
                    args: &else_args,
                },
            ],
            &["tag", "arg"],
        );
        let (tag, arg) = (params[0], params[1]);
        let shown = |env: &TypingEnv| {
            format!(
                "{{arg : {}; tag : {}}}",
                env.show(&env.approx_of(arg)),
                env.show(&env.approx_of(tag))
            )
        };
        assert_eq!(
            shown(&joined),
            "{arg : ⊤; tag : (A{arg : =y} | B{arg : =z})}"
        );
        // The condition is back to either value after the join.
        assert_eq!(joined.show(&joined.approx_of(cond)).to_string(), "0 | 1");
        let case_a = joined.refine(tag, &Approx::ctor("A")).expect("reachable");
        assert_eq!(case_a.canonical(arg), y);
        let case_b = joined.refine(tag, &Approx::ctor("B")).expect("reachable");
        assert_eq!(case_b.canonical(arg), z);
        assert!(joined.refine(tag, &Approx::ctor("C")).is_none());
    }

    /// `let f x y = (x, y)` has the summary `{result : (=x, =y)}`; applied at `let r = f a b`,
    /// it tells the caller that `fst r` is `a`.
    #[test]
    fn a_function_summary_refines_the_caller() {
        let mut callee = TypingEnv::new();
        let x = callee.define("x", Approx::Top);
        let y = callee.define("y", Approx::Top);
        let result = callee.define(
            "result",
            Approx::tuple([Approx::Alias(x), Approx::Alias(y)]),
        );
        let summary = callee.summary(&[x, y], result);
        let shown: Vec<String> = summary
            .constraints
            .iter()
            .map(|(&n, a)| format!("{} : {}", callee.label(n), callee.show(a)))
            .collect();
        assert_eq!(format!("{{{}}}", shown.join("; ")), "{result : (=x, =y)}");

        let mut caller = TypingEnv::new();
        let a = caller.define("a", Approx::ctor("A"));
        let b = caller.define("b", Approx::Top);
        let r = caller.define("r", Approx::Top);
        let caller = caller
            .apply_summary(&summary, &[x, y], &[a, b], r, result)
            .expect("the call returns");
        assert_eq!(caller.to_string(), "{a : A; b : ⊤; r : (=a, =b)}");
        let mut caller = caller;
        let first = caller.define("first", Approx::Top);
        let caller = caller
            .refine(r, &Approx::projection(0, 0, Approx::Alias(first)))
            .expect("compatible");
        assert_eq!(caller.canonical(first), a);
        assert_eq!(caller.show(&caller.describe(first)).to_string(), "A");
    }

    /// Only what both branches know survives: a name both refine to the same value keeps it,
    /// names the branches defined are expanded, and a dead branch does not count.
    #[test]
    fn joins_keep_what_every_live_branch_knows() {
        let mut env = TypingEnv::new();
        let x = env.define("x", Approx::Top);
        let y = env.define("y", Approx::Top);
        let left = env.refine(x, &Approx::ctor("A")).expect("reachable");
        let mut right = env.refine(x, &Approx::ctor("A")).expect("reachable");
        let t = right.define("t", Approx::tuple([Approx::Alias(y), Approx::ctor("B")]));
        let dead = env
            .refine(x, &Approx::tuple([]))
            .and_then(|e| e.refine(x, &Approx::ctor("A")));
        assert!(dead.is_none());
        let left_args = [Approx::tuple([Approx::Alias(y), Approx::ctor("B")])];
        let right_args = [Approx::Alias(t)];
        let (joined, params) = env.join(
            &[
                Branch {
                    env: &left,
                    args: &left_args,
                },
                Branch {
                    env: &right,
                    args: &right_args,
                },
            ],
            &["p"],
        );
        assert_eq!(joined.to_string(), "{x : A; y : ⊤; p : (=y, B)}");
        let _ = params;
        // With different values, nothing about them survives.
        let other = env.refine(x, &Approx::ctor("C")).expect("reachable");
        let (joined, _) = env.join(
            &[
                Branch {
                    env: &left,
                    args: &[Approx::Alias(y)],
                },
                Branch {
                    env: &other,
                    args: &[Approx::ctor("B")],
                },
            ],
            &["q"],
        );
        assert_eq!(joined.to_string(), "{x : A | C; y : ⊤; q : ⊤}");
    }

    /// Blocks of different tags join into a disjunction split on the tag; meeting it with one
    /// tag keeps that case (fields and all), with none of its tags it is bottom, and several
    /// common tags refine no field.
    #[test]
    fn variants_split_on_the_tag() {
        let mut env = TypingEnv::new();
        let y = env.define("y", Approx::Top);
        let z = env.define("z", Approx::Top);
        let left = [Approx::block(0, [Approx::Alias(y)])];
        let right = [Approx::block(1, [Approx::Alias(z), Approx::Alias(z)])];
        let (joined, params) = env.join(
            &[
                Branch {
                    env: &env,
                    args: &left,
                },
                Branch {
                    env: &env,
                    args: &right,
                },
            ],
            &["v"],
        );
        let v = params[0];
        assert_eq!(
            joined.to_string(),
            "{y : ⊤; z : ⊤; v : (#0(=y) | #1(=z, =z))}"
        );
        let b = joined
            .refine(v, &Approx::projection(1, 0, Approx::ctor("A")))
            .expect("the second case");
        assert_eq!(b.to_string(), "{y : ⊤; z : A; v : #1(=z, =z)}");
        assert!(joined.refine(v, &Approx::block(2, [])).is_none());
        assert!(joined.refine(v, &Approx::ctor("A")).is_none());
        let mut wider = joined.clone();
        let w = wider.define(
            "w",
            Approx::variant(BTreeMap::from([
                (0, Fields::Full(vec![Approx::ctor("B")])),
                (1, Fields::Partial(BTreeMap::new())),
                (2, Fields::Full(vec![])),
            ])),
        );
        let met = wider
            .refine(v, &Approx::Alias(w))
            .expect("two tags in common");
        assert_eq!(met.describe(y), Approx::Top, "no case is known to hold");
        // A block of unknown tag meets any block, and no immediate.
        let some = Approx::Known(Desc::AnyBlock);
        assert!(joined.refine(v, &some).is_some());
        let mut imm = joined.clone();
        let i = imm.define("i", Approx::ctor("A"));
        assert!(imm.refine(i, &some).is_none());
    }

    /// An immediate joined with a block keeps both parts; meeting with either part alone
    /// gives that part, refined in full.
    #[test]
    fn immediates_and_blocks_split_at_the_top() {
        let mut env = TypingEnv::new();
        let y = env.define("y", Approx::Top);
        let left = [Approx::ctor("A")];
        let right = [Approx::block(0, [Approx::Alias(y)])];
        let (joined, params) = env.join(
            &[
                Branch {
                    env: &env,
                    args: &left,
                },
                Branch {
                    env: &env,
                    args: &right,
                },
            ],
            &["v"],
        );
        let v = params[0];
        assert_eq!(joined.to_string(), "{y : ⊤; v : (A | #0(=y))}");
        let block = joined
            .refine(v, &Approx::projection(0, 0, Approx::ctor("B")))
            .expect("the block");
        assert_eq!(block.to_string(), "{y : B; v : (=y)}");
        let imm = joined.refine(v, &Approx::ctor("A")).expect("the immediate");
        assert_eq!(imm.to_string(), "{y : ⊤; v : A}");
        assert!(joined.refine(v, &Approx::ctor("C")).is_none());
        assert!(joined.refine(v, &Approx::block(1, [])).is_none());
    }

    /// Integers past small sets of immediates are values of the declared domain: a meet with a
    /// set filters the set (one left is the immediate; none, bottom), and a join that would
    /// make more than eight immediates gives the domain's join of them.
    #[test]
    fn integers_past_small_sets_are_the_declared_domain_s() {
        use absinthe::lattice::Interval;
        let mut env = TypingEnv::new().with_ints(Ints::top_of::<Interval>());
        let x = env.define("x", Approx::ints(Ints::of(Interval::new(0, 20))));
        assert_eq!(env.to_string(), "{x : [0, 20]}");
        let some = Approx::imms([Imm::Int(3), Imm::Int(30), Imm::ctor("A")]);
        let (_, met) = env.meet(&Approx::Alias(x), &some).expect("3 is in both");
        assert_eq!(met.to_string(), "{x : 3}");
        assert!(env.refine(x, &Approx::imms([Imm::Int(-1)])).is_none());
        assert!(env.refine(x, &Approx::block(0, [])).is_none());
        let narrower = env
            .refine(x, &Approx::ints(Ints::of(Interval::new(10, 40))))
            .expect("they overlap");
        assert_eq!(narrower.to_string(), "{x : [10, 20]}");
        // The join of 0..5 and 5..10 (nine immediates together).
        let join = |env: &TypingEnv| {
            let low: Vec<Approx> = vec![Approx::imms((0..5).map(Imm::Int))];
            let high: Vec<Approx> = vec![Approx::imms((5..9).map(Imm::Int))];
            let branches = [Branch { env, args: &low }, Branch { env, args: &high }];
            let (joined, params) = env.join(&branches, &["v"]);
            joined.show(&joined.approx_of(params[0])).to_string()
        };
        assert_eq!(join(&env), "[0, 8]");
        assert_eq!(join(&TypingEnv::new()), "0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8");
        // An interval joined with a set: the domain's join; with a block, nothing.
        let (joined, params) = env.join(
            &[
                Branch {
                    env: &env,
                    args: &[Approx::Alias(x)],
                },
                Branch {
                    env: &env,
                    args: &[Approx::imm(Imm::Int(-5))],
                },
            ],
            &["w"],
        );
        assert_eq!(
            joined.show(&joined.approx_of(params[0])).to_string(),
            "[-5, 20]"
        );
        let (joined, params) = env.join(
            &[
                Branch {
                    env: &env,
                    args: &[Approx::Alias(x)],
                },
                Branch {
                    env: &env,
                    args: &[Approx::tuple([])],
                },
            ],
            &["w"],
        );
        assert_eq!(joined.show(&joined.approx_of(params[0])).to_string(), "⊤");
    }

    /// The talk's `{x : (=y, =y); ∃y : ⊤}`: names two branches defined and passed in the same
    /// places become one existential of the join, out of scope but still relating the fields;
    /// a name passed whole is the parameter itself; a name one branch defined and the other
    /// did not is expanded.
    #[test]
    fn names_out_of_scope_become_existentials() {
        let mut env = TypingEnv::new();
        let a = env.define("a", Approx::Top);
        let mut left = env.clone();
        let y = left.define("y", Approx::Top);
        let pair_y = left.define("p", Approx::tuple([Approx::Alias(y), Approx::Alias(y)]));
        let mut right = env.clone();
        let z = right.define("z", Approx::ctor("B"));
        let pair_z = right.define("q", Approx::tuple([Approx::Alias(z), Approx::Alias(z)]));
        let (joined, params) = env.join(
            &[
                Branch {
                    env: &left,
                    args: &[Approx::Alias(pair_y), Approx::Alias(y), Approx::Alias(y)],
                },
                Branch {
                    env: &right,
                    args: &[Approx::Alias(pair_z), Approx::Alias(z), Approx::Alias(a)],
                },
            ],
            &["x", "w", "u"],
        );
        // `w` is the pair (y, z) itself, so `x`'s fields are `w`; `u` (y or a) is expanded.
        assert_eq!(joined.to_string(), "{a : ⊤; x : (=w, =w); w : ⊤; u : ⊤}");
        let (x, w, u) = (params[0], params[1], params[2]);
        assert_ne!(joined.canonical(u), joined.canonical(w));
        // Without `w`, the pair needs an existential of its own.
        let (alone, _) = env.join(
            &[
                Branch {
                    env: &left,
                    args: &[Approx::Alias(pair_y)],
                },
                Branch {
                    env: &right,
                    args: &[Approx::Alias(pair_z)],
                },
            ],
            &["x"],
        );
        assert_eq!(alone.to_string(), "{a : ⊤; x : (=∃y, =∃y); ∃y : ⊤}");
        // What is known of `x`'s fields once the first one is refined: the second too.
        let x0 = joined
            .clone()
            .refine(x, &Approx::projection(0, 0, Approx::ctor("B")))
            .expect("compatible");
        assert_eq!(shown(&x0, &x0.describe(x)), "(B, B)");
    }
}
