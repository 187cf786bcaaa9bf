//! Diagnostics: message, `file:line:column`, the source line, a caret.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

/// The diagnostic for parsing `src` as HTOO.
fn render(src: &[u8]) -> String {
    let err = htoo::from_slice(src).unwrap_err();
    htoo::render_diagnostic(&err, src, "config.htoo")
}

#[test]
fn points_at_the_error_with_a_caret() {
    let src = "[\n  [\"a\", 1],\n  [\"b\", 2 3],\n]\n";
    assert_eq!(
        render(src.as_bytes()),
        "error: expected `,` or `]`
 --> config.htoo:3:10
  |
3 |   [\"b\", 2 3],
  |          ^
"
    );
}

#[test]
fn first_column_and_single_line() {
    assert_eq!(
        render(b"x"),
        "error: expected a value
 --> config.htoo:1:1
  |
1 | x
  | ^
"
    );
}

#[test]
fn gutter_widens_with_the_line_number() {
    let mut src = "[\n".to_owned();
    src.push_str(&"1,\n".repeat(11));
    src.push_str("1 1]");
    let out = render(src.as_bytes());
    assert_eq!(
        out,
        "error: expected `,` or `]`
  --> config.htoo:13:2
   |
13 | 1 1]
   |  ^
"
    );
}

