//! [`Greeting`]: the first frame of a JTOO protocol connection.
//!
//! The greeting's JTOO section holds key-value pairs with string keys, one
//! of them `"protocol"` with a string value. This crate writes the shape of
//! the spec's examples, the pairs wrapped in one extra list:
//!
//! ```text
//! 000044 000000 [["protocol":"e7/LyniPSK","id":Bc8fd0fb7,"nonce":B8da5ab6f3fdb1bb0]] \n
//! ```
//!
//! and accepts that shape and the unwrapped `["protocol":…,…]`; nothing else.
//! The whole greeting frame is at most 16 KiB ([`GREETING_MAX_LEN`]).

use crate::error::{FrameError, GreetingError, Section};
use crate::frame::{Frame, check_len};
use jtoo::{Item, ItemRef, List, Pair, Value};
use std::collections::HashSet;

/// The largest greeting frame, header and newline included: 16 KiB.
pub const GREETING_MAX_LEN: usize = 16 * 1024;

/// The reply to a greeting whose protocol is not supported, byte for byte.
pub const UNSUPPORTED_PROTOCOL_REPLY: &[u8] =
    b"00002d 000000 [[\"code\":505,\"error\":\"unsupported protocol\"]] \n";

/// A protocol greeting: the `"protocol"` string and other key-value pairs.
///
/// ```
/// use jtoo_frame::Greeting;
/// let g = Greeting::new("e7/LyniPSK")
///     .with("id", jtoo::Value::Bytes(vec![0xc8, 0xfd, 0x0f, 0xb7]))
///     .unwrap();
/// let frame = g.to_frame().unwrap();
/// assert_eq!(frame.jtoo_str(), Some(r#"[["protocol":"e7/LyniPSK","id":Bc8fd0fb7]]"#));
/// assert_eq!(Greeting::from_frame(&frame).unwrap(), g);
///
/// // The unwrapped shape is accepted too.
/// let f = jtoo_frame::Frame::from_jtoo(&br#"["id":1,"protocol":"p"]"#[..]).unwrap();
/// assert_eq!(Greeting::from_frame(&f).unwrap().protocol(), "p");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Greeting {
    protocol: String,
    fields: Vec<(String, Value)>,
}

impl Greeting {
    /// A greeting for `protocol` with no other fields.
    pub fn new(protocol: impl Into<String>) -> Greeting {
        Greeting {
            protocol: protocol.into(),
            fields: Vec::new(),
        }
    }

    /// Adds a field.
    ///
    /// # Errors
    /// [`GreetingError::DuplicateKey`] when `key` is already present (or is
    /// `"protocol"`).
    pub fn with(mut self, key: impl Into<String>, value: Value) -> Result<Greeting, GreetingError> {
        self.insert(key, value)?;
        Ok(self)
    }

    /// Adds a field.
    ///
    /// # Errors
    /// As [`Greeting::with`].
    pub fn insert(&mut self, key: impl Into<String>, value: Value) -> Result<(), GreetingError> {
        let key = key.into();
        if key == "protocol" || self.fields.iter().any(|(k, _)| *k == key) {
            return Err(GreetingError::DuplicateKey(key));
        }
        self.fields.push((key, value));
        Ok(())
    }

    /// The protocol.
    pub fn protocol(&self) -> &str {
        &self.protocol
    }

    /// The value of field `key` other than `"protocol"`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The fields other than `"protocol"`, in order.
    pub fn fields(&self) -> &[(String, Value)] {
        &self.fields
    }

    /// The JTOO value, in the written shape `[["protocol":…,…]]` (protocol
    /// first).
    pub fn to_value(&self) -> Value {
        let mut pairs = Vec::with_capacity(self.fields.len() + 1);
        pairs.push(Item::Pair(Pair::with_str_key(
            "protocol",
            Value::String(self.protocol.as_str().into()),
        )));
        for (k, v) in &self.fields {
            pairs.push(Item::Pair(Pair::with_str_key(k.as_str(), v.clone())));
        }
        Value::List(vec![Item::Value(Value::List(pairs.into()))].into())
    }

