//! Reading and lowering a module on several threads: the text is split into pieces
//! ([`crate::split`]), each thread parses a piece in an LLVM context of its own, lowers the
//! functions it owns and drops the piece, and the pieces' lowerings are joined
//! ([`crate::lower::join`]) into exactly the lowering of the whole module.
//!
//! Whenever the split cannot be trusted — bitcode, text that is not laid out as LLVM prints it,
//! a piece LLVM rejects, pieces whose tables disagree — the module is read whole instead, so
//! errors keep the file's own `file:line:col` and the result never depends on the split.

use std::ops::Range;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::ffi::LlvmModule;
use crate::flags::NswFlags;
use crate::load::{LoadError, load_module};
use crate::lower::{Lowered, Memory, join, lower_functions, lower_module};
use crate::split::split;

/// With `pieces == 0`, textual modules smaller than this many bytes are read whole: threads
/// cost more than they save.
pub const SPLIT_FROM: usize = 1 << 20;

/// A module read and lowered, and what it took.
#[derive(Debug)]
pub struct Read {
    /// The lowering of the whole module.
    pub lowered: Lowered,
    /// Time in LLVM's parser, summed over the pieces (with the scan for `nsw` flags).
    pub parse: Duration,
    /// Time lowering, summed over the pieces.
    pub lower: Duration,
    /// Wall-clock time of the whole read.
    pub wall: Duration,
    /// How many pieces the module was read in (1: whole).
    pub pieces: usize,
}

/// Reads the module at `path` and lowers it with `memory`, in `pieces` pieces on up to
/// `threads` threads (0 threads: one per core; 0 pieces: [`PIECES_PER_THREAD`] per thread, or
/// one for modules smaller than [`SPLIT_FROM`]);
/// `progress(done, total)` counts lowered functions, on the calling thread. The result is the
/// same for every number of pieces and threads.
pub fn read_module(
    path: &Path,
    memory: Memory,
    threads: usize,
    pieces: usize,
    mut progress: impl FnMut(usize, usize),
) -> Result<Read, LoadError> {
    let start = Instant::now();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let threads = if threads == 0 { cores } else { threads };
    let bytes = std::fs::read(path).map_err(|e| LoadError {
        file: path.display().to_string(),
        message: format!("cannot read the file: {e}"),
    })?;
    // The text, or the bytes when they are bitcode or not UTF-8 (LLVM reads those whole).
    let text = match is_bitcode(&bytes) {
        true => Err(bytes),
        false => String::from_utf8(bytes).map_err(std::string::FromUtf8Error::into_bytes),
    };
    let pieces = match (pieces, &text) {
        (0, Ok(text)) if text.len() < SPLIT_FROM => 1,
        (0, _) => threads * PIECES_PER_THREAD,
        (n, _) => n,
    };
    if let Some(split) = text.as_deref().ok().and_then(|t| split(t, pieces)) {
        drop(text);
        let owned = split.owned.clone();
        let texts: Vec<Mutex<Option<String>>> = split
            .texts
            .into_iter()
            .map(|t| Mutex::new(Some(t)))
            .collect();
        let name = path.display().to_string();
        let read = in_parallel(&name, &texts, &owned, memory, threads, &mut progress);
        if let Some((lowered, parse, lower)) = read {
            return Ok(Read {
                lowered,
                parse,
                lower,
                wall: start.elapsed(),
                pieces: owned.len(),
            });
        }
        return read_whole(path, None, memory, start, progress);
    }
    read_whole(path, Some(text), memory, start, progress)
}

/// With `pieces == 0`, big textual modules are read in this many pieces per thread: smaller
/// pieces keep less of LLVM's module in memory at a time (each thread drops its piece once it
/// is lowered), and the parts every piece repeats are small.
pub const PIECES_PER_THREAD: usize = 4;

fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(b"\xDE\xC0\x17\x0B")
}

/// What a worker reports.
enum Report {
    /// One more function lowered.
    Lowered,
    /// A piece is done: its index, lowering and parse and lowering times.
    Piece(usize, Lowered, Duration, Duration),
    /// A piece LLVM rejects.
    Failed,
}

