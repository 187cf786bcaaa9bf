//! The `jtoo` command's interfaces that other tools drive: exact stdout,
//! stderr and exit codes.

use std::io::Write;
use std::process::Output;

use crate::common::{jtoo, spawn, temp_file};

/// Runs jtoo with `args` followed by the paths of `files`.
fn jtoo_on_files(args: &[&str], files: &[&std::path::Path]) -> Output {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(files.iter().map(|f| f.to_str().unwrap()));
    jtoo(&all, b"")
}

#[test]
fn fmt_writes_canonical_text_and_a_newline() {
    let out = jtoo(&["fmt"], br#"["a":1_000]"#);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"[\"a\":1_000]\n");
    assert!(out.stderr.is_empty());
}

#[test]
fn fmt_htoo_normalises() {
    let out = jtoo(&["fmt", "--htoo"], b" [ \"a\" : 1000, // c\n 0.50, ]\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"[\"a\":1_000,0.5]\n");
}

#[test]
fn fmt_invalid_input_exits_1_with_position_and_no_stdout() {
    let out = jtoo(&["fmt"], b"[1,1000]");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "<stdin>:1:7: invalid integer: more than three digits need `_` every three digits\n  \
         |\n\
         1 | [1,1000]\n  \
         |       ^\n\
         <stdin>:1:7: help: this looks like HTOO: try --htoo\n"
    );
}

#[test]
fn fmt_reads_a_file_and_reports_its_name() {
    let path = temp_file("bad.jtoo", b"[1 ]");
    let out = jtoo(&["fmt", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!("{}:1:3: expected `,` or `]`", path.display())),
        "{err}"
    );
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(
        jtoo(&["fmt", "/nonexistent/x.jtoo"], b"").status.code(),
        Some(2)
    );
    assert_eq!(jtoo(&["fmt", "--bogus"], b"").status.code(), Some(2));
    assert_eq!(jtoo(&["no-such-command"], b"").status.code(), Some(2));
}

#[test]
fn check_reports_each_invalid_file() {
    let good = temp_file("good.jtoo", b"[Y,N]");
    let bad = temp_file("bad2.jtoo", b"[t,f]");
    let out = jtoo(&["check", good.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let out = jtoo(
        &["check", good.to_str().unwrap(), bad.to_str().unwrap()],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let report = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        report,
        format!(
            "{}:1:2: expected a value\n  |\n1 | [t,f]\n  |  ^\n",
            bad.display()
        )
    );
}

#[test]
fn check_htoo_shows_a_caret_diagnostic() {
    let bad = temp_file("bad.htoo", b"[\n  [\"b\", 2 3],\n]\n");
    let out = jtoo(&["check", "--htoo", bad.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8(out.stderr).unwrap();
    assert!(report.contains(":2:10"), "{report}");
    assert!(report.contains("2 |   [\"b\", 2 3],"), "{report}");
    assert!(report.contains("^"), "{report}");
}

#[test]
fn pretty_round_trips_through_fmt() {
    let out = jtoo(&["pretty"], br#"["a":[1,2],"b":"x"]"#);
    assert_eq!(out.status.code(), Some(0));
    let back = jtoo(&["fmt", "--htoo"], &out.stdout);
    assert_eq!(back.stdout, b"[\"a\":[1,2],\"b\":\"x\"]\n");
}

#[test]
fn demo_runs_on_built_in_data() {
    let out = jtoo(&["demo"], b"");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("== canonical JTOO"));
    assert!(!text.contains("FAIL"));
    assert_eq!(text.matches("ok  ").count(), 3);
}

#[test]
fn text_file_commands_accept_one_final_newline_but_decode_does_not() {
    let out = jtoo(&["fmt"], b"[1]\n");
    assert_eq!(
        (out.status.code(), out.stdout.as_slice()),
        (Some(0), &b"[1]\n"[..])
    );
    let again = jtoo(&["fmt"], &out.stdout);
    assert_eq!(again.stdout, b"[1]\n");
    assert_eq!(jtoo(&["fmt"], b"[1]\n\n").status.code(), Some(1));
    assert_eq!(jtoo(&["check"], b"[1]\n").status.code(), Some(0));
    assert_eq!(jtoo(&["decode"], b"[1]\n").status.code(), Some(1));
}

/// Runs jtoo with stdout already closed by its reader.
fn jtoo_into_closed_pipe(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = spawn(args);
    drop(child.stdout.take());
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Feeds an endless stream of `byte` to jtoo; returns its output and how
/// many bytes it took before it stopped reading.
fn jtoo_on_endless_input(args: &[&str], byte: u8) -> (Output, usize) {
    let mut child = spawn(args);
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![byte; 64 * 1024];
        let mut sent = 0usize;
        // Stops when jtoo closes the pipe; the cap keeps a regression
        // from running forever.
        while sent < (1 << 30) && input.write_all(&chunk).is_ok() {
            sent += chunk.len();
        }
        sent
    });
    let out = child.wait_with_output().unwrap();
    (out, writer.join().unwrap())
}

#[test]
fn pretty_reads_what_fmt_and_from_json_write() {
    // Issue 18 defect 1: one final newline, as fmt writes it.
    let json = jtoo(&["from-json"], br#"{"a":[1,2.5],"b":"x"}"#);
    assert_eq!(json.stdout, b"[\"a\":[1,2.5],\"b\":\"x\"]\n");
    for command in ["pretty", "to-json", "check", "fmt"] {
        let out = jtoo(&[command], &json.stdout);
        assert_eq!(out.status.code(), Some(0), "{command}: {out:?}");
    }
    let path = temp_file("fmt-output.jtoo", &json.stdout);
    let out = jtoo(&["pretty", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(!out.stdout.is_empty());
}

#[test]
fn check_htoo_reports_each_error_once_on_stderr() {
    // Issue 18 defect 5.
    let out = jtoo(&["check", "--htoo"], b"[\n  1 2,\n]\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let report = String::from_utf8(out.stderr).unwrap();
    assert_eq!(report.matches("expected `,` or `]`").count(), 1, "{report}");
    // Right after the value where the comma is missing.
    assert!(report.contains(" --> <stdin>:2:4\n"), "{report}");
}

#[test]
fn from_json_lines_reports_the_input_line_and_its_column() {
    // Issue 18 defect 6.
    let out = jtoo(&["from-json", "--lines"], b"{\"a\":1}\n\n[1, nul]\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, b"[\"a\":1]\n");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("<stdin>:3:5: expected a value\n"), "{err}");
}

#[test]
fn from_json_errors_carry_positions() {
    let out = jtoo(&["from-json"], b"[1,\n null]");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("<stdin>:2:2: "), "{err}");
    assert!(err.contains("help: JTOO has no null"), "{err}");
    let out = jtoo(&["from-json"], b"[1e999999]");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("<stdin>:1:2: number out of range"), "{err}");
}

#[test]
fn frame_encode_reports_a_bad_line_as_local_input() {
    // Issue 18 defect 7.
    let out = jtoo(
        &["frame", "encode"],
        b"{\"jtoo\":\"[1]\"}\n{\"jtoo\":\"[1,]\"}\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("<stdin>:2: \"jtoo\" is not strict JTOO: expected a value"),
        "{err}"
    );
    assert!(!err.contains("unusable"), "{err}");
}

#[test]
fn a_closed_stdout_ends_every_command_quietly_with_status_141() {
    // Issue 18 defect 8, issue 22 defect 7.
    let big: Vec<u8> = {
        let mut doc = b"[".to_vec();
        for i in 0..100_000 {
            doc.extend_from_slice(format!("\"k{i}\":\"v\",").as_bytes());
        }
        doc.extend_from_slice(b"1]");
        doc
    };
    let lines = b"[1]\n".repeat(100_000);
    let json_lines = b"{\"a\":1}\n".repeat(100_000);
    let frames = b"{\"jtoo\":\"[1]\"}\n".repeat(100_000);
    // Each writes well over a pipe's buffer, so the closed pipe is seen
    // even if a process spawned meanwhile by another test briefly held its
    // read end. (`demo` writes through the same `Out`, but too little to
    // test this way without a race.)
    let cases: [(&[&str], &[u8]); 7] = [
        (&["to-json"], &big),
        (&["to-json", "--pretty"], &big),
        (&["to-json", "--lines"], &lines),
        (&["fmt"], &big),
        (&["pretty"], &big),
        (&["from-json", "--lines"], &json_lines),
        (&["frame", "encode"], &frames),
    ];
    for (args, input) in cases {
        let out = jtoo_into_closed_pipe(args, input);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {out:?}");
        assert!(out.stderr.is_empty(), "{args:?}: {out:?}");
    }
}

#[test]
fn a_full_disk_is_reported_with_status_2_and_a_read_only_stdout_ignored() {
    // stdout is written through a descriptor of its own (io::Out), not
    // std's Stdout: its errors are still reported as Stdout reports them.
    let doc = temp_file(
        "full.jtoo",
        [&b"["[..], &b"\"k\":\"v\",".repeat(100_000), b"1]"].concat(),
    );
    let doc = doc.to_str().unwrap();
    let run = |args: &[&str], stdout: std::fs::File| {
        std::process::Command::new(env!("CARGO_BIN_EXE_jtoo"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .stdout(stdout)
            .output()
            .unwrap()
    };
    for args in [
        &["to-json", doc][..],
        &["fmt", doc],
        &["fmt", "--htoo", doc],
    ] {
        if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
            let out = run(args, full);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
            let err = String::from_utf8(out.stderr).unwrap();
            assert!(
                err.starts_with("jtoo: cannot write output: "),
                "{args:?}: {err}"
            );
        }
        // Std's Stdout ignores a stdout that is not open for writing.
        let out = run(args, std::fs::File::open(doc).unwrap());
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        assert!(out.stderr.is_empty(), "{args:?}: {out:?}");
    }
}

#[test]
fn endless_invalid_input_stops_at_the_first_error_with_bounded_reads() {
    // Issue 22 defect 8: `jtoo check < /dev/zero` read until memory ran out.
    let commands: [&[&str]; 9] = [
        &["frame", "encode"],
        &["decode"],
        &["check"],
        &["check", "--htoo"],
        &["fmt"],
        &["to-json"],
        &["to-json", "--lines"],
        &["from-json"],
        &["from-json", "--lines"],
    ];
    for args in commands {
        let (out, sent) = jtoo_on_endless_input(args, 0);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(":1:1") || err.contains("line 1 column 1"),
            "{args:?}: {err}"
        );
        // What was read before the error was found: a chunk or two, plus
        // what the pipe held; nowhere near the 1 GiB the writer offers.
        assert!(sent < 4 << 20, "{args:?}: read {sent} bytes");
    }
    // Garbage after a valid document is just as final.
    let (out, sent) = jtoo_on_endless_input(&["check"], b'x');
    assert_eq!(out.status.code(), Some(1));
    assert!(sent < 4 << 20, "read {sent} bytes");
}

#[test]
fn duplicate_keys_are_kept_in_order_both_ways() {
    // Issue 18 defect 9: the CLI dropped all but the last.
    let out = jtoo(&["to-json"], br#"["a":1,"b":3,"a":2]"#);
    assert_eq!(out.stdout, b"{\"a\":1,\"b\":3,\"a\":2}\n");
    let out = jtoo(&["to-json", "--pretty"], br#"["a":1,"b":3,"a":2]"#);
    assert_eq!(out.stdout, b"{\n  \"a\": 1,\n  \"b\": 3,\n  \"a\": 2\n}\n");
    let out = jtoo(&["from-json"], br#"{"a":1,"b":3,"a":2}"#);
    assert_eq!(out.stdout, b"[\"a\":1,\"b\":3,\"a\":2]\n");
    let out = jtoo(&["from-json", "--lines"], b"{\"a\":1,\"a\":2}\n");
    assert_eq!(out.stdout, b"[\"a\":1,\"a\":2]\n");
}

#[test]
fn fmt_check_lists_files_that_are_not_canonical() {
    let good = temp_file("canonical.jtoo", b"[1_000]\n");
    let no_newline = temp_file("no-newline.jtoo", b"[1_000]");
    let htoo = temp_file("loose.htoo", b"[ 1000, ]\n");
    let out = jtoo(&["fmt", "--check", good.to_str().unwrap()], b"");
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));
    let out = jtoo_on_files(&["fmt", "--htoo", "--check"], &[&good, &no_newline, &htoo]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}\n{}\n", no_newline.display(), htoo.display())
    );
    // Nothing was rewritten.
    assert_eq!(std::fs::read(&htoo).unwrap(), b"[ 1000, ]\n");
}

#[test]
fn fmt_in_place_rewrites_only_what_needs_it() {
    let a = temp_file("in-place-a.htoo", b"[ 1000, ]\n");
    let b = temp_file("in-place-b.jtoo", b"[1]\n");
    let bad = temp_file("in-place-bad.htoo", b"[1 2]\n");
    let out = jtoo_on_files(&["fmt", "--htoo", "--in-place"], &[&a, &b, &bad]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read(&a).unwrap(), b"[1_000]\n");
    assert_eq!(std::fs::read(&b).unwrap(), b"[1]\n");
    assert_eq!(std::fs::read(&bad).unwrap(), b"[1 2]\n");
    // No file is left behind.
    let dir = a.parent().unwrap();
    let leftovers = std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with("tmp"))
        })
        .count();
    assert_eq!(leftovers, 0);
    // stdin cannot be rewritten.
    assert_eq!(jtoo(&["fmt", "--in-place"], b"[1]").status.code(), Some(2));
}

#[test]
fn fmt_writes_several_files_in_order() {
    let a = temp_file("several-a.jtoo", b"[1]");
    let b = temp_file("several-b.htoo", b"[2, ]");
    let out = jtoo_on_files(&["fmt", "--htoo"], &[&a, &b]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"[1]\n[2]\n");
}

#[test]
fn to_json_lines_matches_from_json_lines() {
    let out = jtoo(&["to-json", "--lines"], b"[\"a\":1]\n\n[1,B4f]\r\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"{\"a\":1}\n[1,\"4f\"]\n");
    let back = jtoo(&["from-json", "--lines"], &out.stdout);
    assert_eq!(back.stdout, b"[\"a\":1]\n[1,\"4f\"]\n");
    let out = jtoo(&["to-json", "--lines"], b"[1]\n[1,true]\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, b"[1]\n");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "<stdin>:2:4: expected a value\n  |\n2 | [1,true]\n  |    ^\n\
         <stdin>:2:4: help: booleans are `Y` / `N`\n"
    );
}

#[test]
fn json_habits_get_hints() {
    let cases: [(&[u8], &str); 5] = [
        (b"[true]", "booleans are `Y` / `N`"),
        (b"[\"a\":null]", "JTOO has no null"),
        (b"{\"a\":1}", "records are lists of pairs"),
        (b"[.75]", "`0.75`, not `.75`"),
        (b"[\"a\": 1]", "this looks like HTOO: try --htoo"),
    ];
    for (input, hint) in cases {
        let out = jtoo(&["check"], input);
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("help: ") && err.contains(hint), "{err}");
    }
    // HTOO in a file of another name, read strictly.
    let path = temp_file("habit.jtoo", b"[\"a\": 1]\n");
    let out = jtoo(&["check", path.to_str().unwrap()], b"");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("help: this looks like HTOO: try --htoo"),
        "{err}"
    );
    // A .htoo file is read as HTOO: its diagnostic.
    let path = temp_file("habit.htoo", b"[1 2]\n");
    let out = jtoo(&["check", path.to_str().unwrap()], b"");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!(
            "error: expected `,` or `]`\n --> {}:1:3\n",
            path.display()
        )),
        "{err}"
    );
    let out = jtoo(&["check", "--htoo"], b"[\n  \"a\": true,\n]");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.ends_with("  = help: booleans are `Y` / `N`\n"), "{err}");
}

