//! JSON ⇄ JTOO conversion of arbitrary values (feature `json`).
//!
//! Two ways in and out:
//! - from and to JSON **text**: [`from_json_slice`] / [`from_json_str`] and
//!   [`to_json_string`] keep member order and every number's exact value
//!   whatever cargo features serde_json has. Prefer these.
//! - from and to [`serde_json::Value`]: [`from_json`] and [`to_json`]. These
//!   are exact and ordered only when serde_json is built with its
//!   `arbitrary_precision` and `preserve_order` features (this crate does not
//!   turn them on for you: they change serde_json for a whole program).
//!
//! **JSON to JTOO** ([`from_json_slice`], [`from_json`]):
//!
//! | JSON | JTOO |
//! |---|---|
//! | object | list of pairs with string keys, in order (`{}` → `[]`) |
//! | array | list |
//! | string | string |
//! | `true` / `false` | `Y` / `N` |
//! | number without fraction or exponent | integer (exact; beyond 128 bits is an error) |
//! | any other number | decimal with its exact value: `1e5` → `100_000.0`, `1.50` → `1.5` |
//! | `null` as an object member's value | the member is left out |
//! | any other `null` | an error (see [`NullPolicy`]) |
//!
//! `-0` and `-0.0` become `0` and `0.0` (JTOO has no negative zero). A number
//! whose value is outside [`Decimal`](crate::Decimal)'s range (more than 39 significant
//! digits, an exponent beyond ±65 535) is an error, found without
//! allocating in proportion to its exponent (`1e999999999` fails at once).
//!
//! **JTOO to JSON** ([`to_json`]):
//!
//! | JTOO | JSON |
//! |---|---|
//! | `Y` / `N` | `true` / `false` |
//! | non-empty list whose items are all pairs | object, in order |
//! | `[]` | `[]` (an empty list is an empty array, never `{}`) |
//! | any other list | array; a pair inside it becomes a one-member object |
//! | string | string |
//! | byte string | lower-case hex string (`B4f4b` → `"4f4b"`) |
//! | integer, decimal | number with the exact digits (`1_000.5` → `1000.5`, `1.0` → `1.0`) |
//! | date, time, timestamp | string with the JTOO text (`"D2023-12-08"`) |
//!
//! An object key is the pair key's string; a key that is not a string becomes
//! its canonical JTOO text (`[1:"a"]` → `{"1":"a"}`, `[D2023:5]` →
//! `{"D2023":5}`). When two pairs have the same key, the object keeps the
//! first one's position and the last one's value, as JSON parsers do.
//!
//! So JSON → JTOO → JSON gives back the same JSON except for `{}` (which
//! returns as `[]`), null members (gone), and numbers (same value, written
//! without exponent or trailing fraction zeros).
//!
//! JTOO → JSON → JTOO with this mapping is **lossy**: a byte string comes
//! back as a string of hex digits, a date as a string, a pair list's
//! non-string key as a string (`["d":D2024-03-04,"b":B4f4b,"k":[1:2]]` →
//! `["d":"D2024-03-04","b":"4f4b","k":["1":2]]`). It is the JSON a JSON
//! program expects, and the spec's mapping. **For an exact round trip**
//! use [`tagged`]: every list an array, a pair `{"key": K, "value": V}`,
//! every scalar `{"type": T, "value": "text"}`, the form of the
//! conformance suite; [`tagged::to_tagged_string`] then
//! [`tagged::from_tagged_slice`] gives back the same value, so the same
//! canonical bytes, for every JTOO document (`jtoo to-json --exact` /
//! `jtoo from-json --exact` on the command line).
//!
//! ```
//! use jtoo::json::{from_json_str, to_json_string};
//! let v = from_json_str(r#"{"command":"term:setstyle","data":{"color":31,"bold":true,"x":null,"w":1.50}}"#).unwrap();
//! assert_eq!(jtoo::to_string(&v).unwrap(), r#"["command":"term:setstyle","data":["color":31,"bold":Y,"w":1.5]]"#);
//! assert_eq!(to_json_string(&v), r#"{"command":"term:setstyle","data":{"color":31,"bold":true,"w":1.5}}"#);
//! ```
//!
//! [`stream::write_jtoo`] converts JSON text read from any `std::io::Read`
//! in bounded memory, writing the same bytes as [`crate::to_vec`] of
//! [`from_json_slice_with`]'s value (see [`stream`]).
//!
//! [`from_json_str`] and [`to_json_string`] read and write JSON *text*
//! exactly (member order, duplicate keys and every number's digits kept)
//! whatever cargo features serde_json has. [`from_json`] and [`to_json`]
//! go through `serde_json::Value`, which keeps member order only with
//! serde_json's `preserve_order` feature and numbers beyond `f64` only with
//! `arbitrary_precision`; without them (its defaults), objects come out with
//! sorted keys and long numbers rounded to the nearest `f64`.

