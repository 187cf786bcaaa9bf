//! Typed `data`: serde types to and from the `data` field, through
//! `jtoo-serde`, with `()` and `None` meaning "no `data`".

use jtoo::{Item, Value};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// `value` as a packet's `data`: `None` for a value with no JTOO form
/// (`()`, `None`), which leaves the field out.
pub(crate) fn to_data<T: Serialize + ?Sized>(value: &T) -> Result<Option<Value>, String> {
    /// A record whose one field serializers skip when it is absent.
    #[derive(Serialize)]
    struct Data<'a, T: ?Sized> {
        data: &'a T,
    }
    let record = jtoo_serde::to_value(&Data { data: value }).map_err(|e| e.to_string())?;
    let Value::List(items) = record else {
        return Ok(None);
    };
    Ok(items.into_iter().next().and_then(|item| match item {
        Item::Pair(pair) => Some(pair.into_parts().1),
        Item::Value(_) => None,
    }))
}

/// A packet's `data` as a `T`; no `data` reads as `()` (or `None`).
pub(crate) fn from_data<T: DeserializeOwned>(data: Option<Value>) -> Result<T, String> {
    match data {
        Some(v) => jtoo_serde::from_value(v).map_err(|e| e.to_string()),
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
        assert_eq!(to_data(&5).unwrap(), Some(Value::from(5)));
        from_data::<()>(None).unwrap();
        assert_eq!(from_data::<Option<i32>>(None).unwrap(), None);
        assert_eq!(from_data::<i32>(Some(Value::from(7))).unwrap(), 7);
        let e = from_data::<i32>(None).unwrap_err();
        assert!(e.starts_with("no data"), "{e}");
    }
}
