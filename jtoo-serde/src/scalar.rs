//! Scalar plumbing the text and the `Value` deserializers share: how a
//! JTOO integer is offered to a visitor, and how a scalar is named in a
//! type error.

use crate::error::{Error, Result};
use jtoo::serde::{BELOW_I128_MIN, Primitive, primitive};
use jtoo::{DateTime, Decimal, Integer, Timestamp};
use serde::de::{self, Unexpected, Visitor};

/// An integer for any visitor: the narrowest of `i64`, `u64`, `i128`,
/// `u128` that holds it ([`jtoo::serde::primitive`], the serializer's rule).
#[inline]
pub(crate) fn visit_integer<'de, V: Visitor<'de>>(i: Integer, visitor: V) -> Result<V::Value> {
    match primitive(&i) {
        Some(Primitive::I64(v)) => visitor.visit_i64(v),
        Some(Primitive::U64(v)) => visitor.visit_u64(v),
        Some(Primitive::I128(v)) => visitor.visit_i128(v),
        Some(Primitive::U128(v)) => visitor.visit_u128(v),
        // serde has no primitive below i128::MIN: refuse rather than lose
        // the sign.
        None => Err(de::Error::custom(BELOW_I128_MIN)),
    }
}

/// A scalar as a type error names it.
pub(crate) enum Found<'a> {
    Str(&'a str),
    Bytes(&'a [u8]),
    Bool(bool),
    Int(&'a Integer),
    Dec(&'a Decimal),
    DateTime(&'a DateTime),
    Timestamp(&'a Timestamp),
    /// Anything else (lists), as serde names it.
    Other(Unexpected<'a>),
}

/// The "invalid type: found X, expected Y" error.
#[cold]
pub(crate) fn invalid_type(found: Found<'_>, exp: &dyn de::Expected) -> Error {
    let text;
    let u = match found {
        Found::Str(s) => Unexpected::Str(s),
        Found::Bytes(b) => Unexpected::Bytes(b),
        Found::Bool(b) => Unexpected::Bool(b),
        Found::Int(i) => match (i.to_i64(), i.to_u64()) {
            (Some(v), _) => Unexpected::Signed(v),
            (_, Some(v)) => Unexpected::Unsigned(v),
            _ => {
                text = format!("integer `{i}`");
                Unexpected::Other(&text)
            }
        },
        Found::Dec(d) => Unexpected::Float(d.to_f64()),
        Found::DateTime(dt) => {
            text = format!("date/time `{dt}`");
            Unexpected::Other(&text)
        }
        Found::Timestamp(ts) => {
            text = format!("timestamp `{ts}`");
            Unexpected::Other(&text)
        }
        Found::Other(u) => u,
    };
    de::Error::invalid_type(u, exp)
}
