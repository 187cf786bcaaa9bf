//! Not yet implemented (see the open issues).

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Input file (stdin when absent).
    file: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(_args: Args) -> u8 {
    eprintln!("jtoo: this command is not yet supported");
    2
}
