//! `--in-place` writes (issue 33): nothing planted can redirect them, they
//! follow symlinks, keep mode and owner, refuse hard links, and leave no
//! temporary file behind, on errors or when killed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::jtoo;

/// A fresh directory for one test, removed when dropped.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("jtoo-in-place-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }

    fn file(&self, name: &str, content: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, content).unwrap();
        path
    }

    /// The names in the directory, sorted.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").arg(&self.0).output();
        let _ = std::fs::set_permissions(&self.0, std::fs::Permissions::from_mode(0o755));
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_symlink_planted_at_the_old_temporary_name_redirects_nothing() {
    let dir = Dir::new("planted");
    let file = dir.file("config.jtoo", b"[1,2]");
    let victim = dir.file("victim.txt", b"precious");
    // The temporary name used to be FILE.jtoo-fmt-PID.tmp: plant a link
    // there, then become jtoo under the same process id.
    let out = Command::new("sh")
        .arg("-c")
        .arg("ln -s \"$1\" \"$2.jtoo-fmt-$$.tmp\" && exec \"$0\" fmt --in-place \"$2\"")
        .arg(env!("CARGO_BIN_EXE_jtoo"))
        .arg(arg(&victim))
        .arg(arg(&file))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert_eq!(std::fs::read(&file).unwrap(), b"[1,2]\n");
    assert!(!file.symlink_metadata().unwrap().is_symlink());
    // The planted link is left as it was, and nothing else is left.
    let names = dir.names();
    assert_eq!(names.len(), 3, "{names:?}");
    let planted = dir
        .0
        .join(names.iter().find(|n| n.ends_with(".tmp")).unwrap());
    assert_eq!(std::fs::read_link(planted).unwrap(), victim);
}

#[test]
fn a_symlinked_file_keeps_its_link_and_its_target_is_rewritten() {
    let dir = Dir::new("symlink");
    std::fs::create_dir(dir.0.join("real")).unwrap();
    let target = dir.file("real/config.jtoo", b"[1,2]");
    // A chain: outer -> link.jtoo -> real/config.jtoo (relative links).
    std::os::unix::fs::symlink("real/config.jtoo", dir.0.join("link.jtoo")).unwrap();
    std::os::unix::fs::symlink("link.jtoo", dir.0.join("outer.jtoo")).unwrap();
    let out = jtoo(&["fmt", "--in-place", arg(&dir.0.join("outer.jtoo"))], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read(&target).unwrap(), b"[1,2]\n");
    for (link, to) in [
        ("outer.jtoo", "link.jtoo"),
        ("link.jtoo", "real/config.jtoo"),
    ] {
        assert_eq!(
            std::fs::read_link(dir.0.join(link)).unwrap(),
            Path::new(to),
            "{link}"
        );
    }
    assert_eq!(dir.names(), ["link.jtoo", "outer.jtoo", "real"]);
    assert_eq!(
        std::fs::read_dir(dir.0.join("real")).unwrap().count(),
        1,
        "no temporary file left beside the target"
    );
}

#[test]
fn a_hard_linked_file_is_refused_and_left_untouched() {
    let dir = Dir::new("hardlink");
    let file = dir.file("a.jtoo", b"[1,2]");
    let other = dir.0.join("b.jtoo");
    std::fs::hard_link(&file, &other).unwrap();
    let out = jtoo(&["fmt", "--in-place", arg(&file)], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "jtoo: cannot write {}: it has 2 hard links",
            arg(&file)
        )),
        "{err}"
    );
    assert!(err.contains("left untouched"), "{err}");
    for f in [&file, &other] {
        assert_eq!(std::fs::read(f).unwrap(), b"[1,2]");
        assert_eq!(f.metadata().unwrap().nlink(), 2);
    }
    assert_eq!(dir.names(), ["a.jtoo", "b.jtoo"]);
    // `fmt --check` and stdout still work on it.
    let out = jtoo(&["fmt", arg(&file)], b"");
    assert_eq!(out.stdout, b"[1,2]\n");
}