    /// The greeting frame.
    ///
    /// # Errors
    /// When a value cannot be encoded or the frame would exceed
    /// [`GREETING_MAX_LEN`]. The written (wrapped) shape is two bytes longer
    /// than the unwrapped one, so a greeting read in the unwrapped shape
    /// within two bytes of the limit cannot be written back.
    pub fn to_frame(&self) -> Result<Frame, FrameError> {
        let frame = Frame::from_value(&self.to_value())?;
        check_len(Section::Frame, frame.encoded_len(), GREETING_MAX_LEN)?;
        Ok(frame)
    }

    /// Reads a greeting from its JTOO value, in either accepted shape.
    ///
    /// # Errors
    /// Any [`GreetingError`] but `Empty`.
    pub fn from_value(value: &Value) -> Result<Greeting, GreetingError> {
        Greeting::from_owned(value.clone())
    }

    /// As [`Greeting::from_value`], moving the fields out of `value`.
    fn from_owned(value: Value) -> Result<Greeting, GreetingError> {
        let protocol = check(&value)?.to_owned();
        let mut list = match value {
            Value::List(list) => list,
            _ => return Err(GreetingError::NotAList),
        };
        if is_wrapped(&list) {
            match list.into_iter().next() {
                Some(Item::Value(Value::List(inner))) => list = inner,
                _ => return Err(GreetingError::NotAList),
            }
        }
        let fields = list
            .into_iter()
            .filter_map(|item| match item {
                Item::Pair(pair) => match pair.into_parts() {
                    (Value::String(key), value) if key != "protocol" => {
                        Some((key.to_string(), value))
                    }
                    _ => None,
                },
                Item::Value(_) => None,
            })
            .collect();
        Ok(Greeting { protocol, fields })
    }

    /// Reads a greeting from a frame's JTOO section (the binary section is
    /// ignored). The caller checks the 16 KiB limit, as the handshake's
    /// codec does. The fields are moved out of the parsed value, not
    /// copied.
    ///
    /// # Errors
    /// Any [`GreetingError`].
    pub fn from_frame(frame: &Frame) -> Result<Greeting, GreetingError> {
        // The frame's section is valid JTOO; a parse failure here can only
        // be a depth limit, which no greeting needs.
        match frame.value() {
            Ok(Some(v)) => Greeting::from_owned(v),
            Ok(None) => Err(GreetingError::Empty),
            Err(_) => Err(GreetingError::NotAList),
        }
    }
}

/// `true` for the wrapped shape: a list whose one item is a list.
fn is_wrapped(list: &List) -> bool {
    matches!(
        (list.len(), list.first()),
        (1, Some(ItemRef::Value(Value::List(_))))
    )
}

/// The list of pairs of a greeting value, in either accepted shape.
fn pairs(value: &Value) -> Option<&List> {
    let list = value.as_list()?;
    match list.first() {
        Some(ItemRef::Value(Value::List(inner))) if is_wrapped(list) => Some(inner),
        _ => Some(list),
    }
}

/// Checks every greeting rule on `value` and returns its protocol: the one
/// place the rules live.
fn check(value: &Value) -> Result<&str, GreetingError> {
    let pairs = pairs(value).ok_or(GreetingError::NotAList)?;
    let mut protocol = None;
    let mut seen = HashSet::with_capacity(pairs.len());
    for item in pairs {
        let ItemRef::Pair(pair) = item else {
            return Err(GreetingError::NonPairItem);
        };
        let Value::String(key) = pair.key() else {
            return Err(GreetingError::NonStringKey);
        };
        if !seen.insert(key.as_str()) {
            return Err(GreetingError::DuplicateKey(key.to_string()));
        }
        if key == "protocol" {
            match pair.value() {
                Value::String(p) => protocol = Some(p.as_str()),
                _ => return Err(GreetingError::ProtocolNotString),
            }
        }
    }
    protocol.ok_or(GreetingError::MissingProtocol)
}

