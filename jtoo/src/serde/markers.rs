//! The private newtype names under which the marked scalars (decimals,
//! dates and times, timestamps), pairs and values travel through serde, and
//! the one reading of a marked scalar's text in whatever form a format
//! hands it.

use super::decimal_from_json_number;
use crate::types::{DateTime, Decimal, Integer, Timestamp};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use std::fmt;

/// Newtype-struct name (and map key) under which a [`Decimal`] travels.
#[doc(hidden)]
pub const DECIMAL_MARKER: &str = "$__jtoo_private_Decimal";
/// Newtype-struct name (and map key) under which a [`DateTime`] travels.
#[doc(hidden)]
pub const DATETIME_MARKER: &str = "$__jtoo_private_DateTime";
/// Newtype-struct name (and map key) under which a [`Timestamp`] travels.
#[doc(hidden)]
pub const TIMESTAMP_MARKER: &str = "$__jtoo_private_Timestamp";
/// Newtype-struct name and map key of a pair inside a mixed list.
#[doc(hidden)]
pub const PAIR_MARKER: &str = "$__jtoo_private_Pair";
/// Map key of a plain item inside a list presented as a map.
#[doc(hidden)]
pub const ITEM_MARKER: &str = "$__jtoo_private_Item";
/// Newtype-struct name under which [`Value`] asks to be deserialized, so a
/// JTOO deserializer can hand it the value in one pass.
#[doc(hidden)]
pub const VALUE_MARKER: &str = "$__jtoo_private_Value";

/// Serializes `text` as the newtype struct `marker`.
pub(super) struct Marked<'a>(pub(super) &'static str, pub(super) &'a str);

impl Serialize for Marked<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(self.0, self.1)
    }
}

/// Which of the marked scalars a visitor wants.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Decimal,
    DateTime,
    Timestamp,
}

impl Kind {
    fn marker(self) -> &'static str {
        match self {
            Kind::Decimal => DECIMAL_MARKER,
            Kind::DateTime => DATETIME_MARKER,
            Kind::Timestamp => TIMESTAMP_MARKER,
        }
    }
}

/// The scalar a marked value turned into.
pub(super) enum MarkedScalar {
    Decimal(Decimal),
    DateTime(DateTime),
    Timestamp(Timestamp),
}

pub(super) fn parse_marked<E: de::Error>(kind: Kind, text: &str) -> Result<MarkedScalar, E> {
    let r = match kind {
        Kind::Decimal => text.parse().map(MarkedScalar::Decimal),
        Kind::DateTime => text.parse().map(MarkedScalar::DateTime),
        Kind::Timestamp => text.parse().map(MarkedScalar::Timestamp),
    };
    r.map_err(|e| E::custom(format_args!("{}", e.message())))
}

/// Visits the text of a marked scalar, in any of the forms formats hand it.
pub(super) struct MarkedVisitor(pub(super) Kind);

impl<'de> Visitor<'de> for MarkedVisitor {
    type Value = MarkedScalar;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Kind::Decimal => f.write_str("a JTOO decimal"),
            Kind::DateTime => f.write_str("a JTOO date/time"),
            Kind::Timestamp => f.write_str("a JTOO timestamp"),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<MarkedScalar, E> {
        parse_marked(self.0, v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<MarkedScalar, E> {
        match self.0 {
            Kind::Decimal => Decimal::from_f64(v)
                .map(MarkedScalar::Decimal)
                .map_err(E::custom),
            _ => Err(E::invalid_type(de::Unexpected::Float(v), &self)),
        }
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<MarkedScalar, E> {
        self.visit_i128(i128::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<MarkedScalar, E> {
        self.visit_u128(u128::from(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<MarkedScalar, E> {
        match self.0 {
            Kind::Decimal => Ok(MarkedScalar::Decimal(Decimal::from(Integer::from(v)))),
            _ => Err(E::invalid_type(de::Unexpected::Other("an integer"), &self)),
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<MarkedScalar, E> {
        match self.0 {
            Kind::Decimal => Ok(MarkedScalar::Decimal(Decimal::from(Integer::from(v)))),
            _ => Err(E::invalid_type(de::Unexpected::Other("an integer"), &self)),
        }
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<MarkedScalar, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MarkedScalar, A::Error> {
        let key: Option<String> = map.next_key()?;
        match key.as_deref() {
            Some(k) if k == self.0.marker() => {
                let text: String = map.next_value()?;
                parse_marked(self.0, &text)
            }
            Some("$serde_json::private::Number") if matches!(self.0, Kind::Decimal) => {
                let text: String = map.next_value()?;
                decimal_from_json_number(&text)
                    .map(MarkedScalar::Decimal)
                    .ok_or_else(|| de::Error::custom("number out of range for a JTOO decimal"))
            }
            _ => Err(de::Error::invalid_type(de::Unexpected::Map, &self)),
        }
    }
}

pub(super) fn deserialize_marked<'de, D: Deserializer<'de>>(
    d: D,
    kind: Kind,
) -> Result<MarkedScalar, D::Error> {
    d.deserialize_newtype_struct(kind.marker(), MarkedVisitor(kind))
}
