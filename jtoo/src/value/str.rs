//! [`Str`]: the text of a JTOO string value.

use compact_str::CompactString;
use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::{Deref, DerefMut};

/// The text of a string value ([`Value::String`](crate::Value::String)):
/// UTF-8, stored inline (no allocation) up to 24 bytes, on the heap beyond.
///
/// Most strings in data are short (keys, names, identifiers, enum-like
/// values), so most strings of a parsed document cost no allocation. A `Str`
/// is used as a `String` is: it dereferences to `str` (so `len`, `chars`,
/// `starts_with`, comparisons with `&str` and `String` all work), grows
/// with [`push_str`](Str::push_str), converts from `&str`, `String`,
/// `Cow<str>` and `char`, and into a `String`.
///
/// ```
/// use jtoo::{Str, Value};
/// let v = Value::String("name".into());
/// let Value::String(s) = &v else { unreachable!() };
/// assert_eq!(s, "name");
/// assert_eq!(s.len(), 4);
/// assert!(s.is_inline());
///
/// let mut long = Str::from("a string longer than twenty-four bytes");
/// assert!(!long.is_inline());
/// long.push_str("!");
/// let owned: String = long.into();
/// assert!(owned.ends_with("bytes!"));
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Str(CompactString);

impl Str {
    /// The empty string (no allocation).
    pub const fn new() -> Str {
        Str(CompactString::const_new(""))
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// Appends `s`.
    pub fn push_str(&mut self, s: &str) {
        self.0.push_str(s);
    }

    /// Appends `c`.
    pub fn push(&mut self, c: char) {
        self.0.push(c);
    }

    /// `true` when the text is stored inline (24 bytes or fewer), without
    /// a heap allocation.
    pub fn is_inline(&self) -> bool {
        !self.0.is_heap_allocated()
    }

    /// The text as a `String` (reusing the heap buffer when there is one).
    pub fn into_string(self) -> String {
        self.0.into_string()
    }
}

impl Deref for Str {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl DerefMut for Str {
    fn deref_mut(&mut self) -> &mut str {
        self.0.as_mut_str()
    }
}

impl AsRef<str> for Str {
    fn as_ref(&self) -> &str {
        self
    }
}

impl AsRef<[u8]> for Str {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Borrow<str> for Str {
    fn borrow(&self) -> &str {
        self
    }
}

impl fmt::Debug for Str {
    /// As a `str` prints: `"text"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl fmt::Write for Str {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s);
        Ok(())
    }
}

impl From<&str> for Str {
    #[inline]
    fn from(s: &str) -> Str {
        Str(CompactString::new(s))
    }
}

impl From<&String> for Str {
    fn from(s: &String) -> Str {
        Str::from(s.as_str())
    }
}

impl From<String> for Str {
    fn from(s: String) -> Str {
        Str(CompactString::from(s))
    }
}

impl From<Box<str>> for Str {
    fn from(s: Box<str>) -> Str {
        Str(CompactString::from(s))
    }
}

impl From<Cow<'_, str>> for Str {
    #[inline]
    fn from(s: Cow<'_, str>) -> Str {
        match s {
            Cow::Borrowed(s) => Str::from(s),
            Cow::Owned(s) => Str::from(s),
        }
    }
}

impl From<char> for Str {
    fn from(c: char) -> Str {
        Str::from(&*c.encode_utf8(&mut [0; 4]))
    }
}

impl From<Str> for String {
    fn from(s: Str) -> String {
        s.into_string()
    }
}

impl FromIterator<char> for Str {
    fn from_iter<I: IntoIterator<Item = char>>(iter: I) -> Str {
        Str(iter.into_iter().collect())
    }
}

impl<'a> FromIterator<&'a str> for Str {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Str {
        Str(iter.into_iter().collect())
    }
}

impl Extend<char> for Str {
    fn extend<I: IntoIterator<Item = char>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

impl<'a> Extend<&'a str> for Str {
    fn extend<I: IntoIterator<Item = &'a str>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

impl std::str::FromStr for Str {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Str, Self::Err> {
        Ok(Str::from(s))
    }
}

macro_rules! eq_text {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Str {
            fn eq(&self, other: &$t) -> bool {
                self.as_str() == AsRef::<str>::as_ref(other)
            }
        }
        impl PartialEq<Str> for $t {
            fn eq(&self, other: &Str) -> bool {
                AsRef::<str>::as_ref(self) == other.as_str()
            }
        }
    )*};
}
eq_text!(str, &str, String, Cow<'_, str>);

#[cfg(test)]
mod tests {
    use super::Str;

    #[test]
    fn inline_up_to_24_bytes() {
        assert!(Str::from("x".repeat(24)).is_inline());
        assert!(!Str::from("x".repeat(25).as_str()).is_inline());
        assert_eq!(std::mem::size_of::<Str>(), 24);
    }

    #[test]
    fn compares_and_hashes_as_text() {
        use std::collections::HashSet;
        let s = Str::from("key");
        assert_eq!(s, "key");
        assert_eq!("key", s);
        assert_eq!(s, String::from("key"));
        let set: HashSet<Str> = [s.clone()].into_iter().collect();
        assert!(set.contains("key"));
        assert_eq!(format!("{s:?} {s}"), "\"key\" key");
    }
}
