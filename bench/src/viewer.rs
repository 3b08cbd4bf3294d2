//! `viewer`: the trace viewer on a big input. Generates a function of 10⁴ blocks of nested
//! loops, records an interval analysis of it as the viewer's page, and prints the figures: the
//! events recorded, the time to record and write the page, and the page's size. With a directory
//! argument the page (and the function, as `.air`) are written there, for the browser test that
//! measures how long the page takes to load.

use absinthe::engine::Limits;
use absinthe_cli::analyses::AnalysisName;
use absinthe_cli::driver::Input;
use absinthe_cli::trace::{TraceFormat, trace};
use std::time::Instant;

/// A function of about `blocks` blocks: a chain of loop nests three deep, each innermost body
/// an if-then-else, so that intervals widen at every head and the engine visits each block many
/// times, as real loop-heavy code makes it.
fn loop_nests(blocks: usize) -> String {
    let mut text = String::from("fn main(n) {\nentry:\n    x = 0\n    y = 0\n    z = 0\n");
    let nests = (blocks / 11).max(1);
    for k in 0..nests {
        let bb = |name: &str| format!("{name}_{k}");
        text += &format!("    goto {}\n", bb("init1"));
        text += &format!("{}:\n    i1 = 0\n    goto {}\n", bb("init1"), bb("head1"));
        text += &format!("{}:\n    br i1 < 4, {}, {}\n", bb("head1"), bb("init2"), bb("exit1"));
        text += &format!("{}:\n    i2 = 0\n    goto {}\n", bb("init2"), bb("head2"));
        text += &format!("{}:\n    br i2 < 3, {}, {}\n", bb("head2"), bb("body"), bb("latch1"));
        text += &format!("{}:\n    x = x + i2\n    br x < 100, {}, {}\n", bb("body"), bb("then"), bb("else"));
        text += &format!("{}:\n    y = x * 2\n    goto {}\n", bb("then"), bb("join"));
        text += &format!("{}:\n    y = x - n\n    goto {}\n", bb("else"), bb("join"));
        text += &format!("{}:\n    z = y + i1\n    i2 = i2 + 1\n    goto {}\n", bb("join"), bb("head2"));
        text += &format!("{}:\n    i1 = i1 + 1\n    goto {}\n", bb("latch1"), bb("head1"));
        text += &format!("{}:\n    x = z - x\n", bb("exit1"));
    }
    text += "    ret z\n}\n";
    text
}

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
        &Limits::default(),
    );
    let elapsed = start.elapsed();
    let page = match page {
        Ok(page) => page,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(1);
        }
    };
    let events = page.matches("],[").count();
    println!(
        "viewer: {} blocks, {} names, about {events} events; recorded and written in {:.2} s; \
         page {:.1} MB",
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