use crate::error::{Error, ErrorKind};
use crate::value::walk::{Folder, fold};
use crate::value::{Item, List, Pair, Value};
use serde_json::{Map, Number, Value as Json};

/// What [`from_json_with`] does with JSON `null`, which has no JTOO form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NullPolicy {
    /// An object member whose value is `null` is left out; any other `null`
    /// (in an array, or the whole document) is an error. The default.
    #[default]
    OmitMembers,
    /// Every `null` is an error.
    Error,
}

/// Options of [`from_json_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FromJsonOptions {
    null: NullPolicy,
    max_depth: usize,
}

impl Default for FromJsonOptions {
    fn default() -> FromJsonOptions {
        FromJsonOptions {
            null: NullPolicy::OmitMembers,
            max_depth: 128,
        }
    }
}

impl FromJsonOptions {
    /// The defaults: [`NullPolicy::OmitMembers`], depth limit 128.
    pub fn new() -> FromJsonOptions {
        FromJsonOptions::default()
    }

    /// Sets the null policy.
    #[must_use]
    pub fn with_null_policy(mut self, null: NullPolicy) -> FromJsonOptions {
        self.null = null;
        self
    }

    /// Sets how deeply arrays and objects may nest (default 128, as the
    /// JTOO parser; at most [`Options::DEPTH_CEILING`](crate::Options::DEPTH_CEILING)).
    #[must_use]
    pub fn with_max_depth(mut self, max_depth: usize) -> FromJsonOptions {
        self.max_depth = crate::Options::new().with_max_depth(max_depth).max_depth();
        self
    }
}

impl FromJsonOptions {
    /// The null policy.
    pub fn null_policy(&self) -> NullPolicy {
        self.null
    }

    /// The depth limit.
    pub fn depth_limit(&self) -> usize {
        self.max_depth
    }
}

pub mod stream;
pub mod tagged;
mod text;

pub use text::{from_json_slice, from_json_slice_with, from_json_str, to_json_string};

fn null_error() -> Error {
    Error::new(ErrorKind::Unencodable("JSON null has no JTOO form"))
}

/// Converts a JSON value to JTOO with the default options.
///
/// # Errors
/// A `null` outside an object member, a number out of range, or nesting
/// deeper than 128.
///
/// ```
/// let json = serde_json::json!({"id": 7, "tags": ["a", "b"], "ratio": 0.5, "gone": null});
/// let v = jtoo::json::from_json(&json).unwrap();
/// assert_eq!(v.get("ratio").map(ToString::to_string).as_deref(), Some("0.5"));
/// assert_eq!(v.get("gone"), None);
/// assert!(jtoo::json::from_json(&serde_json::json!([null])).is_err());
/// ```
///
/// With serde_json's default features a `serde_json::Value` object has
/// sorted keys and its numbers are `f64` (see the [module docs](self));
/// for JSON text, [`from_json_str`] keeps order and exact digits.
pub fn from_json(json: &Json) -> Result<Value, Error> {
    from_json_with(json, &FromJsonOptions::default())
}

/// Converts a JSON value to JTOO.
///
/// # Errors
/// As [`from_json`], following `options`.
pub fn from_json_with(json: &Json, options: &FromJsonOptions) -> Result<Value, Error> {
    convert(json, options, options.max_depth)
}

fn convert(json: &Json, options: &FromJsonOptions, depth: usize) -> Result<Value, Error> {
    Ok(match json {
        Json::Null => return Err(null_error()),
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => number_from_json(n)?,
        Json::String(s) => Value::String(s.as_str().into()),
        Json::Array(items) => {
            let depth = depth
                .checked_sub(1)
                .ok_or_else(|| Error::new(ErrorKind::DepthLimitExceeded))?;
            let mut list = Vec::with_capacity(items.len());
            for item in items {
                list.push(Item::Value(convert(item, options, depth)?));
            }
            Value::List(list.into())
        }
        Json::Object(members) => {
            let depth = depth
                .checked_sub(1)
                .ok_or_else(|| Error::new(ErrorKind::DepthLimitExceeded))?;
            let mut list = Vec::with_capacity(members.len());
            for (k, v) in members {
                if v.is_null() && options.null == NullPolicy::OmitMembers {
                    continue;
                }
                list.push(Item::Pair(Pair::with_str_key(
                    k.as_str(),
                    convert(v, options, depth)?,
                )));
            }
            Value::List(list.into())
        }
    })
}

