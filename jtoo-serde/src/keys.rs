//! Duplicate keys in maps. Duplicate keys are legal in the data model (a
//! list keeps every pair), but a layer that builds a map would keep only one
//! of them silently, so every map this crate hands to a visitor refuses the
//! second: `deserialize_map` (`HashMap`, `BTreeMap`, `flatten`) and
//! `deserialize_any` (`serde_json::Value`, the buffering of untagged and
//! internally tagged enums). Structs are left to their visitor: serde's
//! derive already refuses a repeated field, and checking each field name
//! twice would slow every struct down. `jtoo::Value` keeps every pair, as
//! the data model does (it is read exactly, not through `deserialize_any`).

use crate::error::Error;
use std::borrow::Cow;
use std::collections::HashSet;

/// How many keys of one map are compared one by one (fingerprint first)
/// before they move to a hash set. Objects of real documents have fewer
/// keys (twitter.json's largest has 40); comparing is cheaper than hashing
/// there, and bounded (at most 2,016 comparisons a map).
const SMALL: usize = 64;

/// The keys of the maps being read, the innermost map's last: one buffer
/// for every map of a document, so a map costs no allocation, and nothing
/// to set up. Each map owns the part from its [`SeenKeys::base`] up.
#[derive(Default)]
pub(crate) struct KeyStack<'a> {
    /// Each key's fingerprint (compared first) and text.
    entries: Vec<(u64, Key<'a>)>,
    /// The text of the keys that are not in the input (HTOO spellings made
    /// canonical, the keys of a `jtoo::Value`).
    own: Vec<u8>,
}

/// Where a key's canonical text is: plain data, so giving the stack back is
/// a truncation.
#[derive(Clone, Copy)]
enum Key<'a> {
    Input(&'a [u8]),
    Own(usize, usize),
}

impl<'a> KeyStack<'a> {
    fn len(&self) -> usize {
        self.entries.len()
    }

    fn text(&self, key: Key<'a>) -> &[u8] {
        match key {
            Key::Input(text) => text,
            Key::Own(start, end) => self.own.get(start..end).unwrap_or_default(),
        }
    }
}

/// The keys of one map seen so far, as canonical JTOO text: one value has
/// one spelling, so two keys are the same exactly when their canonical text
/// is. The first [`SMALL`] keys are in the [`KeyStack`]; from then on they
/// are in a hash set with std's randomly keyed hasher (no hash flooding
/// from hostile keys). [`SeenKeys::finish`] hands the stack back.
pub(crate) struct SeenKeys<'a> {
    /// Where this map's keys start in the stack's `keys` and `own`.
    base: usize,
    own_base: usize,
    large: Option<HashSet<Cow<'a, [u8]>>>,
    /// A plain item of a list read as a map was seen (it is presented under
    /// the one private key `$__jtoo_private_Item`).
    item: bool,
}

/// A cheap summary of a key's text (its length and its first and last
/// eight bytes): equal keys have equal fingerprints, most different keys
/// not.
#[inline]
fn fingerprint(key: &[u8]) -> u64 {
    let n = key.len();
    let (head, tail) = match (key.first_chunk::<8>(), key.last_chunk::<8>()) {
        (Some(head), Some(tail)) => (u64::from_le_bytes(*head), u64::from_le_bytes(*tail)),
        _ => (key.iter().fold(0, |w, &b| (w << 8) | u64::from(b)), 0),
    };
    (n as u64) ^ head.rotate_left(8) ^ tail.rotate_left(40)
}

impl<'a> SeenKeys<'a> {
    /// A map that starts now, inside the maps already on `stack`.
    #[inline]
    pub(crate) fn new(stack: &KeyStack<'a>) -> Self {
        SeenKeys {
            base: stack.len(),
            own_base: stack.own.len(),
            large: None,
            item: false,
        }
    }

    /// Records `canonical`, the canonical text of a key.
    ///
    /// # Errors
    /// When the map already has this key: the error names it.
    #[inline]
    pub(crate) fn insert(
        &mut self,
        stack: &mut KeyStack<'a>,
        canonical: Cow<'a, [u8]>,
    ) -> Result<(), Error> {
        if self.large.is_none() {
            let f = fingerprint(&canonical);
            let mine = stack.entries.get(self.base..).unwrap_or_default();
            for (g, k) in mine {
                if *g == f && stack.text(*k) == &*canonical {
                    return Err(duplicate(&canonical));
                }
            }
            if mine.len() < SMALL {
                let key = match canonical {
                    Cow::Borrowed(text) => Key::Input(text),
                    Cow::Owned(text) => {
                        let start = stack.own.len();
                        stack.own.extend_from_slice(&text);
                        Key::Own(start, stack.own.len())
                    }
                };
                if stack.entries.capacity() == 0 {
                    // Room for the keys of a few nested maps at once.
                    stack.entries.reserve(SMALL);
                }
                stack.entries.push((f, key));
                return Ok(());
            }
        }
        self.insert_large(stack, canonical)
    }

