//! `absinthe dom check` and `absinthe dom build`: compile a `.dom` file with `absinthe-domc`, and
//! turn it into a standalone crate (its manifest, the generated module, a small binary that
//! analyzes a program with every analysis, and tests that check the lattice laws and run every
//! analysis to a fixpoint) — the second way to build a `.dom` file, next to
//! `absinthe_domc::Builder` and `absinthe::include_dom!`.
//!
//! The crate depends on absinthe by path, on a checkout found when the command runs (never one
//! baked in when the command was compiled): see [`locate`].
//!
//! Nothing here prints: the command line (`command.rs`) renders the results.

use absinthe::spec::ProgramKind;
use absinthe_domc::{Compiled, Diagnostic, Failure};
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

/// The environment variable naming the absinthe checkout a generated crate depends on, when
/// `--absinthe-path` is not given.
pub const ABSINTHE_PATH: &str = "ABSINTHE_PATH";

/// Why `dom build` failed.
#[derive(Debug)]
pub enum DomError {
    /// The `.dom` file has errors (or declares what a standalone crate cannot provide).
    Dom(Failure),
    /// Writing the crate failed.
    Io(PathBuf, std::io::Error),
    /// The directory given (by `--absinthe-path` or [`ABSINTHE_PATH`]) is not a checkout of
    /// absinthe.
    NotACheckout {
        /// How it was given: `--absinthe-path` or `ABSINTHE_PATH`.
        given: Found,
        /// The directory, as given.
        dir: PathBuf,
        /// What is missing or unreadable there.
        why: String,
    },
    /// Nothing says where absinthe is, and the executable does not sit in a checkout.
    NoCheckout {
        /// The running executable, if the system says where it is.
        executable: Option<PathBuf>,
    },
    /// Anything else, with its own message (building or running compiled analyses).
    Message(String),
}

/// The help shared by the errors about finding absinthe.
const CHECKOUT_HELP: &str = "  = help: pass `--absinthe-path DIR` or set `ABSINTHE_PATH=DIR`, \
     where DIR is a checkout of the absinthe repository (the directory holding `runtime/Cargo.toml` and \
     `ir/Cargo.toml`)\n  = note: once absinthe is published on the crate registry, a version \
     dependency will be the default and no checkout will be needed\n";

impl fmt::Display for DomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DomError::Dom(failure) => write!(f, "{failure}"),
            DomError::Message(message) => f.write_str(message),
            DomError::Io(path, error) => {
                writeln!(f, "error: cannot write `{}`: {error}", path.display())
            }
            DomError::NotACheckout { given, dir, why } => {
                let given = match given {
                    Found::Flag => format!("--absinthe-path {}", dir.display()),
                    _ => format!("{ABSINTHE_PATH}={}", dir.display()),
                };
                writeln!(f, "error: `{given}` is not a checkout of absinthe: {why}")?;
                f.write_str(CHECKOUT_HELP)
            }
            DomError::NoCheckout { executable } => {
                writeln!(
                    f,
                    "error: cannot find absinthe, which the generated crate depends on"
                )?;
                match executable {
                    Some(exe) => writeln!(
                        f,
                        "  = note: `{ABSINTHE_PATH}` is not set, and this executable (`{}`) does \
                         not sit in a checkout of absinthe",
                        exe.display()
                    )?,
                    None => writeln!(
                        f,
                        "  = note: `{ABSINTHE_PATH}` is not set, and the system does not say where \
                         this executable is"
                    )?,
                }
                f.write_str(CHECKOUT_HELP)
            }
        }
    }
}

impl std::error::Error for DomError {}

/// Compiles the `.dom` file at `path` and the files it imports.
pub fn check(path: &Path) -> Result<Compiled, Failure> {
    absinthe_domc::compile_file(path)
}

/// What `dom check` prints for a file that compiles:
/// `FILE: ok (N lattices, P products, M analyses)` (a direct product counts as a product).
pub fn summary(path: &Path, compiled: &Compiled) -> String {
    format!(
        "{}: ok ({}, {}, {})",
        path.display(),
        count(compiled.lattices.len(), "lattice"),
        count(compiled.products.len(), "product"),
        count(compiled.analyses.len(), "analysis"),
    )
}

