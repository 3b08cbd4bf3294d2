//! The global allocator of the programs that read LLVM modules (the `absinthe` command with the
//! `llvm` feature and the comparison tool): jemalloc, declared in each program's root by
//! [`global_allocator!`](crate::global_allocator) (a library cannot declare it: the bench binary,
//! which counts its allocations with an allocator of its own, links this crate too when the
//! workspace is built with the `llvm` feature).
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

pub use tikv_jemallocator::Jemalloc;

/// Declares jemalloc the global allocator of the program whose root calls it, with its options
/// (`malloc_conf`, under the prefix the binding gives jemalloc's symbols).
#[macro_export]
macro_rules! global_allocator {
    () => {
        #[global_allocator]
        static ALLOCATOR: $crate::alloc::Jemalloc = $crate::alloc::Jemalloc;

        /// jemalloc's options, read once when it starts: two arenas.
        #[allow(unsafe_code, non_upper_case_globals)]
        #[unsafe(export_name = "_rjem_malloc_conf")]
        static malloc_conf: &[u8; 10] = b"narenas:2\0";
    };
}
