//! Python bindings of the JTOO core: the `jtoo._jtoo` extension module.
//!
//! Thin by rule: every grammar, encoding, frame, greeting and packet rule
//! lives in the Rust crates (`jtoo`, `htoo`, `jtoo-frame`, `jte`); this
//! module converts, and turns Rust errors into Python exceptions. `loads`
//! makes Python objects while jtoo parses (`jtoo::visit`); `dumps` writes
//! Python objects with jtoo's writers (`jtoo::encode::write_*`); frames,
//! greetings and packets go through `jtoo::Value`. The mapping is
//! documented in the package's README.md and in `python/jtoo/__init__.py`.
#![forbid(unsafe_code)]

use bytes::BytesMut;
use jtoo::parse::Syntax;
use jtoo::visit::{Scalar, VisitError, Visitor};
use jtoo::{
    Date, DateTime as JDateTime, Decimal, Integer, Offset, Pair as JPair, Time, TimePrecision,
    Timestamp as JTimestamp, TimestampPrecision, Value,
};
use jtoo_frame::{Frame as JFrame, FrameCodec, Greeting};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyMemoryView, PyString, PyTuple,
    PyType,
};
use tokio_util::codec::Decoder;

/// How deeply `dumps` follows nested Python lists and dicts (the parser's
/// default depth limit: what `loads` reads back). Deeper data, or a list
/// that contains itself, is refused with `ValueError`.
const MAX_DEPTH: usize = jtoo::Options::DEFAULT_MAX_DEPTH;

static DECIMAL: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static DATE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static TIME: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static DATETIME: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static TIMEDELTA: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static TIMEZONE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static DECODE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static FRAME_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static PACKET_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static UNSUPPORTED_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn decimal_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    DECIMAL.import(py, "decimal", "Decimal")
}

/// The `decimal.Context` that makes `loads`'s Decimals: its precision and
/// exponent range are the largest `decimal` has (`MAX_PREC`, `MAX_EMAX`,
/// `MIN_EMIN`) and it traps nothing, so nothing it makes is ever rounded.
struct Decimals {
    /// `create_decimal`: exactly the `Decimal` that `Decimal(text)` makes,
    /// with no keyword arguments to parse and no lookup of the thread's
    /// context.
    create: Py<PyAny>,
    /// `multiply`, with `TENTHS[k]` = `Decimal("1E-k")`: `c × 10^-k` is
    /// the coefficient times that power, exact (the product's exponent is
    /// the sum of the two, its coefficient `c × 1`). Made from a Python
    /// `int`, with no text for `decimal` to scan: about a third cheaper
    /// than `create_decimal` of the plain text.
    multiply: Py<PyAny>,
    tenths: Vec<Py<PyAny>>,
}

/// The largest scale made by `Decimals::multiply` (`1E-40`); finer ones
/// are made from their text.
const MAX_TENTH: usize = 40;

static DECIMALS: PyOnceLock<Decimals> = PyOnceLock::new();

fn decimals(py: Python<'_>) -> PyResult<&Decimals> {
    DECIMALS.get_or_try_init(py, || {
        let decimal = py.import("decimal")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("prec", decimal.getattr("MAX_PREC")?)?;
        kwargs.set_item("Emax", decimal.getattr("MAX_EMAX")?)?;
        kwargs.set_item("Emin", decimal.getattr("MIN_EMIN")?)?;
        kwargs.set_item("traps", PyList::empty(py))?;
        let context = decimal.getattr("Context")?.call((), Some(&kwargs))?;
        let create = context.getattr("create_decimal")?;
        let tenths = (0..=MAX_TENTH)
            .map(|k| Ok(create.call1((format!("1E-{k}"),))?.unbind()))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Decimals {
            create: create.unbind(),
            multiply: context.getattr("multiply")?.unbind(),
            tenths,
        })
    })
}

fn date_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    DATE.import(py, "datetime", "date")
}
fn time_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    TIME.import(py, "datetime", "time")
}
fn datetime_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    DATETIME.import(py, "datetime", "datetime")
}
fn timedelta_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    TIMEDELTA.import(py, "datetime", "timedelta")
}
fn timezone_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    TIMEZONE.import(py, "datetime", "timezone")
}

/// An exception of one of the package's Python error classes
/// (`jtoo._errors`), built with `args`.
fn py_error<'py, A>(py: Python<'py>, cell: &PyOnceLock<Py<PyType>>, name: &str, args: A) -> PyErr
where
    A: pyo3::call::PyCallArgs<'py>,
{
    let made = cell
        .import(py, "jtoo._errors", name)
        .and_then(|ty| ty.call1(args));
    match made {
        Ok(exc) => PyErr::from_value(exc),
        Err(e) => e,
    }
}

fn frame_error(py: Python<'_>, e: impl std::fmt::Display) -> PyErr {
    py_error(py, &FRAME_ERROR, "FrameError", (e.to_string(),))
}

fn packet_error(py: Python<'_>, e: impl std::fmt::Display) -> PyErr {
    py_error(py, &PACKET_ERROR, "PacketError", (e.to_string(),))
}

// ---------------------------------------------------------------------------
// Input bytes

/// The bytes of a `str` (UTF-8), `bytes`, `bytearray` or `memoryview`.
enum Input<'py> {
    Str(std::borrow::Cow<'py, str>),
    Bytes(&'py [u8]),
    Owned(Vec<u8>),
}

impl Input<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Input::Str(s) => s.as_bytes(),
            Input::Bytes(b) => b,
            Input::Owned(v) => v,
        }
    }
    fn is_str(&self) -> bool {
        matches!(self, Input::Str(_))
    }
}

fn input<'a, 'py>(obj: &'a Bound<'py, PyAny>, what: &str) -> PyResult<Input<'a>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Input::Str(s.to_cow()?));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Input::Bytes(b.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Input::Owned(b.to_vec()));
    }
    if obj.is_instance_of::<PyMemoryView>() {
        let bytes = obj.call_method0("tobytes")?;
        let bytes = bytes.cast::<PyBytes>()?;
        return Ok(Input::Owned(bytes.as_bytes().to_vec()));
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be str, bytes, bytearray or memoryview, not {}",
        type_name(obj)
    )))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// `jtoo.DecodeError(msg, doc, pos, lineno, colno)` for a parse error;
/// `pos` counts characters when the document was a `str` (as
/// `json.JSONDecodeError` does), bytes otherwise.
fn decode_error(py: Python<'_>, e: &jtoo::Error, doc: &Bound<'_, PyAny>, src: &Input) -> PyErr {
    let bytes = src.bytes();
    let offset = e.offset().min(bytes.len());
    let pos = if src.is_str() {
        // Code points before the offset: every byte that is not a UTF-8
        // continuation byte.
        bytes[..offset]
            .iter()
            .filter(|&&b| (b as i8) >= -0x40)
            .count()
    } else {
        offset
    };
    let (line, column) = match e.position() {
        Some(p) => (p.line, p.column),
        None => (1, 1),
    };
    py_error(
        py,
        &DECODE_ERROR,
        "DecodeError",
        (e.message(), doc.clone(), pos, line, column),
    )
}

