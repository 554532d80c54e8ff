//! The `latin` command: everything it does is in the library's `cli` module.

fn main() -> std::process::ExitCode {
    latin::cli::main()
}
