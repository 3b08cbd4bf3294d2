//! `absinthe dom check` and `absinthe dom build`: compile a `.dom` file with `absinthe-domc`, and
//! turn it into a standalone crate (its manifest, the generated module, and tests that check the
//! lattice laws and run every analysis to a fixpoint) — the second way to build a `.dom` file,
//! next to `absinthe_domc::Builder` and `absinthe::include_dom!`.
//!
//! Nothing here prints: `main.rs` renders the results.

use absinthe_domc::dom::ast::Item;
use absinthe_domc::dom::syntax;
use absinthe_domc::{Compiled, Diagnostic, Failure};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why `dom build` failed.
#[derive(Debug)]
pub enum DomError {
    /// The `.dom` file has errors (or declares what a standalone crate cannot provide).
    Dom(Failure),
    /// Writing the crate failed.
    Io(PathBuf, std::io::Error),
}

impl fmt::Display for DomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DomError::Dom(failure) => write!(f, "{failure}"),
            DomError::Io(path, error) => {
                writeln!(f, "error: cannot write `{}`: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for DomError {}

/// Compiles the `.dom` file at `path` and the files it imports.
pub fn check(path: &Path) -> Result<Compiled, Failure> {
    absinthe_domc::compile_file(path)
}

/// What `dom check` prints for a file that compiles: `FILE: ok (N lattices, M analyses)`.
pub fn summary(path: &Path, compiled: &Compiled) -> String {
    format!(
        "{}: ok ({}, {})",
        path.display(),
        count(compiled.lattices.len(), "lattice"),
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

/// The root of the absinthe repository this command was built from: the generated crate depends
/// on its `runtime/` (package `absinthe`) and `ir/` (package `absinthe-ir`) by path.
pub fn repository() -> PathBuf {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
    cli.parent().unwrap_or(cli).to_path_buf()
}

/// A crate to write: its package name and its files, by path relative to the crate's directory.
#[derive(Clone, Debug)]
pub struct StandaloneCrate {
    /// The package name (the module's, unless that names one of its dependencies).
    pub name: String,
    /// The files, in the order they are written.
    pub files: Vec<(PathBuf, String)>,
}

/// The standalone crate for `compiled`, depending on the absinthe repository at `repository`.
///
/// `Cargo.toml` is its own workspace; `src/lib.rs` holds the generated module and re-exports it;
/// `tests/generated.rs` checks the laws of every lattice and product and runs every analysis on
/// sample programs. `lock` (the repository's `Cargo.lock`, if any) becomes the crate's, so that
/// it builds with the versions absinthe is tested with.
pub fn standalone_crate(
    compiled: &Compiled,
    repository: &Path,
    lock: Option<String>,
) -> StandaloneCrate {
    let module = &compiled.module;
    let name = match module.as_str() {
        "absinthe" | "absinthe_ir" | "proptest" | "core" | "std" | "test" => {
            format!("{module}_dom")
        }
        _ => module.clone(),
    };
    let file = &compiled.sources.get(0).name;
    let mut files = vec![
        (
            PathBuf::from("Cargo.toml"),
            manifest(&name, file, repository),
        ),
        (PathBuf::from("src/lib.rs"), library(compiled)),
        (PathBuf::from("tests/generated.rs"), tests(&name, compiled)),
    ];
    if let Some(lock) = lock {
        files.push((PathBuf::from("Cargo.lock"), lock));
    }
    StandaloneCrate { name, files }
}

/// Compiles `path` and writes its standalone crate into `out`; returns the paths written.
pub fn build(path: &Path, out: &Path) -> Result<Vec<PathBuf>, DomError> {
    let compiled = check(path).map_err(DomError::Dom)?;
    refuse_externs(&compiled).map_err(DomError::Dom)?;
    let repository = repository();
    // An existing lock file is the user's: keep it.
    let lock = if out.join("Cargo.lock").is_file() {
        None
    } else {
        std::fs::read_to_string(repository.join("Cargo.lock")).ok()
    };
    let krate = standalone_crate(&compiled, &repository, lock);
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
    for (id, source) in compiled.sources.files().iter().enumerate() {
        let Ok(file) = syntax::parse(id, &source.text) else {
            continue;
        };
        for item in &file.items {
            let span = match item {
                Item::ExternType(name) => name.span.clone(),
                Item::ExternFn(signature) => signature.span.clone(),
                _ => continue,
            };
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

[dependencies]
absinthe = {{ path = {runtime} }}

[dev-dependencies]
absinthe = {{ path = {runtime}, features = ["laws"] }}
absinthe-ir = {{ path = {ir} }}

# As absinthe's own tests: law checks run optimized.
[profile.test]
opt-level = 1

[profile.test.package.proptest]
opt-level = 3
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

fn tests(krate: &str, compiled: &Compiled) -> String {
    let file = &compiled.sources.get(0).name;
    let module = &compiled.module;
    let mut out = format!(
        "//! Generated by `absinthe dom build` from `{file}`: every lattice and product obeys\n\
         //! the lattice laws, and every analysis reaches a stable fixpoint on sample programs.\n\n\
         use absinthe::engine::solve;\n\
         use absinthe::laws::Laws;\n\
         use absinthe::value::DeclaredAnalysis;\n\
         use absinthe_ir::Function;\n\
         use {krate}::{module} as dom;\n"
    );
    let mut used = Vec::new();
    for lattice in &compiled.lattices {
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
        let ty = camel(name);
        let test = unique(&mut used, format!("{name}_reaches_a_stable_fixpoint"));
        let programs = match analysis.program.as_str() {
            "toy" => "toy_programs()",
            "air" => "air_programs()",
            _ => "toy_programs().into_iter().chain(air_programs())",
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
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `const_prop` → `ConstProp`: the name the generator gives the analysis's unit struct.
fn camel(name: &str) -> String {
    name.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(first) => first.to_uppercase().collect::<String>() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
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
        assert_eq!(camel("sccp_prop"), "SccpProp");
        assert_eq!(count(1, "analysis"), "1 analysis");
        assert_eq!(count(2, "analysis"), "2 analyses");
        assert_eq!(count(0, "lattice"), "0 lattices");
        let mut used = Vec::new();
        assert_eq!(unique(&mut used, "a".into()), "a");
        assert_eq!(unique(&mut used, "a".into()), "a_2");
    }

    #[test]
    fn toml_strings_escape_quotes_and_backslashes() {
        assert_eq!(toml_string(r#"C:\a "b""#), r#""C:\\a \"b\"""#);
    }
}