// ---------------------------------------------------------------------------
// JTOO -> Python

/// Keys longer than this are not memoized.
const MAX_CACHED_KEY: usize = 64;
/// Slots of the key cache (a power of two).
const KEY_SLOTS: usize = 1024;

/// Record keys already made, kept across calls (as orjson keeps its key
/// cache): a key is made once, then shared. A slot holds one key; a
/// colliding key replaces it.
static KEYS: std::sync::Mutex<KeySlots> = std::sync::Mutex::new(Vec::new());

/// The key cache's slots: a key's text and its `str`.
type KeySlots = Vec<Option<(Box<str>, Py<PyString>)>>;

/// FNV-1a of a key's bytes: the key cache's slot.
#[inline]
fn key_slot(k: &str) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for &b in k.as_bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    (h as usize) & (KEY_SLOTS - 1)
}

/// Builds Python objects: from a document while it is parsed
/// (`jtoo::visit`, no `jtoo::Value` in between), or from a `jtoo::Value`
/// (frames, greetings, packets, JSON). One conversion of each kind.
struct ToPy<'py> {
    py: Python<'py>,
    /// The items of the open lists, in order; a pair is its key then its
    /// value (see [`OpenList`]).
    stack: Vec<Bound<'py, PyAny>>,
    /// For the open lists, the stack index of each pair's key.
    pair_keys: Vec<usize>,
    /// Decimal text, reused.
    text: String,
    /// The key cache, taken for this call (`None`: another thread has it).
    keys: Option<std::sync::MutexGuard<'static, KeySlots>>,
}

/// A list being built: where its items start on the stack and in
/// `pair_keys`, and whether every pair so far has a string key.
struct OpenList {
    base: usize,
    pairs_base: usize,
    str_keys: bool,
}

impl<'py> ToPy<'py> {
    fn new(py: Python<'py>) -> ToPy<'py> {
        let keys = KEYS.try_lock().ok().map(|mut k| {
            if k.is_empty() {
                k.resize_with(KEY_SLOTS, || None);
            }
            k
        });
        ToPy {
            py,
            stack: Vec::new(),
            pair_keys: Vec::new(),
            text: String::new(),
            keys,
        }
    }

    fn string(&self, s: &str) -> Bound<'py, PyAny> {
        PyString::new(self.py, s).into_any()
    }

    fn key_string(&mut self, k: &str) -> Bound<'py, PyAny> {
        let py = self.py;
        let Some(keys) = self.keys.as_mut().filter(|_| k.len() <= MAX_CACHED_KEY) else {
            return PyString::new(py, k).into_any();
        };
        let slot = &mut keys[key_slot(k)];
        if let Some((text, obj)) = slot
            && **text == *k
        {
            return obj.bind(py).clone().into_any();
        }
        let obj = PyString::new(py, k);
        *slot = Some((k.into(), obj.clone().unbind()));
        obj.into_any()
    }

    fn decimal(&mut self, d: &Decimal) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let scale = d.scale() as usize;
        let made = decimals(py)?;
        if d.exponent() < 0
            && let Some(tenth) = made.tenths.get(scale)
            && let Ok(c) = i64::try_from(d.coefficient())
        {
            // A fraction with a coefficient of at most 63 bits:
            // coefficient × 10^-scale (see `Decimals`).
            let c = if d.is_negative() { -c } else { c };
            return made.multiply.bind(py).call1((c, tenth.bind(py)));
        }
        let text = &mut self.text;
        text.clear();
        if d.exponent() < 0 {
            // A fraction: its plain text (`-65.613616999999977`, `0.0001`)
            // from the coefficient's digits, with no grouping to undo.
            if d.is_negative() {
                text.push('-');
            }
            let mut buf = itoa::Buffer::new();
            let digits = buf.format(d.coefficient());
            match digits.len().checked_sub(scale) {
                Some(whole) if whole > 0 => {
                    let (whole, fraction) = digits.split_at(whole);
                    text.push_str(whole);
                    text.push('.');
                    text.push_str(fraction);
                }
                _ => {
                    text.push_str("0.");
                    for _ in digits.len()..scale {
                        text.push('0');
                    }
                    text.push_str(digits);
                }
            }
        } else {
            // A whole decimal: its plain text (`1500.0`), so that the
            // Decimal keeps its `.0` (exponent -1) as JTOO writes it.
            text.push_str(&d.to_plain_string());
        }
        made.create.bind(py).call1((text.as_str(),))
    }

    fn make_scalar(&mut self, s: Scalar<'_>) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        Ok(match s {
            Scalar::String(s) => self.string(&s),
            Scalar::Integer(i) => integer_to_py(py, &i)?,
            Scalar::Decimal(d) => self.decimal(&d)?,
            Scalar::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
            Scalar::Bytes(b) => PyBytes::new(py, &b).into_any(),
            Scalar::DateTime(d) => datetime_to_py(py, &d)?,
            Scalar::Timestamp(t) => Bound::new(py, Timestamp(t))?.into_any(),
        })
    }

    fn make_key(&mut self, s: Scalar<'_>) -> PyResult<Bound<'py, PyAny>> {
        match s {
            Scalar::String(k) => Ok(self.key_string(&k)),
            s => self.make_scalar(s),
        }
    }

    fn open_list(&self) -> OpenList {
        OpenList {
            base: self.stack.len(),
            pairs_base: self.pair_keys.len(),
            str_keys: true,
        }
    }

    fn push_item(&mut self, value: Bound<'py, PyAny>) {
        self.stack.push(value);
    }

    fn push_pair(&mut self, list: &mut OpenList, key: Bound<'py, PyAny>, value: Bound<'py, PyAny>) {
        list.str_keys &= key.is_exact_instance_of::<PyString>();
        self.pair_keys.push(self.stack.len());
        self.stack.push(key);
        self.stack.push(value);
    }

    /// The list's object: a `list` of plain items; a `dict` when every
    /// item is a pair with a distinct string key; else a `list` whose pair
    /// items are `jtoo.Pair`s.
    fn close_list(&mut self, list: OpenList) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let items = self.stack.len() - list.base;
        let pairs = self.pair_keys.len() - list.pairs_base;
        let made = if pairs == 0 {
            PyList::new(py, self.stack.drain(list.base..))?.into_any()
        } else if 2 * pairs == items && list.str_keys {
            let dict = PyDict::new(py);
            let mut rest = self.stack[list.base..].iter();
            while let (Some(k), Some(v)) = (rest.next(), rest.next()) {
                dict.set_item(k, v)?;
            }
            if dict.len() == pairs {
                self.stack.truncate(list.base);
                dict.into_any()
            } else {
                self.pair_list(&list)?
            }
        } else {
            self.pair_list(&list)?
        };
        self.pair_keys.truncate(list.pairs_base);
        Ok(made)
    }

    /// The list's items with its pairs as `jtoo.Pair`s.
    fn pair_list(&mut self, list: &OpenList) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let mut marks = self.pair_keys[list.pairs_base..].iter().peekable();
        let mut out = Vec::new();
        let mut items = self.stack.drain(list.base..).enumerate();
        while let Some((i, x)) = items.next() {
            if marks.peek() == Some(&&(list.base + i)) {
                marks.next();
                let Some((_, value)) = items.next() else {
                    break;
                };
                out.push(
                    Bound::new(
                        py,
                        Pair {
                            key: x.unbind(),
                            value: value.unbind(),
                        },
                    )?
                    .into_any(),
                );
            } else {
                out.push(x);
            }
        }
        Ok(PyList::new(py, out)?.into_any())
    }

    /// A `jtoo::Value` (frames, greetings, packets, JSON text): the same
    /// conversions as a document's.
    fn value(&mut self, v: &Value) -> PyResult<Bound<'py, PyAny>> {
        let Value::List(l) = v else {
            return self.make_scalar(value_scalar(v));
        };
        let mut list = self.open_list();
        for item in l.iter() {
            match item.as_pair() {
                Some(p) => {
                    let key = match p.key() {
                        Value::List(_) => self.value(p.key())?,
                        k => self.make_key(value_scalar(k))?,
                    };
                    let value = self.value(p.value())?;
                    self.push_pair(&mut list, key, value);
                }
                None => {
                    let value = self.value(item.value())?;
                    self.push_item(value);
                }
            }
        }
        self.close_list(list)
    }
}

