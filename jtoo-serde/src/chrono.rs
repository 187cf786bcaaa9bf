//! `#[serde(with = "…")]` modules that write `chrono` values in their JTOO
//! form (feature `chrono`, on by default).
//!
//! - [`timestamp`]: `chrono::DateTime<Utc>` as a JTOO timestamp (`S1_709_528_767`).
//! - [`datetime`]: `DateTime<Utc>`, `DateTime<FixedOffset>`, `NaiveDateTime`
//!   or `NaiveDate` as a JTOO date-time (`D2024-03-04T05:06:07Z`).
//!
//! Each has an `option` submodule for `Option<…>` fields; add
//! `#[serde(default)]` so a missing field reads as `None`.
//!
//! ```
//! use chrono::{DateTime, TimeZone, Utc};
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct Event {
//!     #[serde(with = "jtoo_serde::chrono::timestamp")]
//!     at: DateTime<Utc>,
//!     #[serde(with = "jtoo_serde::chrono::datetime")]
//!     local: DateTime<Utc>,
//!     #[serde(with = "jtoo_serde::chrono::timestamp::option", default)]
//!     done: Option<DateTime<Utc>>,
//! }
//! let at = Utc.with_ymd_and_hms(2024, 3, 4, 5, 6, 7).unwrap();
//! let e = Event { at, local: at, done: None };
//! let text = jtoo_serde::to_string(&e)?;
//! assert_eq!(text, r#"["at":S1_709_528_767,"local":D2024-03-04T05:06:07Z]"#);
//! assert_eq!(jtoo_serde::from_str::<Event>(&text)?, e);
//! # Ok::<(), jtoo_serde::Error>(())
//! ```

/// `chrono::DateTime<Utc>` as a JTOO timestamp.
pub mod timestamp {
    use chrono::{DateTime, Utc};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the instant as a timestamp.
    ///
    /// # Errors
    /// Instants outside the years 0001–9999.
    pub fn serialize<S: Serializer>(v: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        jtoo::Timestamp::try_from(*v)
            .map_err(|e| serde::ser::Error::custom(e.message()))?
            .serialize(s)
    }

    /// Reads a timestamp.
    ///
    /// # Errors
    /// Anything but a JTOO timestamp.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        jtoo::Timestamp::deserialize(d).map(DateTime::<Utc>::from)
    }

    /// `Option<DateTime<Utc>>` as an optional timestamp.
    pub mod option {
        use chrono::{DateTime, Utc};
        use serde::{Deserialize, Deserializer, Serializer};

        /// `None` is left out (when it is a field); `Some` as a timestamp.
        ///
        /// # Errors
        /// As [`super::serialize`].
        pub fn serialize<S: Serializer>(
            v: &Option<DateTime<Utc>>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            match v {
                Some(v) => s.serialize_some(&W(*v)),
                None => s.serialize_none(),
            }
        }

        /// A present value is `Some`.
        ///
        /// # Errors
        /// As [`super::deserialize`].
        pub fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<DateTime<Utc>>, D::Error> {
            Option::<R>::deserialize(d).map(|o| o.map(|r| r.0))
        }

        struct W(DateTime<Utc>);
        impl serde::Serialize for W {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                super::serialize(&self.0, s)
            }
        }
        struct R(DateTime<Utc>);
        impl<'de> Deserialize<'de> for R {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<R, D::Error> {
                super::deserialize(d).map(R)
            }
        }
    }
}

/// A `chrono` date, date-time or zoned date-time as a JTOO date-time.
pub mod datetime {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::fmt::Display;

    /// Writes the value as a JTOO date-time.
    ///
    /// # Errors
    /// Values outside the years 0001–9999 or offsets JTOO cannot write.
    pub fn serialize<T, S>(v: &T, s: S) -> Result<S::Ok, S::Error>
    where
        T: Clone + TryInto<jtoo::DateTime>,
        T::Error: Display,
        S: Serializer,
    {
        let dt: jtoo::DateTime = v.clone().try_into().map_err(serde::ser::Error::custom)?;
        dt.serialize(s)
    }

    /// Reads a JTOO date-time.
    ///
    /// # Errors
    /// Anything but a date-time of the precision `T` needs.
    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: TryFrom<jtoo::DateTime>,
        T::Error: Display,
        D: Deserializer<'de>,
    {
        let dt = jtoo::DateTime::deserialize(d)?;
        T::try_from(dt).map_err(serde::de::Error::custom)
    }

    /// `Option<…>` as an optional JTOO date-time.
    pub mod option {
        use serde::{Deserialize, Deserializer, Serializer};
        use std::fmt::Display;

        /// `None` is left out (when it is a field); `Some` as a date-time.
        ///
        /// # Errors
        /// As [`super::serialize`].
        pub fn serialize<T, S>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error>
        where
            T: Clone + TryInto<jtoo::DateTime>,
            T::Error: Display,
            S: Serializer,
        {
            match v {
                Some(v) => {
                    let dt: jtoo::DateTime =
                        v.clone().try_into().map_err(serde::ser::Error::custom)?;
                    s.serialize_some(&dt)
                }
                None => s.serialize_none(),
            }
        }

        /// A present value is `Some`.
        ///
        /// # Errors
        /// As [`super::deserialize`].
        pub fn deserialize<'de, T, D>(d: D) -> Result<Option<T>, D::Error>
        where
            T: TryFrom<jtoo::DateTime>,
            T::Error: Display,
            D: Deserializer<'de>,
        {
            match Option::<jtoo::DateTime>::deserialize(d)? {
                Some(dt) => T::try_from(dt).map(Some).map_err(serde::de::Error::custom),
                None => Ok(None),
            }
        }
    }
}
