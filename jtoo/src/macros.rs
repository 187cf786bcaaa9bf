//! The [`jtoo!`](crate::jtoo!) macro and its support.

use crate::{Date, DateTime, Decimal, Error, Integer, Item, Pair, Time, Timestamp, Value};

/// Builds a [`Value`] from JTOO-like syntax, as `serde_json::json!` does
/// for JSON: `[…]` is a list, `key: value` inside it a pair, anything else
/// a Rust expression converted to a value.
///
/// ```
/// use jtoo::jtoo;
/// let port = 8080;
/// let hosts = vec!["a.example", "b.example"];
/// let v = jtoo!([
///     "service": "billing",
///     "port": port,
///     "ratio": 0.75,
///     "enabled": true,
///     "started": "D2024-03-04T10:20:30~08".parse::<jtoo::DateTime>()?,
///     "hosts": [hosts[0], hosts[1]],
///     "limits": [1: "one", 2: "two"],
///     "empty": [],
///     7,
/// ])?;
/// assert_eq!(
///     v.to_string(),
///     r#"["service":"billing","port":8_080,"ratio":0.75,"enabled":Y,"started":D2024-03-04T10:20:30~08,"hosts":["a.example","b.example"],"limits":[1:"one",2:"two"],"empty":[],7]"#
/// );
/// # Ok::<(), jtoo::Error>(())
/// ```
///
/// It returns `Result<Value, jtoo::Error>`, not a bare [`Value`]: some Rust
/// values have no JTOO form (a NaN or infinite float, a time of hour or
/// minute precision without an offset used as a key), and the macro reports
/// them instead of panicking.
///
/// ```
/// let nan = f64::NAN;
/// assert!(jtoo::jtoo!(["x": nan]).is_err());
/// ```
///
/// Keys and values take any expression of a type with a JTOO form: the
/// integers, `bool`, `f64`/`f32`, `&str`/`String`, `&[u8]` (a byte
/// string), [`Integer`], [`Decimal`], [`Date`], [`Time`], [`DateTime`],
/// [`Timestamp`], [`Value`] (also by reference), `Vec<Value>` and
/// `Vec<Item>`. A value with commas outside brackets (`f::<A, B>()`) needs
/// parentheses. There is no `null` (leave the member out) and no `{…}`
/// (records are lists of pairs); both are compile errors that say so:
///
/// ```compile_fail
/// let v = jtoo::jtoo!(["debug": null]);
/// ```
///
/// ```compile_fail
/// let v = jtoo::jtoo!(["server": {"port": 80}]);
/// ```
#[macro_export]
macro_rules! jtoo {
    // -- items of a list: fast paths for one-token keys and whole values.
    (@items $v:ident []) => {};
    (@items $v:ident [] $($key:tt :)? null $(, $($rest:tt)*)?) => {
        compile_error!("JTOO has no null: leave the member out")
    };
    (@items $v:ident [] $($key:tt :)? { $($record:tt)* } $(, $($rest:tt)*)?) => {
        compile_error!("records are lists of pairs: jtoo!([\"key\": value])")
    };
    (@items $v:ident [] $key:tt : [$($list:tt)*] , $($rest:tt)*) => {
        $v.push($crate::__private::pair($crate::jtoo!($key)?, $crate::jtoo!([$($list)*])?)?);
        $crate::jtoo!(@items $v [] $($rest)*);
    };
    (@items $v:ident [] $key:tt : [$($list:tt)*]) => {
        $v.push($crate::__private::pair($crate::jtoo!($key)?, $crate::jtoo!([$($list)*])?)?);
    };
    (@items $v:ident [] [$($list:tt)*] , $($rest:tt)*) => {
        $v.push($crate::Item::Value($crate::jtoo!([$($list)*])?));
        $crate::jtoo!(@items $v [] $($rest)*);
    };
    (@items $v:ident [] [$($list:tt)*]) => {
        $v.push($crate::Item::Value($crate::jtoo!([$($list)*])?));
    };
    (@items $v:ident [] $key:tt : $value:expr , $($rest:tt)*) => {
        $v.push($crate::__private::pair($crate::jtoo!($key)?, $crate::jtoo!($value)?)?);
        $crate::jtoo!(@items $v [] $($rest)*);
    };
    (@items $v:ident [] $key:tt : $value:expr) => {
        $v.push($crate::__private::pair($crate::jtoo!($key)?, $crate::jtoo!($value)?)?);
    };
    // -- anything else: gather tokens up to `:` (a key) or `,`.
    (@items $v:ident [$($acc:tt)+] : $($rest:tt)*) => {
        $crate::jtoo!(@pair $v [$($acc)+] [] $($rest)*);
    };
    (@items $v:ident [$($acc:tt)+] , $($rest:tt)*) => {
        $v.push($crate::Item::Value($crate::jtoo!($($acc)+)?));
        $crate::jtoo!(@items $v [] $($rest)*);
    };
    (@items $v:ident [$($acc:tt)+]) => {
        $v.push($crate::Item::Value($crate::jtoo!($($acc)+)?));
    };
    (@items $v:ident [$($acc:tt)*] $next:tt $($rest:tt)*) => {
        $crate::jtoo!(@items $v [$($acc)* $next] $($rest)*);
    };
    // -- the value of a pair whose key took several tokens.
    (@pair $v:ident [$($key:tt)+] [$($acc:tt)+] , $($rest:tt)*) => {
        $v.push($crate::__private::pair($crate::jtoo!($($key)+)?, $crate::jtoo!($($acc)+)?)?);
        $crate::jtoo!(@items $v [] $($rest)*);
    };
    (@pair $v:ident [$($key:tt)+] [$($acc:tt)+]) => {
        $v.push($crate::__private::pair($crate::jtoo!($($key)+)?, $crate::jtoo!($($acc)+)?)?);
    };
    (@pair $v:ident [$($key:tt)+] [$($acc:tt)*] $next:tt $($rest:tt)*) => {
        $crate::jtoo!(@pair $v [$($key)+] [$($acc)* $next] $($rest)*);
    };
    // -- what JSON habits write.
    (null) => {
        compile_error!("JTOO has no null: leave the member out")
    };
    ({ $($tt:tt)* }) => {
        compile_error!("records are lists of pairs: jtoo!([\"key\": value])")
    };
    // -- a list, or any expression.
    ([ $($tt:tt)* ]) => {
        (|| -> ::core::result::Result<$crate::Value, $crate::Error> {
            #[allow(unused_mut)]
            let mut items = ::std::vec::Vec::<$crate::Item>::new();
            $crate::jtoo!(@items items [] $($tt)*);
            ::core::result::Result::Ok($crate::Value::List($crate::List::from(items)))
        })()
    };
    ($($value:tt)+) => {
        $crate::__private::ToValue::to_value($($value)+)
    };
}