#[test]
fn help_texts_are_plain_and_short() {
    let commands: [&[&str]; 17] = [
        &[],
        &["fmt"],
        &["check"],
        &["pretty"],
        &["get"],
        &["set"],
        &["rm"],
        &["decode"],
        &["encode"],
        &["to-json"],
        &["from-json"],
        &["frame"],
        &["frame", "decode"],
        &["frame", "encode"],
        &["frame", "serve"],
        &["frame", "connect"],
        &["frame", "check-greeting"],
    ];
    for args in commands {
        let mut args = args.to_vec();
        args.push("--help");
        let out = jtoo(&args, b"");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let help = String::from_utf8(out.stdout).unwrap();
        assert!(!help.contains('`'), "{args:?}: Markdown in\n{help}");
        // Summaries in a command list fit a terminal line.
        if let Some(list) = help.split("Commands:\n").nth(1) {
            for line in list.lines().take_while(|l| !l.is_empty()) {
                assert!(line.chars().count() <= 80, "{args:?}: {line}");
            }
        }
    }
    let serve = jtoo(&["frame", "serve", "--help"], b"");
    assert!(
        String::from_utf8(serve.stdout)
            .unwrap()
            .contains("--listen <ADDR>")
    );
    let connect = jtoo(&["frame", "connect", "--help"], b"");
    assert!(
        String::from_utf8(connect.stdout)
            .unwrap()
            .contains("--addr <ADDR>")
    );
}

