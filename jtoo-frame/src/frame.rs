//! [`Frame`]: one message, an optional JTOO document plus a binary section.

use crate::error::{FrameError, Section};
use bytes::Bytes;
use jtoo::Value;

/// The largest length either section can declare: `ffffff`, one byte less
/// than 16 MiB.
pub const MAX_SECTION_LEN: usize = 0xff_ffff;

/// The fixed bytes of every frame besides its two sections: the 14-byte
/// header (`jjjjjj bbbbbb `), the space after the JTOO section and the final
/// `\n`.
pub const FRAME_OVERHEAD: usize = 16;

/// One JTOO frame: an optional JTOO document and a binary section.
///
/// The JTOO section is kept as its raw bytes, which are always one valid
/// strict (hence canonical) JTOO document: the decoder validates it and the
/// constructors either encode a [`Value`] or validate given bytes. Reading it
/// as a [`Value`] ([`Frame::value`]) or as text ([`Frame::jtoo_str`]) is
/// done on demand, so forwarding a frame never builds a value. Both sections
/// are [`Bytes`] split from the read buffer without copying.
///
/// ```
/// use jtoo_frame::Frame;
/// let f = Frame::from_value(&jtoo::from_str(r#"["code":200]"#).unwrap()).unwrap()
///     .with_binary(&b"payload"[..]);
/// assert_eq!(f.jtoo_str(), Some(r#"["code":200]"#));
/// assert_eq!(f.to_bytes(), &b"00000c 000007 [\"code\":200] payload\n"[..]);
/// assert_eq!(f.value().unwrap().unwrap().get("code").and_then(|v| v.as_i64()), Some(200));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frame {
    jtoo: Option<Bytes>,
    binary: Bytes,
}

impl Frame {
    /// The empty frame (`000000 000000  \n`).
    pub fn empty() -> Frame {
        Frame::default()
    }

    /// A frame whose JTOO section is the canonical encoding of `value`.
    ///
    /// # Errors
    /// When `value` cannot be encoded, or its encoding is longer than
    /// [`MAX_SECTION_LEN`].
    pub fn from_value(value: &Value) -> Result<Frame, FrameError> {
        let text = jtoo::to_vec(value)?;
        check_len(Section::Jtoo, text.len(), MAX_SECTION_LEN)?;
        Ok(Frame {
            jtoo: Some(Bytes::from(text)),
            binary: Bytes::new(),
        })
    }

    /// A frame whose JTOO section is `jtoo`, after checking that it is one
    /// valid strict document. Empty bytes mean "no document".
    ///
    /// # Errors
    /// [`FrameError::InvalidJtoo`] or [`FrameError::TooLong`].
    pub fn from_jtoo(jtoo: impl Into<Bytes>) -> Result<Frame, FrameError> {
        let jtoo = jtoo.into();
        check_len(Section::Jtoo, jtoo.len(), MAX_SECTION_LEN)?;
        if jtoo.is_empty() {
            return Ok(Frame::empty());
        }
        validate_jtoo(&jtoo)?;
        Ok(Frame {
            jtoo: Some(jtoo),
            binary: Bytes::new(),
        })
    }

    /// A frame with only a binary section.
    pub fn from_binary(binary: impl Into<Bytes>) -> Frame {
        Frame {
            jtoo: None,
            binary: binary.into(),
        }
    }

    /// Replaces the binary section.
    #[must_use]
    pub fn with_binary(mut self, binary: impl Into<Bytes>) -> Frame {
        self.binary = binary.into();
        self
    }

    /// Used by the decoder, which has validated the section itself.
    pub(crate) fn from_validated(jtoo: Option<Bytes>, binary: Bytes) -> Frame {
        Frame { jtoo, binary }
    }

    /// The raw JTOO section (canonical text), or `None` when it is empty.
    pub fn jtoo(&self) -> Option<&Bytes> {
        self.jtoo.as_ref()
    }

    /// The JTOO section as text (valid JTOO is valid UTF-8).
    pub fn jtoo_str(&self) -> Option<&str> {
        self.jtoo
            .as_deref()
            .and_then(|b| std::str::from_utf8(b).ok())
    }

    /// The binary section.
    pub fn binary(&self) -> &Bytes {
        &self.binary
    }

