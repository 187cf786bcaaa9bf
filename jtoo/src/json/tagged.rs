//! Tagged JSON: the exact JSON form of every JTOO value, which reads back
//! as the same value (so the same canonical bytes). The conformance
//! suite's cases are written in it, `jtoo decode` / `jtoo encode` speak it,
//! and `jtoo to-json --exact` / `jtoo from-json --exact` convert with it.
//!
//! Unlike the natural mapping of [`crate::json`] (its default), which maps
//! JTOO to the JSON a JSON program expects and so loses types (bytes
//! become hex strings, dates strings, pair lists objects with string
//! keys, `Y`/`N` booleans), tagged JSON keeps every JTOO value exactly:
//!
//! | JTOO | tagged JSON |
//! |---|---|
//! | list | array of its items |
//! | pair `k:v` (a list item) | `{"key": K, "value": V}` |
//! | string | `{"type": "string", "value": "…"}` |
//! | byte string | `{"type": "bytes", "value": "4f4b"}` (lower-case hex) |
//! | `Y` / `N` | `{"type": "bool", "value": "true"}` / `"false"` |
//! | integer | `{"type": "integer", "value": "-1000"}` (plain digits, no `_`) |
//! | decimal | `{"type": "decimal", "value": "1000.5"}` (plain, normalised: `1.0`, never `1.50`) |
//! | date/time/offset | `{"type": "datetime", "value": "D2023-12-30T01:02:03~08"}` (canonical JTOO text) |
//! | timestamp | `{"type": "timestamp", "value": "S1_709_528_240.001"}` (canonical JTOO text) |
//!
//! Every scalar's `value` is a JSON string, so no JSON number precision is
//! ever involved.
//!
//! ```
//! use jtoo::json::tagged::{from_tagged, to_tagged};
//! let v = jtoo::from_str(r#"["n":1_000,"at":S0,"b":B4f]"#).unwrap();
//! let t = to_tagged(&v);
//! assert_eq!(
//!     t.to_string(),
//!     r#"[{"key":{"type":"string","value":"n"},"value":{"type":"integer","value":"1000"}},{"key":{"type":"string","value":"at"},"value":{"type":"timestamp","value":"S0"}},{"key":{"type":"string","value":"b"},"value":{"type":"bytes","value":"4f"}}]"#
//! );
//! assert_eq!(from_tagged(&t).unwrap(), v);
//! ```
//!
//! As text: [`to_tagged_string`] and [`from_tagged_slice`], which reads
//! nesting deeper than serde_json's default limit (a pair nests its key and
//! value one level deeper than its list) up to [`MAX_TAGGED_DEPTH`].
//!
//! ```
//! use jtoo::json::tagged::{from_tagged_slice, to_tagged_string};
//! let v = jtoo::from_str(r#"["d":D2024-03-04,"b":B4f4b,"k":[1:2]]"#)?;
//! let json = to_tagged_string(&v);
//! assert_eq!(from_tagged_slice(json.as_bytes())?, v);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::hex;
use crate::parse::{Number, Syntax, number};
use crate::value::walk::{Folder, fold};
use crate::{DateTime, Item, List, Pair, Timestamp, Value};
use serde_json::{Map, Value as Json};
use std::fmt;

/// How deeply [`from_tagged`] follows nested arrays and pairs before giving up
/// (the recursion is bounded so that hostile input cannot overflow the stack;
/// a JTOO document within the default depth limit of 128 needs at most 257).
pub const MAX_TAGGED_DEPTH: usize = 512;

/// The tagged JSON form of `v`, built without recursion (but `serde_json`
/// drops and prints a `Json` recursively: keep values within
/// [`MAX_TAGGED_DEPTH`] levels, as [`from_tagged`] does).
pub fn to_tagged(v: &Value) -> Json {
    match v {
        Value::List(items) => {
            let folded = fold(items, usize::MAX, &mut ToTagged).unwrap_or_default();
            Json::Array(folded)
        }
        leaf => ToTagged.leaf(leaf),
    }
}

/// [`to_tagged`]'s steps, for [`fold`].
struct ToTagged;

