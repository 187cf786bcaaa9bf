//! [`Output`]: the growable byte buffer the writers append to.

/// A growable byte buffer the `write_*` functions append to: `Vec<u8>`, and
/// with the `bytes` feature `bytes::BytesMut`, so that a codec serializes
/// straight into its write buffer.
///
/// Writers only append, and only ever cut back what they themselves
/// appended (a number written in a fixed-size room, a value left out).
///
/// ```
/// let mut out = Vec::new();
/// jtoo::encode::write_str(&mut out, "a\"b");
/// jtoo::encode::write_i64(&mut out, -1_000);
/// assert_eq!(out, br#""a\22b"-1_000"#);
/// ```
pub trait Output {
    /// Bytes in the buffer.
    fn len(&self) -> usize;

    /// `true` when the buffer holds no bytes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends one byte.
    fn push(&mut self, byte: u8);

    /// Appends `bytes`.
    fn extend_from_slice(&mut self, bytes: &[u8]);

    /// Appends `n` copies of `byte`.
    fn extend_with(&mut self, n: usize, byte: u8);

    /// Shortens the buffer to `len` bytes (no effect when it is shorter).
    fn truncate(&mut self, len: usize);

    /// Makes room for at least `additional` more bytes.
    fn reserve(&mut self, additional: usize);

    /// The bytes in the buffer.
    fn as_slice(&self) -> &[u8];

    /// The bytes in the buffer, to patch in place.
    fn as_mut_slice(&mut self) -> &mut [u8];
}

impl Output for Vec<u8> {
    #[inline(always)]
    fn len(&self) -> usize {
        Vec::len(self)
    }

    #[inline(always)]
    fn push(&mut self, byte: u8) {
        Vec::push(self, byte);
    }

    #[inline(always)]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        Vec::extend_from_slice(self, bytes);
    }

    #[inline(always)]
    fn extend_with(&mut self, n: usize, byte: u8) {
        self.resize(Vec::len(self) + n, byte);
    }

    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        Vec::truncate(self, len);
    }

    #[inline(always)]
    fn reserve(&mut self, additional: usize) {
        Vec::reserve(self, additional);
    }

    #[inline(always)]
    fn as_slice(&self) -> &[u8] {
        self
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [u8] {
        self
    }
}

#[cfg(feature = "bytes")]
impl Output for bytes::BytesMut {
    #[inline(always)]
    fn len(&self) -> usize {
        bytes::BytesMut::len(self)
    }

    #[inline(always)]
    fn push(&mut self, byte: u8) {
        // `BufMut::put_u8` goes through a call that is not inlined.
        bytes::BytesMut::extend_from_slice(self, &[byte]);
    }

    #[inline(always)]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        bytes::BytesMut::extend_from_slice(self, bytes);
    }

    #[inline(always)]
    fn extend_with(&mut self, n: usize, byte: u8) {
        self.resize(bytes::BytesMut::len(self) + n, byte);
    }

    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        bytes::BytesMut::truncate(self, len);
    }

    #[inline(always)]
    fn reserve(&mut self, additional: usize) {
        bytes::BytesMut::reserve(self, additional);
    }

    #[inline(always)]
    fn as_slice(&self) -> &[u8] {
        self
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [u8] {
        self
    }
}

impl<O: Output + ?Sized> Output for &mut O {
    #[inline(always)]
    fn len(&self) -> usize {
        (**self).len()
    }

    #[inline(always)]
    fn push(&mut self, byte: u8) {
        (**self).push(byte);
    }

    #[inline(always)]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        (**self).extend_from_slice(bytes);
    }

    #[inline(always)]
    fn extend_with(&mut self, n: usize, byte: u8) {
        (**self).extend_with(n, byte);
    }

    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        (**self).truncate(len);
    }

    #[inline(always)]
    fn reserve(&mut self, additional: usize) {
        (**self).reserve(additional);
    }

    #[inline(always)]
    fn as_slice(&self) -> &[u8] {
        (**self).as_slice()
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [u8] {
        (**self).as_mut_slice()
    }
}