/// Issue 31 item 3: `to-json --exact | from-json --exact` gives back the
/// same canonical bytes for every valid conformance case (each canonical
/// document on a line of its own: canonical JTOO has no raw newline), and
/// for the issue's document, which the natural mapping changes.
#[test]
fn exact_json_round_trips_every_valid_conformance_case() {
    use spec_tests::cases::{self, Kind, Syntax};
    let dir = cases::default_cases_dir();
    let rev = dir.join(spec_tests::latest_revision(&dir).unwrap());
    let mut docs: Vec<Vec<u8>> = Vec::new();
    for case in cases::load(&rev).unwrap() {
        let canonical = match case.kind {
            Kind::Valid(Syntax::Jtoo) => std::fs::read(&case.path).unwrap(),
            Kind::Valid(Syntax::Htoo) => std::fs::read(case.sibling(".canonical.jtoo")).unwrap(),
            _ => continue,
        };
        assert!(!canonical.contains(&b'\n'), "{}", case.path.display());
        docs.push(canonical);
    }
    assert!(docs.len() > 100, "{} valid cases", docs.len());
    docs.push(br#"["d":D2024-03-04,"b":B4f4b,"k":[1:2]]"#.to_vec());
    let input: Vec<u8> = docs.iter().flat_map(|d| [&d[..], b"\n"].concat()).collect();

    let json = jtoo(&["to-json", "--exact", "--lines"], &input);
    assert_eq!(
        json.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    let back = jtoo(&["from-json", "--exact", "--lines"], &json.stdout);
    assert_eq!(
        back.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&back.stderr)
    );
    for (i, (got, want)) in back.stdout.split(|&b| b == b'\n').zip(&docs).enumerate() {
        assert_eq!(
            String::from_utf8_lossy(got),
            String::from_utf8_lossy(want),
            "line {}",
            i + 1
        );
    }
    assert_eq!(back.stdout, input);

    // Whole documents (a file, pretty) too; the natural mapping is lossy.
    let doc = br#"["d":D2024-03-04,"b":B4f4b,"k":[1:2]]"#;
    let file = temp_file("exact.jtoo", doc);
    let json = jtoo_on_files(&["to-json", "--exact", "--pretty"], &[&file]);
    assert_eq!(json.status.code(), Some(0));
    let back = jtoo(&["from-json", "--exact"], &json.stdout);
    assert_eq!(back.stdout, [&doc[..], b"\n"].concat());
    let natural = jtoo(&["to-json"], doc);
    let lossy = jtoo(&["from-json"], &natural.stdout);
    assert_eq!(
        lossy.stdout,
        b"[\"d\":\"D2024-03-04\",\"b\":\"4f4b\",\"k\":[\"1\":2]]\n"
    );

    // Invalid tagged JSON writes nothing and names the path.
    let bad = jtoo(
        &["from-json", "--exact"],
        br#"[{"type":"bytes","value":"abc"}]"#,
    );
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(bad.stdout, b"");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.starts_with("<stdin>: $[0]: invalid bytes"), "{err}");
}

