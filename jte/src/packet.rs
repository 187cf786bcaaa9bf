//! [`Packet`]: one JTE packet, in JSON or JTOO.

use crate::JteError;
use jtoo::{Item, Pair, Value};
use jtoo_frame::{Frame, FrameError};
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
/// ```
///
/// `Packet` also implements serde's traits (for `jtoo-serde`:
/// [`Frame::to_serde`](jtoo_frame::Frame::to_serde) gives a packet without building
/// the top-level record; `jtoo_serde::to_vec` writes the same bytes as
/// [`Packet::to_jtoo`]). Its `Deserialize` accepts exactly what
/// [`Packet::from_value`] accepts: string keys only, unknown keys ignored,
/// a duplicate known key or a field of the wrong type refused. For JSON
/// use [`Packet::from_json_slice`], which keeps numbers in `data` exact.
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
    /// The payload: any JTOO value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(b: &bool) -> bool {
    !*b
}

const FIELDS: [&str; 8] = [
    "command", "rpcid", "resid", "timeout", "cont", "error", "datatype", "data",
];

/// `FIELDS` as they start an item of a strict record: `"name":`.
const KEYS: [&[u8]; 8] = [
    b"\"command\":",
    b"\"rpcid\":",
    b"\"resid\":",
    b"\"timeout\":",
    b"\"cont\":",
    b"\"error\":",
    b"\"datatype\":",
    b"\"data\":",
];

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

    /// Sets `data`.
    #[must_use]
    pub fn with_data(mut self, data: impl Into<Value>) -> Packet {
        self.data = Some(data.into());
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
    pub fn to_value(&self) -> Value {
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
            push("data", v.clone());
        }
        Value::List(items.into())
    }

    /// Reads a packet from a JTOO record.
    ///
    /// # Errors
    /// Not a list of pairs with string keys, a duplicate key, or a field of
    /// the wrong type.
    pub fn from_value(value: &Value) -> Result<Packet, JteError> {
        Packet::from_owned_value(value.clone())
    }

    /// As [`Packet::from_value`], moving the data out of `value`.
    ///
    /// # Errors
    /// As [`Packet::from_value`].
    pub fn from_owned_value(value: Value) -> Result<Packet, JteError> {
        let Value::List(items) = value else {
            return Err(JteError::NotARecord);
        };
        let mut packet = Packet::default();
        let mut seen = [false; FIELDS.len()];
        for item in items {
            let Item::Pair(pair) = item else {
                return Err(JteError::NotARecord);
            };
            let (key, value) = pair.into_parts();
            let Value::String(key) = key else {
                return Err(JteError::NotARecord);
            };
            let Some(index) = FIELDS.iter().position(|f| *f == key) else {
                continue; // an extension field
            };
            if let Some(slot) = seen.get_mut(index) {
                if *slot {
                    return Err(JteError::DuplicateKey(key.into_string()));
                }
                *slot = true;
            }
            let field = FIELDS.get(index).copied().unwrap_or("?");
            let string = |v: Value| match v {
                Value::String(s) => Ok(s.into_string()),
                _ => Err(JteError::InvalidField {
                    field,
                    expected: "a string",
                }),
            };
            match index {
                0 => packet.command = Some(string(value)?),
                1 => packet.rpcid = Some(string(value)?),
                2 => packet.resid = Some(string(value)?),
                3 => {
                    packet.timeout = Some(timeout_ms(&value).ok_or(JteError::InvalidField {
                        field,
                        expected: "a number >= 0 (milliseconds)",
                    })?);
                }
                4 => {
                    packet.cont = value.as_bool().ok_or(JteError::InvalidField {
                        field,
                        expected: "a boolean",
                    })?;
                }
                5 => packet.error = Some(string(value)?),
                6 => packet.datatype = Some(string(value)?),
                _ => packet.data = Some(value),
            }
        }
        Ok(packet)
    }

    /// The canonical JTOO text of the packet.
    ///
    /// # Errors
    /// When `data` holds a value that cannot be encoded.
    pub fn to_jtoo(&self) -> Result<Vec<u8>, JteError> {
        Ok(jtoo::to_vec(&self.to_value())?)
    }

    /// Parses a JTOO payload.
    ///
    /// # Errors
    /// Invalid JTOO or not a packet.
    pub fn from_jtoo(jtoo: &[u8]) -> Result<Packet, JteError> {
        // One strict pass straight into the packet (it validates the whole
        // document, skipped extension fields included). On anything
        // unexpected, the value path decides and says exactly what is
        // wrong: invalid JTOO, or which rule of a packet the document
        // breaks.
        let mut packet = Packet::default();
        Packet::read_jtoo(jtoo, &mut Default::default(), &mut packet)?;
        Ok(packet)
    }

    /// [`Packet::from_jtoo`] into `packet`, which must be the default
    /// packet, with a scratch stack for the lists of `data` (reused across
    /// packets by [`PacketCodec`](crate::PacketCodec)). Filling the caller's
    /// packet spares a few moves of this large struct per packet.
    pub(crate) fn read_jtoo(
        jtoo: &[u8],
        scratch: &mut jtoo::parse::list::Scratch,
        packet: &mut Packet,
    ) -> Result<(), JteError> {
        if read_record(jtoo, scratch, packet).is_none() {
            *packet = Packet::from_jtoo_via_value(jtoo)?;
        }
        Ok(())
    }

    /// [`Packet::from_jtoo`] through a [`Value`] (the reference reading, and
    /// the one whose errors are reported).
    #[cold]
    fn from_jtoo_via_value(jtoo: &[u8]) -> Result<Packet, JteError> {
        Packet::from_owned_value(jtoo::from_slice(jtoo)?)
    }

    /// The packet as a JSON object (`data` through [`jtoo::json::to_json`]).
    pub fn to_json(&self) -> Json {
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
            map.insert("data".into(), jtoo::json::to_json(v));
        }
        Json::Object(map)
    }

    /// The JSON text of the packet, with `data`'s numbers exact (through
    /// [`jtoo::json::to_json_string`], whatever serde_json's features).
    ///
    /// # Errors
    /// Never in practice.
    pub fn to_json_vec(&self) -> Result<Vec<u8>, JteError> {
        Ok(jtoo::json::to_json_string(&self.to_value()).into_bytes())
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
    /// When `data` cannot be encoded or the packet is over 16 MiB.
    pub fn to_frame(&self) -> Result<Frame, JteError> {
        // Straight from the fields through serde (the same bytes as
        // `to_jtoo`), without building the record first.
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

/// A `timeout` field's milliseconds: any number >= 0, a fraction rounded
/// up (`1.5` is 2 ms), one past `u64::MAX` saturating; `None` for anything
/// else.
fn timeout_ms(value: &Value) -> Option<u64> {
    match value {
        Value::Integer(i) => i.to_u64(),
        Value::Decimal(d) => decimal_ms(d.is_negative(), d.coefficient(), d.exponent()),
        _ => None,
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

/// Reads a packet record in one strict pass, with the productions of
/// `jtoo::parse` that [`jtoo::from_slice`] uses: `[`, then `"key":value`
/// items separated by `,`, then `]` and the end of the input.
///
/// Fills `packet` (the default packet on entry) and returns `Some(())`; or
/// returns `None`, with `packet` partly filled, on anything else (invalid
/// JTOO, a non-string key, an item that is not a pair, a duplicate field, a
/// field of the wrong type), and the caller then reads the text through a
/// [`Value`], which gives the reference answer. So this only ever accepts
/// what that path would, with the same packet: the document is valid
/// strict JTOO (each production is the strict one, the separators are
/// checked byte by byte, `data` and ignored fields get the depth left
/// inside the record).
fn read_record(
    input: &[u8],
    scratch: &mut jtoo::parse::list::Scratch,
    packet: &mut Packet,
) -> Option<()> {
    use jtoo::parse::{Number, Syntax::Strict, list, number, string, validate};
    /// What is left of the document's depth limit inside the record.
    const DEPTH: usize = jtoo::Options::DEFAULT_MAX_DEPTH - 1;
    // UTF-8 once for the whole record; strings are then sliced out of it.
    let facts = string::Known::check(input);
    fn text<'a>(rest: &'a [u8], facts: string::Known<'a>) -> Option<(&'a [u8], String)> {
        if rest.first() != Some(&b'"') {
            return None;
        }
        let (rest, s) = string::string_in(rest, Strict, facts).ok()?;
        Some((rest, s.into_owned()))
    }

    scratch.clear();
    let mut rest = input.strip_prefix(b"[")?;
    if let Some(after) = rest.strip_prefix(b"]") {
        return after.is_empty().then_some(());
    }
    let mut seen = 0u8;
    loop {
        // A known key is matched as the exact bytes `"name":` (the only
        // spelling of that string); any other key goes through the string
        // production.
        let known = KEYS
            .iter()
            .position(|k| rest.starts_with(k))
            .and_then(|i| Some((i, rest.get(KEYS.get(i)?.len()..)?)));
        let index = match known {
            Some((i, after)) => {
                rest = after;
                Some(i)
            }
            None => {
                if rest.first() != Some(&b'"') {
                    return None;
                }
                let (after, key) = string::string_in(rest, Strict, facts).ok()?;
                rest = after.strip_prefix(b":")?;
                FIELDS.iter().position(|f| *f == key)
            }
        };
        if let Some(i) = index {
            let bit = 1u8 << i;
            if seen & bit != 0 {
                return None;
            }
            seen |= bit;
        }
        rest = match index {
            Some(0) => text(rest, facts).map(|(r, s)| {
                packet.command = Some(s);
                r
            })?,
            Some(1) => text(rest, facts).map(|(r, s)| {
                packet.rpcid = Some(s);
                r
            })?,
            Some(2) => text(rest, facts).map(|(r, s)| {
                packet.resid = Some(s);
                r
            })?,
            Some(3) => {
                if !rest.first().is_some_and(u8::is_ascii_digit) {
                    return None;
                }
                let (r, n) = number::number(rest, Strict).ok()?;
                let Number::Integer(i) = n else {
                    return None;
                };
                packet.timeout = Some(i.to_u64()?);
                r
            }
            Some(4) => {
                let (&b, r) = rest.split_first()?;
                packet.cont = match b {
                    b'Y' => true,
                    b'N' => false,
                    _ => return None,
                };
                r
            }
            Some(5) => text(rest, facts).map(|(r, s)| {
                packet.error = Some(s);
                r
            })?,
            Some(6) => text(rest, facts).map(|(r, s)| {
                packet.datatype = Some(s);
                r
            })?,
            Some(_) => {
                let (r, v) = list::value_known(rest, Strict, DEPTH, scratch, facts).ok()?;
                packet.data = Some(v);
                r
            }
            None => validate::value(rest, Strict, DEPTH).ok()?.0,
        };
        match rest.split_first()? {
            (b',', r) => rest = r,
            (b']', r) => return r.is_empty().then_some(()),
            _ => return None,
        }
    }
}

/// A key of a packet record: the index of a known field, `None` for an
/// extension. Only strings are keys.
struct FieldKey(Option<usize>);

impl<'de> serde::Deserialize<'de> for FieldKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<FieldKey, D::Error> {
        d.deserialize_identifier(FieldKeyVisitor)
    }
}

struct FieldKeyVisitor;

impl serde::de::Visitor<'_> for FieldKeyVisitor {
    type Value = FieldKey;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a string key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<FieldKey, E> {
        Ok(FieldKey(FIELDS.iter().position(|f| *f == key)))
    }
}

struct PacketVisitor;

impl<'de> serde::de::Visitor<'de> for PacketVisitor {
    type Value = Packet;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JTE packet (a record with string keys)")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Packet, A::Error> {
        use serde::de::{Error, IgnoredAny};
        let mut packet = Packet::default();
        let mut seen = [false; FIELDS.len()];
        while let Some(FieldKey(index)) = map.next_key()? {
            let Some(index) = index else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            let field = FIELDS.get(index).copied().unwrap_or("?");
            match seen.get_mut(index) {
                Some(true) => return Err(A::Error::duplicate_field(field)),
                Some(slot) => *slot = true,
                None => {}
            }
            // `Option` so that formats with a null read it as absent, as
            // JSON does through `Packet::from_json`.
            match index {
                0 => packet.command = map.next_value()?,
                1 => packet.rpcid = map.next_value()?,
                2 => packet.resid = map.next_value()?,
                3 => packet.timeout = map.next_value::<Option<Timeout>>()?.map(|t| t.0),
                4 => packet.cont = map.next_value::<Option<bool>>()?.unwrap_or(false),
                5 => packet.error = map.next_value()?,
                6 => packet.datatype = map.next_value()?,
                _ => packet.data = map.next_value()?,
            }
        }
        Ok(packet)
    }
}

impl<'de> serde::Deserialize<'de> for Packet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Packet, D::Error> {
        d.deserialize_struct("Packet", &FIELDS, PacketVisitor)
    }
}

/// A `timeout` read through serde: any number >= 0 of milliseconds, a
/// fraction rounded up (as [`timeout_ms`]).
struct Timeout(u64);

impl<'de> serde::Deserialize<'de> for Timeout {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Timeout, D::Error> {
        d.deserialize_any(TimeoutVisitor)
    }
}

struct TimeoutVisitor;

impl serde::de::Visitor<'_> for TimeoutVisitor {
    type Value = Timeout;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a number >= 0 (milliseconds)")
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Timeout, E> {
        Ok(Timeout(v))
    }

    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Timeout, E> {
        Ok(Timeout(u64::try_from(v).unwrap_or(u64::MAX)))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Timeout, E> {
        u64::try_from(v)
            .map(Timeout)
            .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Timeout, E> {
        if v.is_nan() || v < 0.0 {
            return Err(E::invalid_value(serde::de::Unexpected::Float(v), &self));
        }
        // Saturating: `as` maps anything past u64::MAX (and infinity) to it.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Ok(Timeout(v.ceil() as u64))
    }
}