fn count(n: usize, noun: &str) -> String {
    match (n, noun) {
        (1, _) => format!("1 {noun}"),
        (_, "analysis") => format!("{n} analyses"),
        _ => format!("{n} {noun}s"),
    }
}

/// How the absinthe checkout was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// `--absinthe-path DIR`.
    Flag,
    /// The [`ABSINTHE_PATH`] environment variable.
    Variable,
    /// The checkout the running executable sits in (a `target/…/absinthe` of a clone).
    Executable,
}

/// A checkout of the absinthe repository: the generated crate depends on its `runtime/` (package
/// `absinthe`) and `ir/` (package `absinthe-ir`) by path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkout {
    /// Its root, absolute.
    pub root: PathBuf,
    /// How it was found.
    pub found: Found,
}

/// Finds the absinthe checkout a generated crate depends on, in this order: `flag`
/// (`--absinthe-path DIR`), else `variable` (the value of [`ABSINTHE_PATH`], ignored when
/// empty), else the nearest directory above `executable` (the running `absinthe`) that is a
/// checkout. A directory given by the flag or the variable must be a checkout; none found is an
/// error that says how to point at one.
pub fn locate(
    flag: Option<&Path>,
    variable: Option<OsString>,
    executable: Option<PathBuf>,
) -> Result<Checkout, DomError> {
    let given = match (flag, variable) {
        (Some(dir), _) => Some((Found::Flag, dir.to_path_buf())),
        (None, Some(dir)) if !dir.is_empty() => Some((Found::Variable, PathBuf::from(dir))),
        _ => None,
    };
    if let Some((found, dir)) = given {
        return match checkout_root(&dir) {
            Ok(root) => Ok(Checkout { root, found }),
            Err(why) => Err(DomError::NotACheckout {
                given: found,
                dir,
                why,
            }),
        };
    }
    let root = executable
        .as_deref()
        .and_then(|exe| exe.ancestors().skip(1).find_map(|d| checkout_root(d).ok()));
    match root {
        Some(root) => Ok(Checkout {
            root,
            found: Found::Executable,
        }),
        None => Err(DomError::NoCheckout { executable }),
    }
}

/// [`locate`] with this process's `--absinthe-path`, environment and executable.
pub fn locate_here(flag: Option<&Path>) -> Result<Checkout, DomError> {
    locate(
        flag,
        std::env::var_os(ABSINTHE_PATH),
        std::env::current_exe().ok(),
    )
}

/// `dir`, absolute, if it is a checkout of absinthe: `runtime/Cargo.toml` names the package
/// `absinthe` and `ir/Cargo.toml` exists. Otherwise what is wrong.
fn checkout_root(dir: &Path) -> Result<PathBuf, String> {
    let root = dir
        .canonicalize()
        .map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
    let runtime = root.join("runtime/Cargo.toml");
    let manifest = std::fs::read_to_string(&runtime)
        .map_err(|e| format!("cannot read `{}`: {e}", runtime.display()))?;
    if !manifest
        .lines()
        .any(|line| line.trim().replace(' ', "") == "name=\"absinthe\"")
    {
        return Err(format!(
            "`{}` is not the manifest of package `absinthe`",
            runtime.display()
        ));
    }
    let ir = root.join("ir/Cargo.toml");
    if !ir.is_file() {
        return Err(format!("there is no `{}`", ir.display()));
    }
    Ok(root)
}

/// A crate to write: its package name and its files, by path relative to the crate's directory.
#[derive(Clone, Debug)]
pub struct StandaloneCrate {
    /// The package name (the module's, unless that names one of its dependencies).
    pub name: String,
    /// The files, in the order they are written.
    pub files: Vec<(PathBuf, String)>,
}

/// The standalone crate for `compiled`, depending on the absinthe checkout at `repository`.
///
/// `Cargo.toml` is its own workspace; `src/lib.rs` holds the generated module and re-exports it;
/// `src/main.rs` is a binary (`cargo run --features cli -- analyze PROGRAM`), `absinthe` with the
/// file's analyses, built only with the feature `cli` so that the library needs the runtime
/// alone; `tests/generated.rs` checks the laws of every lattice and product and
/// runs every analysis on sample programs. `lock` (the checkout's `Cargo.lock`, if any) becomes
/// the crate's, so that it builds with the versions absinthe is tested with.
pub fn standalone_crate(
    compiled: &Compiled,
    repository: &Path,
    lock: Option<String>,
) -> StandaloneCrate {
    let module = &compiled.module;
    let name = match module.as_str() {
        "absinthe" | "absinthe_ir" | "absinthe_cli" | "proptest" | "core" | "std" | "test" => {
            format!("{module}_dom")
        }
        _ => module.clone(),
    };
    standalone_crate_named(compiled, repository, lock, &name)
}