/// Converts a JSON number to an integer (no fraction, no exponent) or a
/// decimal (anything else), exactly.
///
/// # Errors
/// [`ErrorKind::NumberOutOfRange`] for an integer beyond 128 bits or a
/// decimal beyond [`Decimal`](crate::Decimal)'s range.
///
/// ```
/// use serde_json::Number;
/// let n: Number = serde_json::from_str("-1.250e2").unwrap();
/// assert_eq!(jtoo::json::number_from_json(&n).unwrap().to_string(), "-125.0");
/// let n = Number::from(u64::MAX);
/// assert_eq!(jtoo::json::number_from_json(&n).unwrap().to_string(), "18_446_744_073_709_551_615");
/// ```
///
/// A number beyond `f64` (`1e999999999`) reaches this function only with
/// serde_json's `arbitrary_precision` feature (without it serde_json
/// refuses to parse it); it is then out of range here.
pub fn number_from_json(n: &Number) -> Result<Value, Error> {
    // `Display` is the exact source text with `arbitrary_precision`, and the
    // shortest round-trip digits of the `f64` or integer serde_json kept
    // otherwise.
    number_from_text(&n.to_string())
}

/// Parses JSON number text (`-?int(.frac)?([eE][+-]?exp)?`) whole.
fn number_from_text(text: &str) -> Result<Value, Error> {
    match crate::json_number::read(text.as_bytes()) {
        Ok((len, n)) if len == text.len() => Ok(Value::from(n)),
        Ok(_) => Err(Error::new(ErrorKind::InvalidDecimal("not a JSON number"))),
        Err((_, kind)) => Err(Error::new(kind)),
    }
}

/// Converts a JTOO value to JSON (see the module docs for the mapping).
///
/// ```
/// let v = jtoo::from_str(r#"[["a":B4f4b,"b":D2023-12-08],[],[1,"k":1_000.5]]"#).unwrap();
/// assert_eq!(
///     jtoo::json::to_json(&v).to_string(),
///     r#"[{"a":"4f4b","b":"D2023-12-08"},[],[1,{"k":1000.5}]]"#
/// );
/// ```
///
/// Built without recursion, so any depth is safe here; but `serde_json`
/// drops, prints and serializes a `Json` recursively, so for values built
/// in code prefer [`try_to_json`], which refuses what JSON readers refuse.
pub fn to_json(value: &Value) -> Json {
    to_json_with_depth(value, usize::MAX).unwrap_or(Json::Null)
}

/// [`to_json`], refusing lists nested deeper than
/// [`Options::DEFAULT_MAX_DEPTH`](crate::Options::DEFAULT_MAX_DEPTH) (128,
/// also `serde_json`'s reading limit).
///
/// ```
/// let v = jtoo::from_str("[[1]]").unwrap();
/// assert_eq!(jtoo::json::try_to_json(&v).unwrap().to_string(), "[[1]]");
/// let mut deep = v;
/// for _ in 0..200 {
///     deep = jtoo::Value::from(vec![deep]);
/// }
/// assert_eq!(jtoo::json::try_to_json(&deep).unwrap_err().kind(), jtoo::ErrorKind::TooDeep(128));
/// ```
///
/// # Errors
/// [`ErrorKind::TooDeep`] for lists nested deeper than the limit.
pub fn try_to_json(value: &Value) -> Result<Json, Error> {
    to_json_with_depth(value, crate::Options::DEFAULT_MAX_DEPTH)
}

fn to_json_with_depth(value: &Value, max_depth: usize) -> Result<Json, Error> {
    let Value::List(items) = value else {
        return Ok(ToJson.leaf(value));
    };
    let folded = fold(items, max_depth, &mut ToJson)?;
    Ok(ToJson.list(items, folded))
}

/// [`to_json`]'s steps, for [`fold`].
struct ToJson;

