//! Comparing tagged JSON by meaning.
//!
//! A decoder's output is compared with the expected tagged JSON value by
//! value, not by text, wherever two texts can mean the same thing:
//!
//! - JSON layout, whitespace and object member order never matter;
//! - `integer`: the same number (`"007"` and `"7"` agree; `_` is not allowed);
//! - `decimal`: the same exact number (`"1.50"`, `"1.5"` and `"15e-1"` agree;
//!   `"1"` and `"1.0"` agree);
//! - `bytes`: hex digits in either case;
//! - `timestamp`: the text without `_` (`"S1709528240.001"` agrees with
//!   `"S1_709_528_240.001"`; the fraction's digit count is its precision, so
//!   `"S1.500"` and `"S1.5"` differ);
//! - `string`, `bool` and `datetime`: exact text (a datetime's precision and
//!   offset are part of its value and its canonical text is unique).

use serde_json::Value as Json;

/// How deeply nested JSON [`parse_json`] accepts.
pub const MAX_JSON_DEPTH: usize = 1024;

/// Parses JSON without serde_json's default nesting limit of 128 (tagged JSON
/// of a 128-deep JTOO list needs more), but refusing anything nested deeper
/// than [`MAX_JSON_DEPTH`] so that a hostile program's output cannot overflow
/// the runner's stack.
pub fn parse_json(bytes: &[u8]) -> Result<Json, String> {
    if jtoo::json::tagged::json_depth(bytes) > MAX_JSON_DEPTH {
        return Err(format!("JSON nested deeper than {MAX_JSON_DEPTH}"));
    }
    use serde::Deserialize;
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    let v = Json::deserialize(&mut de).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(v)
}

/// Checks that `got` means the same as `expected`; the error says where and how
/// they differ.
pub fn same(expected: &Json, got: &Json) -> Result<(), String> {
    walk(expected, got, "$")
}

fn walk(expected: &Json, got: &Json, at: &str) -> Result<(), String> {
    match (expected, got) {
        (Json::Array(e), Json::Array(g)) => {
            if e.len() != g.len() {
                return Err(format!(
                    "{at}: expected a list of {} items, got {}",
                    e.len(),
                    g.len()
                ));
            }
            for (i, (e, g)) in e.iter().zip(g).enumerate() {
                walk(e, g, &format!("{at}[{i}]"))?;
            }
            Ok(())
        }
        (Json::Object(e), Json::Object(g)) if e.contains_key("key") => {
            if g.len() != 2 || !g.contains_key("key") || !g.contains_key("value") {
                return Err(format!(
                    "{at}: expected a pair {{\"key\", \"value\"}}, got {}",
                    short(got)
                ));
            }
            walk(&e["key"], &g["key"], &format!("{at}.key"))?;
            walk(&e["value"], &g["value"], &format!("{at}.value"))
        }
        (Json::Object(e), Json::Object(g)) => {
            let (Some(Json::String(et)), Some(Json::String(ev))) = (e.get("type"), e.get("value"))
            else {
                return Err(format!(
                    "{at}: malformed expected value {}",
                    short(expected)
                ));
            };
            let (Some(Json::String(gt)), Some(Json::String(gv))) = (g.get("type"), g.get("value"))
            else {
                return Err(format!(
                    "{at}: expected {{\"type\": \"{et}\", \"value\": \"…\"}} with string members, got {}",
                    short(got)
                ));
            };
            if g.len() != 2 {
                return Err(format!("{at}: unexpected members in {}", short(got)));
            }
            if et != gt {
                return Err(format!(
                    "{at}: expected type {et} ({ev:?}), got type {gt} ({gv:?})"
                ));
            }
            if scalar_eq(et, ev, gv) {
                Ok(())
            } else {
                Err(format!("{at}: expected {et} {ev:?}, got {gv:?}"))
            }
        }
        _ => Err(format!(
            "{at}: expected {}, got {}",
            short(expected),
            short(got)
        )),
    }
}

