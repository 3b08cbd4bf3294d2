//! `analyze --dom FILE` and `verify --dom FILE`: a `.dom` file's analyses run compiled. The
//! file's standalone crate ([`crate::dom::standalone_crate`]) is written into a cache, one crate
//! per file (keyed by the file's path, the absinthe version, the checkout it depends on and the
//! features), rewriting only what the generated code changed; cargo builds it incrementally (its
//! progress on standard error), into a target directory shared by every cached crate so that
//! absinthe itself is compiled once, and an edited file recompiles only what its edit changed;
//! then its binary — the `analyze` and `verify` commands with the file's analyses — runs with the
//! user's arguments.

use crate::dom::{self, DomError};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The environment variable naming the cache directory (default: `$XDG_CACHE_HOME/absinthe`,
/// else `$HOME/.cache/absinthe`).
pub const ABSINTHE_CACHE: &str = "ABSINTHE_CACHE";

/// The arguments of `absinthe analyze|verify …` to hand to the compiled binary: all of them but
/// `--compiled`, `--dom FILE` and `--absinthe-path DIR` (in either spelling, `--flag VALUE` or
/// `--flag=VALUE`).
pub fn forwarded_args(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut out = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        if text == "--dom" || text == "--absinthe-path" {
            args.next();
            continue;
        }
        if text == "--compiled" {
            continue;
        }
        if text.starts_with("--dom=") || text.starts_with("--absinthe-path=") {
            continue;
        }
        out.push(arg);
    }
    out
}

/// The cache directory: [`ABSINTHE_CACHE`], else the user's cache directory.
pub fn cache_dir() -> Result<PathBuf, String> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var(ABSINTHE_CACHE) {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return Ok(PathBuf::from(dir).join("absinthe"));
    }
    if let Some(home) = var("HOME") {
        return Ok(PathBuf::from(home).join(".cache").join("absinthe"));
    }
    Err(format!(
        "error: no cache directory for compiled analyses\n  = help: set `{ABSINTHE_CACHE}=DIR`\n"
    ))
}

/// 64-bit FNV-1a: a cache key that stays the same from one build of absinthe to the next.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &byte in part.iter().chain(&[0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// Where a compiled `.dom` file lives in the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CachedCrate {
    /// The crate's directory.
    pub dir: PathBuf,
    /// Its package (and binary) name: the module's, with the key, so that two files with the same
    /// name (in different directories) never share a binary in the shared target directory.
    pub name: String,
    /// The target directory every cached crate builds into.
    pub target: PathBuf,
}

impl CachedCrate {
    /// The crate of the file `file` (its module `module`), built against `checkout`, under
    /// `cache`. The file's path, not its text, is the key: an edited file is the same crate,
    /// which cargo then rebuilds incrementally.
    pub fn new(cache: &Path, module: &str, file: &Path, checkout: &Path) -> CachedCrate {
        let key = fnv1a(&[
            file.as_os_str().as_encoded_bytes(),
            env!("CARGO_PKG_VERSION").as_bytes(),
            checkout.as_os_str().as_encoded_bytes(),
            FEATURES.join(",").as_bytes(),
        ]);
        let name = format!("{}_{key:016x}", module.trim_start_matches('_'));
        CachedCrate {
            dir: cache.join("dom").join(&name),
            name,
            target: cache.join("target"),
        }
    }

    /// The built binary.
    pub fn binary(&self) -> PathBuf {
        self.target
            .join("release")
            .join(format!("{}{}", self.name, std::env::consts::EXE_SUFFIX))
    }
}

/// Compiles `file`, writes and builds its crate in the cache (cargo does nothing when it is
/// fresh), then runs the binary with `args`; its exit status is the result.
pub fn run(file: &Path, absinthe: Option<&Path>, args: &[OsString]) -> Result<ExitCode, DomError> {
    // Rules are called, not inlined, by the engines the binary instantiates: an edit of a rule
    // then recompiles the generated library alone (measured: 1.3 s instead of 8-12 s).
    let compiled = absinthe_domc::compile_file_with(file, absinthe_domc::Inlining::Calls)
        .map_err(DomError::Dom)?;
    dom::refuse_externs(&compiled).map_err(DomError::Dom)?;
    let checkout = dom::locate_here(absinthe)?;
    let cache = cache_dir().map_err(DomError::Message)?;
    let root = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let cached = CachedCrate::new(&cache, &compiled.module, &root, &checkout.root);
    let lock = std::fs::read_to_string(checkout.root.join("Cargo.lock")).ok();
    let krate = dom::standalone_crate_named(&compiled, &checkout.root, lock, &cached.name);
    // Rewriting an unchanged file would make cargo rebuild the crate.
    let mut changed = false;
    for (relative, text) in &krate.files {
        let path = cached.dir.join(relative);
        if std::fs::read_to_string(&path).is_ok_and(|old| old == *text) {
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| DomError::Io(dir.to_path_buf(), e))?;
        }
        std::fs::write(&path, text).map_err(|e| DomError::Io(path.clone(), e))?;
        changed = true;
    }
    build(file, &cached, changed)?;
    let status = std::process::Command::new(cached.binary())
        .args(args)
        .status()
        .map_err(|e| {
            DomError::Message(format!("error: cannot run the compiled analyses: {e}\n"))
        })?;
    Ok(match status.code() {
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => ExitCode::FAILURE,
    })
}