/// A scalar `Value` as the visitor's [`Scalar`] (a list: an empty string,
/// never asked for).
fn value_scalar(v: &Value) -> Scalar<'_> {
    match v {
        Value::String(s) => Scalar::String(std::borrow::Cow::Borrowed(s)),
        Value::Bytes(b) => Scalar::Bytes(b.clone()),
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Integer(i) => Scalar::Integer(*i),
        Value::Decimal(d) => Scalar::Decimal(*d),
        Value::DateTime(d) => Scalar::DateTime(*d),
        Value::Timestamp(t) => Scalar::Timestamp(*t),
        Value::List(_) => Scalar::String(std::borrow::Cow::Borrowed("")),
    }
}

impl<'a, 'py> Visitor<'a> for ToPy<'py> {
    type Value = Bound<'py, PyAny>;
    type List = OpenList;
    type Error = PyErr;

    #[inline]
    fn scalar(&mut self, s: Scalar<'a>) -> PyResult<Bound<'py, PyAny>> {
        self.make_scalar(s)
    }
    #[inline]
    fn key(&mut self, s: Scalar<'a>) -> PyResult<Bound<'py, PyAny>> {
        self.make_key(s)
    }
    #[inline]
    fn begin_list(&mut self) -> PyResult<OpenList> {
        Ok(self.open_list())
    }
    #[inline]
    fn item(&mut self, _: &mut OpenList, value: Bound<'py, PyAny>) -> PyResult<()> {
        self.push_item(value);
        Ok(())
    }
    #[inline]
    fn pair(
        &mut self,
        list: &mut OpenList,
        key: Bound<'py, PyAny>,
        value: Bound<'py, PyAny>,
    ) -> PyResult<()> {
        self.push_pair(list, key, value);
        Ok(())
    }
    #[inline]
    fn end_list(&mut self, list: OpenList) -> PyResult<Bound<'py, PyAny>> {
        self.close_list(list)
    }
}

fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    ToPy::new(py).value(v)
}

fn integer_to_py<'py>(py: Python<'py>, i: &Integer) -> PyResult<Bound<'py, PyAny>> {
    if let Some(small) = i.to_i64() {
        return Ok(small.into_pyobject(py)?.into_any());
    }
    let magnitude = i.magnitude().into_pyobject(py)?.into_any();
    if i.is_negative() {
        magnitude.neg()
    } else {
        Ok(magnitude)
    }
}

/// A `Time` that `datetime.time` holds exactly: whole seconds (precision
/// `Second`) or a non-zero count of microseconds (precision `Microsecond`),
/// and no leap second. Returns (hour, minute, second, microsecond).
fn native_time(t: &Time) -> Option<(u8, u8, u8, u32)> {
    let exact = match t.precision() {
        TimePrecision::Second => true,
        TimePrecision::Microsecond => t.nanosecond() != 0,
        _ => false,
    };
    (exact && t.second() <= 59).then(|| (t.hour(), t.minute(), t.second(), t.nanosecond() / 1000))
}

/// A year-month-day date that `datetime.date` holds (years 1 to 9999).
fn native_date(d: &Date) -> Option<(u16, u8, u8)> {
    if d.is_week_date() || !d.is_full_day() {
        return None;
    }
    d.to_ymd().filter(|(y, _, _)| *y >= 1)
}

fn tzinfo<'py>(py: Python<'py>, offset: Option<Offset>) -> PyResult<Bound<'py, PyAny>> {
    match offset {
        None => Ok(py.None().into_bound(py)),
        Some(o) => {
            let delta = timedelta_type(py)?.call1((0, i64::from(o.minutes()) * 60))?;
            timezone_type(py)?.call1((delta,))
        }
    }
}

fn datetime_to_py<'py>(py: Python<'py>, d: &JDateTime) -> PyResult<Bound<'py, PyAny>> {
    let date = d.date().map(|x| native_date(&x));
    let time = d.time().map(|x| native_time(&x));
    match (date, time, d.offset()) {
        (Some(Some((y, m, day))), None, None) => date_type(py)?.call1((y, m, day)),
        (None, Some(Some((h, mi, s, us))), offset) => {
            time_type(py)?.call1((h, mi, s, us, tzinfo(py, offset)?))
        }
        (Some(Some((y, m, day))), Some(Some((h, mi, s, us))), offset) => {
            datetime_type(py)?.call1((y, m, day, h, mi, s, us, tzinfo(py, offset)?))
        }
        _ => Ok(Bound::new(py, DateTime(*d))?.into_any()),
    }
}

// ---------------------------------------------------------------------------
// Python -> JTOO

/// Writes `obj`'s canonical JTOO text straight into one buffer with jtoo's
/// writers (`jtoo::encode::write_*`: one spelling per rule), with no
/// `jtoo::Value` in between; `default` as in `json.dumps`.
struct Writer<'a, 'py> {
    py: Python<'py>,
    default: Option<&'a Bound<'py, PyAny>>,
    out: Vec<u8>,
    keys: Spelled<'py>,
}

fn too_deep() -> PyErr {
    PyValueError::new_err(format!(
        "nested deeper than {MAX_DEPTH} lists (or a circular reference)"
    ))
}

/// The UTF-8 text of a `str` (`bytes` from `str.encode`, without the copy
/// into a Rust `String` that `to_cow` makes under the Python 3.9 ABI;
/// checked again by simdutf8, as safe Rust must).
fn write_pystr(out: &mut Vec<u8>, s: &Bound<'_, PyString>) -> PyResult<()> {
    let utf8 = s.encode_utf8()?;
    let text = simdutf8::basic::from_utf8(utf8.as_bytes())
        .map_err(|_| PyValueError::new_err("a str that is not UTF-8"))?;
    jtoo::encode::write_str(out, text);
    Ok(())
}

