//! [`Packet`]: one JTE packet, in JSON or JTOO.

use crate::JteError;
use jtoo::{Item, Pair, Value};
use jtoo_frame::{Frame, FrameError};
use jtoo_serde::RawBuf;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value as Json};

/// A JSON Terminal Escapes packet.
///
/// The fields are the JTE seed's; absent optional fields are `None` and a
/// missing `cont` is `false`. In JTOO a packet is a list of pairs in this
/// field order (absent fields and `cont: false` are left out):
///
/// ```text
/// ["command":"term:setstyle","data":["color":31,"bgcolor":"#aaaaaa","bold":Y]]
/// ```
///
/// `data` is kept as its canonical JTOO text (a [`RawBuf`]): checked once
/// when the packet is read, written back verbatim, and read as a type
/// only where it is used ([`RawBuf::deserialize_into`]).
///
/// Reading ignores keys it does not know (JTE is meant to be extended) but
/// rejects a duplicate key or a field of the wrong type.
///
/// ```
/// use jte::Packet;
/// let p = Packet::request("detect", "6f1c").with_timeout(5000);
/// let jtoo = p.to_jtoo().unwrap();
/// assert_eq!(jtoo, br#"["command":"detect","rpcid":"6f1c","timeout":5_000]"#);
/// assert_eq!(Packet::from_jtoo(&jtoo).unwrap(), p);
/// let json = p.to_json_vec().unwrap();
/// assert_eq!(json, br#"{"command":"detect","rpcid":"6f1c","timeout":5000}"#);
/// assert_eq!(Packet::from_json_slice(&json).unwrap(), p);
///
/// // `data`, as text and as a type.
/// let p = Packet::from_jtoo(br#"["command":"add","data":[1,2]]"#).unwrap();
/// let data = p.data.as_ref().unwrap();
/// assert_eq!(data.as_str(), "[1,2]");
/// assert_eq!(data.deserialize_into::<(u8, u8)>().unwrap(), (1, 2));
/// ```
///
/// `Packet` also implements serde's traits, and its JTOO reading is that
/// `Deserialize` (one reading of the envelope, by `jtoo-serde`, whatever
/// the source: [`Packet::from_jtoo`], [`Packet::from_value`] and JSON
/// through [`Packet::from_json_slice`]). With `jtoo-serde`,
/// `jtoo_serde::to_vec` writes the bytes of [`Packet::to_jtoo`] and
/// [`Frame::to_serde`](jtoo_frame::Frame::to_serde) reads a packet with
/// the errors of serde (positions and paths) instead of [`JteError`]'s.
/// Other serializers write `data` as a string of its JTOO text; for JSON
/// use [`Packet::to_json_vec`] and [`Packet::from_json_slice`], which keep
/// numbers in `data` exact.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Packet {
    /// The command to run (`system:command`); required on the first packet
    /// of a command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The request id, for commands that expect a response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpcid: Option<String>,
    /// The id of the request this packet responds to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resid: Option<String>,
    /// The command's timeout in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
    /// More packets with the same `rpcid`/`resid` follow.
    #[serde(default, skip_serializing_if = "is_false")]
    pub cont: bool,
    /// An error message; see [`ErrorCode`](crate::ErrorCode) for the `EC…:`
    /// convention.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// A type hint for `data`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub datatype: Option<String>,
    /// The payload: any JTOO value, as its canonical text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<RawBuf>,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(b: &bool) -> bool {
    !*b
}

impl Packet {
    /// A fire-and-forget command.
    pub fn command(command: impl Into<String>) -> Packet {
        Packet {
            command: Some(command.into()),
            ..Packet::default()
        }
    }

    /// A command that expects a response to `rpcid`.
    pub fn request(command: impl Into<String>, rpcid: impl Into<String>) -> Packet {
        Packet {
            command: Some(command.into()),
            rpcid: Some(rpcid.into()),
            ..Packet::default()
        }
    }

    /// A response to `resid`.
    pub fn response(resid: impl Into<String>) -> Packet {
        Packet {
            resid: Some(resid.into()),
            ..Packet::default()
        }
    }

    /// Sets `data` ([`jtoo_serde::to_raw`] makes it from any serializable
    /// value).
    ///
    /// ```
    /// let p = jte::Packet::response("r1").with_data(jtoo_serde::to_raw(&[1, 2])?);
    /// assert_eq!(p.to_jtoo().unwrap(), br#"["resid":"r1","data":[1,2]]"#);
    /// # Ok::<(), jtoo_serde::Error>(())
    /// ```
    #[must_use]
    pub fn with_data(mut self, data: RawBuf) -> Packet {
        self.data = Some(data);
        self
    }

