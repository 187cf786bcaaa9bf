//! Strategies shared by the property tests of this crate: any value the
//! model holds, scalars of every kind, lists of values and pairs.
#![allow(dead_code, clippy::unwrap_used)]

use jtoo::{Item, Pair, Value};
use proptest::prelude::*;
use std::io::Read;

pub fn arb_datetime() -> impl Strategy<Value = Value> {
    prop::sample::select(vec![
        "D2023",
        "D0001",
        "D9999",
        "D2023-01",
        "D2023-12-31",
        "D2024-02-29",
        "D2020-W53",
        "D2023-W01-1",
        "T00",
        "T23:59",
        "T10:20:30",
        "T23:59:60",
        "T10:20:30.400",
        "T10:20:30.400_500",
        "T10:20:30.400_500_600",
        "T10Z",
        "T10+01",
        "T10~08",
        "T10+0530",
        "D2023Z",
        "D2023-12~08",
        "D2023-12+08",
        "D2023-12-30T01",
        "D2023-12-30T01:02",
        "D2023-12-30T01:02:03~08",
        "D2023-W01-7T23:59:59.999_999_999~2359",
        "D2023-W05Z",
    ])
    .prop_map(|s| jtoo::from_str(s).unwrap())
}

pub fn arb_timestamp() -> impl Strategy<Value = Value> {
    (
        -62_135_596_800i64..=253_402_300_799,
        0u32..1_000_000_000,
        0usize..4,
    )
        .prop_map(|(secs, nanos, p)| {
            let unit = [1_000_000_000, 1_000_000, 1_000, 1][p];
            let text = {
                let frac = nanos / unit * unit;
                let precision = [
                    jtoo::TimestampPrecision::Seconds,
                    jtoo::TimestampPrecision::Milliseconds,
                    jtoo::TimestampPrecision::Microseconds,
                    jtoo::TimestampPrecision::Nanoseconds,
                ][p];
                let nanos = if p == 0 { 0 } else { frac };
                jtoo::Timestamp::new(secs, nanos, precision).unwrap()
            };
            Value::Timestamp(text)
        })
}

pub fn arb_scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<String>().prop_map(Value::from),
        prop::collection::vec(any::<u8>(), 0..8).prop_map(Value::Bytes),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<i128>().prop_map(Value::from),
        any::<u128>().prop_map(Value::from),
        (any::<bool>(), any::<u128>(), 0u32..60)
            .prop_map(|(n, c, s)| Value::Decimal(jtoo::Decimal::new(n, c, s).unwrap())),
        (any::<bool>(), any::<u64>(), -40i64..40).prop_map(|(n, c, e)| Value::Decimal(
            jtoo::Decimal::from_scientific(n, c.into(), e).unwrap()
        )),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| Value::try_from(f).unwrap()),
        arb_datetime(),
        arb_timestamp(),
    ]
}

pub fn arb_value() -> impl Strategy<Value = Value> {
    arb_scalar().prop_recursive(4, 64, 8, |inner| {
        prop::collection::vec(
            prop_oneof![
                inner.clone().prop_map(Item::Value),
                (inner.clone(), inner).prop_filter_map("unambiguous key", |(k, v)| Pair::new(k, v)
                    .ok()
                    .map(Item::Pair)),
            ],
            0..8,
        )
        .prop_map(Value::from)
    })
}

/// A source that returns at most `step` bytes per read, cycling through
/// sizes 1..=step so that every boundary falls somewhere.
pub struct Trickle<'a> {
    pub bytes: &'a [u8],
    pub step: usize,
    pub n: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        self.n = self.n % self.step + 1;
        let k = self.n.min(out.len()).min(self.bytes.len());
        out[..k].copy_from_slice(&self.bytes[..k]);
        self.bytes = &self.bytes[k..];
        Ok(k)
    }
}
