//! HTOO files from the command line (issue 28): `pretty` keeps every
//! comment and has `--check` and `--in-place`; `fmt --in-place` never
//! drops a comment; `*.htoo` files are read as HTOO without `--htoo`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Output;

use crate::common::{jtoo, temp_file as file};

const CONFIG: &str = "\
// Service configuration.
[
  // where it listens
  \"port\" : 8080, // the default
  \"hosts\": [\"a\",\"b\",],
  /* limits */ \"limits\": [\"timeout_ms\": 1000],
]
";

const PRETTY: &str = "\
// Service configuration.
[
  // where it listens
  \"port\": 8_080, // the default
  \"hosts\": [\"a\", \"b\"],
  /* limits */
  \"limits\": [\"timeout_ms\": 1_000],
]
";

fn run(args: &[&str]) -> Output {
    jtoo(args, b"")
}

fn err(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn pretty_keeps_every_comment_and_is_idempotent() {
    let path = file("pretty.htoo", CONFIG);
    let out = run(&["pretty", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), PRETTY);
    let out = jtoo(&["pretty", "--htoo"], PRETTY.as_bytes());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), PRETTY);
    // Strict JTOO in, pretty HTOO out, as before.
    let out = jtoo(&["pretty"], b"[\"a\":1_000,\"b\":[1,2]]\n");
    assert_eq!(out.stdout, b"[\"a\": 1_000, \"b\": [1, 2]]\n");
}

#[test]
fn pretty_check_and_in_place() {
    let messy = file("messy.htoo", CONFIG);
    let tidy = file("tidy.htoo", PRETTY);
    let (m, t) = (messy.to_str().unwrap(), tidy.to_str().unwrap());
    let out = run(&["pretty", "--check", m, t]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{m}\n"));
    let out = run(&["pretty", "--in-place", m, t]);
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), PRETTY);
    assert_eq!(std::fs::read_to_string(&tidy).unwrap(), PRETTY);
    let out = run(&["pretty", "--check", m, t]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    // Invalid: untouched, exit 1.
    let bad = file("bad.htoo", "[1 2] // c\n");
    let out = run(&["pretty", "--in-place", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "[1 2] // c\n");
    // --in-place needs files.
    assert_eq!(run(&["pretty", "--in-place"]).status.code(), Some(2));
    // A file read as strict JTOO would stop being JTOO: refused unless
    // --htoo says it is HTOO.
    let strict = file("strict.jtoo", "[\"a\":1,\"b\":2]\n");
    let s = strict.to_str().unwrap();
    let out = run(&["pretty", "--in-place", s]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err(&out).contains("pretty HTOO is not strict JTOO"),
        "{}",
        err(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&strict).unwrap(),
        "[\"a\":1,\"b\":2]\n"
    );
    let out = run(&["pretty", "--htoo", "--in-place", s]);
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    assert_eq!(
        std::fs::read_to_string(&strict).unwrap(),
        "[\"a\": 1, \"b\": 2]\n"
    );
}

#[test]
fn fmt_in_place_refuses_to_drop_comments() {
    let path = file("commented.htoo", CONFIG);
    let p = path.to_str().unwrap();
    for args in [
        &["fmt", "--in-place", p][..],
        &["fmt", "--htoo", "--in-place", p],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let e = err(&out);
        assert!(e.contains("not rewritten: it has comments"), "{e}");
        assert!(e.contains(&format!("`jtoo pretty --in-place {p}`")), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), CONFIG);
    }
    // A comment anywhere counts: between a key and its value, inside an
    // empty list, after the value.
    for text in [
        "[\"a\" /* c */ : 1]",
        "[ /* c */ ]",
        "[1]\n// c\n",
        "[[1, // c\n]]",
    ] {
        let path = file("somewhere.htoo", text);
        let out = run(&["fmt", "--in-place", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{text:?}: {}", err(&out));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
    // Without comments an HTOO file is formatted (to canonical JTOO, which
    // is HTOO too), and to stdout comments are simply not part of the
    // output.
    let plain = file("plain.htoo", "[ \"a\" : 1000 , ]\n");
    let out = run(&["fmt", "--in-place", plain.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    assert_eq!(std::fs::read_to_string(&plain).unwrap(), "[\"a\":1_000]\n");
    let out = run(&["fmt", p]);
    assert_eq!(
        out.stdout,
        b"[\"port\":8_080,\"hosts\":[\"a\",\"b\"],\"limits\":[\"timeout_ms\":1_000]]\n"
    );
}

#[test]
fn htoo_files_are_read_as_htoo_without_the_flag() {
    let path = file("config.htoo", CONFIG);
    let p = path.to_str().unwrap();
    let upper = file("CONFIG.HTOO", CONFIG);
    for args in [
        &["check", p][..],
        &["check", upper.to_str().unwrap()],
        &["fmt", p],
        &["pretty", p],
        &["to-json", p],
        &["decode", p],
        &["get", p, "/port"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", err(&out));
    }
    let out = run(&["to-json", p]);
    assert_eq!(
        out.stdout,
        b"{\"port\":8080,\"hosts\":[\"a\",\"b\"],\"limits\":{\"timeout_ms\":1000}}\n"
    );
    // Other names stay strict.
    let other = file("config.jtoo", CONFIG);
    let out = run(&["check", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(err(&out).contains("try --htoo"));
    // A .htoo file among strict ones: each read by its own name.
    let strict = file("strict.jtoo", "[1,2]\n");
    let out = run(&["check", p, strict.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
}