    /// Sets `timeout` (milliseconds).
    #[must_use]
    pub fn with_timeout(mut self, timeout_ms: u64) -> Packet {
        self.timeout = Some(timeout_ms);
        self
    }

    /// Sets `cont`.
    #[must_use]
    pub fn with_cont(mut self, cont: bool) -> Packet {
        self.cont = cont;
        self
    }

    /// Sets `datatype`.
    #[must_use]
    pub fn with_datatype(mut self, datatype: impl Into<String>) -> Packet {
        self.datatype = Some(datatype.into());
        self
    }

    /// Sets `error`.
    #[must_use]
    pub fn with_error(mut self, error: impl Into<String>) -> Packet {
        self.error = Some(error.into());
        self
    }

    /// The packet as a JTOO record (see the type docs for the layout).
    ///
    /// # Errors
    /// Only if `data` does not parse, which a [`RawBuf`] (valid JTOO by
    /// construction) never does.
    pub fn to_value(&self) -> Result<Value, JteError> {
        // Built here rather than through `jtoo_serde::to_value` (the same
        // record, with a depth walk and a serializer per field): that made
        // a JSON-lines round trip of `jte_rpc` 74.3k instructions, not 66.8k.
        let mut items = Vec::with_capacity(8);
        let mut push = |k: &str, v: Value| items.push(Item::Pair(Pair::with_str_key(k, v)));
        let s = |s: &String| Value::String(s.into());
        if let Some(v) = &self.command {
            push("command", s(v));
        }
        if let Some(v) = &self.rpcid {
            push("rpcid", s(v));
        }
        if let Some(v) = &self.resid {
            push("resid", s(v));
        }
        if let Some(v) = self.timeout {
            push("timeout", Value::from(v));
        }
        if self.cont {
            push("cont", Value::Bool(true));
        }
        if let Some(v) = &self.error {
            push("error", s(v));
        }
        if let Some(v) = &self.datatype {
            push("datatype", s(v));
        }
        if let Some(v) = &self.data {
            push("data", jtoo::from_str(v.as_str())?);
        }
        Ok(Value::List(items.into()))
    }

    /// Reads a packet from a JTOO record.
    ///
    /// # Errors
    /// Not a list of pairs with string keys, a duplicate key, or a field of
    /// the wrong type.
    pub fn from_value(value: &Value) -> Result<Packet, JteError> {
        Packet::from_owned_value(value.clone())
    }

    /// As [`Packet::from_value`], moving the value.
    ///
    /// # Errors
    /// As [`Packet::from_value`].
    pub fn from_owned_value(value: Value) -> Result<Packet, JteError> {
        let mut why = None;
        let mut packet = Packet::default();
        PacketSeed::new(&mut packet, &mut why)
            .deserialize(jtoo_serde::ValueDeserializer::new(value))
            .map_err(|_| why.unwrap_or(JteError::NotARecord))?;
        Ok(packet)
    }

    /// The canonical JTOO text of the packet (`data` copied as it is).
    ///
    /// # Errors
    /// None in practice: the fields are strings, a number, a boolean and
    /// checked text.
    pub fn to_jtoo(&self) -> Result<Vec<u8>, JteError> {
        jtoo_serde::to_vec(self).map_err(JteError::Encode)
    }

    /// Parses a JTOO payload: in one strict pass with `jtoo-serde` (the
    /// whole document is checked, skipped extension fields included; `data`
    /// is checked and kept as text, not built). Only when that fails is the
    /// document checked again, to tell invalid JTOO (the error at its
    /// position, as [`jtoo::validate`] gives it) from a valid document that
    /// breaks a rule of packets.
    ///
    /// ```
    /// use jte::{JteError, Packet};
    /// let e = Packet::from_jtoo(br#"["command":5]"#).unwrap_err();
    /// assert!(matches!(e, JteError::InvalidField { field: "command", expected: "a string" }));
    /// let e = Packet::from_jtoo(br#"["command":5,"data":[1,]]"#).unwrap_err();
    /// assert_eq!(e.to_string(), "JTE packet: expected a value at line 1 column 24");
    /// ```
    ///
    /// # Errors
    /// Invalid JTOO or not a packet.
    pub fn from_jtoo(jtoo: &[u8]) -> Result<Packet, JteError> {
        let mut packet = Packet::default();
        packet.read_jtoo(jtoo)?;
        Ok(packet)
    }

