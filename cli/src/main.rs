//! The `absinthe` command (see [`absinthe_cli::command`]).

// Reading LLVM modules, jemalloc (see `absinthe_llvm::alloc`).
#[cfg(feature = "llvm")]
absinthe_llvm::global_allocator!();

fn main() -> std::process::ExitCode {
    absinthe_cli::command::main()
}