impl<'a> Folder<'a> for ToJson {
    type Out = Json;
    /// A pair's key text and value, or a plain item's value.
    type Item = (Option<String>, Json);
    fn leaf(&mut self, v: &'a Value) -> Json {
        match v {
            Value::String(s) => Json::String(s.to_string()),
            Value::Bytes(b) => Json::String(hex(b)),
            Value::Bool(b) => Json::Bool(*b),
            Value::Integer(i) => number_or_string(i.to_plain_string()),
            Value::Decimal(d) => number_or_string(d.to_plain_string()),
            other => Json::String(other.to_string()),
        }
    }
    fn value(&mut self, v: Json) -> Self::Item {
        (None, v)
    }
    fn pair(&mut self, pair: &'a Pair, _key: Json, value: Json) -> Self::Item {
        (Some(key_text(pair.key())), value)
    }
    fn list(&mut self, _: &'a List, folded: Vec<Self::Item>) -> Json {
        if !folded.is_empty() && folded.iter().all(|(k, _)| k.is_some()) {
            let mut map = Map::with_capacity(folded.len());
            for (k, v) in folded {
                map.insert(k.unwrap_or_default(), v);
            }
            return Json::Object(map);
        }
        Json::Array(
            folded
                .into_iter()
                .map(|(k, v)| match k {
                    None => v,
                    Some(k) => {
                        let mut map = Map::with_capacity(1);
                        map.insert(k, v);
                        Json::Object(map)
                    }
                })
                .collect(),
        )
    }
}

/// The JSON object key of a pair key: a string as is, anything else as its
/// canonical JTOO text.
fn key_text(key: &Value) -> String {
    match key {
        Value::String(s) => s.to_string(),
        other => other.to_string(),
    }
}

fn number_or_string(text: String) -> Json {
    match serde_json::from_str::<Number>(&text) {
        Ok(n) => Json::Number(n),
        // Unreachable for the plain digits of integers and decimals.
        Err(_) => Json::String(text),
    }
}