impl<'a> Folder<'a> for ToTagged {
    type Out = Json;
    type Item = Json;
    fn leaf(&mut self, v: &'a Value) -> Json {
        match v {
            Value::String(s) => scalar("string", s.to_string()),
            Value::Bytes(b) => scalar("bytes", hex(b)),
            Value::Bool(b) => scalar("bool", if *b { "true" } else { "false" }.to_string()),
            Value::Integer(i) => scalar("integer", i.to_plain_string()),
            Value::Decimal(d) => scalar("decimal", d.to_plain_string()),
            Value::DateTime(d) => scalar("datetime", d.to_string()),
            Value::Timestamp(t) => scalar("timestamp", t.to_string()),
            Value::List(_) => Json::Array(Vec::new()),
        }
    }
    fn value(&mut self, v: Json) -> Json {
        v
    }
    fn pair(&mut self, _: &'a Pair, key: Json, value: Json) -> Json {
        let mut m = Map::new();
        m.insert("key".to_string(), key);
        m.insert("value".to_string(), value);
        Json::Object(m)
    }
    fn list(&mut self, _: &'a List, folded: Vec<Json>) -> Json {
        Json::Array(folded)
    }
}

fn scalar(ty: &str, value: String) -> Json {
    let mut m = Map::new();
    m.insert("type".to_string(), Json::String(ty.to_string()));
    m.insert("value".to_string(), Json::String(value));
    Json::Object(m)
}

/// Reads tagged JSON back into a [`Value`].
///
/// Scalars must be in the forms of the table above, except that byte strings
/// may use upper-case hex. Datetimes and timestamps must be canonical JTOO
/// text.
///
/// # Errors
///
/// A message naming the JSON path of the first problem: an unknown `type`, a
/// malformed scalar, a pair where a value must stand (the document, a key or
/// a pair's value), a pair whose key has no spelling ("ambiguous key", see
/// [`Pair::new`]), or nesting deeper than [`MAX_TAGGED_DEPTH`].
///
/// ```
/// use jtoo::json::tagged::from_tagged;
/// use serde_json::json;
/// let v = from_tagged(&json!({"type": "decimal", "value": "1000.5"})).unwrap();
/// assert_eq!(jtoo::to_string(&v).unwrap(), "1_000.5");
/// let pair = json!([{"key": {"type": "datetime", "value": "T10:20"}, "value": {"type": "integer", "value": "5"}}]);
/// assert!(from_tagged(&pair).unwrap_err().to_string().contains("ambiguous key"));
/// ```
pub fn from_tagged(j: &Json) -> Result<Value, TaggedError> {
    value(j, 0).map_err(|e| TaggedError(e.render()))
}

/// Why tagged JSON has no JTOO value: a message naming the JSON path of
/// the first problem (`$[0].key: invalid integer "1_000": …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaggedError(String);

impl fmt::Display for TaggedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TaggedError {}

/// [`to_tagged`] as compact JSON text.
///
/// ```
/// let v = jtoo::from_str("[B4f4b,1:2]")?;
/// assert_eq!(
///     jtoo::json::tagged::to_tagged_string(&v),
///     r#"[{"type":"bytes","value":"4f4b"},{"key":{"type":"integer","value":"1"},"value":{"type":"integer","value":"2"}}]"#
/// );
/// # Ok::<(), jtoo::Error>(())
/// ```
pub fn to_tagged_string(v: &Value) -> String {
    to_tagged(v).to_string()
}

/// Reads tagged JSON text (one JSON value, whitespace around it allowed)
/// into its [`Value`], as [`from_tagged`] does.
///
/// # Errors
/// Text that is not JSON, nests deeper than [`MAX_TAGGED_DEPTH`], or that
/// [`from_tagged`] refuses.
///
/// ```
/// use jtoo::json::tagged::from_tagged_slice;
/// let v = from_tagged_slice(br#"{"type": "datetime", "value": "D2024-03-04"}"#)?;
/// assert_eq!(jtoo::to_string(&v)?, "D2024-03-04");
/// assert!(from_tagged_slice(b"\"D2024-03-04\"").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_tagged_slice(json: &[u8]) -> Result<Value, TaggedError> {
    // Bound the depth first, then parse without serde_json's own limit
    // (128, less than a document of JTOO's default depth limit needs).
    if json_depth(json) > MAX_TAGGED_DEPTH {
        return Err(TaggedError(format!(
            "$: nested deeper than {MAX_TAGGED_DEPTH}"
        )));
    }
    let mut de = serde_json::Deserializer::from_slice(json);
    de.disable_recursion_limit();
    let parsed = serde::Deserialize::deserialize(&mut de)
        .and_then(|v: Json| de.end().map(|()| v))
        .map_err(|e| TaggedError(format!("not JSON: {e}")))?;
    from_tagged(&parsed)
}

