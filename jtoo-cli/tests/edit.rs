//! `jtoo get`, `set` and `rm` (issue 28): JSON Pointer paths, edits that
//! keep every other byte, refusals that leave the file untouched.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Output;

use crate::common::{jtoo, temp_file as file};

const CONFIG: &str = "\
// Service configuration.
[
  // where it listens
  \"port\" : 8080, // the default
  \"hosts\": [\"a\", \"b\",], /* both */

  /* limits */
  \"limits\": [
    \"timeout_ms\": 1000,
    \"retries\": 3, // then give up
  ],
  \"a/b~c\": Y,
]
";

fn run(args: &[&str]) -> Output {
    jtoo(args, b"")
}

fn stdout(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn fails(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// The lines of `after` that differ from `before`, as (removed, added).
fn diff(before: &str, after: &str) -> (Vec<String>, Vec<String>) {
    let (b, a): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
    let common_start = b.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let common_end = b[common_start..]
        .iter()
        .rev()
        .zip(a[common_start..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let removed = b[common_start..b.len() - common_end]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let added = a[common_start..a.len() - common_end]
        .iter()
        .map(|s| s.to_string())
        .collect();
    (removed, added)
}

#[test]
fn get_prints_canonical_jtoo_or_json() {
    let path = file("get.htoo", CONFIG);
    let p = path.to_str().unwrap();
    assert_eq!(stdout(&run(&["get", p, "/port"])), "8_080\n");
    assert_eq!(stdout(&run(&["get", p, "/limits/timeout_ms"])), "1_000\n");
    // The leading `/` may be left out.
    assert_eq!(stdout(&run(&["get", p, "limits/timeout_ms"])), "1_000\n");
    assert_eq!(stdout(&run(&["get", p, "/hosts/1"])), "\"b\"\n");
    assert_eq!(stdout(&run(&["get", p, "/hosts"])), "[\"a\",\"b\"]\n");
    assert_eq!(
        stdout(&run(&["get", "--json", p, "/limits"])),
        "{\"timeout_ms\":1000,\"retries\":3}\n"
    );
    // `~1` is `/`, `~0` is `~`.
    assert_eq!(stdout(&run(&["get", p, "/a~1b~0c"])), "Y\n");
    // The empty path: the whole document.
    assert_eq!(
        stdout(&run(&["get", "--json", p, ""])),
        "{\"port\":8080,\"hosts\":[\"a\",\"b\"],\"limits\":{\"timeout_ms\":1000,\"retries\":3},\"a/b~c\":true}\n"
    );
    // An index step reads the n-th item of any list, pairs included.
    assert_eq!(stdout(&run(&["get", p, "/1/0"])), "\"a\"\n");
}

#[test]
fn a_digits_step_is_a_key_when_its_list_has_that_key_else_a_position() {
    let path = file(
        "digits.jtoo",
        "[\"ports\":[\"80\":\"http\",\"1\":\"x\",2,3]]\n",
    );
    let p = path.to_str().unwrap();
    // A pair with the key "80": its value (as in JSON, where this list is
    // the object {"80":"http",...}).
    assert_eq!(stdout(&run(&["get", p, "/ports/80"])), "\"http\"\n");
    // The key "1" wins over the second item (which happens to be it too).
    assert_eq!(stdout(&run(&["get", p, "/ports/1"])), "\"x\"\n");
    // No key "0" or "3": positions.
    assert_eq!(stdout(&run(&["get", p, "/ports/0"])), "\"http\"\n");
    assert_eq!(stdout(&run(&["get", p, "/ports/3"])), "3\n");
    // A leading zero is never a position.
    let err = fails(&run(&["get", p, "/ports/03"]));
    assert!(err.contains("has no pair with the key \"03\""), "{err}");
    // set and rm read steps the same way.
    assert_eq!(
        stdout(&run(&["set", p, "/ports/1", "\"y\""])),
        "[\"ports\":[\"80\":\"http\",\"1\":\"y\",2,3]]\n"
    );
    assert_eq!(
        stdout(&run(&["rm", p, "/ports/2"])),
        "[\"ports\":[\"80\":\"http\",\"1\":\"x\",3]]\n"
    );
}

#[test]
fn bad_paths_exit_1_with_a_clear_error() {
    let path = file("bad-paths.htoo", CONFIG);
    let p = path.to_str().unwrap();
    let err = fails(&run(&["get", p, "/nope"]));
    assert_eq!(
        err,
        format!(
            "jtoo: {p}: path `/nope`: the document's value has no pair with the key \"nope\"\n"
        )
    );
    let err = fails(&run(&["get", p, "/port/x"]));
    assert_eq!(
        err,
        format!("jtoo: {p}: path `/port/x`: `/port` is not a list (it is an integer)\n")
    );
    let err = fails(&run(&["get", p, "/hosts/5"]));
    assert!(
        err.ends_with("path `/hosts/5`: `/hosts` has no item 5 (it has 2 items, counted from 0)\n"),
        "{err}"
    );
    let err = fails(&run(&["get", p, "/a~2"]));
    assert!(err.contains("`~` must be followed by `0`"), "{err}");
    let err = fails(&run(&["get", p, "/nope/deeper"]));
    assert!(err.contains("has no pair with the key \"nope\""), "{err}");
    let err = fails(&run(&["rm", p, ""]));
    assert!(err.contains("rm removes an item of a list"), "{err}");
    // A file that cannot be read: 2.
    assert_eq!(
        run(&["get", "/nonexistent/x.htoo", "/a"]).status.code(),
        Some(2)
    );
}

#[test]
fn set_changes_one_value_and_keeps_every_other_byte() {
    let path = file("set.htoo", CONFIG);
    let p = path.to_str().unwrap();
    let after = stdout(&run(&["set", p, "/port", "9090"]));
    assert_eq!(
        diff(CONFIG, &after),
        (
            vec!["  \"port\" : 8080, // the default".into()],
            vec!["  \"port\" : 9_090, // the default".into()]
        )
    );
    // Without --in-place the file is untouched.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), CONFIG);

    // A missing key is created in its list.
    let after = stdout(&run(&["set", p, "/limits/backoff_ms", "250"]));
    assert_eq!(
        diff(CONFIG, &after),
        (vec![], vec!["    \"backoff_ms\": 250,".into()])
    );
    // A subtree replaced.
    let after = stdout(&run(&["set", p, "/hosts", "[\"c\"]"]));
    assert_eq!(
        diff(CONFIG, &after),
        (
            vec!["  \"hosts\": [\"a\", \"b\",], /* both */".into()],
            vec!["  \"hosts\": [\"c\"], /* both */".into()]
        )
    );
    // `-` appends a plain item.
    let after = stdout(&run(&["set", p, "/hosts/-", "\"c\""]));
    assert_eq!(
        diff(CONFIG, &after),
        (
            vec!["  \"hosts\": [\"a\", \"b\",], /* both */".into()],
            vec!["  \"hosts\": [\"a\", \"b\", \"c\",], /* both */".into()]
        )
    );

    // --in-place: the file itself.
    let out = run(&["set", "--in-place", p, "/limits/retries", "5"]);
    assert_eq!(stdout(&out), "");
    let now = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        diff(CONFIG, &now),
        (
            vec!["    \"retries\": 3, // then give up".into()],
            vec!["    \"retries\": 5, // then give up".into()]
        )
    );
}

#[test]
fn a_bad_value_or_path_leaves_the_file_untouched() {
    let path = file("set-bad.htoo", CONFIG);
    let p = path.to_str().unwrap();
    let err = fails(&run(&["set", "--in-place", p, "/port", "bob"]));
    assert!(err.contains("expected a value"), "{err}");
    assert!(
        err.contains("help: VALUE is HTOO, where a string needs its quotes: '\"bob\"'"),
        "{err}"
    );
    let err = fails(&run(&["set", "--in-place", p, "/port/x", "1"]));
    assert!(err.contains("is not a list"), "{err}");
    let err = fails(&run(&["set", "--in-place", p, "/hosts/7", "1"]));
    assert!(err.contains("the step `-` appends an item"), "{err}");
    let err = fails(&run(&["set", "--in-place", p, "/nope/x", "1"]));
    assert!(err.contains("has no pair with the key \"nope\""), "{err}");
    let err = fails(&run(&["rm", "--in-place", p, "/limits/nope"]));
    assert!(err.contains("has no pair with the key \"nope\""), "{err}");
    // An ambiguous key cannot be written.
    let err = fails(&run(&["set", "--in-place", p, "", "[T10: 1]"]));
    assert!(!err.is_empty());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), CONFIG);
    // stdin cannot be rewritten.
    assert_eq!(
        run(&["set", "--in-place", "-", "/a", "1"]).status.code(),
        Some(2)
    );
}

#[test]
fn rm_removes_an_item_with_its_comments_and_nothing_else() {
    let path = file("rm.htoo", CONFIG);
    let p = path.to_str().unwrap();
    let after = stdout(&run(&["rm", p, "/port"]));
    assert_eq!(
        diff(CONFIG, &after),
        (
            vec![
                "  // where it listens".into(),
                "  \"port\" : 8080, // the default".into()
            ],
            vec![]
        )
    );
    let after = stdout(&run(&["rm", p, "/limits/retries"]));
    assert_eq!(
        diff(CONFIG, &after),
        (vec!["    \"retries\": 3, // then give up".into()], vec![])
    );
    let out = run(&["rm", "--in-place", p, "/hosts/0"]);
    assert_eq!(stdout(&out), "");
    assert_eq!(
        diff(CONFIG, &std::fs::read_to_string(&path).unwrap()),
        (
            vec!["  \"hosts\": [\"a\", \"b\",], /* both */".into()],
            vec!["  \"hosts\": [\"b\",], /* both */".into()]
        )
    );
}

#[test]
fn a_strict_jtoo_file_stays_canonical() {
    let path = file("strict.jtoo", "[\"a\":1,\"b\":[1,2]]\n");
    let p = path.to_str().unwrap();
    assert_eq!(
        stdout(&run(&["set", p, "/c", "[\"x\": 1000]"])),
        "[\"a\":1,\"b\":[1,2],\"c\":[\"x\":1_000]]\n"
    );
    assert_eq!(
        stdout(&run(&["set", p, "/b/-", "3"])),
        "[\"a\":1,\"b\":[1,2,3]]\n"
    );
    assert_eq!(stdout(&run(&["rm", p, "/a"])), "[\"b\":[1,2]]\n");
    // HTOO in a file that is not *.htoo needs --htoo.
    let path = file("loose.jtoo", "[\"a\": 1]");
    let p = path.to_str().unwrap();
    let err = fails(&run(&["get", p, "/a"]));
    assert!(
        err.contains("help: this looks like HTOO: try --htoo"),
        "{err}"
    );
    assert_eq!(stdout(&run(&["get", "--htoo", p, "/a"])), "1\n");
    // stdin works too.
    let out = jtoo(&["get", "-", "/a/1"], b"[\"a\":[5,6]]");
    assert_eq!(stdout(&out), "6\n");
}
