//! The command line's `--context` on kernel terms, through the behavior graph.

use crate::common::absinthe;

/// `--context kcfa=K` reaches the behavior graph from the command line: `analyze` prints the
/// flows per context and says on its `# ran:` line where the context came from, `verify` checks
/// each value in its context, and `intra` is refused.
#[test]
fn the_command_line_s_context_reaches_the_behavior_graph() {
    let file = "ir/test_data/kernel/two_sites.kt";
    let graph = ["--analysis", "interval", "--engine", "behavior-graph"];
    let (code, out, err) =
        absinthe(&[&["analyze", file][..], &graph, &["--context", "kcfa=1"]].concat());
    assert_eq!(code, 0, "{err}");
    for line in ["Φ_x^⟨3⟩ = [1, 1]", "Φ_x^⟨4⟩ = [10, 10]", "ϕ_2 = [22, 22]"] {
        assert!(out.lines().any(|l| l == line), "{line} in\n{out}");
    }
    assert!(
        out.contains("context kcfa=1: flows per string of the last 1 call sites (--context; the declaration says insensitive)"),
        "{out}"
    );
    let (code, out, _) = absinthe(&[&["analyze", file][..], &graph].concat());
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l == "ϕ_2 = [4, 40]"), "{out}");
    assert!(
        out.contains("context 0-CFA: the flows of the behavior graph (declared)"),
        "{out}"
    );
    let (code, out, err) =
        absinthe(&["verify", file, "--analysis", "types", "--context", "kcfa=2"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with(": 0 violations\n"), "{out}");
    let (code, _, err) =
        absinthe(&[&["analyze", file][..], &graph, &["--context", "intra"]].concat());
    assert_eq!(code, 2);
    assert!(
        err.contains("`--context intra` does not apply to kernel terms"),
        "{err}"
    );
}
