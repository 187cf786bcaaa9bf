//! `jtoo lsp`: the JTOO/HTOO language server on stdin and stdout.

/// Arguments of `jtoo lsp`.
#[derive(clap::Args)]
pub struct Args {
    /// Talk over stdin and stdout (the only transport; accepted because
    /// some editors pass it).
    #[arg(long)]
    stdio: bool,
}

/// Serves one client until it sends `exit` or closes stdin. Exit 0 when
/// `shutdown` came first, 1 when it did not (as the protocol asks); 2 (with
/// the reason on stderr) when the connection breaks the protocol.
pub fn run(args: Args) -> u8 {
    let _ = args.stdio;
    match jtoo_lsp::run_stdio() {
        Ok(ended) => ended.exit_code(),
        Err(e) => {
            eprintln!("jtoo lsp: {e}");
            2
        }
    }
}