    /// [`Packet::from_jtoo`] into `self`, a default packet: the packet is
    /// read where it stays (the codec's), not moved out of each layer of
    /// results (168 bytes a move). On an error `self` is left part read.
    pub(crate) fn read_jtoo(&mut self, jtoo: &[u8]) -> Result<(), JteError> {
        let mut why = None;
        let mut de = jtoo_serde::Deserializer::from_slice(jtoo);
        let read = PacketSeed::new(self, &mut why)
            .deserialize(&mut de)
            .and_then(|()| de.end());
        read.map_err(|_| match jtoo::validate(jtoo) {
            Err(invalid) => JteError::Jtoo(invalid),
            Ok(()) => why.unwrap_or(JteError::NotARecord),
        })
    }

    /// The packet as a JSON object (`data` through [`jtoo::json::to_json`]).
    ///
    /// # Errors
    /// As [`Packet::to_value`].
    pub fn to_json(&self) -> Result<Json, JteError> {
        let mut map = Map::new();
        let s = |s: &String| Json::String(s.clone());
        if let Some(v) = &self.command {
            map.insert("command".into(), s(v));
        }
        if let Some(v) = &self.rpcid {
            map.insert("rpcid".into(), s(v));
        }
        if let Some(v) = &self.resid {
            map.insert("resid".into(), s(v));
        }
        if let Some(v) = self.timeout {
            map.insert("timeout".into(), Json::from(v));
        }
        if self.cont {
            map.insert("cont".into(), Json::Bool(true));
        }
        if let Some(v) = &self.error {
            map.insert("error".into(), s(v));
        }
        if let Some(v) = &self.datatype {
            map.insert("datatype".into(), s(v));
        }
        if let Some(v) = &self.data {
            map.insert(
                "data".into(),
                jtoo::json::to_json(&jtoo::from_str(v.as_str())?),
            );
        }
        Ok(Json::Object(map))
    }

    /// The JSON text of the packet, with `data`'s numbers exact (through
    /// [`jtoo::json::to_json_string`], whatever serde_json's features).
    ///
    /// # Errors
    /// As [`Packet::to_value`].
    pub fn to_json_vec(&self) -> Result<Vec<u8>, JteError> {
        Ok(jtoo::json::to_json_string(&self.to_value()?).into_bytes())
    }

    /// Reads a packet from a JSON object (through [`jtoo::json::from_json`]:
    /// null members are absent).
    ///
    /// # Errors
    /// Not an object, a null elsewhere, or a field of the wrong type.
    pub fn from_json(json: &Json) -> Result<Packet, JteError> {
        if !json.is_object() {
            return Err(JteError::NotARecord);
        }
        Packet::from_owned_value(jtoo::json::from_json(json)?)
    }

    /// Parses a JSON payload.
    ///
    /// # Errors
    /// Invalid JSON or not a packet.
    pub fn from_json_slice(json: &[u8]) -> Result<Packet, JteError> {
        // Exact numbers and member order from the text itself, whatever
        // serde_json's cargo features.
        match json.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{') => Packet::from_owned_value(jtoo::json::from_json_slice(json)?),
            Some(_) => Err(JteError::NotARecord),
            None => Err(JteError::Json(serde_json::Error::io(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "empty JSON payload",
            )))),
        }
    }

    /// A frame carrying the packet in its JTOO section (the socket
    /// transport).
    ///
    /// # Errors
    /// When the packet is over 16 MiB.
    pub fn to_frame(&self) -> Result<Frame, JteError> {
        // Straight from the fields through serde (the same bytes as
        // `to_jtoo`).
        Frame::from_serde(self).map_err(|e| match e {
            FrameError::Encode(e) => JteError::Encode(e),
            other => JteError::Frame(other),
        })
    }

    /// Reads the packet in a frame's JTOO section.
    ///
    /// # Errors
    /// An empty JTOO section, or not a packet.
    pub fn from_frame(frame: &Frame) -> Result<Packet, JteError> {
        match frame.jtoo() {
            Some(j) => Packet::from_jtoo(j),
            None => Err(JteError::NotARecord),
        }
    }

    /// The error code of `error` under the `EC…:` convention.
    pub fn error_code(&self) -> Option<crate::ErrorCode<'_>> {
        self.error.as_deref().and_then(crate::ErrorCode::parse)
    }
}