    /// Parses the JTOO section into a [`Value`] (`None` when it is empty).
    ///
    /// # Errors
    /// Only if the depth limit of the parser is lower than that used when the
    /// frame was validated; the section is otherwise known to be valid.
    pub fn value(&self) -> Result<Option<Value>, jtoo::Error> {
        self.jtoo.as_deref().map(jtoo::from_slice).transpose()
    }

    /// Decodes the JTOO section into `T` through `jtoo-serde`, borrowing
    /// strings from the frame where `T` allows.
    ///
    /// ```
    /// #[derive(serde::Deserialize, Debug, PartialEq)]
    /// struct Status<'a> { code: u16, text: &'a str }
    /// let f = jtoo_frame::Frame::from_jtoo(&br#"["code":200,"text":"ok"]"#[..]).unwrap();
    /// assert_eq!(f.decode::<Status>().unwrap(), Status { code: 200, text: "ok" });
    /// ```
    ///
    /// # Errors
    /// When the section does not match `T`, or is empty (no document).
    pub fn decode<'de, T: serde::Deserialize<'de>>(&'de self) -> Result<T, jtoo_serde::Error> {
        jtoo_serde::from_slice(self.jtoo.as_deref().unwrap_or_default())
    }

    /// A frame whose JTOO section is `value` serialized through
    /// `jtoo-serde`.
    ///
    /// # Errors
    /// When `value` cannot be serialized, or its encoding is longer than
    /// [`MAX_SECTION_LEN`] (reported as a `jtoo-serde` custom error).
    pub fn encode<T: serde::Serialize + ?Sized>(value: &T) -> Result<Frame, jtoo_serde::Error> {
        let text = jtoo_serde::to_vec(value)?;
        if text.len() > MAX_SECTION_LEN {
            return Err(<jtoo_serde::Error as serde::ser::Error>::custom(
                "JTOO section over 16 MiB - 1",
            ));
        }
        Ok(Frame {
            jtoo: (!text.is_empty()).then(|| Bytes::from(text)),
            binary: Bytes::new(),
        })
    }

    /// The JTOO and binary sections.
    pub fn into_parts(self) -> (Option<Bytes>, Bytes) {
        (self.jtoo, self.binary)
    }

    /// The length of the JTOO section in bytes.
    pub fn jtoo_len(&self) -> usize {
        self.jtoo.as_ref().map_or(0, Bytes::len)
    }

    /// The length of the whole encoded frame.
    pub fn encoded_len(&self) -> usize {
        FRAME_OVERHEAD
            .saturating_add(self.jtoo_len())
            .saturating_add(self.binary.len())
    }

    /// The encoded frame.
    ///
    /// Sections over [`MAX_SECTION_LEN`] cannot be encoded; use the
    /// [`FrameCodec`](crate::FrameCodec) encoder to get an error for them.
    /// Here their length field would be wrong, so this returns an empty
    /// vector for such a frame.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.encoded_len());
        if self.jtoo_len() > MAX_SECTION_LEN || self.binary.len() > MAX_SECTION_LEN {
            return out;
        }
        write_frame(self, &mut out);
        out
    }
}

/// Appends the frame to `out`. The caller has checked both lengths.
pub(crate) fn write_frame(frame: &Frame, out: &mut impl bytes::BufMut) {
    let mut header = [b' '; 14];
    write_hex6(&mut header[0..6], frame.jtoo_len());
    write_hex6(&mut header[7..13], frame.binary.len());
    out.put_slice(&header);
    if let Some(j) = &frame.jtoo {
        out.put_slice(j);
    }
    out.put_u8(b' ');
    out.put_slice(&frame.binary);
    out.put_u8(b'\n');
}

fn write_hex6(out: &mut [u8], n: usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for (i, slot) in out.iter_mut().enumerate() {
        let shift = 4 * (5 - i);
        *slot = HEX[(n >> shift) & 0xf];
    }
}

pub(crate) fn check_len(section: Section, length: usize, max: usize) -> Result<(), FrameError> {
    if length > max {
        Err(FrameError::TooLong {
            section,
            length,
            max,
        })
    } else {
        Ok(())
    }
}

/// Checks that `jtoo` is one valid strict JTOO document.
///
/// This is the one place the codec validates a JTOO section; it currently
/// parses into a [`Value`] and drops it (the cost of an allocation per
/// string and list).
pub(crate) fn validate_jtoo(jtoo: &[u8]) -> Result<(), FrameError> {
    // Check without building a `Value`: frames are relayed as raw bytes.
    jtoo::validate(jtoo).map_err(FrameError::InvalidJtoo)
}
