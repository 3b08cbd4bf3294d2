//! Reading `.ll` and `.bc` files with LLVM's own parser (through [`crate::ffi`]), without ever
//! aborting: parse errors become [`LoadError`]s for the file. [`contain_panics`] is the lowering's
//! last line of defense: a panic while lowering one function skips that function.

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::Once;

use std::cell::Cell;

use crate::ffi::LlvmModule;

/// Why a module could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file.
    pub file: String,
    /// What went wrong, in one line.
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: error: {}", self.file, self.message)
    }
}

impl std::error::Error for LoadError {}

/// Reads an LLVM module: bitcode when the file starts with the bitcode magic (`BC` or the
/// wrapper magic), textual IR otherwise. LLVM parses it (its message, with `file:line:col` for
/// text, is the [`LoadError`]); the module stays LLVM's, read in place by the lowering.
pub fn load_module(path: &Path) -> Result<LlvmModule, LoadError> {
    let file = path.display().to_string();
    let error = |message: String| LoadError {
        file: file.clone(),
        message,
    };
    let head = read_head(path).map_err(|e| error(format!("cannot read the file: {e}")))?;
    let bitcode = head.starts_with(b"BC\xC0\xDE") || head.starts_with(b"\xDE\xC0\x17\x0B");
    LlvmModule::parse(path, bitcode).map_err(|message| error(one_line(&message)))
}

fn read_head(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(4);
    std::fs::File::open(path)?.take(4).read_to_end(&mut head)?;
    Ok(head)
}

/// `message` on one line.
pub(crate) fn one_line(message: &str) -> String {
    let joined: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    joined.join(" ")
}

thread_local! {
    /// Set while this thread runs code whose panics [`contain_panics`] turns into errors.
    static CONTAINING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, turning a panic into `Err(message)`. While `f` runs, the panic hook stays quiet on
/// this thread (other threads still report their panics as usual).
pub fn contain_panics<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static QUIET_HOOK: Once = Once::new();
    QUIET_HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CONTAINING.with(Cell::get) {
                previous(info);
            }
        }));
    });
    let was = CONTAINING.with(|c| c.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CONTAINING.with(|c| c.set(was));
    result.map_err(|payload| {
        if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_owned()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "a panic without a message".to_owned()
        }
    })
}
