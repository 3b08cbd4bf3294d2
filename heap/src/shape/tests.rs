//! Unit tests of the shape graph: statements one at a time on small graphs, normalization
//! (unnamed nodes become summaries, connected summaries merge) and the lattice basics; and of
//! the graphs with values: the reductions at `isblock`, loads and stores, and the state's
//! lattice.

use super::*;
use crate::Site;
use absinthe::lattice::{Flat, Lattice};
use absinthe::program::{BlockId, FieldId, NameId, Operand, Rhs, Stmt};
use absinthe::value::Env;

fn site(i: u32) -> Site {
    Site {
        block: BlockId(0),
        index: i,
    }
}

fn run(graph: &ShapeGraph, stmts: &[Stmt]) -> Vec<ShapeGraph> {
    let mut graphs = vec![graph.clone()];
    for (i, stmt) in stmts.iter().enumerate() {
        graphs = graphs
            .iter()
            .flat_map(|g| transfer::statement(g, site(i as u32), stmt, &NoCallees))
            .collect();
    }
    graphs
}

fn new(x: u32) -> Stmt {
    Stmt::Assign {
        dest: NameId(x),
        rhs: Rhs::New,
    }
}

fn store(x: u32, f: u32, y: u32) -> Stmt {
    Stmt::Store {
        object: Operand::Name(NameId(x)),
        field: FieldId(f),
        value: Operand::Name(NameId(y)),
    }
}

fn load(y: u32, x: u32, f: u32) -> Stmt {
    Stmt::Assign {
        dest: NameId(y),
        rhs: Rhs::Load(Operand::Name(NameId(x)), FieldId(f)),
    }
}

fn kill(x: u32) -> Stmt {
    Stmt::Assign {
        dest: NameId(x),
        rhs: Rhs::Use(Operand::Int(0)),
    }
}

fn texts(graphs: &[ShapeGraph]) -> Vec<String> {
    graphs.iter().map(|g| g.to_string()).collect()
}

#[test]
fn unnamed_reachable_nodes_become_one_summary() {
    // x = new; y = new; x.f0 = y; z = new; y.f0 = z; y = 0; z = 0
    let stmts = [
        new(0),
        new(1),
        store(0, 0, 1),
        new(2),
        store(1, 0, 2),
        kill(1),
        kill(2),
    ];
    let out = run(&ShapeGraph::empty(), &stmts);
    assert_eq!(
        texts(&out),
        [
            "%0@bb0:0/0, Σ@bb0:1+bb0:3/0 | %0@bb0:0/0 -f0-> Σ@bb0:1+bb0:3/0, Σ@bb0:1+bb0:3/0 -f0-> Σ@bb0:1+bb0:3/0"
        ]
    );
}

#[test]
fn unreachable_nodes_die_and_allocation_ages_the_site() {
    let stmts = [new(0), new(1), kill(1)];
    assert_eq!(texts(&run(&ShapeGraph::empty(), &stmts)), ["%0@bb0:0/0"]);
    // The same site twice (a loop, unrolled): the older object is one generation older.
    let g = run(&ShapeGraph::empty(), &[new(0)]).remove(0);
    let again = transfer::statement(&g, site(0), &new(1), &NoCallees);
    assert_eq!(texts(&again), ["%0@bb0:0/≤1, %1@bb0:0/0"]);
}

#[test]
fn a_load_of_a_context_field_materializes_its_child_and_stores_leave_weak_edges() {
    let entry = ShapeGraph::entry(&[NameId(0), NameId(1)]);
    let out = run(&entry, &[load(2, 0, 0), store(1, 1, 2)]);
    assert_eq!(
        texts(&out),
        [
            "%0@γ0, %2@γ0.f0, %1@γ1 | %0@γ0 ~f1~> %2@γ0.f0, %2@γ0.f0 ~f1~> %2@γ0.f0, %1@γ1 -f1-> %2@γ0.f0, !%1@γ1.f1, γ* ~f1~> %2@γ0.f0"
        ]
    );
}

#[test]
fn join_is_an_upper_bound_and_keeps_writes_only_where_both_agree() {
    let entry = ShapeGraph::entry(&[NameId(0), NameId(1)]);
    let a = run(&entry, &[store(0, 0, 1)]).remove(0);
    let b = entry.clone();
    let j = a.join(&b);
    assert!(a.leq(&j) && b.leq(&j) && !j.leq(&b));
    assert_eq!(j.written().count(), 0, "{j}");
    assert!(ShapeGraph::bottom().leq(&a));
    assert_eq!(a.meet(&j), a);
}

#[test]
fn an_unknown_call_hands_what_its_arguments_reach_to_the_unknown_node() {
    let stmts = [
        new(0),
        new(1),
        store(0, 0, 1),
        Stmt::Call {
            callee: absinthe::program::FuncId(9),
            args: Box::new([Operand::Name(NameId(0))]),
        },
    ];
    assert_eq!(texts(&run(&ShapeGraph::empty(), &stmts)), ["%0,%1@?"]);
}

type V = Flat<i64>;