/// Support of [`jtoo!`](crate::jtoo!); not a public API.
#[doc(hidden)]
pub mod __private {
    use super::*;

    /// A pair, checking the key.
    pub fn pair(key: Value, value: Value) -> Result<Item, Error> {
        Pair::new(key, value).map(Item::Pair)
    }

    /// The types `jtoo!` takes as values.
    pub trait ToValue {
        /// The value, or why there is none.
        fn to_value(self) -> Result<Value, Error>;
    }

    macro_rules! infallible {
        ($($t:ty),* $(,)?) => {$(
            impl ToValue for $t {
                fn to_value(self) -> Result<Value, Error> {
                    Ok(Value::from(self))
                }
            }
        )*};
    }
    infallible!(
        i8,
        i16,
        i32,
        i64,
        i128,
        isize,
        u8,
        u16,
        u32,
        u64,
        u128,
        usize,
        bool,
        &str,
        String,
        &[u8],
        Integer,
        Decimal,
        Date,
        Time,
        DateTime,
        Timestamp,
        Vec<Value>,
        Vec<Item>,
    );

    impl ToValue for &String {
        fn to_value(self) -> Result<Value, Error> {
            Ok(Value::from(self.as_str()))
        }
    }

    impl ToValue for f64 {
        fn to_value(self) -> Result<Value, Error> {
            Value::try_from(self)
        }
    }

    impl ToValue for f32 {
        fn to_value(self) -> Result<Value, Error> {
            Value::try_from(self)
        }
    }

    impl ToValue for Value {
        fn to_value(self) -> Result<Value, Error> {
            Ok(self)
        }
    }

    impl ToValue for &Value {
        fn to_value(self) -> Result<Value, Error> {
            Ok(self.clone())
        }
    }
}
