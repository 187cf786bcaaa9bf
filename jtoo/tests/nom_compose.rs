//! The `jtoo::parse` productions composed with nom 8 combinators inside a
//! user's grammar: a log of lines `at=<timestamp> body=<jtoo value>`.

use jtoo::parse::nom::{
    Parser,
    bytes::complete::tag,
    character::complete::line_ending,
    multi::many0,
    sequence::{preceded, separated_pair, terminated},
};
use jtoo::parse::{PResult, Syntax, list, timestamp, unwrap_nom_err};
use jtoo::{ErrorKind, Timestamp, Value};

fn log_line(syntax: Syntax) -> impl Fn(&[u8]) -> PResult<'_, (Timestamp, Value)> {
    move |input| {
        separated_pair(
            preceded(tag(&b"at="[..]), |i| timestamp::timestamp(i, syntax)),
            tag(&b" "[..]),
            preceded(tag(&b"body="[..]), |i| list::value(i, syntax, 16)),
        )
        .parse(input)
    }
}

fn log(input: &[u8]) -> PResult<'_, Vec<(Timestamp, Value)>> {
    many0(terminated(log_line(Syntax::Strict), line_ending)).parse(input)
}

#[test]
fn lines_compose_with_nom_combinators() {
    let text = b"at=S1_700_000_000 body=[\"user\":\"ann\"]\nat=S1_700_000_001 body=42\n";
    let (rest, lines) = log(text).unwrap();
    assert_eq!(rest, b"");
    let shown: Vec<(String, String)> = lines
        .iter()
        .map(|(t, v)| (t.to_string(), v.to_string()))
        .collect();
    assert_eq!(
        shown,
        [
            ("S1_700_000_000".to_owned(), r#"["user":"ann"]"#.to_owned()),
            ("S1_700_000_001".to_owned(), "42".to_owned()),
        ]
    );
}

#[test]
fn a_jtoo_error_inside_a_line_keeps_its_kind_and_position() {
    let line = b"at=S1_700_000_000 body=[1,]";
    let e = log_line(Syntax::Strict)(line).unwrap_err();
    assert!(
        matches!(e, jtoo::parse::nom::Err::Failure(_)),
        "JTOO errors are committed: {e:?}"
    );
    let e = unwrap_nom_err(e, line).into_error(line);
    assert_eq!((e.kind(), e.offset()), (ErrorKind::ExpectedValue, 26));
}

#[test]
fn a_mismatch_of_the_users_grammar_is_a_recoverable_nom_error() {
    // `many0` stops at a line that is not a log line and returns the rest.
    let text = b"at=S1_700_000_000 body=Y\nnot a log line\n";
    let (rest, lines) = log(text).unwrap();
    assert_eq!((lines.len(), rest), (1, &b"not a log line\n"[..]));
}

#[test]
fn the_lenient_grammar_composes_too() {
    let line = b"at=S1_700_000_000 body=[1, 2, /* c */ 3,]";
    let (rest, (_, v)) = log_line(Syntax::Lenient)(line).unwrap();
    assert_eq!((rest, v.to_string().as_str()), (&b""[..], "[1,2,3]"));
    assert!(log_line(Syntax::Strict)(line).is_err());
}