#[test]
fn mode_and_owner_are_kept() {
    let dir = Dir::new("owner");
    let file = dir.file("a.jtoo", b"[1,2]");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    // As root (the finding: a file owned by another user became root's),
    // give the file away first; otherwise the owner is ours.
    let root = Command::new("id").arg("-u").output().unwrap().stdout == b"0\n";
    if root {
        std::os::unix::fs::chown(&file, Some(4242), Some(4243)).unwrap();
    }
    let before = file.metadata().unwrap();
    let out = jtoo(&["fmt", "--in-place", arg(&file)], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let after = file.metadata().unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), b"[1,2]\n");
    assert_ne!(
        before.ino(),
        after.ino(),
        "a new file, renamed over the old"
    );
    assert_eq!(after.permissions().mode() & 0o7777, 0o640);
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    if root {
        assert_eq!((after.uid(), after.gid()), (4242, 4243));
    }
}

#[test]
fn errors_leave_the_original_untouched_and_no_temporary_file() {
    let dir = Dir::new("errors");
    // Invalid: nothing is written.
    let bad = dir.file("bad.jtoo", b"[1,,2]");
    let out = jtoo(&["fmt", "--in-place", arg(&bad)], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&bad).unwrap(), b"[1,,2]");

    // No temporary file can be created beside it: an immutable directory
    // (as root, who may write anywhere else), or one without write
    // permission.
    let file = dir.file("a.jtoo", b"[1,2]");
    let locked = Command::new("chattr")
        .arg("+i")
        .arg(&dir.0)
        .output()
        .is_ok_and(|o| o.status.success())
        || (std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o555)).is_ok()
            && std::fs::File::create(dir.0.join("probe")).is_err());
    if locked {
        let out = jtoo(&["fmt", "--in-place", arg(&file)], b"");
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(
            err.starts_with(&format!(
                "jtoo: cannot write {}: cannot create a temporary file in ",
                arg(&file)
            )),
            "{err}"
        );
        assert_eq!(std::fs::read(&file).unwrap(), b"[1,2]");
        let _ = Command::new("chattr").arg("-i").arg(&dir.0).output();
        std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o755)).unwrap();
    } else {
        eprintln!("skipped: cannot make a directory unwritable here");
    }
    assert_eq!(dir.names(), ["a.jtoo", "bad.jtoo"]);
}

/// `[RECORD,RECORD,…]` of about `size` bytes, without a final newline, so
/// `fmt --in-place` rewrites all of it (adding the `\n`).
fn large_document(path: &Path, size: usize) {
    let record = br#"["id":12_345,"name":"caf\22e","tags":["a","b"],"ok":Y,"ratio":0.125]"#;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    f.write_all(b"[").unwrap();
    let mut written = 1;
    while written < size {
        if written > 1 {
            f.write_all(b",").unwrap();
        }
        f.write_all(record).unwrap();
        written += record.len() + 1;
    }
    f.write_all(b"]").unwrap();
    f.flush().unwrap();
}

#[test]
fn a_killed_write_leaves_no_temporary_file_which_was_never_readable_by_others() {
    let dir = Dir::new("killed");
    let file = dir.0.join("big.jtoo");
    large_document(&file, 24 << 20);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let size = file.metadata().unwrap().len();
    for (signal, status) in [("TERM", 143), ("INT", 130)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jtoo"))
            .args(["fmt", "--in-place", arg(&file)])
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Wait for the temporary file (any new name in the directory).
        let temp = loop {
            if let Some(name) = dir.names().into_iter().find(|n| n != "big.jtoo") {
                break dir.0.join(name);
            }
            assert!(
                child.try_wait().unwrap().is_none(),
                "finished before its temporary file was seen"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        };
        // Created with the original's mode: never readable by others.
        if let Ok(meta) = temp.symlink_metadata() {
            assert_eq!(meta.permissions().mode() & 0o077, 0, "{temp:?}");
            assert!(meta.is_file(), "{temp:?}");
        }
        let killed = Command::new("kill")
            .args(["-s", signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        if out.status.code() == Some(0) {
            // The write won the race: nothing to check but the result.
            eprintln!("{signal}: finished before the signal arrived");
            assert_eq!(file.metadata().unwrap().len(), size + 1);
            large_document(&file, 24 << 20);
            continue;
        }
        assert_eq!(
            out.status.code(),
            Some(status),
            "{signal}: {}",
            stderr(&out)
        );
        assert_eq!(dir.names(), ["big.jtoo"], "{signal}");
        let meta = file.metadata().unwrap();
        assert_eq!(meta.len(), size, "{signal}: the original is untouched");
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    }
    // Run to its end: formatted, still 0600.
    let out = jtoo(&["fmt", "--in-place", arg(&file)], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let meta = file.metadata().unwrap();
    assert_eq!(meta.len(), size + 1);
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert_eq!(dir.names(), ["big.jtoo"]);
}
