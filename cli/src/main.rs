//! The `absinthe` command (see [`absinthe_cli::command`]).

fn main() -> std::process::ExitCode {
    absinthe_cli::command::main()
}
