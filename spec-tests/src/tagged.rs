//! Tagged JSON: the language-neutral form of a JTOO value used by the
//! conformance suite's cases and by `jtoo decode` / `jtoo encode`. The
//! mapping lives in [`jtoo::json::tagged`] (its table and rules); this
//! module keeps the suite's names for it.
//!
//! ```
//! use spec_tests::tagged::{from_tagged, to_tagged};
//! let v = jtoo::from_str(r#"["n":1_000,"at":S0,"b":B4f]"#).unwrap();
//! let t = to_tagged(&v);
//! assert_eq!(
//!     t.to_string(),
//!     r#"[{"key":{"type":"string","value":"n"},"value":{"type":"integer","value":"1000"}},{"key":{"type":"string","value":"at"},"value":{"type":"timestamp","value":"S0"}},{"key":{"type":"string","value":"b"},"value":{"type":"bytes","value":"4f"}}]"#
//! );
//! assert_eq!(from_tagged(&t).unwrap(), v);
//! ```

use jtoo::Value;
use serde_json::Value as Json;

pub use jtoo::json::tagged::{MAX_TAGGED_DEPTH, to_tagged};

/// Reads tagged JSON back into a [`Value`] ([`jtoo::json::tagged::from_tagged`]),
/// the error as its message.
///
/// # Errors
///
/// A message naming the JSON path of the first problem.
pub fn from_tagged(j: &Json) -> Result<Value, String> {
    jtoo::json::tagged::from_tagged(j).map_err(|e| e.to_string())
}
