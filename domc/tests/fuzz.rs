//! Fuzzing the `.dom` compiler: random bytes, token soup made of the grammar's words and
//! punctuation, and mutations of every `.dom` file in the repository go through `compile_text`.
//! It must never panic; every diagnostic must point inside its file and render; every accepted
//! input must generate Rust that parses.
//!
//! Every input is reproducible. The generator is deterministic (SplitMix64, seeded from the
//! input's number, never from the clock or the thread), and a mutation's seed comes from the path
//! of the file it mutates and its number among that file's mutations, so adding a file to the
//! corpus or editing one changes no other file's mutations. A failure reports the input's kind
//! and identity, shows the input itself (escaped), and saves it as
//! `target/tmp/fuzz-KIND-ID.dom`. Each input is also written to `target/tmp/fuzz-KIND-current.dom`
//! *before* it is compiled, so an input that crashes the process (a stack overflow or an abort
//! cannot be caught) is still on disk. To run the checks on a saved input again:
//!
//! ```sh
//! FUZZ_REPLAY=target/tmp/fuzz-mutation-dsl-examples-dom-signs-17.dom \
//!     cargo test -p absinthe-domc --test fuzz replay -- --nocapture
//! ```

use absinthe_domc::diagnostic::render;
use absinthe_domc::dom::ide::tokens::KEYWORDS;
use absinthe_domc::{Compiled, Failure, compile_text};
use std::cell::Cell;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Once;

/// Inputs per generated kind (random bytes, token soup).
const INPUTS: u64 = 10_000;

/// Mutations per corpus file (the corpus has about 80 files: some 10,000 mutations in all).
const MUTATIONS_PER_FILE: u64 = 128;

/// The replayed input's variable: see the module's documentation.
const REPLAY: &str = "FUZZ_REPLAY";

/// FNV-1a: a stable hash of a corpus file's path (the standard library's hasher may change
/// between Rust releases), so that its mutations do not depend on the other files.
fn stable_hash(text: &str) -> u64 {
    text.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// SplitMix64: small, fast, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

// The grammar's keywords are the tokenizer's list (`KEYWORDS`, which a test holds equal to the
// grammar's); then its punctuation, and words that the sema knows.
const PUNCTUATION: &[&str] = &[
    "{", "}", "(", ")", "<", ">", "=", ";", ",", ":", "::", ".", "->", "=>", "|", "_", "||", "&&",
    "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "+%", "-%", "*%", "!", "\"", "&", "^", "~",
    "<<", ">>", ">>>", "<<%", ">>%", ">>>%", "0x", "0b", "0x_F", "0b1_0",
];
const WORDS: &[&str] = &[
    "int",
    "bool",
    "Op",
    "Const",
    "Value",
    "Top",
    "Bottom",
    "Interval",
    "Sign",
    "Parity",
    "x",
    "y",
    "a",
    "b",
    "c",
    "v",
    "op",
    "meet",
    "join",
    "leq",
    "widen",
    "narrow",
    "contains",
    "empty",
    "domain",
    "conditions",
    "evaluated",
    "ignored",
    "program",
    "toy",
    "air",
    "state",
    "sparse",
    "dense",
    "direction",
    "forward",
    "backward",
    "widening_delay",
    "narrowing",
    "eval",
    "traps",
    "lo",
    "hi",
    "Pos",
    "Neg",
    "Zero",
    "Even",
    "Odd",
    "Flat",
    "FiniteSum",
    "Self",
    "self",
    "struct",
    "r#x",
    "é",
    "ℤ",
];
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "42",
    "-7",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "99999999999999999999999999",
    "4294967295",
    "4294967296",
];
const STRINGS: &[&str] = &[
    "\"==\"",
    "\"<\"",
    "\"+\"",
    "\"/\"",
    "\"%\"",
    "\"nope\"",
    "\"\"",
    "\"other.dom\"",
    "\"const_prop.dom\"",
    "\"../x.dom\"",
];
const SPACE: &[&str] = &[" ", " ", " ", "\n", "\t", "\r\n", "// note\n", ""];

/// One token of the soup.
fn token(rng: &mut Rng) -> &'static str {
    match rng.below(10) {
        0..=1 => rng.pick(&KEYWORDS),
        2..=4 => rng.pick(PUNCTUATION),
        5..=7 => rng.pick(WORDS),
        8 => rng.pick(NUMBERS),
        _ => rng.pick(STRINGS),
    }
}

fn soup(rng: &mut Rng) -> Vec<u8> {
    let mut out = String::new();
    for _ in 0..rng.below(120) {
        out.push_str(token(rng));
        out.push_str(rng.pick(SPACE));
    }
    out.into_bytes()
}

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    let len = rng.below(200);
    let printable = rng.below(2) == 0;
    (0..len)
        .map(|_| {
            let byte = rng.next() as u8;
            if printable { 0x20 + byte % 0x5f } else { byte }
        })
        .collect()
}