/// Slots of `dumps`' key cache (a power of two).
const SPELLED_SLOTS: usize = 256;
/// The most bytes of key spellings one `dumps` call keeps.
const SPELLED_BYTES: usize = 1 << 16;

/// A key object's address, the object, and its spelling in [`Spelled::text`].
type SpelledKey<'py> = (usize, Bound<'py, PyString>, std::ops::Range<usize>);

/// The JTOO spellings of the dict keys written so far in one `dumps` call,
/// by object: a `str` key object (keys are usually shared objects) is
/// encoded once. Each entry holds its object, so that the object cannot be
/// freed and its address reused while the entry lives.
struct Spelled<'py> {
    slots: Vec<Option<SpelledKey<'py>>>,
    text: Vec<u8>,
}

impl<'py> Spelled<'py> {
    fn new() -> Spelled<'py> {
        Spelled {
            slots: Vec::new(),
            text: Vec::new(),
        }
    }

    /// Writes the key `k` to `out`, from the cache when `k` was met before.
    fn write(&mut self, out: &mut Vec<u8>, k: &Bound<'py, PyString>) -> PyResult<()> {
        let addr = k.as_ptr() as usize;
        if self.slots.is_empty() {
            self.slots.resize_with(SPELLED_SLOTS, || None);
        }
        let slot = &mut self.slots[(addr >> 4) & (SPELLED_SLOTS - 1)];
        if let Some((a, _, range)) = slot
            && *a == addr
        {
            out.extend_from_slice(&self.text[range.clone()]);
            return Ok(());
        }
        let start = out.len();
        write_pystr(out, k)?;
        if self.text.len() < SPELLED_BYTES {
            let at = self.text.len();
            self.text.extend_from_slice(&out[start..]);
            *slot = Some((addr, k.clone(), at..self.text.len()));
        }
        Ok(())
    }
}

impl<'py> Writer<'_, 'py> {
    fn value(&mut self, obj: &Bound<'py, PyAny>, depth: usize) -> PyResult<()> {
        self.value_or_pair(obj, depth, false)
    }

    /// `obj`'s text; a `jtoo.Pair` is written as a pair when `in_list`
    /// (an item of a list), refused anywhere else. The pair check comes
    /// after the common exact types, so that plain items cost no more.
    fn value_or_pair(
        &mut self,
        obj: &Bound<'py, PyAny>,
        depth: usize,
        in_list: bool,
    ) -> PyResult<()> {
        let py = self.py;
        // The common exact types first (one pointer comparison each).
        if let Ok(s) = obj.cast_exact::<PyString>() {
            return write_pystr(&mut self.out, s);
        }
        if let Ok(d) = obj.cast_exact::<PyDict>() {
            return self.dict(d, depth);
        }
        if let Ok(l) = obj.cast_exact::<PyList>() {
            return self.list(&l.to_tuple(), depth);
        }
        if let Ok(i) = obj.cast_exact::<PyInt>() {
            return self.int(i);
        }
        if let Ok(b) = obj.cast::<PyBool>() {
            jtoo::encode::write_bool(&mut self.out, b.is_true());
            return Ok(());
        }
        if let Ok(f) = obj.cast::<PyFloat>() {
            return jtoo::encode::write_f64(&mut self.out, f.value()).map_err(|_| {
                PyValueError::new_err(format!(
                    "Out of range float values are not JTOO compliant: {}",
                    f.value()
                ))
            });
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return write_pystr(&mut self.out, s);
        }
        if let Ok(d) = obj.cast::<PyDict>() {
            return self.dict(d, depth);
        }
        if let Ok(l) = obj.cast::<PyList>() {
            return self.list(&l.to_tuple(), depth);
        }
        if let Ok(i) = obj.cast::<PyInt>() {
            return self.int(i);
        }
        if obj.is_instance(decimal_type(py)?)? {
            jtoo::encode::write_decimal(&mut self.out, &py_decimal(obj)?);
            return Ok(());
        }
        if let Ok(b) = obj.cast::<PyBytes>() {
            jtoo::encode::write_bytes(&mut self.out, b.as_bytes());
            return Ok(());
        }
        if let Ok(b) = obj.cast::<PyByteArray>() {
            jtoo::encode::write_bytes(&mut self.out, &b.to_vec());
            return Ok(());
        }
        if let Ok(t) = obj.cast::<PyTuple>() {
            return self.list(t, depth);
        }
        if let Ok(d) = obj.cast::<DateTime>() {
            jtoo::encode::write_datetime(&mut self.out, &d.get().0);
            return Ok(());
        }
        if let Ok(t) = obj.cast::<Timestamp>() {
            jtoo::encode::write_timestamp(&mut self.out, &t.get().0);
            return Ok(());
        }
        for (ty, date, time) in [
            (datetime_type(py)?, true, true),
            (date_type(py)?, true, false),
            (time_type(py)?, false, true),
        ] {
            if obj.is_instance(ty)? {
                let d = native_datetime(obj, date, time)?;
                jtoo::encode::write_datetime(&mut self.out, &d);
                return Ok(());
            }
        }
        if obj.is_none() {
            return Err(PyTypeError::new_err(
                "None is not JTOO serializable (JTOO has no null; leave the field out)",
            ));
        }
        if let Ok(p) = obj.cast::<Pair>() {
            if !in_list {
                return Err(PyTypeError::new_err(
                    "a jtoo.Pair may only stand as an item of a list",
                ));
            }
            let p = p.get();
            self.key(p.key.bind(py), depth)?;
            self.out.push(b':');
            return self.value(p.value.bind(py), depth);
        }
        if let Some(default) = self.default {
            if depth >= MAX_DEPTH {
                return Err(too_deep());
            }
            let replaced = default.call1((obj,))?;
            return self.value(&replaced, depth + 1);
        }
        Err(PyTypeError::new_err(format!(
            "Object of type {} is not JTOO serializable",
            type_name(obj)
        )))
    }

    fn int(&mut self, i: &Bound<'py, PyInt>) -> PyResult<()> {
        if let Ok(small) = i.extract::<i64>() {
            jtoo::encode::write_i64(&mut self.out, small);
            return Ok(());
        }
        jtoo::encode::write_integer(&mut self.out, &py_integer(i)?);
        Ok(())
    }

    /// A list (as a tuple of its items: `to_tuple` takes them in one
    /// C call, and a tuple's items are read without a reference count
    /// each) or a tuple: its items, `jtoo.Pair`s written as pairs.
    fn list(&mut self, items: &Bound<'py, PyTuple>, depth: usize) -> PyResult<()> {
        if depth >= MAX_DEPTH {
            return Err(too_deep());
        }
        self.out.push(b'[');
        for (n, x) in items.iter_borrowed().enumerate() {
            if n > 0 {
                self.out.push(b',');
            }
            self.value_or_pair(&x, depth + 1, true)?;
        }
        self.out.push(b']');
        Ok(())
    }

    /// A pair's key: any value but one that has no unambiguous spelling
    /// before `:` (jtoo's rule, `DateTime::is_ambiguous_key`).
    fn key(&mut self, key: &Bound<'py, PyAny>, depth: usize) -> PyResult<()> {
        if let Ok(s) = key.cast_exact::<PyString>() {
            return self.keys.write(&mut self.out, s);
        }
        if let Ok(d) = key.cast::<DateTime>()
            && let Err(e) = JPair::new(Value::DateTime(d.get().0), Value::Bool(true))
        {
            return Err(PyValueError::new_err(e.to_string()));
        }
        self.value(key, depth)
    }

    fn dict(&mut self, d: &Bound<'py, PyDict>, depth: usize) -> PyResult<()> {
        if depth >= MAX_DEPTH {
            return Err(too_deep());
        }
        self.out.push(b'[');
        for (n, (k, v)) in d.iter().enumerate() {
            if n > 0 {
                self.out.push(b',');
            }
            self.key(&k, depth + 1)?;
            self.out.push(b':');
            self.value(&v, depth + 1)?;
        }
        self.out.push(b']');
        Ok(())
    }
}

