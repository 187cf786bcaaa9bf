//! Duplicate keys in maps. Duplicate keys are legal in the data model (a
//! list keeps every pair), but a layer that builds a map would keep only one
//! of them silently, so `deserialize_map` refuses the second. Structs
//! already refuse a repeated field (serde's derive does), and
//! `deserialize_any` (for `jtoo::Value`, `serde_json::Value`, untagged
//! enums) keeps every pair as the data model does.

use crate::error::Error;
use std::borrow::Cow;
use std::collections::BTreeSet;

/// The keys of one map seen so far, as canonical JTOO text: one value has
/// one spelling, so two keys are the same exactly when their canonical text
/// is. An ordered set needs no hashing (no hash flooding from hostile keys)
/// and allocates only once a map has a key.
#[derive(Default)]
pub(crate) struct SeenKeys<'a> {
    keys: BTreeSet<Cow<'a, [u8]>>,
}

impl<'a> SeenKeys<'a> {
    /// Records `canonical`, the canonical text of a key.
    ///
    /// # Errors
    /// When the map already has this key: the error names it.
    pub(crate) fn insert(&mut self, canonical: Cow<'a, [u8]>) -> Result<(), Error> {
        if self.keys.contains(&canonical) {
            return Err(duplicate(&canonical));
        }
        self.keys.insert(canonical);
        Ok(())
    }
}

#[cold]
fn duplicate(canonical: &[u8]) -> Error {
    Error::message(format_args!(
        "duplicate key `{}`: a map cannot hold the same key twice",
        String::from_utf8_lossy(canonical)
    ))
}