/// The maximum nesting of `[`/`{` outside strings in JSON text: a cheap
/// pre-scan before a recursive JSON reader runs without its own limit (the
/// reader reports malformed input).
///
/// ```
/// use jtoo::json::tagged::json_depth;
/// assert_eq!(json_depth(br#"{"a":[1,[2]],"b":"[[["}"#), 3);
/// assert_eq!(json_depth(b"1"), 0);
/// ```
pub fn json_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in bytes {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// An error and the JSON path to it, collected innermost first while the
/// recursion unwinds (so that no path is built on the happy path).
struct Located {
    rev_path: Vec<String>,
    message: String,
}

impl Located {
    fn new(message: String) -> Located {
        Located {
            rev_path: Vec::new(),
            message,
        }
    }

    fn within(mut self, segment: String) -> Located {
        self.rev_path.push(segment);
        self
    }

    fn render(self) -> String {
        let path: String = self.rev_path.into_iter().rev().collect();
        format!("${path}: {}", self.message)
    }
}

fn value(j: &Json, depth: usize) -> Result<Value, Located> {
    if depth > MAX_TAGGED_DEPTH {
        return Err(Located::new("nested too deeply".to_string()));
    }
    match j {
        Json::Array(items) => {
            let mut list = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let parsed = match item {
                    Json::Object(m) if m.contains_key("key") => pair(m, depth).map(Item::Pair),
                    _ => value(item, depth + 1).map(Item::Value),
                };
                list.push(parsed.map_err(|e| e.within(format!("[{i}]")))?);
            }
            Ok(Value::List(list.into()))
        }
        Json::Object(m) if m.contains_key("key") => Err(Located::new(
            "a pair may only stand as a list item, not as a document, key or value".to_string(),
        )),
        Json::Object(m) => {
            let (Some(Json::String(ty)), Some(Json::String(text)), 2) =
                (m.get("type"), m.get("value"), m.len())
            else {
                return Err(Located::new(
                    "expected {\"type\": T, \"value\": \"…\"} with string members, a pair or an array"
                        .to_string(),
                ));
            };
            scalar_from(ty, text)
                .map_err(|why| Located::new(format!("invalid {ty} {text:?}: {why}")))
        }
        other => Err(Located::new(format!(
            "expected an array or an object, found {}",
            kind_of(other)
        ))),
    }
}

fn pair(m: &Map<String, Json>, depth: usize) -> Result<Pair, Located> {
    let (Some(k), Some(v), 2) = (m.get("key"), m.get("value"), m.len()) else {
        return Err(Located::new(
            "a pair has exactly the members \"key\" and \"value\"".to_string(),
        ));
    };
    let k = value(k, depth + 1).map_err(|e| e.within(".key".to_string()))?;
    let v = value(v, depth + 1).map_err(|e| e.within(".value".to_string()))?;
    Pair::new(k, v).map_err(|e| Located::new(e.to_string()))
}