/// [`standalone_crate`] with the package name `name`.
pub fn standalone_crate_named(
    compiled: &Compiled,
    repository: &Path,
    lock: Option<String>,
    name: &str,
) -> StandaloneCrate {
    let name = name.to_owned();
    let file = &compiled.sources.get(0).name;
    let mut files = vec![
        (
            PathBuf::from("Cargo.toml"),
            manifest(&name, file, repository),
        ),
        (PathBuf::from("src/lib.rs"), library(compiled)),
        (PathBuf::from("src/main.rs"), binary(&name, compiled)),
        (PathBuf::from("tests/generated.rs"), tests(&name, compiled)),
    ];
    if let Some(lock) = lock {
        files.push((PathBuf::from("Cargo.lock"), lock));
    }
    StandaloneCrate { name, files }
}

/// Compiles `path` and writes its standalone crate into `out`, depending on the checkout
/// [`locate_here`] finds; returns the paths written.
pub fn build(path: &Path, out: &Path) -> Result<Vec<PathBuf>, DomError> {
    build_with(path, out, None)
}

/// [`build`] with `--absinthe-path`: `absinthe` names the checkout to depend on.
pub fn build_with(
    path: &Path,
    out: &Path,
    absinthe: Option<&Path>,
) -> Result<Vec<PathBuf>, DomError> {
    let compiled = check(path).map_err(DomError::Dom)?;
    refuse_externs(&compiled).map_err(DomError::Dom)?;
    let checkout = locate_here(absinthe)?;
    // An existing lock file is the user's: keep it.
    let lock = if out.join("Cargo.lock").is_file() {
        None
    } else {
        std::fs::read_to_string(checkout.root.join("Cargo.lock")).ok()
    };
    let krate = standalone_crate(&compiled, &checkout.root, lock);
    write_crate(&krate, out)
}

/// Writes the files of `krate` under `out`, creating directories as needed.
pub fn write_crate(krate: &StandaloneCrate, out: &Path) -> Result<Vec<PathBuf>, DomError> {
    let mut written = Vec::new();
    for (relative, text) in &krate.files {
        let path = out.join(relative);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| DomError::Io(dir.to_path_buf(), e))?;
        }
        std::fs::write(&path, text).map_err(|e| DomError::Io(path.clone(), e))?;
        written.push(path);
    }
    Ok(written)
}

/// A standalone crate cannot implement `extern` declarations (they are the host crate's Rust),
/// so a file that has any is refused, with a diagnostic at each.
pub fn refuse_externs(compiled: &Compiled) -> Result<(), Failure> {
    let mut diagnostics = Vec::new();
    for (id, span) in compiled.program.extern_places.iter().cloned() {
        {
            diagnostics.push(
                Diagnostic::new(
                    id,
                    span,
                    "a standalone crate cannot provide `extern` declarations",
                    "declared here",
                )
                .with_help(
                    "include the file in a crate that implements them, with \
                     `absinthe::include_dom!` or `absinthe_domc::Builder`",
                ),
            );
        }
    }
    if diagnostics.is_empty() {
        return Ok(());
    }
    Err(Failure {
        diagnostics,
        sources: compiled.sources.clone(),
    })
}

