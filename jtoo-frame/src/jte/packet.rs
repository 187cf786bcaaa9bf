//! [`Packet`]: one JTE packet, in JSON or JTOO.

use super::JteError;
use crate::frame::Frame;
use jtoo::{Item, Pair, Value};
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
/// use jtoo_frame::jte::Packet;
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
/// [`Frame::decode`](crate::Frame::decode) gives a packet without building
/// the top-level record; `jtoo_serde::to_vec` writes the same bytes as
/// [`Packet::to_jtoo`]). For JSON use [`Packet::from_json_slice`], which
/// keeps numbers in `data` exact.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// An error message; see [`ErrorCode`](super::ErrorCode) for the `EC…:`
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
        let s = |s: &String| Value::String(s.clone());
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
        Value::List(items)
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
                    return Err(JteError::DuplicateKey(key));
                }
                *slot = true;
            }
            let field = FIELDS.get(index).copied().unwrap_or("?");
            let string = |v: Value| match v {
                Value::String(s) => Ok(s),
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
                    packet.timeout = Some(value.as_u64().ok_or(JteError::InvalidField {
                        field,
                        expected: "a non-negative integer (milliseconds)",
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
        Ok(Frame::from_value(&self.to_value())?)
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
    pub fn error_code(&self) -> Option<super::ErrorCode<'_>> {
        self.error.as_deref().and_then(super::ErrorCode::parse)
    }
}