/// `coefficient × 10^exponent` rounded up to a `u64` (saturating); `None`
/// below zero.
fn decimal_ms(negative: bool, coefficient: u128, exponent: i32) -> Option<u64> {
    if coefficient == 0 {
        return Some(0);
    }
    if negative {
        return None;
    }
    let whole = if exponent >= 0 {
        10u128
            .checked_pow(exponent.unsigned_abs())
            .and_then(|p| coefficient.checked_mul(p))
            .unwrap_or(u128::MAX)
    } else {
        match 10u128.checked_pow(exponent.unsigned_abs()) {
            // Any coefficient is below 10^39: a fraction of one.
            None => 1,
            Some(p) => coefficient / p + u128::from(!coefficient.is_multiple_of(p)),
        }
    };
    Some(u64::try_from(whole).unwrap_or(u64::MAX))
}

/// The `rpcid` and `resid` of a payload that could not be read as a
/// packet, where they can still be read: each a string given once in an
/// object (a list of pairs) that is valid JSON (or JTOO). A payload that
/// is not even that gives neither.
pub(crate) fn readable_ids(payload: &[u8], json: bool) -> (Option<String>, Option<String>) {
    if json {
        #[derive(serde::Deserialize)]
        struct Ids {
            rpcid: Option<String>,
            resid: Option<String>,
        }
        return match serde_json::from_slice::<Ids>(payload) {
            Ok(ids) => (ids.rpcid, ids.resid),
            Err(_) => (None, None),
        };
    }
    let Ok(Value::List(items)) = jtoo::from_slice(payload) else {
        return (None, None);
    };
    let field = |name: &str| {
        let mut found = items.iter().filter_map(|item| match item {
            jtoo::ItemRef::Pair(p) if p.key().as_str() == Some(name) => Some(p.value()),
            _ => None,
        });
        match (found.next(), found.next()) {
            (Some(Value::String(s)), None) => Some(s.as_str().to_owned()),
            _ => None,
        }
    };
    (field("rpcid"), field("resid"))
}

/// The fields of a packet.
#[derive(Clone, Copy)]
enum Field {
    Command,
    Rpcid,
    Resid,
    Timeout,
    Cont,
    Error,
    Datatype,
    Data,
}

/// The field names, for serde.
const FIELDS: [&str; 8] = [
    "command", "rpcid", "resid", "timeout", "cont", "error", "datatype", "data",
];

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Command => "command",
            Field::Rpcid => "rpcid",
            Field::Resid => "resid",
            Field::Timeout => "timeout",
            Field::Cont => "cont",
            Field::Error => "error",
            Field::Datatype => "datatype",
            Field::Data => "data",
        }
    }

    /// What the field's value must be (for [`JteError::InvalidField`]).
    fn expected(self) -> &'static str {
        match self {
            Field::Timeout => "a number >= 0 (milliseconds)",
            Field::Cont => "a boolean",
            Field::Data => "a JTOO value within the depth limit",
            _ => "a string",
        }
    }
}

/// A key of a packet record: a known field, or `None` for an extension.
/// Only strings are keys.
struct FieldKey(Option<Field>);

impl<'de> serde::Deserialize<'de> for FieldKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<FieldKey, D::Error> {
        d.deserialize_identifier(FieldKeyVisitor)
    }
}

struct FieldKeyVisitor;

impl Visitor<'_> for FieldKeyVisitor {
    type Value = FieldKey;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a string key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<FieldKey, E> {
        Ok(FieldKey(match key {
            "command" => Some(Field::Command),
            "rpcid" => Some(Field::Rpcid),
            "resid" => Some(Field::Resid),
            "timeout" => Some(Field::Timeout),
            "cont" => Some(Field::Cont),
            "error" => Some(Field::Error),
            "datatype" => Some(Field::Datatype),
            "data" => Some(Field::Data),
            _ => None,
        }))
    }
}

/// The one reading of a packet record, for every source: the envelope's
/// fields in one pass, `data` kept as text, into `packet` (a default
/// packet). A rule of packets that the record breaks (a field of the wrong
/// type, a duplicate field) is also left in `why` as its [`JteError`], for
/// the readers that report those; the serde error says where.
struct PacketSeed<'a> {
    packet: &'a mut Packet,
    why: &'a mut Option<JteError>,
}

impl<'a> PacketSeed<'a> {
    fn new(packet: &'a mut Packet, why: &'a mut Option<JteError>) -> PacketSeed<'a> {
        PacketSeed { packet, why }
    }
}

impl<'de> DeserializeSeed<'de> for PacketSeed<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_struct("Packet", &FIELDS, self)
    }
}