fn manifest(name: &str, file: &str, repository: &Path) -> String {
    let runtime = toml_string(&repository.join("runtime").display().to_string());
    let ir = toml_string(&repository.join("ir").display().to_string());
    let cli = toml_string(&repository.join("cli").display().to_string());
    let description = toml_string(&format!("The analyses of `{file}`, built by absinthe."));
    format!(
        r#"# Generated by `absinthe dom build` from `{file}`. Build it again rather than editing it.

[package]
name = "{name}"
version = "0.1.0"
edition = "2024"
description = {description}
publish = false

# A workspace of its own, wherever it is written.
[workspace]

# `cargo run --features cli -- analyze PROGRAM` and `cargo run --features cli -- verify PROGRAM`,
# as `absinthe` with the file's analyses. Only with the feature `cli`: the library needs the
# runtime alone.
[[bin]]
name = "{name}"
path = "src/main.rs"
test = false
doc = false
required-features = ["cli"]

# A checkout of absinthe, found when the crate was written (`--absinthe-path`, `ABSINTHE_PATH`,
# or the checkout the `absinthe` command sits in). The library depends on the runtime alone,
# without the attribute macros (the generated code needs none); the command line (absinthe-cli
# without its default `builtin` feature, so that the `absinthe` command's own analyses are not
# compiled) and the core IR come with the feature `cli`.
[dependencies]
absinthe = {{ path = {runtime}, default-features = false }}
absinthe-ir = {{ path = {ir}, optional = true }}
absinthe-cli = {{ path = {cli}, default-features = false, optional = true }}

# The tests check the laws and run every analysis on sample programs of the core IR.
[dev-dependencies]
absinthe = {{ path = {runtime}, default-features = false, features = ["laws"] }}
absinthe-ir = {{ path = {ir} }}

# `cli`: the binary. `llvm`: its LLVM front end (`analyze FILE.ll`), which links LLVM 15
# (absinthe's `scripts/install-llvm.sh` installs it). `absinthe analyze --compiled` turns on
# `cli`, and `llvm` when the `absinthe` command has it.
[features]
cli = ["dep:absinthe-cli", "dep:absinthe-ir"]
llvm = ["cli", "absinthe-cli/llvm"]

# The profiles of absinthe's own workspace (law checks run optimized; line tables for absinthe,
# no debug information for the rest), so that a crate built in absinthe's target directory
# reuses what absinthe's own build compiled.
[profile.dev]
debug = "line-tables-only"

[profile.dev.package."*"]
debug = false

[profile.dev.package.absinthe]
debug = "line-tables-only"

[profile.dev.package.absinthe-ir]
debug = "line-tables-only"

[profile.dev.package.absinthe-cli]
debug = "line-tables-only"

[profile.dev.package.absinthe-domc]
debug = "line-tables-only"

[profile.dev.package.absinthe-macros]
debug = "line-tables-only"

[profile.dev.package.absinthe-dsl-examples]
debug = "line-tables-only"

[profile.test]
opt-level = 1

[profile.test.package.absinthe-cli]
opt-level = 0

[profile.test.package.proptest]
opt-level = 3

[profile.release]
debug = "line-tables-only"
"#
    )
}

/// `text` as a TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn library(compiled: &Compiled) -> String {
    let file = &compiled.sources.get(0).name;
    let module = &compiled.module;
    format!(
        "//! The analyses of `{file}`, generated by `absinthe dom build`: the module `{module}`, \
         re-exported.\n\n{}\npub use {module}::*;\n",
        compiled.rust
    )
}

/// `src/main.rs`: the crate's binary, the `analyze`, `verify` and `trace` commands of
/// `absinthe` with the file's analyses as their catalog ([`crate::hosted_analyses!`],
/// [`crate::app::hosted_main`]).
fn binary(krate: &str, compiled: &Compiled) -> String {
    let file = &compiled.sources.get(0).name;
    let entries: String = compiled
        .analyses
        .iter()
        .map(|a| {
            let ty = a.type_name();
            // `describe` reads "`analysis name` at FILE:LINE:COL".
            let place = a.describe.rsplit(" at ").next().unwrap_or(&a.describe);
            let description = format!("{:?}", format!("from {place}"));
            format!("        {ty} = dom::{ty} => {description},\n")
        })
        .collect();
    format!(
        r##"//! Generated by `absinthe dom build` from `{file}`. Build it again rather than editing it.
//!
//! `cargo run --features cli -- analyze PROGRAM [--analysis NAME]`, `cargo run --features cli
//! -- verify [PROGRAM]` and `cargo run --features cli -- trace PROGRAM --format html` are
//! `absinthe analyze`, `verify` and `trace` with the analyses of the file (the first one by
//! default); `cargo run --features cli -- --help` lists them.

use std::process::ExitCode;

use {krate} as dom;

absinthe_cli::hosted_analyses! {{
    /// The analyses of `{file}`.
    enum Catalog {{
{entries}    }}
}}

fn main() -> ExitCode {{
    absinthe_cli::app::hosted_main::<Catalog>()
}}
"##
    )
}

