//! The library calls that run a product declared with `#[absinthe::domain]` over a program, as
//! the book's chapter "Declaring domains with attributes" shows them: a toy program lowered to the
//! core IR, solved by `NonRelational` with a state representation and limits, or by a unit
//! struct declared with `#[absinthe::analysis]`, which carries those settings.

use absinthe::engine::Limits;
use absinthe::lattice::Top;
use absinthe::program::BlockId;
use absinthe::value::{Concrete, DeclaredAnalysis, NonRelational, StateRepr};
use absinthe_dsl_examples::signs::SignsDense;
use absinthe_dsl_examples::signs::value::Signals;

// ANCHOR: program
/// Counts `x` up by two from zero while it stays below ten.
const COUNTING: &str = "\
x = 0
x = x + 2
x < 10 && @goto 1
";
// ANCHOR_END: program

#[test]
fn a_declared_product_runs_on_a_toy_program() {
    // ANCHOR: run
    // Parse the toy program and lower it to a core-IR function (a `Program`); `pcs` maps each
    // toy instruction to the block and position it became.
    let toy = absinthe_ir::parse_toy("counting.toy", COUNTING).expect("the program parses");
    let (function, pcs) = toy.lower();

    // Run the product to a fixpoint: `true` evaluates branch conditions, the states are kept
    // densely, and the limits bound widening and the number of steps.
    let analysis = NonRelational::<Signals>::new(true);
    let solution = analysis.solve(&function, StateRepr::Dense, &Limits::default());
    assert!(solution.stop().is_stable(), "the engine reached a fixpoint");

    // Read the value of `x` where the program ends (the instruction after the last).
    let x = toy.name_id("x").expect("`x` is a name of the program");
    let (exit, _) = pcs.loc(3).expect("the end of the program has a block");
    let at_exit: Signals = solution.value_at_entry(exit, x);
    // ANCHOR_END: run
    assert!(at_exit.contains(10), "x leaves the loop at 10: {at_exit}");
    assert!(!at_exit.contains(9), "an odd x is impossible: {at_exit}");
    assert!(
        !at_exit.contains(0),
        "x is at least 10 after the loop: {at_exit}"
    );
    assert!(!at_exit.is_top());

    // ANCHOR: declared
    // The same analysis declared with `#[absinthe::analysis(domain = value::Signals, …)]`: its
    // settings (conditions, state representation, limits) are part of the declaration.
    let declared = SignsDense::solve(&function);
    assert_eq!(declared.value_at_entry(exit, x), at_exit);
    // ANCHOR_END: declared
}

/// The state before every statement, printed beside the statement: `ValueSolution::points`
/// replays a block from its entry, and `Module::stmt_text` writes a statement as the text format
/// does.
#[test]
fn a_solution_gives_the_state_before_each_statement() {
    const SOURCE: &str = "\
fn f(n) {
bb0:
    x = 3
    y = x * 2
    z = y + n
    ret z
}
";
    // ANCHOR: points
    let module = absinthe_ir::parse_module("points.air", SOURCE).expect("the module parses");
    let function = &module.functions[0];
    let solution = SignsDense::solve(function);
    let mut lines = Vec::new();
    for (index, block) in function.blocks().iter().enumerate() {
        let b = BlockId::new(index);
        let states = solution.points(&SignsDense::analysis(), function, b);
        // One state before each statement, then the state before the terminator.
        for (stmt, before) in block.stmts.iter().zip(&states) {
            let code = module.stmt_text(function, stmt);
            lines.push(format!("{code:<12} {}", before.text(&function.names)));
        }
        let term = module
            .term_text(function, b)
            .expect("the block has a terminator");
        let before = &states[block.stmts.len()];
        lines.push(format!("{term:<12} {}", before.text(&function.names)));
    }
    // ANCHOR_END: points
    let y = function.name_id("y").expect("`y` is a name");
    let before_ret = &solution.points(&SignsDense::analysis(), function, BlockId(0))[3];
    let at_ret: Signals = before_ret.get(y);
    assert_eq!(at_ret.as_constant(), Some(6), "{}", lines.join("\n"));
    assert!(lines[0].starts_with("x = 3"), "{}", lines.join("\n"));
    assert!(lines[1].starts_with("y = x * 2"), "{}", lines.join("\n"));
    assert!(lines[3].starts_with("ret z"), "{}", lines.join("\n"));
    assert_eq!(lines.len(), 4);
}

