//! The one safe in-place write, behind every `--in-place` (`fmt`, `pretty`,
//! `set`, `rm`).
//!
//! [`replace_file`] never loses or leaks a file:
//!
//! - **Symlinks are followed.** FILE is resolved to the file it names (every
//!   link in the chain); that target is rewritten and the links stay.
//! - **A fresh temporary file.** The new contents go to a file created in
//!   the target's directory, exclusively (`O_EXCL`), under a random name
//!   (`.NAME.XXXXXX.jtoo-tmp`, by the `tempfile` crate), so nothing planted
//!   beforehand (a symlink at a predictable name) can redirect the write.
//! - **Never wider permissions.** It is created with the original's
//!   permission bits (narrowed by the umask, never widened), so a `0600`
//!   file's contents are never readable by others, not even while written;
//!   its owner and group are set to the original's where the system permits
//!   (as root, always), then its mode to exactly the original's.
//! - **Atomic.** Written, flushed, `fsync`ed, then renamed over the target:
//!   a crash leaves the old file or the new one, never half of one.
//! - **Hard links are refused.** A rename would give the target a new inode
//!   and split it from its other names (which would keep the old contents);
//!   rewriting the shared inode in place is not atomic. A file with more
//!   than one link is therefore left untouched, with a message (exit 2):
//!   write to stdout and copy the result over the file instead.
//! - **No temporary file is left behind**: it is removed on every error
//!   path, and on `SIGINT` and `SIGTERM` (a thread removes the live
//!   temporary files, then the process exits with 130 or 143).

use crate::io::{Status, say};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// The temporary files being written, removed by the signal thread.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The signal thread, started once (see [`install_cleanup`]).
static CLEANUP: OnceLock<Result<(), String>> = OnceLock::new();

fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Starts the thread that, on `SIGINT` or `SIGTERM`, removes every live
/// temporary file and exits with 128 + the signal's number (130, 143),
/// the status a shell shows for a process that signal killed.
#[cfg(unix)]
fn install_cleanup() -> Result<(), String> {
    CLEANUP
        .get_or_init(|| {
            use signal_hook::consts::{SIGINT, SIGTERM};
            let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
                .map_err(|e| format!("cannot watch for signals: {e}"))?;
            std::thread::Builder::new()
                .name("jtoo-cleanup".into())
                .spawn(move || {
                    if let Some(signal) = signals.forever().next() {
                        // Held until the exit: no temporary file is created
                        // or renamed after this point.
                        let files = live();
                        for file in files.iter() {
                            let _ = std::fs::remove_file(file);
                        }
                        std::process::exit(128 + signal);
                    }
                })
                .map(drop)
                .map_err(|e| format!("cannot watch for signals: {e}"))
        })
        .clone()
}

/// Elsewhere only the error paths remove the temporary file.
#[cfg(not(unix))]
fn install_cleanup() -> Result<(), String> {
    Ok(())
}

/// Replaces the contents of the file `path` names (following symlinks)
/// with what `write` writes, safely (see the module's documentation).
/// `write`'s error is reported as `jtoo: cannot write FILE: …`. Exit
/// status 2 when the file cannot be rewritten (it is then untouched).
pub fn replace_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), String>,
) -> Status {
    replace(path, write).map_err(|e| {
        say!("jtoo: cannot write {}: {e}", path.display());
        2
    })
}

fn replace(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), String>,
) -> Result<(), String> {
    let target = std::fs::canonicalize(path).map_err(|e| e.to_string())?;
    let meta = std::fs::metadata(&target).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let links = unix::links(&meta);
    if links > 1 {
        return Err(format!(
            "it has {links} hard links, and rewriting it in place would split them \
             (the other names would keep the old contents); it was left untouched: \
             write to stdout and copy the result over it instead"
        ));
    }
    let (Some(dir), Some(name)) = (target.parent(), target.file_name()) else {
        return Err("not a file in a directory".into());
    };
    install_cleanup()?;
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    let tmp = {
        let mut files = live();
        let tmp = unix::with_mode(
            tempfile::Builder::new().prefix(&prefix).suffix(".jtoo-tmp"),
            &meta,
        )
        .tempfile_in(dir)
        .map_err(|e| format!("cannot create a temporary file in {}: {e}", dir.display()))?;
        files.push(tmp.path().to_path_buf());
        tmp
    };
    let tmp_path = tmp.path().to_path_buf();
    let written = fill(tmp.as_file(), &meta, write);
    let mut files = live();
    let renamed = match written {
        // Dropping the temporary file removes it, before it is forgotten.
        Err(e) => Err(e),
        Ok(()) => tmp
            .persist(&target)
            .map(drop)
            .map_err(|e| e.error.to_string()),
    };
    files.retain(|p| *p != tmp_path);
    drop(files);
    renamed?;
    // The rename itself, durable (best effort: not every system can).
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Gives the new file the original's owner (where permitted) and mode,
/// writes it with `write`, and syncs it to disk.
fn fill(
    file: &std::fs::File,
    original: &std::fs::Metadata,
    write: impl FnOnce(&mut dyn Write) -> Result<(), String>,
) -> Result<(), String> {
    unix::keep_owner(file, original);
    // Exactly the original's mode (set-id bits included, which a change of
    // owner clears): never wider than the original.
    file.set_permissions(original.permissions())
        .map_err(|e| e.to_string())?;
    let mut w = std::io::BufWriter::with_capacity(64 * 1024, file);
    write(&mut w)?;
    w.flush().map_err(|e| e.to_string())?;
    drop(w);
    file.sync_all().map_err(|e| e.to_string())
}

/// What only Unix has: links, modes, owners.
#[cfg(unix)]
mod unix {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    /// The number of hard links to the file.
    pub fn links(meta: &std::fs::Metadata) -> u64 {
        meta.nlink()
    }

    /// Creates the temporary file with the original's permission bits.
    pub fn with_mode<'a, 'b>(
        builder: &'b mut tempfile::Builder<'a, 'a>,
        original: &std::fs::Metadata,
    ) -> &'b mut tempfile::Builder<'a, 'a> {
        let mode = original.permissions().mode() & 0o777;
        builder.permissions(std::fs::Permissions::from_mode(mode))
    }

    /// Gives `file` the original's owner and group where permitted: only
    /// root may give a file away, anyone may set a group they belong to;
    /// neither is an error when refused.
    pub fn keep_owner(file: &std::fs::File, original: &std::fs::Metadata) {
        let owner = (original.uid(), original.gid());
        if file
            .metadata()
            .is_ok_and(|now| (now.uid(), now.gid()) != owner)
            && std::os::unix::fs::fchown(file, Some(owner.0), Some(owner.1)).is_err()
        {
            let _ = std::os::unix::fs::fchown(file, None, Some(owner.1));
        }
    }
}

/// Elsewhere: one link, the default permissions, the writer's owner.
#[cfg(not(unix))]
mod unix {
    pub fn links(_: &std::fs::Metadata) -> u64 {
        1
    }

    pub fn with_mode<'a, 'b>(
        builder: &'b mut tempfile::Builder<'a, 'a>,
        _: &std::fs::Metadata,
    ) -> &'b mut tempfile::Builder<'a, 'a> {
        builder
    }

    pub fn keep_owner(_: &std::fs::File, _: &std::fs::Metadata) {}
}