#[test]
fn unclosed_comment_points_at_its_start() {
    assert_eq!(
        render(b"// notes\n1 /* the end\n\n"),
        "error: unclosed comment: expected `*/` before end of input
 --> config.htoo:2:3
  |
2 | 1 /* the end
  |   ^ the comment starts here
"
    );
}

#[test]
fn unclosed_string_points_at_its_start() {
    assert_eq!(
        render(b"[1, \"abc"),
        "error: unclosed string: expected `\"` before end of input
 --> config.htoo:1:5
  |
1 | [1, \"abc
  |     ^ the string starts here
"
    );
}

#[test]
fn unclosed_list_points_at_its_start() {
    assert_eq!(
        render(b"[\n  \"a\": [1,\n  2,\n"),
        "error: unclosed list: expected `]` before end of input
 --> config.htoo:2:8
  |
2 |   \"a\": [1,
  |        ^ the list starts here
"
    );
}

#[test]
fn ambiguous_key_points_at_the_colon() {
    assert_eq!(
        render(b"[T10 :20]"),
        "error: ambiguous key: a time of hour or minute precision without an offset cannot be a pair key
 --> config.htoo:1:6
  |
1 | [T10 :20]
  |      ^
"
    );
}

#[test]
fn tabs_keep_the_caret_aligned() {
    assert_eq!(
        render(b"[\n\t\t1 2]"),
        "error: expected `,` or `]`
 --> config.htoo:2:4
  |
2 |         1 2]
  |          ^
"
    );
}

#[test]
fn crlf_line_ends_are_not_shown() {
    let out = render(b"[1,\r\n 2 3]\r\n");
    assert_eq!(
        out,
        "error: expected `,` or `]`
 --> config.htoo:2:3
  |
2 |  2 3]
  |   ^
"
    );
    assert!(!out.contains('\r'));
}

#[test]
fn end_of_input() {
    assert_eq!(
        render(b""),
        "error: expected a value
 --> config.htoo:1:1
  |
1 |
  | ^
"
    );
    assert_eq!(
        render(b"  // nothing\n"),
        "error: expected a value
 --> config.htoo:2:1
  |
2 |
  | ^
"
    );
    assert_eq!(
        render(b"[1,"),
        "error: unclosed list: expected `]` before end of input
 --> config.htoo:1:1
  |
1 | [1,
  | ^ the list starts here
"
    );
}

#[test]
fn invalid_utf8_is_shown_lossily() {
    let out = render(b"[\"a\xffb\"]");
    assert_eq!(
        out,
        "error: invalid UTF-8
 --> config.htoo:1:4
  |
1 | [\"a\u{fffd}b\"]
  |    ^
"
    );
}

#[test]
fn control_characters_are_made_visible() {
    let out = render(b"[\"a\x1bb\"]");
    assert!(out.contains("1 | [\"a\u{241b}b\"]\n"), "{out}");
    assert!(out.ends_with("  |    ^\n"), "{out}");
    assert!(!out.contains('\x1b'));
}

#[test]
fn wide_characters_take_two_columns() {
    // Column 6 counts characters; the caret counts terminal columns.
    assert_eq!(
        render("[\"你好\" 1]".as_bytes()),
        "error: expected `,` or `]`
 --> config.htoo:1:6
  |
1 | [\"你好\" 1]
  |        ^
"
    );
}

#[test]
fn long_lines_are_cut_around_the_caret() {
    let mut src = "[".to_owned();
    src.push_str(&"1,".repeat(5000));
    src.push_str("1 2]");
    let out = render(src.as_bytes());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], " --> config.htoo:1:10003");
    assert!(lines[3].chars().count() < 120, "{}", lines[3]);
    assert!(
        lines[3].starts_with("1 | …") && lines[3].ends_with(",1,1 2]"),
        "{}",
        lines[3]
    );
    // The caret stands right after the last `1`, where the `,` is missing.
    let caret = lines[4].chars().position(|c| c == '^').unwrap();
    assert_eq!(lines[3].chars().nth(caret - 1), Some('1'));
    assert_eq!(lines[3].chars().nth(caret + 1), Some('2'));
}

#[test]
fn errors_without_a_position() {
    let err = jtoo::Error::new(jtoo::ErrorKind::Unencodable("no"));
    assert_eq!(
        htoo::render_diagnostic(&err, b"", "x.htoo"),
        "error: cannot encode: no\n --> x.htoo\n"
    );
}

#[test]
fn diagnostic_accessors() {
    let src = b"[1 2]";
    let err = htoo::from_slice(src).unwrap_err();
    let d = htoo::Diagnostic::new(&err, src, "a.htoo");
    assert_eq!(d.message(), "expected `,` or `]`");
    assert_eq!(
        (d.line(), d.column(), d.file_name()),
        (Some(1), Some(3), "a.htoo")
    );
    assert_eq!(d.to_string(), htoo::render_diagnostic(&err, src, "a.htoo"));
}

#[test]
fn never_panics_on_odd_inputs() {
    let inputs: [&[u8]; 10] = [
        b"\xff",
        b"\r",
        b"\r\n\r\n",
        b"[\r",
        b"\"\r",
        b"\t\t\t",
        b"/*",
        b"[\xe4\xbd",
        b"\xe4\xbd\xa0",
        b"[1,\n\xff\xfe]",
    ];
    for src in inputs {
        let err = htoo::from_slice(src).unwrap_err();
        let out = htoo::render_diagnostic(&err, src, "f");
        assert!(out.starts_with("error: ") && out.ends_with('\n'), "{out}");
        // A position past the input clamps.
        let strict = jtoo::Error::at(err.kind(), src, src.len());
        let _ = htoo::render_diagnostic(&strict, &src[..src.len() / 2], "f");
    }
}

#[test]
fn a_missing_comma_is_reported_right_after_the_value() {
    // Issue 18: not at the next key, lines later.
    let src = b"[\n  \"a\": 1 // one\n\n  \"b\": 2,\n]\n";
    let err = htoo::from_slice(src).unwrap_err();
    assert_eq!((err.line(), err.column()), (2, 9));
    assert_eq!(err.message(), "expected `,` or `]`");
    // The validator agrees with the parser.
    let src = b"[[1 2]]";
    let err = jtoo::from_slice(src).unwrap_err();
    assert_eq!(err.column(), 4);
    let err = htoo::from_slice(b"[[1  2]]").unwrap_err();
    assert_eq!(err.column(), 4);
}