fn tests(krate: &str, compiled: &Compiled) -> String {
    let file = &compiled.sources.get(0).name;
    let mut out = format!(
        "//! Generated by `absinthe dom build` from `{file}`: every lattice and product obeys\n\
         //! the lattice laws, and every analysis reaches a stable fixpoint on sample programs.\n\n\
         use absinthe::engine::solve;\n\
         use absinthe::laws::Laws;\n\
         use absinthe::value::DeclaredAnalysis;\n\
         use absinthe_ir::Function;\n\
         use {krate} as dom;\n"
    );
    let mut used = Vec::new();
    for lattice in compiled.lattices.iter().chain(&compiled.products) {
        let test = unique(
            &mut used,
            format!("{}_obeys_the_lattice_laws", snake(lattice)),
        );
        out.push_str(&format!(
            "\n#[test]\nfn {test}() {{\n    <dom::{lattice} as Laws>::check_laws();\n}}\n"
        ));
    }
    for analysis in &compiled.analyses {
        let name = &analysis.name;
        let ty = analysis.type_name();
        let test = unique(&mut used, format!("{name}_reaches_a_stable_fixpoint"));
        let programs = match analysis.spec.program {
            ProgramKind::Toy => "toy_programs()",
            ProgramKind::Air => "air_programs()",
            ProgramKind::Any => "toy_programs().into_iter().chain(air_programs())",
        };
        out.push_str(&format!(
            r#"
#[test]
fn {test}() {{
    assert_eq!(<dom::{ty} as DeclaredAnalysis>::NAME, "{name}");
    let mut runs = 0;
    for (program, function) in {programs} {{
        let limits = <dom::{ty} as DeclaredAnalysis>::limits();
        let solution = solve(&function, &dom::{ty}::analysis(), &limits);
        assert!(
            solution.stop.is_stable(),
            "`{name}` on {{program}}: {{:?}}",
            solution.stop
        );
        runs += 1;
    }}
    assert!(runs > 0);
}}
"#
        ));
    }
    out.push_str(SAMPLES);
    out
}

/// The sample programs of the generated tests.
const SAMPLES: &str = r#"
/// A loop around a branch, in the toy language of the graph-free article.
const BRANCHY_TOY: &str = "\
x = 0
y = 7
x < 5 && @goto 5
y = y + x
@goto 6
y = y * 2
x = x + 1
x < 10 && @goto 2
";

/// A counting loop, and a sum in SSA form whose names flow around the loop through φs.
const SAMPLES_AIR: &str = "\
fn count() {
bb0:
    i = 0
    goto head
head:
    br i < 10, body, done
body:
    i = i + 1
    goto head
done:
    ret i
}
fn sum(n) ssa {
entry:
    goto head
head:
    i = phi [entry: 1, body: i2]
    s = phi [entry: 0, body: s2]
    br i <= n, body, done
body:
    s2 = s + i
    i2 = i + 1
    goto head
done:
    ret s
}
";

/// The article's `prog0` and `BRANCHY_TOY`, lowered to the core IR.
fn toy_programs() -> Vec<(String, Function)> {
    let mut programs = vec![("prog0".to_owned(), absinthe_ir::toy::prog0().lower().0)];
    match absinthe_ir::parse_toy("branchy.toy", BRANCHY_TOY) {
        Ok(program) => programs.push(("branchy.toy".to_owned(), program.lower().0)),
        Err(error) => panic!("the sample toy program parses: {error}"),
    }
    programs
}

/// The functions of `SAMPLES_AIR`.
fn air_programs() -> Vec<(String, Function)> {
    match absinthe_ir::parse_module("samples.air", SAMPLES_AIR) {
        Ok(module) => module
            .functions
            .into_iter()
            .map(|f| (format!("samples.air:{}", f.name), f))
            .collect(),
        Err(error) => panic!("the sample core-IR module parses: {error}"),
    }
}
"#;