/// The canonical JTOO bytes of `obj`.
fn write_jtoo(obj: &Bound<'_, PyAny>, default: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u8>> {
    let mut w = Writer {
        py: obj.py(),
        default,
        out: Vec::new(),
        keys: Spelled::new(),
    };
    w.value(obj, 0)?;
    Ok(w.out)
}

/// `obj` as a `jtoo::Value` (for pretty, JSON, frames, greetings, packets):
/// its canonical bytes read back, so that there is one conversion.
fn to_value(obj: &Bound<'_, PyAny>, default: Option<&Bound<'_, PyAny>>) -> PyResult<Value> {
    let bytes = write_jtoo(obj, default)?;
    jtoo::from_slice(&bytes).map_err(range_err)
}

fn out_of_range_int() -> PyErr {
    PyValueError::new_err("integer out of JTOO's range -(2**128-1) to 2**128-1")
}

/// An `int` beyond `i64`, within JTOO's range.
fn py_integer(i: &Bound<'_, PyInt>) -> PyResult<Integer> {
    if let Ok(big) = i.extract::<u128>() {
        return Ok(Integer::from(big));
    }
    let magnitude = i.neg()?;
    match magnitude.extract::<u128>() {
        Ok(m) => Ok(Integer::new(true, m)),
        Err(_) => Err(out_of_range_int()),
    }
}

/// A `decimal.Decimal`: its `str()` is a JSON number (or `NaN`/`Infinity`,
/// which JTOO cannot hold), read exactly by jtoo's one JSON-number reader;
/// a whole number (`Decimal("5")`) stays a decimal (`5.0`).
fn py_decimal(d: &Bound<'_, PyAny>) -> PyResult<Decimal> {
    let text = d.str()?.encode_utf8()?;
    let text = simdutf8::basic::from_utf8(text.as_bytes())
        .map_err(|_| PyValueError::new_err("a Decimal whose str() is not UTF-8"))?;
    // Most `str(Decimal)`s are plain numbers (`-65.613616999999977`,
    // `1.50`): HTOO's number production reads them whole; exponents,
    // `-0`, `NaN` and the like go through the JSON reader.
    if let Ok(([], n)) = jtoo::parse::number::number(text.as_bytes(), Syntax::Lenient) {
        return Ok(match n {
            jtoo::parse::Number::Decimal(x) => x,
            jtoo::parse::Number::Integer(i) => Decimal::from(i),
        });
    }
    match jtoo::json::from_json_str(text) {
        Ok(Value::Decimal(x)) => Ok(x),
        Ok(Value::Integer(i)) => Ok(Decimal::from(i)),
        Ok(_) => Err(PyValueError::new_err(format!(
            "Decimal {text} is not JTOO compliant (JTOO decimals are finite)"
        ))),
        Err(e) => Err(PyValueError::new_err(format!(
            "Decimal {text} is not JTOO compliant: {}",
            e.message()
        ))),
    }
}

fn range_err(e: jtoo::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A `datetime.date`, `datetime.time` or `datetime.datetime` (its fields;
/// `tzinfo` becomes the offset, which must be whole minutes).
fn native_datetime(obj: &Bound<'_, PyAny>, has_date: bool, has_time: bool) -> PyResult<JDateTime> {
    let date = if has_date {
        let (y, m, d): (u16, u8, u8) = (
            obj.getattr("year")?.extract()?,
            obj.getattr("month")?.extract()?,
            obj.getattr("day")?.extract()?,
        );
        Some(Date::from_ymd(y, m, d).map_err(range_err)?)
    } else {
        None
    };
    let (time, offset) = if has_time {
        let (h, mi, s, us): (u8, u8, u8, u32) = (
            obj.getattr("hour")?.extract()?,
            obj.getattr("minute")?.extract()?,
            obj.getattr("second")?.extract()?,
            obj.getattr("microsecond")?.extract()?,
        );
        let time = if us == 0 {
            Time::from_hms(h, mi, s)
        } else {
            Time::from_hms_micro(h, mi, s, us)
        }
        .map_err(range_err)?;
        let delta = obj.call_method0("utcoffset")?;
        let offset = if delta.is_none() {
            None
        } else {
            let (days, secs, micros): (i64, i64, i64) = (
                delta.getattr("days")?.extract()?,
                delta.getattr("seconds")?.extract()?,
                delta.getattr("microseconds")?.extract()?,
            );
            let total = days * 86_400 + secs;
            if micros != 0 || total % 60 != 0 {
                return Err(PyValueError::new_err(
                    "a UTC offset must be whole minutes to be written in JTOO",
                ));
            }
            let minutes = i32::try_from(total / 60)
                .map_err(|_| PyValueError::new_err("UTC offset out of range"))?;
            Some(Offset::from_minutes(minutes).map_err(range_err)?)
        };
        (Some(time), offset)
    } else {
        (None, None)
    };
    JDateTime::new(date, time, offset).map_err(range_err)
}

// ---------------------------------------------------------------------------
// Classes

/// A pair `key:value` that stands in a list (see the README: a list mixing
/// pairs and plain values, or a record whose keys are not all distinct
/// strings, comes out of `loads` as a list holding `Pair`s).
#[pyclass(frozen, module = "jtoo")]
struct Pair {
    #[pyo3(get)]
    key: Py<PyAny>,
    #[pyo3(get)]
    value: Py<PyAny>,
}

#[pymethods]
impl Pair {
    #[new]
    fn new(key: Py<PyAny>, value: Py<PyAny>) -> Pair {
        Pair { key, value }
    }

    #[classattr]
    fn __match_args__() -> (&'static str, &'static str) {
        ("key", "value")
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "jtoo.Pair({}, {})",
            self.key.bind(py).repr()?,
            self.value.bind(py).repr()?
        ))
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.cast::<Pair>() else {
            return Ok(false);
        };
        let other = other.get();
        Ok(self.key.bind(py).eq(other.key.bind(py))?
            && self.value.bind(py).eq(other.value.bind(py))?)
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyTuple::new(py, [self.key.bind(py), self.value.bind(py)])?.hash()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyTuple::new(py, [self.key.bind(py), self.value.bind(py)])?
            .as_any()
            .try_iter()
            .map(|i| i.into_any())
    }
}

