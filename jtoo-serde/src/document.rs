//! Serde through a lossless document: read a commented HTOO file into a
//! type, change it, and write it back with every comment and spelling that
//! was not changed kept ([`update`]).

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{Error, Result};

/// Writes `value` back into `doc`, a document read from a file, changing
/// only what differs (see [`htoo::Document::update`]): equal values keep
/// their text and comments, changed scalars are replaced in place, new
/// fields are inserted with the layout of their siblings, and fields that
/// are gone (a struct field that is now `None`, a map entry removed) are
/// removed with the comment block above them and their end-of-line comment.
/// The fields of a struct are matched by name, so the file keeps its order.
///
/// ```
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize)]
/// struct Config {
///     name: String,
///     port: u16,
///     #[serde(skip_serializing_if = "Option::is_none")]
///     legacy: Option<bool>,
///     #[serde(default)]
///     workers: u8,
/// }
///
/// let text = "\
/// // Service settings.
/// [
///   \"name\": \"api\", // the public name
///   \"port\": 8080,
///   // Old setting, to go.
///   \"legacy\": Y,
/// ]
/// ";
/// let mut doc = htoo::Document::parse(text)?;
/// let mut config: Config = jtoo_serde::from_document(&doc)?;
/// config.port = 9090;
/// config.legacy = None;
/// config.workers = 4;
/// jtoo_serde::update(&mut doc, &config)?;
/// assert_eq!(doc.to_string(), "\
/// // Service settings.
/// [
///   \"name\": \"api\", // the public name
///   \"port\": 9_090,
///   \"workers\": 4,
/// ]
/// ");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// What [`crate::to_value`] refuses (no null in JTOO, NaN, …), and what
/// [`htoo::Document::update`] refuses (nesting deeper than the document's
/// limit); the document is then unchanged.
pub fn update<T: Serialize + ?Sized>(doc: &mut htoo::Document, value: &T) -> Result<()> {
    let value = crate::to_value(value)?;
    doc.update(&value).map_err(Error::message)
}

/// Reads a `T` from a document's value, as [`crate::from_htoo_str`] reads
/// the document's text.
///
/// ```
/// let doc = htoo::Document::parse("[\"port\": 8080 /* default */]")?;
/// let m: std::collections::BTreeMap<String, u16> = jtoo_serde::from_document(&doc)?;
/// assert_eq!(m["port"], 8080);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// Data that does not fit `T`.
pub fn from_document<T: DeserializeOwned>(doc: &htoo::Document) -> Result<T> {
    crate::from_htoo_str(doc.as_str())
}
