//! The build-script helper: compile `.dom` files from `build.rs` into `OUT_DIR`, like
//! `lalrpop` or `tonic-build`.
//!
//! ```no_run
//! // In build.rs:
//! if let Err(error) = absinthe_domc::Builder::new().file("dom/interval.dom").compile() {
//!     eprintln!("{error}");
//!     std::process::exit(1);
//! }
//! ```
//!
//! and in the crate: `include!(concat!(env!("OUT_DIR"), "/interval.rs"));`, which defines the
//! module `interval`.

use crate::diagnostic::Failure;
use std::fmt;
use std::path::{Path, PathBuf};

/// Compiles `.dom` files into Rust files in a directory (by default Cargo's `OUT_DIR`).
#[derive(Clone, Debug, Default)]
pub struct Builder {
    files: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    cargo: bool,
}

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// A `.dom` file has errors; the value renders them with their places.
    Dom(Failure),
    /// No output directory: not run by Cargo and none given.
    NoOutDir,
    /// Writing the output failed.
    Io(PathBuf, std::io::Error),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Dom(failure) => write!(f, "{failure}"),
            BuildError::NoOutDir => f.write_str(
                "no output directory: `OUT_DIR` is not set (not run by Cargo); call `out_dir`",
            ),
            BuildError::Io(path, error) => write!(f, "cannot write `{}`: {error}", path.display()),
        }
    }
}

impl std::error::Error for BuildError {}

impl Builder {
    /// A builder with no files, writing to `OUT_DIR` and printing `cargo:` directives.
    pub fn new() -> Builder {
        Builder {
            files: Vec::new(),
            out_dir: None,
            cargo: true,
        }
    }

    /// Adds a `.dom` file (relative to the crate's manifest directory when run by Cargo).
    pub fn file(mut self, path: impl AsRef<Path>) -> Builder {
        self.files.push(path.as_ref().to_path_buf());
        self
    }

    /// Writes into `dir` instead of `OUT_DIR`, and prints no `cargo:` directives.
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Builder {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self.cargo = false;
        self
    }

    /// Compiles every file; writes `<dir>/<stem>.rs` for each and returns their paths. With
    /// Cargo, prints `cargo:rerun-if-changed` for every file read, imports included.
    pub fn compile(self) -> Result<Vec<PathBuf>, BuildError> {
        let dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(BuildError::NoOutDir)?,
        };
        let mut written = Vec::new();
        for file in &self.files {
            if self.cargo {
                println!("cargo:rerun-if-changed={}", file.display());
            }
            let compiled = crate::compile_file(file).map_err(BuildError::Dom)?;
            if self.cargo {
                for source in compiled.sources.files().iter().skip(1) {
                    println!("cargo:rerun-if-changed={}", source.name);
                }
            }
            let out = dir.join(format!("{}.rs", compiled.module));
            std::fs::write(&out, &compiled.rust).map_err(|e| BuildError::Io(out.clone(), e))?;
            written.push(out);
        }
        Ok(written)
    }
}
