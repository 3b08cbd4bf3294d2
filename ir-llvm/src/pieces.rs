//! Reading and lowering a module on several threads: the text is split into pieces
//! ([`crate::split`]), each thread parses a piece in an LLVM context of its own, lowers the
//! functions it owns and drops the piece, and the pieces' lowerings are joined
//! ([`crate::lower::join`]) into exactly the lowering of the whole module.
//!
//! Whenever the split cannot be trusted — bitcode, text that is not laid out as LLVM prints it,
//! a piece LLVM rejects, pieces whose tables disagree — the module is read whole instead, so
//! errors keep the file's own `file:line:col` and the result never depends on the split.

use std::num::NonZeroUsize;
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

/// With the number of pieces left to [`read_module`], textual modules smaller than this many
/// bytes are read whole: threads cost more than they save.
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
    /// Wall-clock time of the whole read (with what [`read_module_with`] does to each piece).
    pub wall: Duration,
    /// How many pieces the module was read in (1: whole).
    pub pieces: usize,
}

/// Reads the module at `path` and lowers it with `memory`, in `pieces` pieces on up to
/// `threads` threads (`None` threads: one per core; `None` pieces: [`PIECES_PER_THREAD`] per
/// thread, or one for modules smaller than [`SPLIT_FROM`]); `progress(done, total)` counts
/// lowered functions, on the calling thread. The result is the same for every number of pieces
/// and threads.
pub fn read_module(
    path: &Path,
    memory: Memory,
    threads: Option<NonZeroUsize>,
    pieces: Option<NonZeroUsize>,
    progress: impl FnMut(usize, usize),
) -> Result<Read, LoadError> {
    read_module_with(path, memory, threads, pieces, progress, |_, _| ()).map(|(read, _)| read)
}

/// [`read_module`], calling `each(lowering, threads)` on what was read as soon as it is
/// lowered: on each piece's lowering (whose [`Lowered::functions`] are the functions the piece
/// owns) on the thread that read it, with one thread, or on the whole module's, with the
/// `threads` given (`None` if none were), when it is read whole. The results come in the module's order, one per
/// piece. This is how `absinthe analyze` analyzes a piece's functions while the other pieces
/// are still being parsed.
pub fn read_module_with<T: Send>(
    path: &Path,
    memory: Memory,
    threads: Option<NonZeroUsize>,
    pieces: Option<NonZeroUsize>,
    mut progress: impl FnMut(usize, usize),
    each: impl Fn(&Lowered, Option<NonZeroUsize>) -> T + Sync,
) -> Result<(Read, Vec<T>), LoadError> {
    let start = Instant::now();
    let asked = threads;
    let threads = threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
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
        (None, Ok(text)) if text.len() < SPLIT_FROM => 1,
        (None, _) => threads * PIECES_PER_THREAD,
        (Some(n), _) => n.get(),
    };
    let split = text.as_deref().ok().and_then(|t| split(t, pieces));
    if let Some(split) = split {
        // The pieces' texts are made up front, so that the module's text can go: made by the
        // threads, they would keep it alive until the last piece is parsed.
        let texts: Vec<Mutex<Option<String>>> = (0..split.owned.len())
            .map(|k| Mutex::new(Some(split.text(k))))
            .collect();
        let (owned, definitions) = (split.owned, split.definitions);
        drop(text);
        let name = path.display().to_string();
        let read = in_parallel(
            &name,
            &texts,
            &owned,
            definitions,
            memory,
            threads,
            &mut progress,
            &each,
        );
        if let Some((lowered, parse, lower, results)) = read {
            let read = Read {
                lowered,
                parse,
                lower,
                wall: start.elapsed(),
                pieces: owned.len(),
            };
            return Ok((read, results));
        }
        let mut read = read_whole(path, None, memory, progress)?;
        let result = each(&read.lowered, asked);
        read.wall = start.elapsed();
        return Ok((read, vec![result]));
    }
    let mut read = read_whole(path, Some(text), memory, progress)?;
    let result = each(&read.lowered, asked);
    read.wall = start.elapsed();
    Ok((read, vec![result]))
}

/// With `pieces == 0`, big textual modules are read in this many pieces per thread: smaller
/// pieces keep less of LLVM's module in memory at a time (each thread drops its piece once it
/// is lowered), and the parts every piece repeats are small.
pub const PIECES_PER_THREAD: usize = 4;

fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(b"\xDE\xC0\x17\x0B")
}

/// What a worker reports.
enum Report<T> {
    /// One more function lowered.
    Lowered,
    /// A piece is done: its index, its lowering, parse and lowering times, and what `each` made
    /// of it.
    Piece(usize, Box<(Lowered, Duration, Duration, T)>),
    /// A piece LLVM rejects.
    Failed,
}

/// Parses and lowers the pieces `texts` (owning the definitions `owned`, of `definitions`) on
/// `threads` threads, calls `each` on every piece's lowering, and joins them; `None` if a piece
/// fails or the pieces disagree.
#[allow(clippy::too_many_arguments)]
fn in_parallel<T: Send>(
    name: &str,
    texts: &[Mutex<Option<String>>],
    owned: &[Range<usize>],
    definitions: usize,
    memory: Memory,
    threads: usize,
    progress: &mut impl FnMut(usize, usize),
    each: &(impl Fn(&Lowered, Option<NonZeroUsize>) -> T + Sync),
) -> Option<(Lowered, Duration, Duration, Vec<T>)> {
    let count = owned.len();
    let next = AtomicUsize::new(0);
    let mut done: Vec<Option<(Lowered, T)>> = (0..count).map(|_| None).collect();
    let (mut parse, mut lower) = (Duration::ZERO, Duration::ZERO);
    let mut failed = false;
    std::thread::scope(|scope| {
        let (send, receive) = mpsc::channel();
        for _ in 0..threads.min(count) {
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
                        Some((lowered, parse, lower)) => {
                            let result = each(&lowered, Some(NonZeroUsize::MIN));
                            Report::Piece(k, Box::new((lowered, parse, lower, result)))
                        }
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
        let total = definitions;
        let mut lowered = 0;
        for report in receive {
            match report {
                Report::Lowered => {
                    lowered += 1;
                    progress(lowered, total);
                }
                Report::Piece(k, piece) => {
                    let (piece, p, l, result) = *piece;
                    done[k] = Some((piece, result));
                    parse += p;
                    lower += l;
                }
                Report::Failed => {
                    failed = true;
                    // Later pieces are not started; the module is read whole.
                    next.store(count, Ordering::Relaxed);
                }
            }
        }
    });
    if failed {
        return None;
    }
    let mut pieces = Vec::with_capacity(count);
    let mut results = Vec::with_capacity(count);
    for (owned, piece) in owned.iter().zip(done) {
        let (lowered, result) = piece?;
        pieces.push((owned.clone(), lowered));
        results.push(result);
    }
    join(pieces).map(|lowered| (lowered, parse, lower, results))
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

/// Reads and lowers the module at `path` whole, on this thread; `contents` is the file's text,
/// or its bytes when bitcode or not UTF-8, if still at hand.
fn read_whole(
    path: &Path,
    contents: Option<Result<String, Vec<u8>>>,
    memory: Memory,
    progress: impl FnMut(usize, usize),
) -> Result<Read, LoadError> {
    let start = Instant::now();
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
    let parse = start.elapsed();
    let start = Instant::now();
    let lowered = lower_module(&module, &flags, memory, progress);
    let lower = start.elapsed();
    drop(module);
    Ok(Read {
        lowered,
        parse,
        lower,
        wall: Duration::ZERO,
        pieces: 1,
    })
}