/// Compares two scalar texts of type `ty` by meaning.
pub fn scalar_eq(ty: &str, a: &str, b: &str) -> bool {
    match ty {
        "integer" => match (norm_integer(a), norm_integer(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
        "decimal" => match (norm_decimal(a), norm_decimal(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
        "bytes" => {
            a.len() == b.len()
                && a.bytes().all(|c| c.is_ascii_hexdigit())
                && a.eq_ignore_ascii_case(b)
        }
        "timestamp" => a.replace('_', "") == b.replace('_', ""),
        _ => a == b,
    }
}

/// `(negative, digits without leading zeros)`; zero is never negative.
fn norm_integer(s: &str) -> Option<(bool, String)> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() {
        return Some((false, "0".to_string()));
    }
    Some((neg, trimmed.to_string()))
}

/// `(negative, significant digits, exponent)` with value
/// `digits × 10^exponent`; zero is `(false, "", 0)`.
fn norm_decimal(s: &str) -> Option<(bool, String, i64)> {
    let (neg, rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mantissa, ""),
    };
    if int.is_empty() || !(int.bytes().chain(frac.bytes())).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut digits: String = format!("{int}{frac}");
    let mut exp = exp.checked_sub(i64::try_from(frac.len()).ok()?)?;
    let lead = digits.len() - digits.trim_start_matches('0').len();
    digits.drain(..lead);
    while digits.ends_with('0') {
        digits.pop();
        exp = exp.checked_add(1)?;
    }
    if digits.is_empty() {
        return Some((false, String::new(), 0));
    }
    Some((neg, digits, exp))
}

/// A JSON value shortened for messages.
pub fn short(v: &Json) -> String {
    let s = v.to_string();
    if s.chars().count() > 120 {
        let cut: String = s.chars().take(117).collect();
        format!("{cut}...")
    } else {
        s
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value() {
        assert!(scalar_eq("integer", "7", "007"));
        assert!(scalar_eq("integer", "0", "-0"));
        assert!(!scalar_eq("integer", "1000", "1_000"));
        assert!(!scalar_eq("integer", "1", "-1"));
        assert!(scalar_eq("decimal", "1.5", "1.50"));
        assert!(scalar_eq("decimal", "1.5", "15e-1"));
        assert!(scalar_eq("decimal", "1000.0", "1000"));
        assert!(scalar_eq("decimal", "0.0", "-0.000"));
        assert!(!scalar_eq("decimal", "0.0001", "0.001"));
        assert!(!scalar_eq("decimal", "1.5", "x"));
    }

    #[test]
    fn text_types() {
        assert!(scalar_eq("bytes", "4f4b", "4F4B"));
        assert!(!scalar_eq("bytes", "4f4b", "4f4c"));
        assert!(scalar_eq(
            "timestamp",
            "S1_709_528_240.001",
            "S1709528240.001"
        ));
        assert!(!scalar_eq("timestamp", "S1.500", "S1.5"));
        assert!(!scalar_eq("datetime", "T10:20:30", "T10:20:30.000"));
        assert!(!scalar_eq("string", "a", "A"));
    }

    #[test]
    fn structures() {
        let e = json!([{"key": {"type": "string", "value": "a"}, "value": {"type": "integer", "value": "1"}}]);
        let g = json!([{"value": {"value": "01", "type": "integer"}, "key": {"type": "string", "value": "a"}}]);
        assert_eq!(same(&e, &g), Ok(()));
        let bad = json!([{"type": "string", "value": "a"}]);
        assert!(same(&e, &bad).is_err());
        assert!(same(&json!([]), &json!([[]])).is_err());
        let typed = same(
            &json!({"type": "integer", "value": "1"}),
            &json!({"type": "decimal", "value": "1"}),
        );
        assert!(typed.is_err_and(|m| m.contains("expected type integer")));
    }
}
