//! [`Frame`]: one message, an optional JTOO document plus a binary section.

use crate::error::{FrameError, Section};
use crate::header;
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
/// assert_eq!(f.to_bytes().unwrap(), &b"00000c 000007 [\"code\":200] payload\n"[..]);
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

    /// Deserializes the JTOO section into `T` through `jtoo-serde`,
    /// borrowing strings from the frame where `T` allows (the counterpart
    /// of [`Frame::from_serde`]; [`TypedCodec`](crate::TypedCodec) does the
    /// same straight from the read buffer).
    ///
    /// ```
    /// #[derive(serde::Deserialize, Debug, PartialEq)]
    /// struct Status<'a> { code: u16, text: &'a str }
    /// let f = jtoo_frame::Frame::from_jtoo(&br#"["code":200,"text":"ok"]"#[..]).unwrap();
    /// assert_eq!(f.to_serde::<Status>().unwrap(), Status { code: 200, text: "ok" });
    /// ```
    ///
    /// # Errors
    /// When the section does not match `T`, or is empty (no document).
    pub fn to_serde<'de, T: serde::Deserialize<'de>>(&'de self) -> Result<T, jtoo_serde::Error> {
        section_to_serde(self.jtoo.as_deref().unwrap_or_default())
    }

    /// A frame whose JTOO section is `value` serialized through
    /// `jtoo-serde` (read it back with [`Frame::to_serde`]).
    ///
    /// ```
    /// #[derive(serde::Serialize)]
    /// struct Status { code: u16 }
    /// let f = jtoo_frame::Frame::from_serde(&Status { code: 200 })?;
    /// assert_eq!(f.jtoo_str(), Some(r#"["code":200]"#));
    /// # Ok::<(), jtoo_frame::FrameError>(())
    /// ```
    ///
    /// # Errors
    /// [`FrameError::Encode`] when `value` cannot be serialized,
    /// [`FrameError::TooLong`] when its encoding is longer than
    /// [`MAX_SECTION_LEN`].
    pub fn from_serde<T: serde::Serialize + ?Sized>(value: &T) -> Result<Frame, FrameError> {
        let text = jtoo_serde::to_vec(value).map_err(FrameError::Encode)?;
        check_len(Section::Jtoo, text.len(), MAX_SECTION_LEN)?;
        Ok(Frame {
            jtoo: (!text.is_empty()).then(|| Bytes::from(text)),
            binary: Bytes::new(),
        })
    }

    /// The former name of [`Frame::to_serde`].
    ///
    /// # Errors
    /// As [`Frame::to_serde`].
    #[deprecated(since = "0.1.0", note = "renamed `Frame::to_serde`")]
    pub fn decode<'de, T: serde::Deserialize<'de>>(&'de self) -> Result<T, jtoo_serde::Error> {
        self.to_serde()
    }

    /// The former name of [`Frame::from_serde`], with its former error
    /// type.
    ///
    /// # Errors
    /// As [`Frame::from_serde`], as a `jtoo-serde` error.
    #[deprecated(since = "0.1.0", note = "renamed `Frame::from_serde`")]
    pub fn encode<T: serde::Serialize + ?Sized>(value: &T) -> Result<Frame, jtoo_serde::Error> {
        Frame::from_serde(value).map_err(|e| match e {
            FrameError::Encode(e) => e,
            other => jtoo_serde::Error::message(other),
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
    /// ```
    /// let f = jtoo_frame::Frame::from_binary(&b"abc"[..]);
    /// assert_eq!(f.to_bytes()?, b"000000 000003  abc\n");
    /// // A section over ffffff has no length field: an error, not bytes.
    /// assert!(jtoo_frame::Frame::from_binary(vec![0; 1 << 24]).to_bytes().is_err());
    /// # Ok::<(), jtoo_frame::FrameError>(())
    /// ```
    ///
    /// # Errors
    /// [`FrameError::TooLong`] when a section is longer than
    /// [`MAX_SECTION_LEN`].
    pub fn to_bytes(&self) -> Result<Vec<u8>, FrameError> {
        check_len(Section::Jtoo, self.jtoo_len(), MAX_SECTION_LEN)?;
        check_len(Section::Binary, self.binary.len(), MAX_SECTION_LEN)?;
        let mut out = Vec::with_capacity(self.encoded_len());
        write_frame(self, &mut out);
        Ok(out)
    }
}

/// Appends the frame to `out`. The caller has checked both lengths.
#[inline]
pub(crate) fn write_frame(frame: &Frame, out: &mut impl Append) {
    write_sections(
        frame.jtoo.as_deref().unwrap_or_default(),
        &frame.binary,
        out,
    );
}

/// Appends the frame of these two sections to `out`. The caller has checked
/// both lengths.
///
/// Three or four appends: the header (with the space after an empty JTOO
/// section), the JTOO section and its space, the binary section, `\n`.
/// The appends are inlined, so the fixed-size ones are plain stores.
#[inline]
pub(crate) fn write_sections(jtoo: &[u8], binary: &[u8], out: &mut impl Append) {
    let head = header::write(jtoo.len(), binary.len());
    if jtoo.is_empty() {
        out.append(&head[..15]);
    } else {
        out.append(&head[..14]);
        out.append(jtoo);
        out.append(b" ");
    }
    out.append(binary);
    out.append(b"\n");
}

/// A growable byte buffer a frame is written to.
pub(crate) trait Append {
    /// Appends `bytes`.
    fn append(&mut self, bytes: &[u8]);
}

impl Append for bytes::BytesMut {
    #[inline]
    fn append(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

impl Append for Vec<u8> {
    #[inline]
    fn append(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Deserializes a `T` from a JTOO section; an empty section (no document)
/// is an error. The one reading of [`Frame::to_serde`] and
/// [`TypedCodec`](crate::TypedCodec).
pub(crate) fn section_to_serde<'de, T: serde::Deserialize<'de>>(
    jtoo: &'de [u8],
) -> Result<T, jtoo_serde::Error> {
    if jtoo.is_empty() {
        return Err(<jtoo_serde::Error as serde::de::Error>::custom(
            "expected a JTOO document, found an empty JTOO section",
        ));
    }
    jtoo_serde::from_slice(jtoo)
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

/// Checks that `jtoo` is one valid strict JTOO document, with
/// `jtoo::validate` (the grammar walked once, nothing built or allocated).
///
/// The one place frames validate a JTOO section: [`FrameCodec`]'s decoder,
/// [`Frame::from_jtoo`], and the typed codec's error path (which asks it
/// whether a section that did not deserialize was invalid JTOO or only the
/// wrong shape).
///
/// [`FrameCodec`]: crate::FrameCodec
pub(crate) fn validate_jtoo(jtoo: &[u8]) -> Result<(), FrameError> {
    // Check without building a `Value`: frames are relayed as raw bytes.
    jtoo::validate(jtoo).map_err(FrameError::InvalidJtoo)
}
