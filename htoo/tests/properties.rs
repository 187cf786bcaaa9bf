//! Property tests over generated values:
//!
//! - strict round trip: `jtoo::from_slice(jtoo::to_vec(v)) == v`;
//! - every strict document means the same value in HTOO;
//! - pretty round trip: `htoo::from_str(to_string_pretty(v)) == v`, for any
//!   layout settings, and pretty-printing is idempotent;
//! - comments and whitespace may stand at every line break of pretty output.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::{
    Date, DateTime, Decimal, Item, Offset, Pair, Time, TimePrecision, Timestamp,
    TimestampPrecision, Value,
};
use proptest::prelude::*;

fn string() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        4 => any::<char>(),
        2 => prop::char::range('\0', '\x7f'),
        1 => prop::sample::select(vec!['"', '\\', '\x7f', '\u{85}', '\u{2028}', '你', '😀', '/', '*']),
    ];
    prop::collection::vec(ch, 0..12).prop_map(String::from_iter)
}

fn integer() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        (-2000i64..2000).prop_map(Value::from),
        any::<i128>().prop_map(Value::from),
        any::<u128>().prop_map(Value::from),
        prop::sample::select(vec![
            Value::from(i128::MIN),
            Value::from(i128::MAX),
            Value::from(u128::MAX),
            Value::from(0),
            Value::from(-1),
            Value::from(999),
            Value::from(1000),
        ]),
    ]
}

fn decimal() -> impl Strategy<Value = Value> {
    let coefficient = prop_oneof![
        (0u128..100_000),
        any::<u64>().prop_map(u128::from),
        // Up to 10^38: the decimal's text then fits a 128-bit coefficient.
        (0u128..10u128.pow(38)),
    ];
    (any::<bool>(), coefficient, prop_oneof![0u32..12, 0u32..40])
        .prop_map(|(neg, c, scale)| Value::Decimal(Decimal::new(neg, c, scale).unwrap()))
}

fn time() -> impl Strategy<Value = Time> {
    (0u8..24, 0u8..60, 0u8..61, 0u32..1_000_000_000, 0usize..6).prop_map(|(h, m, s, n, p)| {
        let (m, s, n, precision) = match p {
            0 => (0, 0, 0, TimePrecision::Hour),
            1 => (m, 0, 0, TimePrecision::Minute),
            2 => (m, s, 0, TimePrecision::Second),
            3 => (m, s, n / 1_000_000 * 1_000_000, TimePrecision::Millisecond),
            4 => (m, s, n / 1_000 * 1_000, TimePrecision::Microsecond),
            _ => (m, s, n, TimePrecision::Nanosecond),
        };
        Time::new(h, m, s, n, precision).unwrap()
    })
}

fn date() -> impl Strategy<Value = Date> {
    (
        1u16..=9999,
        1u8..=12,
        1u8..=28,
        1u8..=52,
        1u8..=7,
        0usize..5,
    )
        .prop_map(|(y, m, d, w, wd, kind)| {
            match kind {
                0 => Date::from_year(y),
                1 => Date::from_year_month(y, m),
                2 => Date::from_ymd(y, m, d),
                3 => Date::from_week(y, w),
                _ => Date::from_week_day(y, w, wd),
            }
            .unwrap()
        })
}

fn datetime() -> impl Strategy<Value = Value> {
    let offset = prop_oneof![
        Just(None),
        Just(Some(Offset::UTC)),
        (-Offset::MAX_MINUTES..=Offset::MAX_MINUTES)
            .prop_map(|m| Some(Offset::from_minutes(m).unwrap())),
        (-23i32..=23).prop_map(|h| Some(Offset::from_minutes(h * 60).unwrap())),
    ];
    (prop::option::of(date()), prop::option::of(time()), offset).prop_filter_map(
        "a date/time needs a date or a time, and a time a full date",
        |(d, t, o)| DateTime::new(d, t, o).ok().map(Value::DateTime),
    )
}