/// A JTOO date/time that `datetime` cannot hold exactly: a year or
/// year-month, a week or week day, a time of hour or minute precision or
/// with a millisecond or nanosecond fraction, a leap second, a date with an
/// offset but no time. Made from its canonical JTOO text
/// (`jtoo.DateTime("D2024-W05")`); fields are `None` when absent.
#[pyclass(frozen, eq, hash, ord, module = "jtoo")]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct DateTime(JDateTime);

#[pymethods]
impl DateTime {
    #[new]
    fn new(text: &str) -> PyResult<DateTime> {
        text.parse::<JDateTime>().map(DateTime).map_err(range_err)
    }
    #[getter]
    fn year(&self) -> Option<u16> {
        self.0.date().map(|d| d.year())
    }
    #[getter]
    fn month(&self) -> Option<u8> {
        self.0.date().and_then(|d| d.month())
    }
    #[getter]
    fn day(&self) -> Option<u8> {
        self.0.date().and_then(|d| d.day())
    }
    #[getter]
    fn week(&self) -> Option<u8> {
        self.0.date().and_then(|d| d.week())
    }
    #[getter]
    fn weekday(&self) -> Option<u8> {
        self.0.date().and_then(|d| d.week_day())
    }
    #[getter]
    fn hour(&self) -> Option<u8> {
        self.0.time().map(|t| t.hour())
    }
    #[getter]
    fn minute(&self) -> Option<u8> {
        self.0.time().map(|t| t.minute())
    }
    #[getter]
    fn second(&self) -> Option<u8> {
        self.0.time().map(|t| t.second())
    }
    #[getter]
    fn nanosecond(&self) -> Option<u32> {
        self.0.time().map(|t| t.nanosecond())
    }
    /// The time's precision: "hour", "minute", "second", "millisecond",
    /// "microsecond" or "nanosecond"; `None` without a time.
    #[getter]
    fn precision(&self) -> Option<&'static str> {
        self.0.time().map(|t| match t.precision() {
            TimePrecision::Hour => "hour",
            TimePrecision::Minute => "minute",
            TimePrecision::Second => "second",
            TimePrecision::Millisecond => "millisecond",
            TimePrecision::Microsecond => "microsecond",
            TimePrecision::Nanosecond => "nanosecond",
        })
    }
    /// Minutes east of UTC, `None` without an offset.
    #[getter]
    fn offset_minutes(&self) -> Option<i32> {
        self.0.offset().map(|o| o.minutes())
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("jtoo.DateTime({:?})", self.0.to_string())
    }
}

/// A JTOO timestamp (`S1_709_528_240.001`): seconds since 1970-01-01 UTC
/// and a fraction held exactly at its precision (0, 3, 6 or 9 digits).
#[pyclass(frozen, eq, hash, ord, module = "jtoo")]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Timestamp(JTimestamp);

#[pymethods]
impl Timestamp {
    #[new]
    fn new(text: &str) -> PyResult<Timestamp> {
        text.parse::<JTimestamp>().map(Timestamp).map_err(range_err)
    }
    /// From seconds, nanoseconds and a precision of 0, 3, 6 or 9 fraction
    /// digits (the finest that `nanoseconds` needs when not given).
    #[staticmethod]
    #[pyo3(signature = (seconds, nanoseconds = 0, digits = None))]
    fn from_parts(seconds: i64, nanoseconds: u32, digits: Option<u32>) -> PyResult<Timestamp> {
        let precision = match digits {
            Some(0) => TimestampPrecision::Seconds,
            Some(3) => TimestampPrecision::Milliseconds,
            Some(6) => TimestampPrecision::Microseconds,
            Some(9) => TimestampPrecision::Nanoseconds,
            Some(_) => return Err(PyValueError::new_err("digits must be 0, 3, 6 or 9")),
            None if nanoseconds == 0 => TimestampPrecision::Seconds,
            None if nanoseconds.is_multiple_of(1_000_000) => TimestampPrecision::Milliseconds,
            None if nanoseconds.is_multiple_of(1_000) => TimestampPrecision::Microseconds,
            None => TimestampPrecision::Nanoseconds,
        };
        JTimestamp::new(seconds, nanoseconds, precision)
            .map(Timestamp)
            .map_err(range_err)
    }
    /// Whole seconds since the epoch (floor: `S-1.500` has -2).
    #[getter]
    fn seconds(&self) -> i64 {
        self.0.secs()
    }
    /// Nanoseconds after `seconds`, 0 to 999_999_999.
    #[getter]
    fn nanoseconds(&self) -> u32 {
        self.0.subsec_nanos()
    }
    /// Fraction digits written: 0, 3, 6 or 9.
    #[getter]
    fn digits(&self) -> u32 {
        self.0.precision().digits()
    }
    /// The exact time since the epoch in nanoseconds.
    fn as_nanos(&self) -> i128 {
        self.0.as_nanos()
    }
    /// An aware `datetime` in UTC; `ValueError` when the timestamp has a
    /// non-zero digit finer than a microsecond (datetime would lose it) or
    /// lies outside datetime's years 1 to 9999.
    #[allow(clippy::wrong_self_convention)] // the Python name; pyo3 passes &self
    fn to_datetime<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let nanos = self.0.subsec_nanos();
        if !nanos.is_multiple_of(1000) {
            return Err(PyValueError::new_err(format!(
                "{} has nanoseconds that datetime cannot hold",
                self.0
            )));
        }
        let utc = timezone_type(py)?.getattr("utc")?;
        let epoch = datetime_type(py)?.call1((1970, 1, 1, 0, 0, 0, 0, utc))?;
        let delta = timedelta_type(py)?.call1((0, self.0.secs(), nanos / 1000))?;
        epoch.add(delta)
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("jtoo.Timestamp({:?})", self.0.to_string())
    }
}

/// One decoded frame: its JTOO section (`None` when absent) and its binary
/// section.
#[pyclass(frozen, module = "jtoo")]
struct Frame(JFrame);