/// Parses and lowers the pieces `texts` (owning the definitions `owned`) on `threads` threads
/// and joins them; `None` if a piece fails or the pieces disagree.
fn in_parallel(
    name: &str,
    texts: &[Mutex<Option<String>>],
    owned: &[Range<usize>],
    memory: Memory,
    threads: usize,
    progress: &mut impl FnMut(usize, usize),
) -> Option<(Lowered, Duration, Duration)> {
    let total: usize = owned.iter().map(Range::len).sum();
    let next = AtomicUsize::new(0);
    let mut done: Vec<Option<Lowered>> = (0..texts.len()).map(|_| None).collect();
    let (mut parse, mut lower) = (Duration::ZERO, Duration::ZERO);
    let mut failed = false;
    std::thread::scope(|scope| {
        let (send, receive) = mpsc::channel();
        for _ in 0..threads.min(texts.len()) {
            let send = send.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(slot) = texts.get(k) else {
                        break;
                    };
                    let Some(text) = slot.lock().ok().and_then(|mut t| t.take()) else {
                        break;
                    };
                    let report = match piece(name, &text, owned[k].clone(), memory, || {
                        send.send(Report::Lowered).is_ok()
                    }) {
                        Some((lowered, parse, lower)) => Report::Piece(k, lowered, parse, lower),
                        None => Report::Failed,
                    };
                    let stop = matches!(report, Report::Failed);
                    if send.send(report).is_err() || stop {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut lowered = 0;
        for report in receive {
            match report {
                Report::Lowered => {
                    lowered += 1;
                    progress(lowered, total);
                }
                Report::Piece(k, piece, p, l) => {
                    done[k] = Some(piece);
                    parse += p;
                    lower += l;
                }
                Report::Failed => {
                    failed = true;
                    // Later pieces are not started; the module is read whole.
                    next.store(texts.len(), Ordering::Relaxed);
                }
            }
        }
    });
    if failed {
        return None;
    }
    let pieces: Option<Vec<(Range<usize>, Lowered)>> = (owned.iter().cloned().zip(done))
        .map(|(range, lowered)| Some((range, lowered?)))
        .collect();
    join(pieces?).map(|lowered| (lowered, parse, lower))
}

/// Parses one piece and lowers the functions it owns, calling `lowered()` after each function;
/// the lowering and the parse and lowering times, or `None` if LLVM rejects the piece.
fn piece(
    name: &str,
    text: &str,
    owned: Range<usize>,
    memory: Memory,
    mut lowered: impl FnMut() -> bool,
) -> Option<(Lowered, Duration, Duration)> {
    let start = Instant::now();
    let flags = NswFlags::scan(text);
    let module = LlvmModule::parse_text(name, text).ok()?;
    let parse = start.elapsed();
    let start = Instant::now();
    let result = lower_functions(&module, &flags, memory, owned, |_, _| {
        lowered();
    });
    drop(module);
    Some((result, parse, start.elapsed()))
}

/// Reads and lowers the module at `path` whole, on this thread; `contents` is the file's text
/// (or its bytes, when bitcode or not UTF-8) if already read.
fn read_whole(
    path: &Path,
    contents: Option<Result<String, Vec<u8>>>,
    memory: Memory,
    start: Instant,
    progress: impl FnMut(usize, usize),
) -> Result<Read, LoadError> {
    let parse_start = Instant::now();
    let contents = contents.or_else(|| {
        let bytes = std::fs::read(path).ok()?;
        Some(String::from_utf8(bytes).map_err(std::string::FromUtf8Error::into_bytes))
    });
    let flags = match contents {
        Some(Ok(text)) => NswFlags::scan(&text),
        Some(Err(bytes)) if !is_bitcode(&bytes) => NswFlags::scan(&String::from_utf8_lossy(&bytes)),
        _ => NswFlags::none(),
    };
    let module = load_module(path)?;
    let parse = parse_start.elapsed();
    let lower_start = Instant::now();
    let lowered = lower_module(&module, &flags, memory, progress);
    let lower = lower_start.elapsed();
    drop(module);
    Ok(Read {
        lowered,
        parse,
        lower,
        wall: start.elapsed(),
        pieces: 1,
    })
}