impl<'de> Visitor<'de> for PacketSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JTE packet (a record with string keys)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let PacketSeed { packet, why } = self;
        let mut seen = 0u8;
        while let Some(FieldKey(field)) = map.next_key()? {
            let Some(field) = field else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            let bit = 1u8 << field as u8;
            if seen & bit != 0 {
                *why = Some(JteError::DuplicateKey(field.name().to_owned()));
                return Err(de::Error::duplicate_field(field.name()));
            }
            seen |= bit;
            // `Option` so that formats with a null read it as absent, as
            // JSON does through `Packet::from_json`.
            let read = match field {
                Field::Command => map.next_value().map(|v| packet.command = Text::take(v)),
                Field::Rpcid => map.next_value().map(|v| packet.rpcid = Text::take(v)),
                Field::Resid => map.next_value().map(|v| packet.resid = Text::take(v)),
                Field::Timeout => map
                    .next_value::<Option<Timeout>>()
                    .map(|v| packet.timeout = v.map(|t| t.0)),
                Field::Cont => map
                    .next_value::<Option<bool>>()
                    .map(|v| packet.cont = v.unwrap_or(false)),
                Field::Error => map.next_value().map(|v| packet.error = Text::take(v)),
                Field::Datatype => map.next_value().map(|v| packet.datatype = Text::take(v)),
                Field::Data => map.next_value().map(|v| packet.data = v),
            };
            if let Err(e) = read {
                *why = Some(JteError::InvalidField {
                    field: field.name(),
                    expected: field.expected(),
                });
                return Err(e);
            }
        }
        Ok(())
    }
}

/// Reads a packet with serde's errors (see the type docs).
impl<'de> serde::Deserialize<'de> for Packet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Packet, D::Error> {
        let mut packet = Packet::default();
        PacketSeed::new(&mut packet, &mut None).deserialize(d)?;
        Ok(packet)
    }
}

/// A string field: a string only (serde's `String` would also take bytes
/// that are UTF-8).
struct Text(String);

impl Text {
    fn take(text: Option<Text>) -> Option<String> {
        text.map(|t| t.0)
    }
}

impl<'de> serde::Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        d.deserialize_string(TextVisitor)
    }
}

struct TextVisitor;

impl Visitor<'_> for TextVisitor {
    type Value = Text;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Text, E> {
        Ok(Text(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Text, E> {
        Ok(Text(s))
    }
}

/// A `timeout` read through serde: exactly, through the newtype that
/// jtoo's serde formats give a number as (an integer as itself, a decimal
/// as its text): an integer must fit a `u64`, a decimal is rounded up by
/// [`decimal_ms`]; other formats give a number (a float is rounded up).
struct Timeout(u64);

impl<'de> serde::Deserialize<'de> for Timeout {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Timeout, D::Error> {
        d.deserialize_newtype_struct(jtoo::serde::DECIMAL_MARKER, TimeoutVisitor)
    }
}

struct TimeoutVisitor;

/// An integer timeout: it must fit a `u64` (no saturation, unlike a
/// decimal's rounding up).
fn whole_ms<E, I>(v: I, exp: &TimeoutVisitor) -> Result<Timeout, E>
where
    E: de::Error,
    I: TryInto<u64> + ToString + Copy,
{
    v.try_into()
        .map(Timeout)
        .map_err(|_| E::invalid_value(de::Unexpected::Other(&v.to_string()), exp))
}

impl<'de> Visitor<'de> for TimeoutVisitor {
    type Value = Timeout;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a number >= 0 (milliseconds)")
    }

    fn visit_newtype_struct<D: serde::Deserializer<'de>>(self, d: D) -> Result<Timeout, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Timeout, E> {
        Ok(Timeout(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Timeout, E> {
        whole_ms(v, &self)
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Timeout, E> {
        whole_ms(v, &self)
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Timeout, E> {
        whole_ms(v, &self)
    }

    /// A decimal's canonical text.
    fn visit_str<E: de::Error>(self, text: &str) -> Result<Timeout, E> {
        let d: jtoo::Decimal = text
            .parse()
            .map_err(|_| E::invalid_value(de::Unexpected::Str(text), &self))?;
        decimal_ms(d.is_negative(), d.coefficient(), d.exponent())
            .map(Timeout)
            .ok_or_else(|| E::invalid_value(de::Unexpected::Str(text), &self))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Timeout, E> {
        if v.is_nan() || v < 0.0 {
            return Err(E::invalid_value(de::Unexpected::Float(v), &self));
        }
        // Saturating: `as` maps anything past u64::MAX (and infinity) to it.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Ok(Timeout(v.ceil() as u64))
    }
}
