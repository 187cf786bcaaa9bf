//! Typed `data`: serde types to and from the `data` field, through
//! `jtoo-serde`, with `()` and `None` meaning "no `data`".

use jtoo_serde::RawBuf;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// `value` as a packet's `data`, its canonical text: `None` for a value
/// with no JTOO form (`()`, `None`), which leaves the field out.
pub(crate) fn to_data<T: Serialize + ?Sized>(value: &T) -> Result<Option<RawBuf>, String> {
    jtoo_serde::to_raw_field(value).map_err(|e| e.to_string())
}

/// A packet's `data` as a `T`; no `data` reads as `()` (or `None`).
pub(crate) fn from_data<T: DeserializeOwned>(data: Option<&RawBuf>) -> Result<T, String> {
    match data {
        Some(raw) => raw.deserialize_into().map_err(|e| e.to_string()),
        None => T::deserialize(serde::de::value::UnitDeserializer::<jtoo_serde::Error>::new())
            .map_err(|e| format!("no data, {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_and_none_are_no_data() {
        assert_eq!(to_data(&()).unwrap(), None);
        assert_eq!(to_data(&None::<i32>).unwrap(), None);
        assert_eq!(to_data(&5).unwrap().unwrap().as_str(), "5");
        from_data::<()>(None).unwrap();
        assert_eq!(from_data::<Option<i32>>(None).unwrap(), None);
        let seven = RawBuf::from_text("7").unwrap();
        assert_eq!(from_data::<i32>(Some(&seven)).unwrap(), 7);
        let e = from_data::<i32>(None).unwrap_err();
        assert!(e.starts_with("no data"), "{e}");
    }
}
