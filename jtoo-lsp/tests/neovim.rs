//! The server in a real editor: neovim (0.7, Debian's) headless, with its
//! built-in LSP client, runs tests/neovim.lua against the server, which
//! opens an HTOO file with an error, finds the diagnostic at the right line
//! and column, fixes it by an incremental edit, hovers, lists the outline,
//! formats the file (the comments must survive) and shuts the server down.
//!
//! The server is this test's own executable, run with `JTOO_LSP_SERVE=1`
//! (it then calls `jtoo_lsp::run_stdio`, exactly what `jtoo lsp` does), or
//! the command in `JTOO_LSP_CMD` (CI passes `target/debug/jtoo lsp`). Without
//! neovim the test says "skipped: neovim not installed" and passes.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

/// The file the editor opens: an error on line 4 after a key with
/// characters of two bytes (`ï`) and four bytes / two UTF-16 units (`😀`).
const FILE: &str = "// service settings\n[\n  \"name\": \"billing\", /* the name */\n  \"naïve 😀\": tru, // oops\n  \"port\": 8080,\n]\n";

fn main() -> ExitCode {
    if std::env::var_os("JTOO_LSP_SERVE").is_some() {
        return match jtoo_lsp::run_stdio() {
            Ok(ended) => ExitCode::from(ended.exit_code()),
            Err(e) => {
                eprintln!("jtoo lsp: {e}");
                ExitCode::from(2)
            }
        };
    }
    // libtest's `--list` (`cargo test -- --list`, cargo-nextest) names the
    // one test instead of running it; a filter naming another test skips it.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    if flag("--list") {
        if !flag("--ignored") {
            println!("neovim: test");
        }
        return ExitCode::SUCCESS;
    }
    let other = |filter: &String| {
        if flag("--exact") {
            filter != "neovim"
        } else {
            !"neovim".contains(filter.as_str())
        }
    };
    if args.iter().find(|a| !a.starts_with('-')).is_some_and(other) {
        return ExitCode::SUCCESS;
    }
    let nvim = std::env::var("NVIM").unwrap_or_else(|_| "nvim".to_owned());
    let version = Command::new(&nvim).arg("--version").output();
    let Ok(version) = version.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()) else {
        println!("neovim: skipped: neovim not installed (no `{nvim}` on PATH)");
        return ExitCode::SUCCESS;
    };
    let first = version.lines().next().unwrap_or_default().to_owned();
    match check(&nvim) {
        Ok(()) => {
            println!("neovim: ok ({first})");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("neovim: FAILED ({first}): {e}");
            ExitCode::FAILURE
        }
    }
}

fn server_command() -> Result<Json, String> {
    match std::env::var("JTOO_LSP_CMD") {
        Ok(cmd) => Ok(json!(cmd.split_whitespace().collect::<Vec<_>>())),
        Err(_) => {
            let me = std::env::current_exe().map_err(|e| e.to_string())?;
            // `env` sets the variable that makes this executable a server.
            Ok(json!(["env", "JTOO_LSP_SERVE=1", me]))
        }
    }
}

fn check(nvim: &str) -> Result<(), String> {
    let dir = scratch_dir()?;
    let file = dir.join("service.htoo");
    let out = dir.join("result.json");
    std::fs::write(&file, FILE).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&out);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/neovim.lua");
    // The fix: `tru` (bytes 17..20 of line 3) becomes `Y`.
    let fix =
        json!({ "row": 3, "col_start": 17, "col_end": 20, "text": "Y", "hover_character": 14 });
    let mut child = Command::new(nvim)
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("JTOO_LSP_CMD", server_command()?.to_string())
        .env("JTOO_FILE", &file)
        .env("JTOO_FIX", fix.to_string())
        .env("JTOO_OUT", &out)
        .env("XDG_STATE_HOME", &dir)
        .env("XDG_CACHE_HOME", &dir)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {nvim}: {e}"))?;
    // Not a timing assertion: a bound so that a broken editor cannot hang CI.
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            return Err("neovim did not finish within 180 s".to_owned());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let text = std::fs::read_to_string(&out)
        .map_err(|e| format!("neovim wrote no results ({}): {e}", out.display()))?;
    let r: Json = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
    println!("neovim results: {r}");
    verify(&r)?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn verify(r: &Json) -> Result<(), String> {
    let fail = |what: &str| Err(format!("{what}; results: {r}"));
    if let Some(e) = r.get("error") {
        return fail(&format!("the script failed: {e}"));
    }
    // 1. Line 4, byte column 17 in neovim's terms (UTF-16 character 14 on
    // the wire: the client converted it back).
    let d = &r["diagnostic"];
    if d["lnum"] != 3 || d["col"] != 17 || d["end_col"] != 20 {
        return fail("the diagnostic is not at line 4, bytes 17..20");
    }
    if d["message"] != "expected a value" || d["severity"] != 1 {
        return fail("wrong diagnostic message or severity");
    }
    // 2. The incremental edit fixed it.
    if r["cleared"] != true {
        return fail("the diagnostic stayed after the fix");
    }
    // 3. Hover on the boolean.
    if !r["hover"]
        .as_str()
        .is_some_and(|h| h.contains("**boolean** `Y`"))
    {
        return fail("no hover on the boolean");
    }
    // 4. The outline.
    if r["symbols"] != json!(["name", "naïve 😀", "port"]) {
        return fail("wrong outline");
    }
    // 5. Formatted as `jtoo pretty` formats the fixed file: comments kept.
    let fixed = FILE.replace("tru,", "Y,");
    let want = htoo::format(&fixed, &htoo::PrettyConfig::new()).map_err(|e| e.to_string())?;
    let got: Vec<&str> = r["formatted"]
        .as_array()
        .map(|l| l.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default();
    if got.join("\n") != want {
        return fail(&format!(
            "formatted text differs from htoo::format's:\n{want}"
        ));
    }
    for comment in ["// service settings", "/* the name */", "// oops"] {
        if !want.contains(comment) {
            return fail(&format!("{comment} lost"));
        }
    }
    // 6. The server exited cleanly on shutdown + exit.
    if r["exit_code"] != 0 {
        return fail("the server did not exit with 0");
    }
    Ok(())
}

fn scratch_dir() -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("jtoo-lsp-neovim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    Ok(dir)
}