/// `true` when `frame` is the 505 "unsupported protocol" reply.
///
/// ```
/// use bytes::BytesMut;
/// use tokio_util::codec::Decoder;
/// let mut buf = BytesMut::from(jtoo_frame::UNSUPPORTED_PROTOCOL_REPLY);
/// let frame = jtoo_frame::FrameCodec::new().decode(&mut buf).unwrap().unwrap();
/// assert!(jtoo_frame::is_unsupported_protocol_reply(&frame));
/// ```
pub fn is_unsupported_protocol_reply(frame: &Frame) -> bool {
    frame.binary().is_empty()
        && frame.jtoo().map(|j| &j[..])
            == UNSUPPORTED_PROTOCOL_REPLY.get(14..UNSUPPORTED_PROTOCOL_REPLY.len() - 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(text: &str) -> Result<Greeting, GreetingError> {
        Greeting::from_value(&jtoo::from_str(text).unwrap())
    }

    #[test]
    fn seed_example_round_trips() {
        let text = r#"[["protocol":"e7/LyniPSK","id":Bc8fd0fb7,"nonce":B8da5ab6f3fdb1bb0]]"#;
        let greeting = g(text).unwrap();
        assert_eq!(greeting.protocol(), "e7/LyniPSK");
        assert_eq!(
            greeting.get("nonce").and_then(Value::as_bytes),
            Some(&[0x8d, 0xa5, 0xab, 0x6f, 0x3f, 0xdb, 0x1b, 0xb0][..])
        );
        let frame = greeting.to_frame().unwrap();
        // E6: the section is 0x44 bytes, not 0x43.
        assert_eq!(
            frame.to_bytes().unwrap(),
            format!("000044 000000 {text} \n").into_bytes()
        );
    }

    #[test]
    fn violations() {
        assert_eq!(
            g(r#"[["protocol":"a","protocol":"a"]]"#),
            Err(GreetingError::DuplicateKey("protocol".into()))
        );
        assert_eq!(
            g(r#"["protocol":"a","x":1,"x":2]"#),
            Err(GreetingError::DuplicateKey("x".into()))
        );
        assert_eq!(g(r#"[["x":1]]"#), Err(GreetingError::MissingProtocol));
        assert_eq!(g("[]"), Err(GreetingError::MissingProtocol));
        assert_eq!(g("[[]]"), Err(GreetingError::MissingProtocol));
        assert_eq!(
            g(r#"[["protocol":1]]"#),
            Err(GreetingError::ProtocolNotString)
        );
        assert_eq!(
            g(r#"[["protocol":"a",1]]"#),
            Err(GreetingError::NonPairItem)
        );
        assert_eq!(
            g(r#"[["protocol":"a"],["x":1]]"#),
            Err(GreetingError::NonPairItem)
        );
        assert_eq!(
            g(r#"[[["protocol":"a"]]]"#),
            Err(GreetingError::NonPairItem)
        );
        assert_eq!(
            g(r#"[["protocol":"a",1:2]]"#),
            Err(GreetingError::NonStringKey)
        );
        assert_eq!(g(r#""protocol""#), Err(GreetingError::NotAList));
        assert_eq!(
            Greeting::from_frame(&Frame::empty()),
            Err(GreetingError::Empty)
        );
    }

    #[test]
    fn reply_constant_is_the_encoding_of_the_reply() {
        let v = jtoo::from_str(r#"[["code":505,"error":"unsupported protocol"]]"#).unwrap();
        assert_eq!(
            Frame::from_value(&v).unwrap().to_bytes().unwrap(),
            UNSUPPORTED_PROTOCOL_REPLY
        );
    }

    #[test]
    fn oversize_greeting_cannot_be_built() {
        let big = Greeting::new("p")
            .with("pad", Value::Bytes(vec![0; 8200]))
            .unwrap();
        assert!(matches!(
            big.to_frame(),
            Err(FrameError::TooLong {
                section: Section::Frame,
                ..
            })
        ));
    }
}