#[pymethods]
impl Frame {
    /// The JTOO section's canonical text, or `None`.
    #[getter]
    fn jtoo<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.0.jtoo().map(|b| PyBytes::new(py, b))
    }
    #[getter]
    fn binary<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.binary())
    }
    /// The JTOO section's value (as `loads` gives it), or `None`.
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.0.value() {
            Ok(Some(v)) => to_py(py, &v).map(Some),
            Ok(None) => Ok(None),
            Err(e) => Err(frame_error(py, e)),
        }
    }
    /// The frame's bytes on the wire.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self.0.to_bytes().map_err(|e| frame_error(py, e))?;
        Ok(PyBytes::new(py, &bytes))
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Frame>().is_ok_and(|o| {
            o.get().0.jtoo() == self.0.jtoo() && o.get().0.binary() == self.0.binary()
        })
    }
    fn __repr__(&self) -> String {
        let jtoo = self.0.jtoo().map_or("None".to_string(), |b| {
            format!("{:?}", String::from_utf8_lossy(b))
        });
        format!(
            "jtoo.Frame(jtoo={jtoo}, binary={} bytes)",
            self.0.binary().len()
        )
    }
}

/// An incremental frame decoder: `feed(data)` returns the frames completed
/// so far. It holds only the bytes of the frame in progress (what has
/// arrived, never what a header declares). After an error it stays failed.
#[pyclass(module = "jtoo")]
struct FrameDecoder {
    codec: FrameCodec,
    buf: BytesMut,
}

#[pymethods]
impl FrameDecoder {
    #[new]
    #[pyo3(signature = (*, max_jtoo_len = None, max_binary_len = None, max_frame_len = None))]
    fn new(
        max_jtoo_len: Option<usize>,
        max_binary_len: Option<usize>,
        max_frame_len: Option<usize>,
    ) -> FrameDecoder {
        let mut builder = FrameCodec::builder();
        if let Some(n) = max_jtoo_len {
            builder.max_jtoo_len(n);
        }
        if let Some(n) = max_binary_len {
            builder.max_binary_len(n);
        }
        if let Some(n) = max_frame_len {
            builder.max_frame_len(n);
        }
        FrameDecoder {
            codec: builder.new_codec(),
            buf: BytesMut::new(),
        }
    }

    /// Adds `data` and returns every frame it completes (maybe none).
    /// Raises `jtoo.FrameError` on a malformed frame.
    fn feed(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Vec<Frame>> {
        let data = input(data, "data")?;
        self.buf.extend_from_slice(data.bytes());
        let mut frames = Vec::new();
        loop {
            match self.codec.decode(&mut self.buf) {
                Ok(Some(f)) => frames.push(Frame(f)),
                Ok(None) => return Ok(frames),
                Err(e) => {
                    self.buf = BytesMut::new();
                    return Err(frame_error(py, e));
                }
            }
        }
    }

    /// The end of the stream: raises `jtoo.FrameError` when part of a frame
    /// is still buffered.
    fn eof(&mut self, py: Python<'_>) -> PyResult<()> {
        match self.codec.decode_eof(&mut self.buf) {
            Ok(None) => Ok(()),
            Ok(Some(_)) => Err(frame_error(py, "a complete frame was left unread")),
            Err(e) => Err(frame_error(py, e)),
        }
    }

    /// Bytes held for the frame in progress.
    #[getter]
    fn buffered(&self) -> usize {
        self.buf.len()
    }
}

// ---------------------------------------------------------------------------
// Functions

fn syntax(htoo: bool) -> Syntax {
    if htoo {
        Syntax::Lenient
    } else {
        Syntax::Strict
    }
}

fn loads_value(py: Python<'_>, s: &Bound<'_, PyAny>, htoo: bool) -> PyResult<Value> {
    let src = input(s, "the JTOO document")?;
    let parsed = if htoo {
        htoo::from_slice(src.bytes())
    } else {
        jtoo::from_slice(src.bytes())
    };
    parsed.map_err(|e| decode_error(py, &e, s, &src))
}

/// Parses one JTOO document (strict; HTOO with `htoo=True`).
#[pyfunction]
#[pyo3(signature = (s, *, htoo = false))]
fn loads<'py>(py: Python<'py>, s: &Bound<'py, PyAny>, htoo: bool) -> PyResult<Bound<'py, PyAny>> {
    // Python objects made while parsing (jtoo::visit): no jtoo::Value.
    let src = input(s, "the JTOO document")?;
    let mut to_py = ToPy::new(py);
    let depth = jtoo::Options::DEFAULT_MAX_DEPTH;
    let made = match &src {
        Input::Str(text) => jtoo::visit::visit_str(text, syntax(htoo), depth, &mut to_py),
        _ => jtoo::visit::visit_slice(src.bytes(), syntax(htoo), depth, &mut to_py),
    };
    match made {
        Ok(v) => Ok(v),
        Err(VisitError::Parse(e)) => Err(decode_error(py, &e, s, &src)),
        Err(VisitError::Visitor(e)) => Err(e),
    }
}

/// Canonical JTOO text of `obj`.
#[pyfunction]
#[pyo3(signature = (obj, *, default = None))]
fn dumps<'py>(
    obj: &Bound<'py, PyAny>,
    default: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyString>> {
    let bytes = write_jtoo(obj, default)?;
    // (jtoo's writers write UTF-8 text; Python checks it as it decodes.)
    PyString::from_bytes(obj.py(), &bytes)
}

/// Pretty HTOO text of `obj` (indented, one item a line where long).
#[pyfunction]
#[pyo3(signature = (obj, *, default = None))]
fn pretty(obj: &Bound<'_, PyAny>, default: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    let value = to_value(obj, default)?;
    Ok(htoo::to_string_pretty(&value))
}

/// Reads JSON text into the values `loads` gives (numbers with a fraction or
/// exponent become `Decimal`, objects dicts; an object member whose value
/// is `null` is left out, any other `null` is an error: jtoo's
/// `from_json_slice`).
#[pyfunction]
fn from_json<'py>(py: Python<'py>, s: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let src = input(s, "the JSON document")?;
    let value =
        jtoo::json::from_json_slice(src.bytes()).map_err(|e| decode_error(py, &e, s, &src))?;
    to_py(py, &value)
}

/// JSON text of `obj` (jtoo's natural JSON mapping: records become objects,
/// integers and decimals numbers, other scalars strings).
#[pyfunction]
#[pyo3(signature = (obj, *, default = None))]
fn to_json(obj: &Bound<'_, PyAny>, default: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    let value = to_value(obj, default)?;
    Ok(jtoo::json::to_json_string(&value))
}

/// One frame's bytes: `obj` in the JTOO section (`None`: no JTOO section)
/// and `binary` in the binary section.
#[pyfunction]
#[pyo3(signature = (obj = None, binary = None))]
fn encode_frame<'py>(
    py: Python<'py>,
    obj: Option<&Bound<'py, PyAny>>,
    binary: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let binary = match binary {
        Some(b) => input(b, "binary")?.bytes().to_vec(),
        None => Vec::new(),
    };
    let frame = match obj {
        Some(obj) if !obj.is_none() => {
            let value = to_value(obj, None)?;
            JFrame::from_value(&value)
                .map_err(|e| frame_error(py, e))?
                .with_binary(binary)
        }
        _ => JFrame::from_binary(binary),
    };
    let bytes = frame.to_bytes().map_err(|e| frame_error(py, e))?;
    Ok(PyBytes::new(py, &bytes))
}