/// One to four edits of `seed`: byte deletions, insertions (of a byte or a token), swaps, and
/// truncations.
fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut out = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(6) {
            0 if at < out.len() => {
                let len = 1 + rng.below(8).min(out.len() - at - 1);
                out.drain(at..at + len);
            }
            1 => out.insert(at, rng.next() as u8),
            2 => {
                let text = token(rng).as_bytes();
                out.splice(at..at, text.iter().copied());
            }
            3 if !out.is_empty() => {
                let other = rng.below(out.len());
                let at = at.min(out.len() - 1);
                out.swap(at, other);
            }
            4 => out.truncate(at),
            // Move a line somewhere else.
            _ => {
                let start = out[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let end = out[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(out.len(), |i| at + i + 1);
                let line: Vec<u8> = out.drain(start..end).collect();
                let to = rng.below(out.len() + 1);
                out.splice(to..to, line);
            }
        }
    }
    out
}

/// Every `.dom` file under `dir`, recursively, sorted.
fn dom_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            dom_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "dom") {
            out.push(path);
        }
    }
}

/// The seeds of the mutations: `dsl-examples/dom/` and `domc/test_data/` (when present), sorted
/// by path: each file's path relative to the workspace, and its text. A file that vanishes
/// between listing and reading (an editor saving it) is left out with a note rather than failing
/// the run: it is not the compiler's fault.
fn corpus() -> Vec<(String, String)> {
    let domc = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = domc.parent().expect("domc sits in the workspace");
    let mut paths = Vec::new();
    dom_files(&workspace.join("dsl-examples/dom"), &mut paths);
    dom_files(&domc.join("test_data"), &mut paths);
    paths
        .iter()
        .filter_map(|p| {
            let relative = p.strip_prefix(workspace).unwrap_or(p);
            let relative = relative.to_string_lossy().replace('\\', "/");
            match std::fs::read_to_string(p) {
                Ok(text) => Some((relative, text)),
                Err(error) => {
                    eprintln!("fuzz: left out {}: {error}", p.display());
                    None
                }
            }
        })
        .collect()
}

/// What the inputs of one kind did.
#[derive(Default)]
struct Tally {
    inputs: u64,
    compiled: u64,
    diagnostics: u64,
    problems: Vec<String>,
    /// Hashes of the generated files already checked.
    generated: HashSet<u64>,
}

/// The last component of a corpus file's relative path.
fn file_name(relative: &str) -> &str {
    relative.rsplit('/').next().unwrap_or(relative)
}

/// The file of `kind`'s input being compiled, written before each compile.
fn current_file(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-{kind}-current.dom"))
}

/// Where a failing input of `kind` is saved: `id` made safe for a file name.
fn saved_file(kind: &str, id: &str) -> PathBuf {
    let id: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-{kind}-{id}.dom"))
}

/// Compiles `bytes` (as lossy UTF-8), the input `id` of `kind`; an import of a corpus file's
/// name reads that file (the first of that name).
fn run_one(kind: &str, id: &str, bytes: &[u8], corpus: &[(String, String)], tally: &mut Tally) {
    // Saved first: if compiling crashes the process, the input is on disk.
    let _ = std::fs::write(current_file(kind), bytes);
    let text = String::from_utf8_lossy(bytes).into_owned();
    let mut load = |path: &str| -> std::io::Result<(String, String)> {
        corpus
            .iter()
            .find(|(relative, _)| file_name(relative) == path)
            .map(|(_, text)| (path.to_owned(), text.clone()))
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "not in the corpus"))
    };
    tally.inputs += 1;
    let result = catching(|| compile_text("fuzz.dom", &text, &mut load));
    let problem = match result {
        Err(panic) => Some(format!("panicked: {}", panic_message(&*panic))),
        Ok(Ok(compiled)) => {
            tally.compiled += 1;
            // Many mutations only touch comments and spaces: check each generated file once.
            let mut hasher = std::hash::DefaultHasher::new();
            compiled.rust.hash(&mut hasher);
            if tally.generated.insert(hasher.finish()) {
                generated_problem(&compiled)
            } else {
                None
            }
        }
        Ok(Err(failure)) => {
            tally.diagnostics += failure.diagnostics.len() as u64;
            diagnostic_problem(&failure)
        }
    };
    let problem = problem.or_else(|| match catching(|| ide_problem(&text, &mut load)) {
        Ok(problem) => problem,
        Err(panic) => Some(format!(
            "an editor service panicked: {}",
            panic_message(&*panic)
        )),
    });
    if let Some(problem) = problem {
        let file = saved_file(kind, id);
        let _ = std::fs::write(&file, bytes);
        tally.problems.push(format!(
            "{kind} {id}: {problem}\n  saved as {}\n  replay: {REPLAY}={} cargo test -p \
             absinthe-domc --test fuzz replay -- --nocapture\n  input: {}",
            file.display(),
            file.display(),
            shown(&text),
        ));
    }
}