/// The features of the cached crate that this command turns on: `cli` (its binary), and `llvm`
/// when this command reads LLVM IR itself, so that the compiled analyses read what the
/// interpreted ones read.
const FEATURES: &[&str] = if cfg!(feature = "llvm") {
    &["cli", "llvm"]
} else {
    &["cli"]
};

/// `cargo build --release` of the cached crate (with [`FEATURES`]), incremental unless
/// `CARGO_INCREMENTAL` says otherwise: after an edit,
/// rustc recompiles the parts of the crate the edit changed, not the whole crate (measured on 2
/// cores: a one-line edit of a rule took 20 s to rebuild from scratch). Incremental compilation
/// splits the crate into more codegen units, which inline less across each other; the
/// generated crate built with `dom build` is not built this way. `changed`: whether the crate's
/// files were just rewritten. Cargo draws its progress bar on standard error when that is a
/// terminal; a build that fails leaves cargo's messages there.
fn build(file: &Path, cached: &CachedCrate, changed: bool) -> Result<(), DomError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let fresh = !changed && cached.binary().is_file();
    if !fresh {
        eprintln!(
            "compiling the analyses of {} (cached in {})",
            file.display(),
            cached.dir.display()
        );
    }
    let mut command = std::process::Command::new(cargo);
    // Incremental unless the environment says otherwise (a CI that turns incremental builds
    // off, `CARGO_INCREMENTAL=0`, builds each crate once).
    if std::env::var_os("CARGO_INCREMENTAL").is_none() {
        command.env("CARGO_INCREMENTAL", "1");
    }
    let status = command
        .arg("build")
        .arg("--release")
        .arg("--bins")
        .arg("--manifest-path")
        .arg(cached.dir.join("Cargo.toml"))
        .args(FEATURES.iter().flat_map(|f| ["--features", f]))
        .args(if fresh { &["--quiet"][..] } else { &[][..] })
        .env("CARGO_TARGET_DIR", &cached.target)
        .status()
        .map_err(|e| DomError::Message(format!("error: cannot run cargo: {e}\n")))?;
    if status.success() {
        Ok(())
    } else {
        Err(DomError::Message(format!(
            "error: building the analyses of {} failed (the crate is {})\n",
            file.display(),
            cached.dir.display()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn dom_flags_are_not_forwarded() {
        let args = os(&[
            "analyze",
            "p.air",
            "--dom",
            "x.dom",
            "--analysis",
            "parity",
            "--absinthe-path=/a",
        ]);
        assert_eq!(
            forwarded_args(args),
            os(&["analyze", "p.air", "--analysis", "parity"])
        );
        assert_eq!(
            forwarded_args(os(&[
                "verify",
                "--dom=x.dom",
                "--absinthe-path",
                "d",
                "--random",
                "3"
            ])),
            os(&["verify", "--random", "3"])
        );
    }

    #[test]
    fn the_key_depends_on_the_file_and_the_checkout() {
        let cache = Path::new("cache");
        let file = Path::new("/w/parity.dom");
        let a = CachedCrate::new(cache, "parity", file, Path::new("/a"));
        assert_eq!(a, CachedCrate::new(cache, "parity", file, Path::new("/a")));
        assert!(a.name.starts_with("parity_"));
        assert_eq!(a.target, cache.join("target"));
        let elsewhere = Path::new("/v/parity.dom");
        assert_ne!(
            a,
            CachedCrate::new(cache, "parity", elsewhere, Path::new("/a"))
        );
        assert_ne!(a, CachedCrate::new(cache, "parity", file, Path::new("/b")));
    }
}