/// The greeting frame's bytes for `protocol`, with `fields` (a dict of
/// string keys) after it.
#[pyfunction]
#[pyo3(signature = (protocol, fields = None))]
fn encode_greeting<'py>(
    py: Python<'py>,
    protocol: &str,
    fields: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut greeting = Greeting::new(protocol);
    if let Some(fields) = fields {
        for (k, v) in fields.iter() {
            let key: String = k.extract()?;
            let value = to_value(&v, None)?;
            greeting
                .insert(key, value)
                .map_err(|e| frame_error(py, e))?;
        }
    }
    let bytes = greeting
        .to_frame()
        .and_then(|f| f.to_bytes())
        .map_err(|e| frame_error(py, e))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Reads a greeting frame: `(protocol, fields)`. Raises `jtoo.FrameError`
/// when the frame is not a valid greeting.
#[pyfunction]
fn decode_greeting<'py>(
    py: Python<'py>,
    frame: &Bound<'py, Frame>,
) -> PyResult<(String, Bound<'py, PyDict>)> {
    let greeting = Greeting::from_frame(&frame.get().0).map_err(|e| frame_error(py, e))?;
    greeting_fields(py, &greeting)
}

/// `(protocol, fields)` of a greeting.
fn greeting_fields<'py>(
    py: Python<'py>,
    greeting: &Greeting,
) -> PyResult<(String, Bound<'py, PyDict>)> {
    let fields = PyDict::new(py);
    for (k, v) in greeting.fields() {
        fields.set_item(k, to_py(py, v)?)?;
    }
    Ok((greeting.protocol().to_string(), fields))
}

/// What a server does with the first frame: `(protocol, fields)` when it
/// is a valid greeting for one of `supported`; `jtoo.FrameError` when it is
/// not a valid greeting (drop the connection without a reply);
/// `jtoo.UnsupportedProtocolError` when its protocol is not supported
/// (write `UNSUPPORTED_PROTOCOL_REPLY`, then close). Read the first frame
/// with `FrameDecoder(max_frame_len=GREETING_MAX_LEN)`.
#[pyfunction]
fn check_greeting<'py>(
    py: Python<'py>,
    frame: &Bound<'py, Frame>,
    supported: Vec<String>,
) -> PyResult<(String, Bound<'py, PyDict>)> {
    let greeting = Greeting::from_frame(&frame.get().0).map_err(|e| frame_error(py, e))?;
    if !supported.iter().any(|p| p == greeting.protocol()) {
        return Err(py_error(
            py,
            &UNSUPPORTED_ERROR,
            "UnsupportedProtocolError",
            (greeting.protocol(),),
        ));
    }
    greeting_fields(py, &greeting)
}

/// Whether `frame` is the server's reply to a greeting whose protocol it
/// does not speak.
#[pyfunction]
fn is_unsupported_protocol_reply(frame: &Bound<'_, Frame>) -> bool {
    jtoo_frame::is_unsupported_protocol_reply(&frame.get().0)
}

fn json_encoding(encoding: &str) -> PyResult<bool> {
    match encoding {
        "jtoo" => Ok(false),
        "json" => Ok(true),
        _ => Err(PyValueError::new_err(
            "encoding must be \"jtoo\" or \"json\"",
        )),
    }
}

/// A JTE packet (a dict of its fields) as JTOO or JSON bytes.
#[pyfunction]
#[pyo3(signature = (packet, encoding = "jtoo"))]
fn encode_packet<'py>(
    py: Python<'py>,
    packet: &Bound<'py, PyAny>,
    encoding: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let json = json_encoding(encoding)?;
    let value = to_value(packet, None)?;
    let packet = jte::Packet::from_owned_value(value).map_err(|e| packet_error(py, e))?;
    let bytes = if json {
        packet.to_json_vec()
    } else {
        packet.to_jtoo()
    }
    .map_err(|e| packet_error(py, e))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Reads a JTE packet from JTOO or JSON bytes: a dict of its fields.
#[pyfunction]
#[pyo3(signature = (data, encoding = "jtoo"))]
fn decode_packet<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    encoding: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let json = json_encoding(encoding)?;
    let src = input(data, "data")?;
    let packet = if json {
        jte::Packet::from_json_slice(src.bytes())
    } else {
        jte::Packet::from_jtoo(src.bytes())
    }
    .map_err(|e| packet_error(py, e))?;
    let value = packet.to_value().map_err(|e| packet_error(py, e))?;
    to_py(py, &value)
}

/// The conformance suite's decoder: a document's tagged JSON
/// (`jtoo::json::tagged`), as `jtoo decode` writes it.
#[pyfunction]
#[pyo3(signature = (data, *, htoo = false))]
fn _to_tagged(py: Python<'_>, data: &Bound<'_, PyAny>, htoo: bool) -> PyResult<String> {
    let value = loads_value(py, data, htoo)?;
    Ok(jtoo::json::tagged::to_tagged_string(&value))
}

/// The conformance suite's encoder: canonical JTOO bytes of tagged JSON, as
/// `jtoo encode` writes them.
#[pyfunction]
fn _from_tagged<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let src = input(data, "data")?;
    let value = jtoo::json::tagged::from_tagged_slice(src.bytes())
        .map_err(|e| PyValueError::new_err(format!("invalid tagged JSON: {e}")))?;
    let bytes =
        jtoo::to_vec(&value).map_err(|e| PyValueError::new_err(format!("cannot encode: {e}")))?;
    Ok(PyBytes::new(py, &bytes))
}

#[pymodule]
fn _jtoo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Pair>()?;
    m.add_class::<DateTime>()?;
    m.add_class::<Timestamp>()?;
    m.add_class::<Frame>()?;
    m.add_class::<FrameDecoder>()?;
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_function(wrap_pyfunction!(dumps, m)?)?;
    m.add_function(wrap_pyfunction!(pretty, m)?)?;
    m.add_function(wrap_pyfunction!(from_json, m)?)?;
    m.add_function(wrap_pyfunction!(to_json, m)?)?;
    m.add_function(wrap_pyfunction!(encode_frame, m)?)?;
    m.add_function(wrap_pyfunction!(encode_greeting, m)?)?;
    m.add_function(wrap_pyfunction!(decode_greeting, m)?)?;
    m.add_function(wrap_pyfunction!(check_greeting, m)?)?;
    m.add_function(wrap_pyfunction!(is_unsupported_protocol_reply, m)?)?;
    m.add_function(wrap_pyfunction!(encode_packet, m)?)?;
    m.add_function(wrap_pyfunction!(decode_packet, m)?)?;
    m.add_function(wrap_pyfunction!(_to_tagged, m)?)?;
    m.add_function(wrap_pyfunction!(_from_tagged, m)?)?;
    m.add("GREETING_MAX_LEN", jtoo_frame::GREETING_MAX_LEN)?;
    m.add(
        "UNSUPPORTED_PROTOCOL_REPLY",
        PyBytes::new(m.py(), jtoo_frame::UNSUPPORTED_PROTOCOL_REPLY),
    )?;
    Ok(())
}
