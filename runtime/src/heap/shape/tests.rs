//! Unit tests of the shape graph: statements one at a time on small graphs, normalization
//! (unnamed nodes become summaries, connected summaries merge) and the lattice basics.

use super::*;
use crate::program::{FieldId, Rhs, Stmt};

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
            callee: crate::program::FuncId(9),
            args: Box::new([Operand::Name(NameId(0))]),
        },
    ];
    assert_eq!(texts(&run(&ShapeGraph::empty(), &stmts)), ["%0,%1@?"]);
}