/// What an editor asks of any text: the study and its index, hover and completion at every 17th
/// byte, and formatting, which must keep every token and change nothing the second time.
fn ide_problem(
    text: &str,
    load: &mut dyn FnMut(&str) -> std::io::Result<(String, String)>,
) -> Option<String> {
    use absinthe_domc::dom::ide::{complete, format, hover, index::Index};
    let study = absinthe_domc::dom::study_text("fuzz.dom", text, load);
    let index = Index::build(&study);
    for offset in (0..=text.len()).step_by(17) {
        hover::hover(&study, &index, 0, offset);
        complete::complete(&index, 0, text, offset);
    }
    let squeeze = |s: &str| -> String { s.chars().filter(|c| !c.is_whitespace()).collect() };
    let once = format::format(text);
    if squeeze(&once) != squeeze(text) {
        return Some("formatting changed a token".into());
    }
    if format::format(&once) != once {
        return Some("formatting twice changed the text".into());
    }
    None
}

/// `text` escaped on one line, cut after 2,000 characters.
fn shown(text: &str) -> String {
    const MAX: usize = 2_000;
    let cut: String = text.chars().take(MAX).collect();
    if cut.len() < text.len() {
        format!("{cut:?} (cut; {} bytes in all)", text.len())
    } else {
        format!("{cut:?}")
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    match (panic.downcast_ref::<&str>(), panic.downcast_ref::<String>()) {
        (Some(s), _) => (*s).to_owned(),
        (_, Some(s)) => s.clone(),
        _ => "a non-string payload".to_owned(),
    }
}

/// Accepted input must generate Rust that parses (syn recurses as deep as the code nests, so on
/// a stack as large as the compiler's own).
fn generated_problem(compiled: &Compiled) -> Option<String> {
    // The syntax tree is dropped on the large stack too: dropping it recurses as deep.
    let parsed = catching(|| {
        stacker::grow(64 << 20, || {
            syn::parse_file(&compiled.rust).err().map(|e| e.to_string())
        })
    });
    match parsed {
        Ok(None) => None,
        Ok(Some(error)) => Some(format!("generated Rust does not parse: {error}")),
        Err(panic) => Some(format!("syn panicked: {}", panic_message(&*panic))),
    }
}

/// Every diagnostic must lie inside its file, on character boundaries, and render in full.
fn diagnostic_problem(failure: &Failure) -> Option<String> {
    if failure.diagnostics.is_empty() {
        return Some("a failure without diagnostics".to_owned());
    }
    let files = failure.sources.files();
    for d in &failure.diagnostics {
        let Some(file) = files.get(d.file) else {
            return Some(format!("diagnostic in unknown file {}: {d:?}", d.file));
        };
        let text = &file.text;
        if d.span.start > d.span.end || d.span.end > text.len() {
            return Some(format!(
                "span {:?} outside `{}` ({} bytes): {}",
                d.span,
                file.name,
                text.len(),
                d.message
            ));
        }
        if !text.is_char_boundary(d.span.start) || !text.is_char_boundary(d.span.end) {
            return Some(format!(
                "span {:?} splits a character: {}",
                d.span, d.message
            ));
        }
        let rendered = catching(|| render(std::slice::from_ref(d), &failure.sources));
        let rendered = match rendered {
            Ok(rendered) => rendered,
            Err(panic) => return Some(format!("render panicked: {}", panic_message(&*panic))),
        };
        // The plain fallback means codespan-reporting refused the span.
        let (line, col) = failure.sources.line_col(d.file, d.span.start);
        let place = format!("┌─ {}:{line}:{col}", file.name);
        if !rendered.contains(&place) {
            return Some(format!("rendered without `{place}`:\n{rendered}"));
        }
    }
    None
}

/// Reports the tally of `kind`, failing on any problem; a run that ends here did not crash, so
/// its in-progress file goes.
fn report(kind: &str, tally: &Tally) {
    let _ = std::fs::remove_file(current_file(kind));
    eprintln!(
        "fuzz {kind}: {} inputs, {} compiled ({} distinct outputs), {} diagnostics, {} problems",
        tally.inputs,
        tally.compiled,
        tally.generated.len(),
        tally.diagnostics,
        tally.problems.len()
    );
    assert!(
        tally.problems.is_empty(),
        "{} problems with {kind} inputs; the first ones:\n{}",
        tally.problems.len(),
        tally.problems[..tally.problems.len().min(5)].join("\n\n")
    );
}

thread_local! {
    /// Whether this thread is inside `compile_text` or `render`, whose panics are caught.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
}

/// Quiets the panic message of the panics `catching` catches (they are reported with their
/// input); every other panic, a failed assertion included, prints as usual.
fn quiet_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !CATCHING.get() {
                default(info);
            }
        }));
    });
}

