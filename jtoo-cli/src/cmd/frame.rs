//! `jtoo frame …`: not yet implemented (see the open issues).

/// Frame subcommands.
#[derive(clap::Subcommand)]
pub enum FrameCommand {
    /// Decode a stream of frames to JSON lines.
    Decode {
        /// Input file (stdin when absent).
        file: Option<std::path::PathBuf>,
    },
}

/// Runs the command.
pub fn run(_cmd: FrameCommand) -> u8 {
    eprintln!("jtoo: frame commands are not yet supported");
    2
}