fn timestamp() -> impl Strategy<Value = Value> {
    let secs = prop_oneof![
        Timestamp::MIN_SECS..=Timestamp::MAX_SECS,
        -2_000i64..2_000,
        prop::sample::select(vec![Timestamp::MIN_SECS, Timestamp::MAX_SECS, -1, 0]),
    ];
    (secs, 0u32..1_000_000_000, 0usize..4).prop_map(|(s, n, p)| {
        let (n, precision) = match p {
            0 => (0, TimestampPrecision::Seconds),
            1 => (n / 1_000_000 * 1_000_000, TimestampPrecision::Milliseconds),
            2 => (n / 1_000 * 1_000, TimestampPrecision::Microseconds),
            _ => (n, TimestampPrecision::Nanoseconds),
        };
        Value::Timestamp(Timestamp::new(s, n, precision).unwrap())
    })
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        string().prop_map(Value::from),
        prop::collection::vec(any::<u8>(), 0..10).prop_map(Value::Bytes),
        any::<bool>().prop_map(Value::Bool),
        integer(),
        decimal(),
        datetime(),
        timestamp(),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(5, 96, 10, |inner| {
        let key = prop_oneof![
            3 => string().prop_map(Value::from),
            1 => integer(),
            1 => inner.clone(),
        ];
        let item = prop_oneof![
            2 => inner.clone().prop_map(Item::Value),
            // A key with no strict spelling (`T10` before `:`) stays a plain value.
            2 => (key, inner).prop_map(|(k, v)| match Pair::new(k.clone(), v) {
                Ok(p) => Item::Pair(p),
                Err(_) => Item::Value(k),
            }),
        ];
        prop::collection::vec(item, 0..10).prop_map(Value::from)
    })
}

fn config() -> impl Strategy<Value = htoo::PrettyConfig> {
    (0usize..5, prop_oneof![0usize..20, 20usize..120]).prop_map(|(indent, width)| {
        htoo::PrettyConfig::new()
            .with_indent(indent)
            .with_max_width(width)
    })
}

/// Deep enough for any generated value, shallow enough for the parser's stack.
fn lenient(text: &str) -> Value {
    match htoo::from_str(text) {
        Ok(v) => v,
        Err(e) => panic!("{}", htoo::render_diagnostic(&e, text.as_bytes(), "pretty")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn strict_round_trip(v in value()) {
        let text = jtoo::to_vec(&v).unwrap();
        prop_assert_eq!(jtoo::from_slice(&text).unwrap(), v);
    }

    #[test]
    fn strict_documents_mean_the_same_in_htoo(v in value()) {
        let text = jtoo::to_string(&v).unwrap();
        prop_assert_eq!(lenient(&text), v);
    }

    #[test]
    fn pretty_round_trip_and_idempotence(v in value()) {
        let pretty = htoo::to_string_pretty(&v);
        let back = lenient(&pretty);
        prop_assert_eq!(&back, &v);
        prop_assert_eq!(htoo::to_string_pretty(&back), pretty);
    }

    #[test]
    fn pretty_round_trip_with_any_layout(v in value(), cfg in config()) {
        let pretty = htoo::to_string_pretty_with(&v, &cfg);
        let back = lenient(&pretty);
        prop_assert_eq!(&back, &v);
        prop_assert_eq!(htoo::to_string_pretty_with(&back, &cfg), pretty);
    }

    #[test]
    fn pretty_of_canonical_input_is_stable(v in value()) {
        let canonical = jtoo::to_string(&v).unwrap();
        let once = htoo::to_string_pretty(&jtoo::from_str(&canonical).unwrap());
        let twice = htoo::to_string_pretty(&lenient(&once));
        prop_assert_eq!(once, twice);
    }

    #[test]
    fn comments_at_every_line_break(v in value()) {
        // Width 0 breaks every list, so every token boundary is a line break.
        let cfg = htoo::PrettyConfig::new().with_max_width(0);
        let pretty = htoo::to_string_pretty_with(&v, &cfg);
        let commented: String = pretty
            .split('\n')
            .map(|line| format!("/* c */{line} // c, ]\n"))
            .collect();
        prop_assert_eq!(lenient(&commented), v);
    }
}
