//! [`FrameCodec::decode_parsed`]: decoding a frame straight into a typed
//! reading of its JTOO section, for codecs built on frames (`jte`'s
//! `PacketCodec`).

use crate::codec::FrameCodec;
use crate::error::FrameError;
use bytes::BytesMut;

impl FrameCodec {
    /// Decodes the next frame and hands its sections, borrowed from `buf`,
    /// to `parse`: the JTOO section (empty when there is none) and the
    /// binary section. The frame is consumed afterwards.
    ///
    /// The JTOO section is **not** validated first: `parse` must be a strict
    /// parser that validates what it reads (as [`jtoo::from_slice`] does)
    /// and return `Err` exactly when the section is not one valid strict
    /// document. That error then leaves the stream unusable and comes back
    /// as [`FrameError::InvalidJtoo`], exactly as [`Decoder::decode`]
    /// treats invalid JTOO; so one pass both validates and reads. A reading
    /// that can fail for other reasons returns those inside `T` (a
    /// `Result`), which leave the stream usable.
    ///
    /// [`Decoder::decode`]: tokio_util::codec::Decoder::decode
    ///
    /// # Errors
    /// Every error of [`Decoder::decode`], and `parse`'s.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use jtoo_frame::{FrameCodec, FrameError};
    ///
    /// let mut codec = FrameCodec::new();
    /// let mut buf = BytesMut::from(&b"000005 000000 [1,2] \n000001 000000 [ \n"[..]);
    /// let parse = |jtoo: &[u8], _binary: &[u8]| jtoo::from_slice(jtoo);
    /// let first = codec.decode_parsed(&mut buf, parse)?;
    /// assert_eq!(first, Some(jtoo::from_str("[1,2]")?));
    /// let second = codec.decode_parsed(&mut buf, parse);
    /// assert!(matches!(second, Err(FrameError::InvalidJtoo(_))));
    /// assert!(codec.is_failed());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode_parsed<T>(
        &mut self,
        buf: &mut BytesMut,
        parse: impl FnOnce(&[u8], &[u8]) -> Result<T, jtoo::Error>,
    ) -> Result<Option<T>, FrameError> {
        match self.decode_unvalidated(buf, parse)? {
            None => Ok(None),
            Some(Ok(t)) => Ok(Some(t)),
            Some(Err(e)) => Err(self.fail_invalid_jtoo(e)),
        }
    }
}