/// Runs `f`, catching a panic.
fn catching<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    CATCHING.set(true);
    let result = catch_unwind(AssertUnwindSafe(f));
    CATCHING.set(false);
    result
}

#[test]
fn random_bytes_never_panic() {
    quiet_panics();
    let corpus = corpus();
    let mut tally = Tally::default();
    for seed in 0..INPUTS {
        let mut rng = Rng(seed);
        let bytes = random_bytes(&mut rng);
        run_one("bytes", &seed.to_string(), &bytes, &corpus, &mut tally);
    }
    report("bytes", &tally);
}

#[test]
fn token_soup_never_panics() {
    quiet_panics();
    let corpus = corpus();
    let mut tally = Tally::default();
    for seed in 0..INPUTS {
        let mut rng = Rng(seed ^ 0x50_0b);
        let bytes = soup(&mut rng);
        run_one("soup", &seed.to_string(), &bytes, &corpus, &mut tally);
    }
    report("soup", &tally);
}

#[test]
fn mutated_files_never_panic() {
    quiet_panics();
    let corpus = corpus();
    assert!(!corpus.is_empty(), "no .dom files to mutate");
    let mut tally = Tally::default();
    for (relative, text) in &corpus {
        let stem = relative.strip_suffix(".dom").unwrap_or(relative);
        for k in 0..MUTATIONS_PER_FILE {
            let mut rng = Rng(stable_hash(relative) ^ (k << 40) ^ (3 << 56));
            let bytes = mutate(&mut rng, text.as_bytes());
            run_one(
                "mutation",
                &format!("{stem}-{k}"),
                &bytes,
                &corpus,
                &mut tally,
            );
        }
    }
    eprintln!("fuzz mutation: {} seed files", corpus.len());
    report("mutation", &tally);
}

/// A rule body of a given depth.
type Shape = fn(usize) -> String;

/// Deeply nested and very long expressions of every shape, around the nesting limit and far past
/// it, on this test's 2 MiB thread: each compiles or is refused with a diagnostic, without
/// overflowing the stack or taking exponential time (nested parentheses once did).
#[test]
fn deep_nesting_never_crashes() {
    quiet_panics();
    let shapes: [(&str, Shape); 9] = [
        ("parentheses", |d| {
            format!("{}x{}", "(".repeat(d), ")".repeat(d))
        }),
        ("lets", |d| format!("{}x", "let y = 1; ".repeat(d))),
        ("sum", |d| format!("{}x", "x + ".repeat(d))),
        ("negations", |d| format!("{}x", "-".repeat(d))),
        ("else-ifs", |d| {
            format!("{}{{ x }}", "if x < 1 { 1 } else ".repeat(d))
        }),
        ("thens", |d| {
            format!("{}x{}", "if x < 1 { ".repeat(d), " } else { 0 }".repeat(d))
        }),
        ("matches", |d| {
            format!("{}x{}", "match x { 0 => ".repeat(d), ", _ => 0 }".repeat(d))
        }),
        ("calls", |d| format!("{}x{}", "f(".repeat(d), ")".repeat(d))),
        ("unclosed", |d| "(f(".repeat(d)),
    ];
    let corpus = corpus();
    let mut tally = Tally::default();
    for (shape, body) in shapes {
        for depth in [1, 10, 30, 100, 300, 330, 490, 990, 1_001, 3_000, 20_000] {
            let text = format!("fn f(x: int) -> int = {};\n", body(depth));
            run_one(
                "deep",
                &format!("{shape}-{depth}"),
                text.as_bytes(),
                &corpus,
                &mut tally,
            );
        }
    }
    report("deep", &tally);
}

/// Runs the checks on the input saved at `$FUZZ_REPLAY` (a failing input, or the in-progress file
/// a crash left); without the variable there is nothing to replay.
#[test]
fn replay() {
    let Some(path) = std::env::var_os(REPLAY) else {
        return;
    };
    // Cargo runs the test in `domc/`: a relative path may be the workspace's.
    let given = PathBuf::from(path);
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = [given.clone(), workspace.join(&given)]
        .into_iter()
        .find(|p| p.is_file())
        .unwrap_or(given);
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("cannot read {REPLAY}={}: {e}", path.display()));
    quiet_panics();
    let mut tally = Tally::default();
    run_one("replay", "input", &bytes, &corpus(), &mut tally);
    report("replay", &tally);
}
