//! [`Builder`]: configures a [`FrameCodec`] in the style of tokio-util's
//! `length_delimited::Builder`.

use crate::codec::FrameCodec;
use crate::frame::{FRAME_OVERHEAD, MAX_SECTION_LEN};
use crate::typed::TypedCodec;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::codec::{Framed, FramedRead, FramedWrite};

/// Limits for a [`FrameCodec`].
///
/// The defaults are the spec's maxima: each section up to `0xffffff` bytes.
/// Limits above that are lowered to it.
///
/// ```
/// use jtoo_frame::FrameCodec;
/// let codec = FrameCodec::builder()
///     .max_jtoo_len(64 * 1024)
///     .max_binary_len(1024 * 1024)
///     .new_codec();
/// assert_eq!(codec.max_jtoo_len(), 65_536);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Builder {
    max_jtoo_len: usize,
    max_binary_len: usize,
    max_frame_len: usize,
}

impl Default for Builder {
    fn default() -> Builder {
        Builder::new()
    }
}

impl Builder {
    /// The default limits.
    pub fn new() -> Builder {
        Builder {
            max_jtoo_len: MAX_SECTION_LEN,
            max_binary_len: MAX_SECTION_LEN,
            max_frame_len: 2 * MAX_SECTION_LEN + FRAME_OVERHEAD,
        }
    }

    /// The largest JTOO section to accept or send (default and upper bound
    /// `0xffffff`).
    pub fn max_jtoo_len(&mut self, n: usize) -> &mut Builder {
        self.max_jtoo_len = n.min(MAX_SECTION_LEN);
        self
    }

    /// The largest binary section to accept or send (default and upper bound
    /// `0xffffff`).
    pub fn max_binary_len(&mut self, n: usize) -> &mut Builder {
        self.max_binary_len = n.min(MAX_SECTION_LEN);
        self
    }

    /// The largest whole frame (both sections plus 16 bytes of header,
    /// separator and newline) to accept or send. The greeting uses 16 KiB.
    pub fn max_frame_len(&mut self, n: usize) -> &mut Builder {
        self.max_frame_len = n;
        self
    }

    /// A codec with these limits.
    pub fn new_codec(&self) -> FrameCodec {
        FrameCodec::from_limits(self.max_jtoo_len, self.max_binary_len, self.max_frame_len)
    }

    /// A [`TypedCodec`] of messages `T` with these limits.
    ///
    /// ```
    /// let codec = jtoo_frame::FrameCodec::builder()
    ///     .max_jtoo_len(4096)
    ///     .new_typed_codec::<Vec<String>>();
    /// assert_eq!(codec.frame_codec().max_jtoo_len(), 4096);
    /// ```
    pub fn new_typed_codec<T>(&self) -> TypedCodec<T> {
        TypedCodec::with_frame_codec(self.new_codec())
    }

    /// `io` framed with a codec with these limits.
    pub fn new_framed<T: AsyncRead + AsyncWrite>(&self, io: T) -> Framed<T, FrameCodec> {
        Framed::new(io, self.new_codec())
    }

    /// A frame reader over `io`.
    pub fn new_read<T: AsyncRead>(&self, io: T) -> FramedRead<T, FrameCodec> {
        FramedRead::new(io, self.new_codec())
    }

    /// A frame writer over `io`.
    pub fn new_write<T: AsyncWrite>(&self, io: T) -> FramedWrite<T, FrameCodec> {
        FramedWrite::new(io, self.new_codec())
    }
}