/// An analysis declared with `engine = "typing_env"` runs the typing environment, the product
/// being its integers: `n % 10` is known to lie in [-9, 9] (past eight immediates) and the branch
/// `m == 20` is dead; a block's field reads back the name stored in it.
#[test]
fn a_declared_typing_environment_keeps_its_domain_s_integers() {
    use absinthe::spec::Engine;
    use absinthe_dsl_examples::signs::SignsTyping;
    const SOURCE: &str = "\
fn f(n) {
bb0:
    m = n % 10
    p = block 0 [m, n]
    q = p[0]
    br q == 20, dead, live
dead:
    ret 1
live:
    ret q
}
";
    assert_eq!(SignsTyping::spec().engine, Engine::TypingEnv);
    assert_eq!(SignsTyping::spec().immediates, 4);
    assert_eq!(SignsTyping::spec().numbers, [2, 8, 8, 8]);
    let module = absinthe_ir::air::parse_module("f.air", SOURCE).expect("the module parses");
    let module = absinthe_ir::ssa::module_to_ssa(&module);
    let solved = absinthe_typing_env::solve_declared::<SignsTyping, _>(&module);
    let (solution, summary) = &solved[0];
    let function = &module.functions[0];
    let block = |label: &str| {
        function
            .blocks()
            .iter()
            .position(|b| b.label == label)
            .expect("the block exists")
    };
    assert!(
        solution.blocks[block("dead")].is_none(),
        "q is m, at most 9"
    );
    let live = solution.blocks[block("live")].as_ref().expect("reached");
    let shown = live.entry.to_string();
    assert!(shown.contains("q_1 : =m_1"), "{shown}");
    let result = summary.as_ref().expect("f returns").result.clone();
    let absinthe_typing_env::Approx::Known(absinthe_typing_env::Desc::Ints(ints)) = result else {
        panic!("the result is an integer of the declared domain: {result:?}");
    };
    let signals: &Signals = ints.downcast().expect("the declared domain");
    assert!(signals.contains(-9) && signals.contains(9) && !signals.contains(10));
}

/// An analysis declared with `engine = "escape"` runs the escape and alias analysis, the product
/// being the values of names: the load of the box's field is forwarded to the stored name, so
/// it takes that name's signals (positive, odd), and the branch on it being zero is dead.
#[test]
fn a_declared_escape_analysis_forwards_loads_with_their_values() {
    use absinthe::program::{NameId, Operand};
    use absinthe::spec::Engine;
    use absinthe_dsl_examples::signs::SignsEscape;
    const SOURCE: &str = "\
fn f(n) {
bb0:
    box = new
    v = 7
    box.val = v
    x = box.val
    br x == 0, dead, live
dead:
    ret 1
live:
    ret box
}
";
    assert_eq!(SignsEscape::spec().engine, Engine::Escape);
    assert_eq!(SignsEscape::spec().heaps, 4);
    let module = absinthe_ir::air::parse_module("f.air", SOURCE).expect("the module parses");
    let facts = absinthe_heap::escape::solve_declared::<SignsEscape, _>(&module);
    let function = &module.functions[0];
    let name = |n: &str| {
        NameId(
            function
                .names
                .iter()
                .position(|x| x == n)
                .expect("the name exists") as u32,
        )
    };
    let forwarded: Vec<_> = facts[0].loads.values().map(|l| l.forwarded).collect();
    assert_eq!(forwarded, vec![Some(Operand::Name(name("v")))]);
    assert!(
        facts[0].states_before(function, BlockId(1)).is_empty(),
        "the branch to `dead` is never taken"
    );
    let live = facts[0].states_before(function, BlockId(2))[0]
        .hull()
        .expect("reached");
    let x: Signals = live.values.get(name("x"));
    assert!(x.contains(7) && !x.contains(0) && !x.contains(-7), "{x}");
    let allocation = &facts[0].allocations[0];
    assert_eq!(allocation.escape.returned.len(), 1, "the box is returned");
}

/// An analysis declared with `engine = "shape"` runs the shape analysis, the product being the
/// values beside each graph: `isblock` of a name the graph says holds an object is 1, so the
/// branch on it being 0 is dead, and the loaded field's object is the stored one.
#[test]
fn a_declared_shape_analysis_reduces_isblock_by_the_graph() {
    use absinthe::program::NameId;
    use absinthe::spec::Engine;
    use absinthe_dsl_examples::signs::SignsShape;
    const SOURCE: &str = "\
fn f(n) {
bb0:
    box = new
    inner = new
    box.val = inner
    x = box.val
    b = isblock box
    br b, live, dead
dead:
    ret 0
live:
    ret x
}
";
    assert_eq!(SignsShape::spec().engine, Engine::Shape);
    let module = absinthe_ir::air::parse_module("f.air", SOURCE).expect("the module parses");
    let facts = absinthe_heap::shape::solve_declared::<SignsShape, _>(&module);
    let function = &module.functions[0];
    let name = |n: &str| {
        NameId(
            function
                .names
                .iter()
                .position(|x| x == n)
                .expect("the name exists") as u32,
        )
    };
    let block = |label: &str| {
        function
            .blocks()
            .iter()
            .position(|b| b.label == label)
            .expect("the block exists")
    };
    assert!(
        facts[0].before[block("dead")].is_empty(),
        "`box` holds an object"
    );
    let live = &facts[0].before[block("live")][0];
    let hull = live.hull().expect("reached");
    let b: Signals = hull.values.get(name("b"));
    assert!(b.contains(1) && !b.contains(0), "{b}");
    // Wherever the load read an object, it is the one stored: `x` and `inner` label one node.
    let mut objects = 0;
    for d in live.disjuncts() {
        let x = d.graph.points_to(name("x"));
        if !x.is_empty() {
            objects += 1;
            assert_eq!(x, d.graph.points_to(name("inner")), "{}", d.graph);
        }
    }
    assert!(objects > 0);
}