/// Issue 31 item 6: a strict error shows its line (a window of a long one)
/// with a caret, and a byte-order mark or CRLF line end gets a `help:`
/// line naming it.
#[test]
fn strict_errors_show_the_line_and_name_a_bom_or_crlf() {
    // One line of 3 MB, the error near its end.
    let mut big = b"[".to_vec();
    for _ in 0..1_500_000 {
        big.extend_from_slice(b"1,");
    }
    big.extend_from_slice(b",1]");
    let path = temp_file("big.jtoo", &big);
    let out = jtoo_on_files(&["check"], &[&path]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    assert!(lines[0].ends_with(":1:3000002: expected a value"), "{err}");
    assert!(
        lines[2].starts_with("1 | …1,1,") && lines[2].ends_with("1,,1]"),
        "{err}"
    );
    assert!(
        lines[2].chars().count() < 120,
        "a window of the line: {err}"
    );
    // The caret under the second comma.
    let text: Vec<char> = lines[2].chars().collect();
    let caret = lines[3].chars().position(|c| c == '^').unwrap();
    assert_eq!(text[caret - 1..=caret], [',', ','], "{err}");

    for (input, name) in [
        (&b"\xef\xbb\xbf[\"a\":1]"[..], "byte-order mark"),
        (b"[\"a\":1]\r\n", "CRLF"),
    ] {
        let out = jtoo(&["check"], input);
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8(out.stderr).unwrap();
        let help = err
            .lines()
            .find(|l| l.contains(": help: "))
            .unwrap_or_default();
        assert!(help.contains(name), "{err}");
    }
}