fn disjunct(graph: ShapeGraph, values: &[(u32, V)]) -> ShapeDisjunct<V> {
    let mut env = Env::reachable(4);
    for (x, v) in values {
        env.set(NameId(*x), v.clone());
    }
    ShapeDisjunct { graph, values: env }
}

fn step(d: &ShapeDisjunct<V>, stmt: &Stmt) -> Vec<ShapeDisjunct<V>> {
    let analysis = ShapeAnalysis::<V>::new(&NoCallees);
    reduce::statement(&analysis, d, BlockId(0), 5, stmt)
}

fn isblock(x: u32, y: u32) -> Stmt {
    Stmt::Assign {
        dest: NameId(x),
        rhs: Rhs::IsBlock(Operand::Name(NameId(y))),
    }
}

#[test]
fn isblock_reads_the_graph_and_the_values() {
    let g = run(&ShapeGraph::empty(), &[new(0)]).remove(0);
    // `%0` labels a node and holds no integer: an object.
    let object = disjunct(g.clone(), &[]);
    assert_eq!(
        step(&object, &isblock(1, 0))[0].values.get(NameId(1)),
        Flat::Value(1)
    );
    // `%2` labels no node: no object.
    let int = disjunct(g.clone(), &[(2, Flat::Top)]);
    assert_eq!(
        step(&int, &isblock(1, 2))[0].values.get(NameId(1)),
        Flat::Value(0)
    );
    // `%0` labels a node but may hold an integer: either.
    let either = disjunct(g, &[(0, Flat::Top)]);
    assert_eq!(
        step(&either, &isblock(1, 0))[0].values.get(NameId(1)),
        Flat::Top
    );
}

#[test]
fn a_load_keeps_apart_the_object_read_and_the_integer_read_and_traps_on_no_object() {
    let entry = ShapeGraph::entry(&[NameId(0)]);
    let d = disjunct(entry.clone(), &[(0, Flat::Top)]);
    let out = step(&d, &load(1, 0, 0));
    assert_eq!(out.len(), 2);
    // Where `%1` labels a node it holds no integer; elsewhere it may hold any; `%0` was read
    // as an object either way.
    for o in &out {
        assert!(o.values.get(NameId(0)).is_bottom());
        let object = !o.graph.points_to(NameId(1)).is_empty();
        assert_eq!(o.values.get(NameId(1)).is_bottom(), object, "{}", o.graph);
    }
    // A load through a name labelling no node traps.
    let int = disjunct(ShapeGraph::empty(), &[(0, Flat::Value(3))]);
    assert!(step(&int, &load(1, 0, 0)).is_empty());
    // So does arithmetic on a name that holds no integer.
    let add = Stmt::Assign {
        dest: NameId(2),
        rhs: Rhs::Binary(
            absinthe::program::Op::Add,
            Operand::Name(NameId(0)),
            Operand::Int(1),
        ),
    };
    let object = disjunct(run(&ShapeGraph::empty(), &[new(0)]).remove(0), &[]);
    assert!(step(&object, &add).is_empty());
}

#[test]
fn states_merge_equal_graphs_keep_apart_different_values_and_stay_bounded() {
    let g = run(&ShapeGraph::empty(), &[new(0)]).remove(0);
    let e = ShapeGraph::empty();
    let a = ShapeStates::of(vec![disjunct(g.clone(), &[(1, Flat::Value(1))])]);
    let b = ShapeStates::of(vec![disjunct(g.clone(), &[(1, Flat::Value(2))])]);
    let j = a.join(&b);
    assert_eq!(j.disjuncts().len(), 1);
    assert_eq!(j.disjuncts()[0].values.get(NameId(1)), Flat::Top);
    assert!(a.leq(&j) && b.leq(&j) && j.join(&j) == j && j == b.join(&a));
    // The empty graph is below `g`, but its values are not below `g`'s: both stay.
    let c = ShapeStates::of(vec![disjunct(e.clone(), &[(0, Flat::Value(0))])]);
    let k = a.join(&c);
    assert_eq!(k.disjuncts().len(), 2);
    assert!(a.leq(&k) && c.leq(&k) && !k.leq(&a));
    assert!(a.meet(&k).leq(&a));
    assert!(ShapeStates::<V>::bottom().leq(&a) && a.join(&ShapeStates::bottom()) == a);
    // More graphs than the bound: still an upper bound, within the bound.
    let many: Vec<ShapeDisjunct<V>> = (0..MAX_GRAPHS as u32 + 3)
        .map(|i| {
            let mut stmts = vec![new(0)];
            stmts.extend((0..i).map(|_| new(1)));
            disjunct(run(&ShapeGraph::empty(), &stmts).remove(0), &[])
        })
        .collect();
    let s = ShapeStates::of(many.clone());
    assert!(s.disjuncts().len() <= MAX_GRAPHS);
    for d in many {
        assert!(ShapeStates::of(vec![d]).leq(&s));
    }
    let w = a.widen(&k);
    assert!(k.leq(&w) && w.widen(&k) == w);
}
