//! A program and a terminal talking JTE over a real pseudo-terminal, while
//! the program also prints ordinary text.
//!
//! Run with `cargo run -p jte --example terminal`. This process plays the
//! terminal: it opens a pty, starts itself again as the program on the
//! pty's other end (`terminal program`), and copies everything the program
//! prints to its own stdout, except the JTE packets, which it answers.
//! The program calls the terminal (`term:size`, and `term:exec`, which the
//! terminal's policy refuses), prints a "file" that carries an OSC 23198
//! packet of its own (as `cat` would: the terminal refuses it too), and
//! answers the terminal's calls (`prog:status`, `prog:quit`).
//!
//! Unix only (it needs a pty).

/// Both sides of the demo (the pty test runs them too).
#[cfg(unix)]
pub mod demo {
    use jte::osc::Encoding;
    use jte::{Peer, Policy, RpcError, terminal};
    use nix::pty::{OpenptyResult, openpty};
    use nix::sys::termios::{SetArg, cfmakeraw, tcgetattr, tcsetattr};
    use std::process::Stdio;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tokio::sync::Notify;

    /// Any error, for the demo.
    pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

    /// A "file" the program prints: text with a packet hidden in it, as
    /// anything shown with `cat` may carry.
    pub const FILE: &[u8] = b"--- notes.txt ---\nline one\n\
        \x1b]23198;0;{\"command\":\"term:exec\",\"rpcid\":\"from-a-file\",\"data\":\"rm -rf ~\"}\x07\
        \x1b]23198;0;[\"command\":\"term:exec\",\"data\":\"reboot\"]\x07\
        line two\n--- end ---\n";

    /// The pty's master side as (reader, writer), and the program running
    /// on its slave side with the terminal in raw mode (no echo, no line
    /// buffering: the packets pass as they are).
    pub fn spawn_program(
        exe: &std::path::Path,
    ) -> Result<(tokio::fs::File, tokio::fs::File, tokio::process::Child), BoxError> {
        let OpenptyResult { master, slave } = openpty(None, None)?;
        let mut mode = tcgetattr(&slave)?;
        cfmakeraw(&mut mode);
        tcsetattr(&slave, SetArg::TCSANOW, &mode)?;
        let child = tokio::process::Command::new(exe)
            .arg("program")
            .stdin(Stdio::from(slave.try_clone()?))
            .stdout(Stdio::from(slave.try_clone()?))
            .stderr(Stdio::from(slave))
            .kill_on_drop(true)
            .spawn()?;
        // Our copy of the slave is closed now: the master reads EOF (EIO)
        // once the program exits.
        let master = std::fs::File::from(master);
        let writer = tokio::fs::File::from_std(master.try_clone()?);
        Ok((tokio::fs::File::from_std(master), writer, child))
    }

    /// The terminal's peer: `term:size` allowed, `term:exec` registered
    /// but refused by the policy (`exec_runs` counts the times it ran:
    /// never).
    pub fn terminal_peer(
        transport: jte::Transport,
        exec_runs: Arc<AtomicUsize>,
        ready: Arc<Notify>,
    ) -> Peer {
        Peer::builder()
            .policy(Policy::deny_all().allow("term:size"))
            .handle("term:size", move |()| {
                ready.notify_one();
                async { Ok::<_, RpcError>((80u16, 24u16)) }
            })
            .handle("term:exec", move |_command: String| {
                exec_runs.fetch_add(1, Ordering::SeqCst);
                async { Ok::<_, RpcError>(()) }
            })
            .start(transport)
    }

    /// The program: ordinary output and calls both ways on stdin/stdout.
    pub async fn program() -> Result<(), BoxError> {
        let (transport, out) =
            terminal::program(tokio::io::stdin(), tokio::io::stdout(), tokio::io::sink());
        let quit = Arc::new(Notify::new());
        let q = Arc::clone(&quit);
        let peer = Peer::builder()
            .encoding(Encoding::Json)
            .handle("prog:status", |()| async { Ok::<_, RpcError>("running") })
            .handle("prog:quit", move |()| {
                q.notify_one();
                async { Ok::<_, RpcError>(()) }
            })
            .start(transport);
        out.write("hello from the program\n").await?;
        let (cols, rows): (u16, u16) = peer.call("term:size", &()).await?;
        out.write(format!("the terminal is {cols}x{rows}\n"))
            .await?;
        out.write(FILE).await?;
        match peer.call::<_, ()>("term:exec", "echo pwned").await {
            Ok(()) => out.write("term:exec ran\n").await?,
            Err(e) => out.write(format!("term:exec answered: {e}\n")).await?,
        }
        quit.notified().await;
        out.write("bye\n").await?;
        out.flush().await?;
        Ok(())
    }

    /// The terminal: the program's output on our stdout, the RPC on the
    /// side.
    pub async fn terminal() -> Result<(), BoxError> {
        let (reader, writer, mut child) = spawn_program(&std::env::current_exe()?)?;
        let (transport, _keys) = terminal::terminal(reader, writer, tokio::io::stdout());
        let exec_runs = Arc::new(AtomicUsize::new(0));
        let ready = Arc::new(Notify::new());
        let peer = terminal_peer(transport, Arc::clone(&exec_runs), Arc::clone(&ready));
        ready.notified().await;
        let status: String = peer.call("prog:status", &()).await?;
        eprintln!("[terminal] the program says it is {status}");
        peer.notify("prog:quit", &()).await?;
        let exit = child.wait().await?;
        // The rest of its output, up to the end of the pty.
        let why = peer.closed().await;
        eprintln!("[terminal] the program exited: {exit}; {why}");
        eprintln!(
            "[terminal] term:exec ran {} times; refused: {:?}",
            exec_runs.load(Ordering::SeqCst),
            peer.stats()
        );
        Ok(())
    }
}

#[cfg(unix)]
#[tokio::main]
async fn main() -> Result<(), demo::BoxError> {
    if std::env::args().nth(1).as_deref() == Some("program") {
        demo::program().await?;
        // stdin is read on a blocking thread that would hold the runtime
        // open: leave at once, everything is flushed.
        std::process::exit(0);
    }
    demo::terminal().await
}

#[cfg(not(unix))]
fn main() {
    eprintln!("this example needs a Unix pseudo-terminal");
}
