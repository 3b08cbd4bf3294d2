//! Tests of the toy language: the sample program, printing, and lowering to core IR.

use absinthe::program::{BlockId, Cfg};
use absinthe_ir::toy::prog0;
use absinthe_ir::{Module, PROG0, parse_toy, print_module};
use expect_test::expect;

#[test]
fn prog0_parses_to_nine_instructions_over_four_names() {
    let prog = prog0();
    assert_eq!(prog.instrs.len(), 9);
    assert_eq!(prog.names, ["x", "y", "z", "r"]);
}

#[test]
fn printing_prog0_drops_comments_and_round_trips() {
    let prog = prog0();
    let text = prog.to_string();
    expect![[r#"
        x = 1
        y = 2
        z = 3
        @goto 8
        r = y + z
        x <= z && @goto 7
        r = z + y
        x = x + 1
        x < 10 && @goto 4
    "#]]
    .assert_eq(&text);
    assert_eq!(parse_toy("p.toy", &text).unwrap(), prog);
}

#[test]
fn blank_and_comment_lines_are_not_numbered() {
    let text = "\n# header\nx = 1\n\n   # note\nx < 3 && @goto 0\n";
    let prog = parse_toy("t.toy", text).unwrap();
    assert_eq!(prog.instrs.len(), 2);
    assert_eq!(prog.instrs[1].target(), Some(0));
}

#[test]
fn unicode_comparisons_are_accepted() {
    let ascii = parse_toy("t.toy", "x = 1\nx <= 2 && @goto 0\ny = x >= 1\n").unwrap();
    let unicode = parse_toy("t.toy", "x = 1\nx ≤ 2 && @goto 0\ny = x ≥ 1\n").unwrap();
    assert_eq!(ascii, unicode);
}

#[test]
fn prog0_lowers_to_five_blocks_and_exit() {
    let (func, pcs) = prog0().lower();
    let module = Module {
        functions: vec![func],
        fields: Vec::new(),
        symbols: Vec::new(),
    };
    expect![[r#"
        fn main() {
        bb0:
            x = 1
            y = 2
            z = 3
            goto bb4
        bb1:
            r = y + z
            br x <= z, bb3, bb2
        bb2:
            r = z + y
            goto bb3
        bb3:
            x = x + 1
            goto bb4
        bb4:
            br x < 10, bb1, exit
        exit:
            ret
        }
    "#]]
    .assert_eq(&print_module(&module));
    let func = &module.functions[0];
    let locs: Vec<(u32, usize)> = (0..=9)
        .map(|pc| pcs.loc(pc).map(|(b, i)| (b.0, i)).unwrap())
        .collect();
    assert_eq!(
        locs,
        [
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (1, 0),
            (1, 1),
            (2, 0),
            (3, 0),
            (4, 0),
            (5, 0)
        ]
    );
    assert_eq!(pcs.loc(10), None);
    assert_eq!(pcs.exit(), BlockId(5));
    assert_eq!(
        pcs.pc_at(BlockId(2), 1),
        None,
        "a fall-through goto has no pc"
    );
    assert_eq!(func.predecessors(BlockId(4)), [BlockId(0), BlockId(3)]);
    assert_eq!(func.successors(BlockId(1)), [BlockId(3), BlockId(2)]);
}

#[test]
fn lowering_keeps_an_unreachable_exit_and_empty_programs_work() {
    let (func, pcs) = parse_toy("t.toy", "x = 1\n@goto 0\n").unwrap().lower();
    assert_eq!(func.block_count(), 2);
    assert_eq!(func.blocks()[1].label, "exit");
    assert!(func.predecessors(BlockId(1)).is_empty());
    assert_eq!(pcs.loc(1), Some((BlockId(0), 1)));

    let (func, pcs) = parse_toy("t.toy", "# nothing\n").unwrap().lower();
    assert_eq!(func.block_count(), 1);
    assert_eq!(pcs.exit(), BlockId(0));
    assert!(pcs.is_empty());
}

#[test]
fn prog0_text_matches_the_sample_file() {
    let from_file =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/test_data/prog0.toy"))
            .unwrap();
    assert_eq!(from_file, PROG0);
}