fn kind_of(j: &Json) -> &'static str {
    match j {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

fn scalar_from(ty: &str, text: &str) -> Result<Value, String> {
    match ty {
        "string" => Ok(Value::String(text.into())),
        "bytes" => unhex(text).map(Value::Bytes),
        "bool" => match text {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err("expected \"true\" or \"false\"".to_string()),
        },
        "integer" => {
            if !plain_digits(text, false) {
                return Err("expected plain decimal digits with an optional `-`".to_string());
            }
            match plain_number(text)? {
                Number::Integer(i) => Ok(Value::Integer(i)),
                Number::Decimal(_) => Err("not an integer".to_string()),
            }
        }
        "decimal" => {
            if !plain_digits(text, true) {
                return Err("expected plain digits, `.`, digits, with an optional `-`".to_string());
            }
            match plain_number(text)? {
                Number::Decimal(d) => Ok(Value::Decimal(d)),
                Number::Integer(_) => Err("not a decimal".to_string()),
            }
        }
        "datetime" => text
            .parse::<DateTime>()
            .map(Value::DateTime)
            .map_err(|e| e.to_string()),
        "timestamp" => text
            .parse::<Timestamp>()
            .map(Value::Timestamp)
            .map_err(|e| e.to_string()),
        _ => Err(
            "unknown type (expected string, bytes, bool, integer, decimal, datetime or timestamp)"
                .to_string(),
        ),
    }
}

/// `-?[0-9]+` (integer) or `-?[0-9]+\.[0-9]+` (decimal).
fn plain_digits(text: &str, decimal: bool) -> bool {
    let body = text.strip_prefix('-').unwrap_or(text);
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    match (decimal, body.split_once('.')) {
        (false, None) => all_digits(body),
        (true, Some((int, frac))) => all_digits(int) && all_digits(frac),
        _ => false,
    }
}

fn plain_number(text: &str) -> Result<Number, String> {
    let bytes = text.as_bytes();
    match number::number(bytes, Syntax::Lenient) {
        Ok(([], n)) => Ok(n),
        Ok(_) => Err("trailing characters".to_string()),
        Err(e) => Err(crate::parse::unwrap_nom_err(e, bytes)
            .into_error(bytes)
            .message()),
    }
}

fn unhex(text: &str) -> Result<Vec<u8>, String> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return Err("an odd number of hex digits".to_string());
    }
    let nibble = |c: u8| match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        b'A'..=b'F' => Ok(c - b'A' + 10),
        _ => Err(format!("{:?} is not a hex digit", char::from(c))),
    };
    digits
        .chunks_exact(2)
        .map(|p| Ok(nibble(p[0])? << 4 | nibble(p[1])?))
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(doc: &str) {
        let v = crate::from_str(doc).unwrap();
        let t = to_tagged(&v);
        let back = from_tagged(&t).unwrap();
        assert_eq!(back, v, "{doc}");
        assert_eq!(crate::to_string(&back).unwrap(), doc);
    }

    #[test]
    fn every_type_round_trips() {
        for doc in [
            r#"["msg":"你好"]"#,
            r#""She typed \22ok\22.""#,
            "B",
            "B00ff",
            "[Y,N]",
            "-1_000",
            "340_282_366_920_938_463_463_374_607_431_768_211_455",
            "0.000_1",
            "1_000.5",
            "D2023-12-30T01:02:03~08",
            "T10:20:30.400_500",
            "S-1.500",
            "S1_709_528_240.000_000_001",
            "[[],[1:[2:3]],[T10:20:30:5]]",
        ] {
            round_trip(doc);
        }
    }

    #[test]
    fn scalar_forms() {
        let v = crate::from_str("[1_000,1.0,B4F]").err();
        assert!(v.is_some(), "upper-case bytes are not strict");
        let v = crate::from_str("[1_000,1.0,B4f,Y]").unwrap();
        assert_eq!(
            to_tagged(&v),
            json!([
                {"type": "integer", "value": "1000"},
                {"type": "decimal", "value": "1.0"},
                {"type": "bytes", "value": "4f"},
                {"type": "bool", "value": "true"},
            ])
        );
        // Upper-case hex is read.
        assert_eq!(
            from_tagged(&json!({"type": "bytes", "value": "4F"})).unwrap(),
            Value::Bytes(vec![0x4f])
        );
    }

    #[test]
    fn errors_name_the_path() {
        let cases = [
            (json!({"type": "float", "value": "1"}), "$: invalid float"),
            (
                json!({"type": "integer", "value": "1_000"}),
                "$: invalid integer",
            ),
            (json!({"type": "integer", "value": 1}), "$: expected"),
            (
                json!({"type": "integer", "value": "1.5"}),
                "$: invalid integer",
            ),
            (
                json!({"type": "decimal", "value": "1e3"}),
                "$: invalid decimal",
            ),
            (
                json!({"type": "decimal", "value": "1"}),
                "$: invalid decimal",
            ),
            (json!({"type": "bool", "value": "yes"}), "$: invalid bool"),
            (json!({"type": "bytes", "value": "abc"}), "$: invalid bytes"),
            (
                json!({"type": "datetime", "value": "D2023-02-30"}),
                "$: invalid datetime",
            ),
            (
                json!({"type": "timestamp", "value": "S-0"}),
                "$: invalid timestamp",
            ),
            (json!({"type": "string"}), "$: expected"),
            (json!(null), "found null"),
            (
                json!([1]),
                "$[0]: expected an array or an object, found a number",
            ),
            (
                json!({"key": {"type": "string", "value": "a"}, "value": {"type": "string", "value": "b"}}),
                "may only stand as a list item",
            ),
            (
                json!([{"key": {"type": "datetime", "value": "T10"}, "value": []}]),
                "$[0]: ambiguous key",
            ),
            (
                json!([{"key": {"type": "string", "value": "a"}}]),
                "$[0]: a pair has exactly",
            ),
        ];
        for (j, want) in cases {
            let err = from_tagged(&j).unwrap_err().to_string();
            assert!(err.contains(want), "{j}: {err}");
        }
    }

    #[test]
    fn depth_is_bounded() {
        let mut j = json!([]);
        for _ in 0..MAX_TAGGED_DEPTH + 5 {
            j = Json::Array(vec![j]);
        }
        assert!(
            from_tagged(&j)
                .unwrap_err()
                .to_string()
                .contains("nested too deeply")
        );
        // Dropping a deep serde_json value is recursive too; unwind it by hand.
        while let Json::Array(mut v) = j {
            j = v.pop().unwrap_or(Json::Null);
        }
    }
}