/// Lower-case hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(char::from(HEX[usize::from(b >> 4)]));
        s.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    s
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn j2t(json: &str) -> Result<String, Error> {
        let v: Json = serde_json::from_str(json).unwrap();
        from_json(&v).map(|v| crate::to_string(&v).unwrap())
    }

    fn t2j(jtoo: &str) -> String {
        to_json(&crate::from_str(jtoo).unwrap()).to_string()
    }

    /// Whether this build's serde_json keeps member order and exact numbers
    /// (`preserve_order`, `arbitrary_precision`). `cargo test -p jtoo`
    /// alone builds it with its default features, as users get it (the
    /// doc examples must hold there); in `cargo test --workspace` other
    /// members turn both on, and the tests of exactness and order run.
    fn exact_serde_json() -> bool {
        let order = serde_json::from_str::<Json>(r#"{"b":0,"a":0}"#).is_ok_and(|v| {
            v.as_object()
                .and_then(|m| m.keys().next())
                .is_some_and(|k| k == "b")
        });
        let exact = serde_json::from_str::<Number>("0.10000000000000000000001")
            .is_ok_and(|n| n.to_string() == "0.10000000000000000000001");
        order && exact
    }

    #[test]
    fn numbers_are_exact() {
        if !exact_serde_json() {
            return;
        }
        for (json, jtoo) in [
            ("0", "0"),
            ("-0", "0"),
            ("-0.0", "0.0"),
            ("0e10", "0.0"),
            ("1e5", "100_000.0"),
            ("1E+5", "100_000.0"),
            ("1.50", "1.5"),
            ("1.5e3", "1_500.0"),
            ("-1.250e2", "-125.0"),
            ("12.5e-3", "0.012_5"),
            ("1e-3", "0.001"),
            ("1000", "1_000"),
            ("-1234567", "-1_234_567"),
            (
                "340282366920938463463374607431768211455",
                "340_282_366_920_938_463_463_374_607_431_768_211_455",
            ),
            (
                "-340282366920938463463374607431768211455",
                "-340_282_366_920_938_463_463_374_607_431_768_211_455",
            ),
            ("1.000000000000000000000000000000000000000000000000", "1.0"),
            ("0.000001", "0.000_001"),
            ("12e-7", "0.000_001_2"),
            ("100e-2", "1.0"),
            ("0.1", "0.1"),
        ] {
            assert_eq!(j2t(json).unwrap(), jtoo, "{json}");
        }
    }

    #[test]
    fn numbers_out_of_range_are_errors() {
        if !exact_serde_json() {
            return;
        }
        for json in [
            "340282366920938463463374607431768211456",
            "1e999999999",
            "1e-999999999",
            "1e99999999999999999999999999",
            "1e70000",
            "-1.5e65537",
            "1234567890123456789012345678901234567890.5",
        ] {
            let e = j2t(json).unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::NumberOutOfRange(_)),
                "{json}: {e}"
            );
        }
        // Large exponents within the Decimal range are fine.
        assert!(j2t("1e39").is_ok());
        assert!(j2t("1e-65535").is_ok());
    }

    #[test]
    fn nulls() {
        assert_eq!(j2t(r#"{"a":null,"b":1}"#).unwrap(), r#"["b":1]"#);
        assert!(j2t("null").is_err());
        assert!(j2t("[1,null]").is_err());
        let v: Json = serde_json::from_str(r#"{"a":null}"#).unwrap();
        let strict = FromJsonOptions::new().with_null_policy(NullPolicy::Error);
        assert!(from_json_with(&v, &strict).is_err());
        assert_eq!(
            from_json(&v).unwrap().to_string(),
            "[]",
            "an object of only null members is the empty list"
        );
    }

    #[test]
    fn structure_and_order() {
        if !exact_serde_json() {
            return;
        }
        assert_eq!(
            j2t(r#"{"z":1,"a":[true,false,"s\u0007"],"m":{}}"#).unwrap(),
            r#"["z":1,"a":[Y,N,"s\07"],"m":[]]"#
        );
    }

    /// Takes a deep JSON value apart by hand (`serde_json` drops it
    /// recursively).
    fn dismantle(mut j: Json) {
        loop {
            j = match j {
                Json::Array(mut v) => v.pop().unwrap_or(Json::Null),
                Json::Object(m) => m.into_iter().next_back().map_or(Json::Null, |(_, v)| v),
                _ => break,
            };
        }
    }

    #[test]
    fn million_deep_values_convert_without_recursion() {
        let ok = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| {
                let n = 1_000_000;
                let mut v = Value::from(1);
                for i in 0..n {
                    v = if i % 2 == 0 {
                        Value::from(vec![v])
                    } else {
                        Value::List(vec![Item::Pair(Pair::with_str_key("k", v))].into())
                    };
                }
                let text = to_json_string(&v);
                assert_eq!(text.len(), 1 + n / 2 * 2 + n / 2 * 6);
                assert!(text.starts_with(r#"{"k":[{"k":["#), "{}", &text[..20]);
                assert_eq!(try_to_json(&v).unwrap_err().kind(), ErrorKind::TooDeep(128));
                dismantle(to_json(&v));
                true
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(ok);
        // Mixed lists, pairs with list keys: the same text as through
        // serde_json (when it keeps member order).
        if !exact_serde_json() {
            return;
        }
        let v = crate::from_str(r#"[1,"a":[[2]:3,[]:[]],["x":N,[D2023:Y]:[S1.500]]]"#).unwrap();
        assert_eq!(to_json_string(&v), to_json(&v).to_string());
        assert_eq!(try_to_json(&v).unwrap(), to_json(&v));
    }

    #[test]
    fn depth_limit() {
        let mut v = Json::Array(vec![]);
        for _ in 0..200 {
            v = Json::Array(vec![v]);
        }
        let e = from_json(&v).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DepthLimitExceeded);
    }

    #[test]
    fn to_json_mapping() {
        if !exact_serde_json() {
            return;
        }
        assert_eq!(t2j("[]"), "[]");
        assert_eq!(t2j(r#"["a":1,"b":Y]"#), r#"{"a":1,"b":true}"#);
        assert_eq!(t2j(r#"[1:"a",D2023:5]"#), r#"{"1":"a","D2023":5}"#);
        assert_eq!(t2j(r#"["a":1,"a":2]"#), r#"{"a":2}"#);
        assert_eq!(t2j(r#"[1,"k":2]"#), r#"[1,{"k":2}]"#);
        assert_eq!(t2j("B00ff"), r#""00ff""#);
        assert_eq!(t2j("1_000.5"), "1000.5");
        assert_eq!(t2j("-0.000_1"), "-0.0001");
        assert_eq!(t2j("1.0"), "1.0");
        assert_eq!(t2j("T10:20:30Z"), r#""T10:20:30Z""#);
        assert_eq!(t2j("S1_709_528_240.001"), r#""S1_709_528_240.001""#);
        assert_eq!(
            t2j("340_282_366_920_938_463_463_374_607_431_768_211_455"),
            "340282366920938463463374607431768211455"
        );
    }

    #[test]
    fn round_trip_json() {
        for json in [
            r##"{"command":"term:setstyle","data":{"color":31,"bgcolor":"#aaaaaa","bold":true}}"##,
            r#"[1,2.5,"x",[],{"a":[1,{"b":false}]}]"#,
            r#""你好""#,
        ] {
            let v: Json = serde_json::from_str(json).unwrap();
            assert_eq!(to_json(&from_json(&v).unwrap()), v, "{json}");
        }
    }
}