/// `ConstValue` → `const_value`.
fn snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            // A word starts at an upper-case letter after a lower-case one or a digit, or at
            // the last capital of an acronym followed by a lower-case letter (`HTTPServer`):
            // an acronym stays one word (`KB` → `kb`, not `k_b`).
            let previous = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1);
            let starts_word = match previous {
                None => false,
                Some(p) if p.is_ascii_lowercase() || p.is_ascii_digit() => true,
                Some(p) if p.is_ascii_uppercase() => next.is_some_and(char::is_ascii_lowercase),
                Some(_) => false,
            };
            if starts_word && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `name`, or `name_2`, `name_3`, … if it is taken; records the result in `used`.
fn unique(used: &mut Vec<String>, name: String) -> String {
    let mut candidate = name.clone();
    let mut k = 2;
    while used.contains(&candidate) {
        candidate = format!("{name}_{k}");
        k += 1;
    }
    used.push(candidate.clone());
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(snake("ConstValue"), "const_value");
        assert_eq!(snake("Const"), "const");
        assert_eq!(snake("KB"), "kb");
        assert_eq!(snake("KnownBits"), "known_bits");
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(count(1, "analysis"), "1 analysis");
        assert_eq!(count(2, "analysis"), "2 analyses");
        assert_eq!(count(0, "lattice"), "0 lattices");
        let mut used = Vec::new();
        assert_eq!(unique(&mut used, "a".into()), "a");
        assert_eq!(unique(&mut used, "a".into()), "a_2");
    }

    /// This checkout, and a directory that is none (a fresh one under Cargo's scratch directory
    /// for unit tests, which sits in the checkout's target directory).
    fn checkout_and_not() -> (PathBuf, PathBuf) {
        let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = cli
            .parent()
            .unwrap_or(cli)
            .canonicalize()
            .expect("the checkout");
        let not = root.join("target/tmp/dom-locate-not-a-checkout");
        std::fs::create_dir_all(not.join("runtime")).expect("create a directory");
        (root, not)
    }

    #[test]
    fn locate_prefers_the_flag_then_the_variable_then_the_executable() {
        let (root, not) = checkout_and_not();
        let exe = Some(root.join("target/debug/absinthe"));
        let var = Some(OsString::from(&root));
        let found = |flag: Option<&Path>, var: Option<OsString>, exe: Option<PathBuf>| {
            locate(flag, var, exe).map(|c| (c.root, c.found))
        };
        assert_eq!(
            found(Some(&root), Some(not.clone().into()), None).ok(),
            Some((root.clone(), Found::Flag))
        );
        assert_eq!(
            found(None, var.clone(), Some(not.join("absinthe"))).ok(),
            Some((root.clone(), Found::Variable))
        );
        // An empty variable is no variable.
        assert_eq!(
            found(None, Some(OsString::new()), exe.clone()).ok(),
            Some((root.clone(), Found::Executable))
        );
        // A bad flag is an error, even when the variable is good.
        let error = found(Some(&not), var, exe).expect_err("not a checkout");
        let text = error.to_string();
        assert!(
            text.starts_with("error: `--absinthe-path ") && text.contains("is not a checkout"),
            "{text}"
        );
    }

    #[test]
    fn locate_explains_how_to_point_at_a_checkout() {
        let (_, not) = checkout_and_not();
        let text = locate(None, None, Some(Path::new("/nowhere/bin/absinthe").into()))
            .expect_err("no checkout above /nowhere")
            .to_string();
        for expected in [
            "cannot find absinthe",
            "`/nowhere/bin/absinthe`",
            "--absinthe-path DIR",
            "ABSINTHE_PATH=DIR",
            "crate registry",
        ] {
            assert!(text.contains(expected), "no `{expected}` in\n{text}");
        }
        let text = locate(None, Some(not.clone().into()), None)
            .expect_err("not a checkout")
            .to_string();
        assert!(
            text.contains(&format!(
                "`ABSINTHE_PATH={}` is not a checkout",
                not.display()
            )) && text.contains("runtime/Cargo.toml"),
            "{text}"
        );
    }

    #[test]
    fn toml_strings_escape_quotes_and_backslashes() {
        assert_eq!(toml_string(r#"C:\a "b""#), r#""C:\\a \"b\"""#);
    }
}