    /// [`SeenKeys::insert`] past the first [`SMALL`] keys.
    #[cold]
    fn insert_large(
        &mut self,
        stack: &mut KeyStack<'a>,
        canonical: Cow<'a, [u8]>,
    ) -> Result<(), Error> {
        let large = match self.large.take() {
            Some(large) => self.large.insert(large),
            None => {
                // This map's keys move from the stack to a set of its own.
                let mut set = HashSet::with_capacity(4 * SMALL);
                for (_, key) in stack.entries.get(self.base..).unwrap_or_default() {
                    set.insert(match *key {
                        Key::Input(text) => Cow::Borrowed(text),
                        own => Cow::Owned(stack.text(own).to_vec()),
                    });
                }
                self.finish(stack);
                self.large.insert(set)
            }
        };
        match large.replace(canonical) {
            Some(repeated) => Err(duplicate(&repeated)),
            None => Ok(()),
        }
    }

    /// Records a plain item of a list presented as a map.
    ///
    /// # Errors
    /// At the second one: a map would keep only one of them.
    pub(crate) fn insert_item(&mut self) -> Result<(), Error> {
        if std::mem::replace(&mut self.item, true) {
            return Err(Error::message(
                "more than one plain item in a list read as a map: the map would keep only the last (read the list as `jtoo::Value`)",
            ));
        }
        Ok(())
    }

    /// The map is done (or abandoned): its keys leave `stack`.
    #[inline]
    pub(crate) fn finish(&self, stack: &mut KeyStack<'a>) {
        stack.entries.truncate(self.base);
        stack.own.truncate(self.own_base);
    }
}

/// A [`SeenKeys`] with a stack of its own, for a map that is not read from
/// one text (the maps of a `jtoo::Value`).
pub(crate) struct OwnKeys<'a> {
    stack: KeyStack<'a>,
    seen: SeenKeys<'a>,
}

impl<'a> OwnKeys<'a> {
    pub(crate) fn new() -> Self {
        let stack = KeyStack::default();
        let seen = SeenKeys::new(&stack);
        OwnKeys { stack, seen }
    }

    /// [`SeenKeys::insert`].
    pub(crate) fn insert(&mut self, canonical: Cow<'a, [u8]>) -> Result<(), Error> {
        self.seen.insert(&mut self.stack, canonical)
    }

    /// [`SeenKeys::insert_item`].
    pub(crate) fn insert_item(&mut self) -> Result<(), Error> {
        self.seen.insert_item()
    }
}

#[cold]
fn duplicate(canonical: &[u8]) -> Error {
    Error::message(format_args!(
        "duplicate key `{}`: a map cannot hold the same key twice",
        String::from_utf8_lossy(canonical)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_maps_find_every_repeat() {
        for n in [1, 2, SMALL - 1, SMALL, SMALL + 1, 3 * SMALL] {
            let keys: Vec<String> = (0..n).map(|i| format!("\"k{i}\"")).collect();
            for repeat in 0..n {
                let mut seen = OwnKeys::new();
                for k in &keys {
                    seen.insert(Cow::Borrowed(k.as_bytes())).unwrap();
                }
                let e = seen
                    .insert(Cow::Owned(keys[repeat].clone().into_bytes()))
                    .unwrap_err();
                assert!(e.to_string().contains(&keys[repeat]), "{e}");
            }
        }
    }

    #[test]
    fn nested_maps_share_the_stack_and_give_it_back() {
        let mut stack = KeyStack::default();
        let mut outer = SeenKeys::new(&stack);
        outer.insert(&mut stack, Cow::Borrowed(b"\"a\"")).unwrap();
        // An inner map may use the outer map's keys; a large one too.
        let mut inner = SeenKeys::new(&stack);
        let many: Vec<String> = (0..2 * SMALL).map(|i| format!("{i}")).collect();
        inner
            .insert(&mut stack, Cow::Owned(b"\"a\"".to_vec()))
            .unwrap();
        for k in &many {
            inner
                .insert(&mut stack, Cow::Borrowed(k.as_bytes()))
                .unwrap();
        }
        assert!(inner.insert(&mut stack, Cow::Borrowed(b"7")).is_err());
        inner.finish(&mut stack);
        // The outer map sees only its own keys again.
        outer.insert(&mut stack, Cow::Borrowed(b"7")).unwrap();
        assert!(outer.insert(&mut stack, Cow::Borrowed(b"\"a\"")).is_err());
        outer.finish(&mut stack);
        assert_eq!((stack.len(), stack.own.len()), (0, 0));
    }

    #[test]
    fn fingerprints_of_equal_keys_are_equal() {
        for k in [
            &b""[..],
            b"1",
            b"\"a\"",
            b"\"abcdefgh\"",
            b"\"a long key, longer than 16\"",
        ] {
            let copy = k.to_vec();
            assert_eq!(fingerprint(k), fingerprint(&copy));
        }
        assert_ne!(fingerprint(b"\"id\""), fingerprint(b"\"ix\""));
    }

    #[test]
    fn one_plain_item_is_fine_two_are_not() {
        let mut seen = OwnKeys::new();
        seen.insert_item().unwrap();
        seen.insert(Cow::Borrowed(b"\"a\"")).unwrap();
        assert!(seen.insert_item().is_err());
    }
}
