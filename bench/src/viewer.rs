//! `viewer`: the trace viewer on a big input. Generates a function of 10⁴ blocks of nested
//! loops, records an interval analysis of it as the viewer's page, and prints the figures: the
//! time to record and write the page and its size (its header gives the events). With a directory
//! argument the page (and the function, as `.air`) are written there, for the browser test that
//! measures how long the page takes to load.

use absinthe::engine::Limits;
use absinthe::program::Cfg;
use absinthe_cli::analyses::AnalysisName;
use absinthe_cli::driver::Input;
use absinthe_cli::trace::{TraceFormat, trace};
use std::time::Instant;

/// A function of about `blocks` blocks: a chain of loop nests `DEPTH` deep, each innermost body
/// an if-then-else, so that intervals widen at every head and the engine visits each block many
/// times, as loop-heavy code makes it.
fn loop_nests(blocks: usize) -> String {
    const DEPTH: usize = 6;
    let mut text = String::from("fn main(n) {\nentry:\n    x = 0\n    y = 0\n    z = 0\n");
    let per_nest = 4 * DEPTH + 4;
    for k in 0..(blocks / per_nest).max(1) {
        let bb = |name: &str, level: usize| format!("{name}{level}_{k}");
        text += &format!("    goto {}\n", bb("init", 0));
        for level in 0..DEPTH {
            let inner = if level + 1 == DEPTH {
                bb("body", 0)
            } else {
                bb("init", level + 1)
            };
            text += &format!(
                "{}:\n    i{level} = 0\n    goto {}\n{}:\n    br i{level} < {}, {inner}, {}\n",
                bb("init", level),
                bb("head", level),
                bb("head", level),
                130 + level,
                bb("exit", level),
            );
        }
        text += &format!(
            "{}:\n    x = x + i0\n    br x < 100, {}, {}\n{}:\n    y = x * 2\n    goto {}\n\
             {}:\n    y = x - n\n    goto {}\n{}:\n    z = y + i1\n    goto {}\n",
            bb("body", 0),
            bb("then", 0),
            bb("else", 0),
            bb("then", 0),
            bb("join", 0),
            bb("else", 0),
            bb("join", 0),
            bb("join", 0),
            bb("latch", DEPTH - 1),
        );
        for level in (0..DEPTH).rev() {
            text += &format!(
                "{}:\n    i{level} = i{level} + 1\n    goto {}\n",
                bb("latch", level),
                bb("head", level)
            );
            let after = if level == 0 {
                format!("{}:\n    x = z - x\n", bb("exit", 0))
            } else {
                format!(
                    "{}:\n    goto {}\n",
                    bb("exit", level),
                    bb("latch", level - 1)
                )
            };
            text += &after;
        }
    }
    text += "    ret z\n}\n";
    text
}

/// Joins at a loop head before widening.
const WIDENING_DELAY: u32 = 110;

/// Generates, records and reports; writes `big.air` and `big.html` into `out` if given.
pub fn run(out: Option<&str>) {
    let text = loop_nests(10_000);
    let module = match absinthe_ir::air::parse_module("big.air", &text) {
        Ok(module) => module,
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(1);
        }
    };
    let input = Input::Air {
        file: "big.air".to_owned(),
        module: module.clone(),
    };
    let start = Instant::now();
    let page = trace(
        &input,
        AnalysisName::Interval,
        None,
        TraceFormat::Html { verify_runs: 0 },
        // Heads join a few times before they widen, as a precise analysis would ask: the run
        // is a million events long.
        &Limits {
            widening_delay: WIDENING_DELAY,
            ..Limits::default()
        },
    );
    let elapsed = start.elapsed();
    let page = match page {
        Ok(page) => page,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(1);
        }
    };
    // The event count is in the page's header (and the browser test prints it): counting
    // it here would mean parsing the page.
    println!(
        "viewer: {} blocks, {} names; recorded and written in {:.2} s; page {:.1} MB",
        module.functions[0].block_count(),
        module.functions[0].names.len(),
        elapsed.as_secs_f64(),
        page.len() as f64 / 1e6
    );
    if let Some(dir) = out {
        let dir = std::path::Path::new(dir);
        let written = std::fs::create_dir_all(dir)
            .and_then(|()| std::fs::write(dir.join("big.air"), &text))
            .and_then(|()| std::fs::write(dir.join("big.html"), &page));
        if let Err(error) = written {
            eprintln!("{}: error: {error}", dir.display());
            std::process::exit(1);
        }
    }
}
