//! The scalar types of JTOO: small `Copy` values with validating
//! constructors, whose `Display` is their canonical JTOO text and whose
//! `FromStr` is its exact inverse. Their `Debug` is that text too, named:
//! `Date(D2024-03-04)`, `Offset(~08)`, `Integer(42)` (never the fields
//! they are stored in), in `{:?}` and `{:#?}` alike.

/// `Debug` as `Type(Display)` for each scalar type: its canonical JTOO
/// text, named.
macro_rules! debug_as_display {
    ($($t:ident),*) => {$(
        impl core::fmt::Debug for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, concat!(stringify!($t), "({})"), self)
            }
        }
    )*};
}

mod date;
mod datetime;
mod decimal;
mod integer;
mod offset;
mod time;
mod timestamp;

pub use date::Date;
pub use datetime::DateTime;
pub use decimal::{Decimal, MAX_SCALE as DECIMAL_MAX_SCALE};
pub use integer::Integer;
pub use offset::{Offset, OffsetSign};
pub use time::{Time, TimePrecision};
pub use timestamp::{Timestamp, TimestampPrecision};

debug_as_display!(Date, DateTime, Decimal, Integer, Offset, Time, Timestamp);

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 31: `{:#?}` showed `Date { year: 2024, kind: YearMonthDay,
    /// a: 3, b: 4 }` and `Offset { minutes: -480 }`.
    #[test]
    fn debug_is_the_named_jtoo_spelling() -> Result<(), crate::Error> {
        let dt: DateTime = "D2024-03-04T10:20~08".parse()?;
        let cases: [(String, &str); 7] = [
            (format!("{dt:?}"), "DateTime(D2024-03-04T10:20~08)"),
            (
                format!("{:?}", "D2024-03-04".parse::<Date>()?),
                "Date(D2024-03-04)",
            ),
            (
                format!("{:?}", "T10:20:30.400".parse::<Time>()?),
                "Time(T10:20:30.400)",
            ),
            (format!("{:#?}", "~08".parse::<Offset>()?), "Offset(~08)"),
            (format!("{:#?}", "1.5".parse::<Decimal>()?), "Decimal(1.5)"),
            (format!("{:?}", "-42".parse::<Integer>()?), "Integer(-42)"),
            (
                format!("{:?}", "S1_709_528_240.000_001".parse::<Timestamp>()?),
                "Timestamp(S1_709_528_240.000_001)",
            ),
        ];
        for (debug, expected) in cases {
            assert_eq!(debug, expected);
        }
        // Nested in a derived Debug, pretty or not: the same text.
        assert_eq!(
            format!("{:#?}", Some(dt)),
            "Some(\n    DateTime(D2024-03-04T10:20~08),\n)"
        );
        Ok(())
    }
}
