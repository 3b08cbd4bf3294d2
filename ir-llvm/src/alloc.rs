//! The global allocator of every program that links the front end (the `absinthe` command with
//! the `llvm` feature, the comparison tool, the tests): jemalloc.
//!
//! Analyzing a module allocates and frees a few dozen vectors per function (the dominator tree,
//! the renamed uses, the def-use sites, the values), and LLVM's parser allocates per value. With
//! the system allocator the allocations were a fifth of the analysis's time; with jemalloc the
//! analysis of sqlite3 at -O0 takes a fourth less time.
//!
//! Its configuration keeps peak memory where the system allocator had it: two arenas, which
//! the threads that read pieces share (jemalloc's default is four per core, each holding freed
//! pages of its own). Returning freed pages at once as well (`dirty_decay_ms:0`) saved another
//! 5 MB on sqlite3 but cost a tenth of the analysis's time.

#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read once when it starts (`malloc_conf`, under the prefix the binding
/// gives jemalloc's symbols).
#[expect(unsafe_code)]
#[allow(non_upper_case_globals)]
#[unsafe(export_name = "_rjem_malloc_conf")]
static malloc_conf: &[u8; 10] = b"narenas:2\0";
