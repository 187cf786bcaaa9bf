"""Tests of the jtoo Python package (run: pytest bindings/python/tests)."""

import datetime
import decimal
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import jtoo
from jtoo import DateTime, DecodeError, Pair, Timestamp

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent
REPO = PACKAGE.parent.parent
SUITE = REPO / "spec-tests" / "cases"
D = decimal.Decimal
UTC = datetime.timezone.utc


def tz(minutes):
    return datetime.timezone(datetime.timedelta(minutes=minutes))


# --- loads / dumps: every type, exactly -----------------------------------

ROUND_TRIPS = [
    ('"hello"', "hello"),
    ('"She typed \\22ok\\22."', 'She typed "ok".'),
    ('"你好"', "你好"),
    ("B", b""),
    ("B00ff", b"\x00\xff"),
    ("[Y,N]", [True, False]),
    ("0", 0),
    ("-1_000", -1000),
    ("9_223_372_036_854_775_808", 2**63),
    ("340_282_366_920_938_463_463_374_607_431_768_211_455", 2**128 - 1),
    ("-340_282_366_920_938_463_463_374_607_431_768_211_455", -(2**128 - 1)),
    ("0.0", D("0")),
    ("1_000.5", D("1000.5")),
    ("0.000_1", D("0.0001")),
    ("-1.0", D("-1")),
    ("D2023-12-30", datetime.date(2023, 12, 30)),
    ("T10:20:30", datetime.time(10, 20, 30)),
    ("T10:20:30.400_500", datetime.time(10, 20, 30, 400500)),
    ("T10:20:30Z", datetime.time(10, 20, 30, tzinfo=UTC)),
    ("D2023-12-30T01:02:03~08", datetime.datetime(2023, 12, 30, 1, 2, 3, tzinfo=tz(-480))),
    ("[]", []),
    ('["a":1,"b":[2,3]]', {"a": 1, "b": [2, 3]}),
    ('[1,"a":2]', [1, Pair("a", 2)]),
    ('["a":1,"a":2]', [Pair("a", 1), Pair("a", 2)]),
    ("[1:2,3:4]", [Pair(1, 2), Pair(3, 4)]),
    ("[[],[1:[2:3]]]", [[], [Pair(1, [Pair(2, 3)])]]),
]


@pytest.mark.parametrize("text,value", [c for c in ROUND_TRIPS if c[1] is not None])
def test_loads_gives_the_exact_value_and_dumps_gives_the_text_back(text, value):
    got = jtoo.loads(text)
    assert got == value
    assert type(got) is type(value)
    assert jtoo.dumps(got) == text
    assert jtoo.loads(text.encode()) == value


def test_decimals_are_never_floats():
    v = jtoo.loads("[0.1,1.0,123_456_789_012_345_678_901_234_567.8]")
    assert all(type(x) is D for x in v)
    assert v[2] == D("123456789012345678901234567.8")


@pytest.mark.parametrize("text", [
    "0.0", "1.5", "-1.5", "1_500.0", "-65.613_616_999_999_977", "0.000_1", "-0.001",
    "0.123", "123.456", "12_345_678_901_234_567_890_123_456_789_012.5",
    "0.000_000_000_000_000_000_000_000_000_000_000_000_01", "-340_282_366_920_938_463_463.374_607_431_768_211_455",
    # Around the edges of the coefficient-times-power path (coefficients
    # up to 2^63 - 1, scales up to 40) and just past them.
    "922_337_203.685_477_580_7", "-922_337_203.685_477_580_7", "922_337_203.685_477_580_9",
    "0.000_000_000_000_000_000_000_000_000_000_000_000_01", "0.000_000_000_000_000_000_000_000_000_000_000_000_001",
    "0.922_337_203_685_477_580_7", "-0.000_000_000_000_000_000_000_000_000_000_000_000_1",
])
def test_decimals_keep_their_digits_and_exponent(text):
    """A decimal is the Decimal of its plain text: the same digits and
    exponent (`1_500.0` is Decimal('1500.0'), not Decimal('1.5E+3'))."""
    got = jtoo.loads(text)
    assert got.as_tuple() == D(text.replace("_", "")).as_tuple()
    assert jtoo.dumps(got) == text


def test_decimals_do_not_depend_on_the_threads_context():
    """loads makes Decimals with a context of its own: a thread context of
    three digits that traps everything neither rounds nor raises."""
    text = "[-65.613_616_999_999_977,0.000_000_1,1_500.0,922_337_203.685_477_580_9]"
    want = jtoo.loads(text)
    with decimal.localcontext() as ctx:
        ctx.prec = 3
        ctx.Emin = -2
        ctx.Emax = 2
        ctx.traps = {t: True for t in ctx.traps}
        assert jtoo.loads(text) == want
        assert [x.as_tuple() for x in jtoo.loads(text)] == [x.as_tuple() for x in want]
        assert not any(ctx.flags.values())
    assert [str(x) for x in want] == ["-65.613616999999977", "1E-7", "1500.0", "922337203.6854775809"]


def test_key_order_is_kept():
    text = '["z":1,"a":2,"m":3]'
    assert list(jtoo.loads(text)) == ["z", "a", "m"]
    assert jtoo.dumps({"z": 1, "a": 2, "m": 3}) == text


def test_non_string_dict_keys_are_pairs():
    assert jtoo.dumps({1: "a", D("1.5"): "b"}) == '[1:"a",1.5:"b"]'
    assert jtoo.loads('[1:"a"]') == [Pair(1, "a")]


def test_values_datetime_cannot_hold_are_jtoo_datetime():
    for text in [
        "D2024",
        "D2024-05",
        "D2024-W05",
        "D2024-W05-3",
        "T10",
        "T10:20",
        "T10:20:30.400",
        "T10:20:30.000_000",
        "T10:20:30.400_500_600",
        "T23:59:60",
        "D2024-05-06Z",
        "D2024-W05-3T10:20:30",
    ]:
        v = jtoo.loads(text)
        assert isinstance(v, DateTime), text
        assert str(v) == text
        assert jtoo.dumps(v) == text
        assert v == DateTime(text) and hash(v) == hash(DateTime(text))
    w = jtoo.loads("D2024-W05-3")
    assert (w.year, w.week, w.weekday, w.month, w.hour) == (2024, 5, 3, None, None)
    t = jtoo.loads("T10:20:30.400~08")
    assert (t.hour, t.minute, t.second, t.nanosecond, t.precision, t.offset_minutes) == (
        10, 20, 30, 400_000_000, "millisecond", -480)
    with pytest.raises(ValueError):
        DateTime("D2023-02-30")
    with pytest.raises(AttributeError):
        w.year = 2000  # frozen


def test_python_datetimes_are_written_at_their_precision():
    assert jtoo.dumps(datetime.time(10, 20, 30)) == "T10:20:30"
    assert jtoo.dumps(datetime.time(10, 20, 30, 5)) == "T10:20:30.000_005"
    assert jtoo.dumps(datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=tz(330))) == (
        "D2024-01-02T03:04:05+0530")
    assert jtoo.dumps(datetime.datetime(2024, 1, 2, tzinfo=UTC)) == "D2024-01-02T00:00:00Z"
    for v in [datetime.datetime(2024, 1, 2, 3, 4, 5, 6, tzinfo=tz(-90)), datetime.date(1, 1, 1)]:
        assert jtoo.loads(jtoo.dumps(v)) == v
    with pytest.raises(ValueError, match="whole minutes"):
        jtoo.dumps(datetime.time(1, tzinfo=datetime.timezone(datetime.timedelta(seconds=30))))


def test_timestamps_are_exact():
    t = jtoo.loads("S1_709_528_240.000_000_001")
    assert isinstance(t, Timestamp)
    assert (t.seconds, t.nanoseconds, t.digits) == (1709528240, 1, 9)
    assert t.as_nanos() == 1709528240_000000001
    assert jtoo.dumps(t) == "S1_709_528_240.000_000_001"
    with pytest.raises(ValueError, match="nanoseconds"):
        t.to_datetime()
    m = jtoo.loads("S-1.500")
    assert (m.seconds, m.nanoseconds, m.digits) == (-2, 500_000_000, 3)
    assert m.to_datetime() == datetime.datetime(1969, 12, 31, 23, 59, 58, 500000, tzinfo=UTC)
    assert jtoo.loads("S1") != jtoo.loads("S1.000")  # precision is part of the value
    assert str(Timestamp.from_parts(5, 1_000)) == "S5.000_001"
    assert str(Timestamp.from_parts(5, 0, 3)) == "S5.000"


def test_floats_are_written_as_their_shortest_decimal():
    assert jtoo.dumps([0.1, 1.0, -2.5e-7, 1e300]) == jtoo.dumps(
        [D("0.1"), D("1.0"), D("-2.5e-7"), D("1e300")])
    assert jtoo.dumps(0.1) == "0.1"
    for bad in [float("nan"), float("inf"), -float("inf"), D("NaN"), D("Infinity")]:
        with pytest.raises(ValueError):
            jtoo.dumps([bad])


def test_dumps_refuses_what_jtoo_cannot_hold():
    with pytest.raises(TypeError, match="None"):
        jtoo.dumps(None)
    with pytest.raises(TypeError, match="None"):
        jtoo.dumps({"a": None})
    with pytest.raises(TypeError, match="set"):
        jtoo.dumps({1, 2})
    with pytest.raises(TypeError, match="Pair"):
        jtoo.dumps(Pair("a", 1))
    with pytest.raises(TypeError, match="Pair"):
        jtoo.dumps({"a": Pair("b", 1)})
    with pytest.raises(ValueError, match="range"):
        jtoo.dumps(2**128)
    with pytest.raises(ValueError, match="range"):
        jtoo.dumps(-(2**128))
    with pytest.raises(ValueError, match="not JTOO compliant"):
        jtoo.dumps(D("1" * 40))
    with pytest.raises(ValueError, match="not JTOO compliant"):
        jtoo.dumps(D("1e-70000"))
    with pytest.raises(ValueError, match="ambiguous key"):
        jtoo.dumps([Pair(jtoo.loads("T10"), 1)])
    loop = []
    loop.append(loop)
    with pytest.raises(ValueError, match="circular"):
        jtoo.dumps(loop)
    deep = []
    for _ in range(200):
        deep = [deep]
    with pytest.raises(ValueError, match="deeper"):
        jtoo.dumps(deep)


def test_dumps_default_hook():
    class Point:
        x, y = 1, 2

    assert jtoo.dumps([Point()], default=lambda p: {"x": p.x, "y": p.y}) == '[["x":1,"y":2]]'


def test_tuples_and_bytearrays():
    assert jtoo.dumps((1, (2,), bytearray(b"\x01"))) == "[1,[2],B01]"


# --- errors ----------------------------------------------------------------


def test_decode_error_is_like_json_decode_error():
    doc = '["é":1,2x]'
    with pytest.raises(DecodeError) as info:
        jtoo.loads(doc)
    e = info.value
    assert isinstance(e, ValueError)
    assert e.doc is doc
    assert e.pos == 8 and doc[e.pos] == "x"  # characters, not bytes
    assert (e.lineno, e.colno) == (1, 9)
    assert e.msg == "expected `,` or `]`"
    assert str(e) == "expected `,` or `]`: line 1 column 9 (char 8)"
    with pytest.raises(DecodeError) as info:
        jtoo.loads(doc.encode())
    assert info.value.pos == 9  # bytes for bytes
    again = pickle.loads(pickle.dumps(e))
    assert (again.msg, again.pos, again.lineno) == (e.msg, e.pos, e.lineno)


def test_decode_error_lines():
    with pytest.raises(DecodeError) as info:
        jtoo.loads('[\n  "a": 1\n  "b": 2\n]', htoo=True)
    assert (info.value.lineno, info.value.colno) == (2, 9)


@pytest.mark.parametrize("doc", ["", "[1,", '"\\zz"', "01", "[1 ]", "D2023-02-30", "1.50", "B0"])
def test_invalid_documents_raise_decode_error(doc):
    with pytest.raises(DecodeError):
        jtoo.loads(doc)


def test_loads_takes_only_text_or_bytes():
    with pytest.raises(TypeError):
        jtoo.loads(1)
    with pytest.raises(TypeError):
        jtoo.loads([1])
    with pytest.raises(TypeError):
        jtoo.loads({91: 1, 93: 2})
    assert jtoo.loads(bytearray(b"[1]")) == [1]
    assert jtoo.loads(memoryview(b"[1]")) == [1]


def test_any_bytes_give_a_value_or_an_error():
    rng = random.Random(32)
    alphabet = b'[]:,"\\0123456789.-_BDTSYNWZ~+e \n\t\xff\xc3\xa9'
    seen_error = seen_value = 0
    for _ in range(20000):
        n = rng.randrange(0, 24)
        data = bytes(rng.choice(alphabet) for _ in range(n))
        for htoo in (False, True):
            try:
                jtoo.loads(data, htoo=htoo)
                seen_value += 1
            except DecodeError:
                seen_error += 1
    assert seen_error and seen_value
    for data in [b"[" * 100000, b"\xff" * 10, b"\x00", "\ud800".encode("utf-8", "surrogatepass")]:
        with pytest.raises(DecodeError):
            jtoo.loads(data)


# --- HTOO, pretty, JSON ------------------------------------------------------


def test_htoo():
    doc = '// settings\n[\n  "name": "x",  // inline\n  "n": 1.50,\n]\n'
    assert jtoo.loads(doc, htoo=True) == {"name": "x", "n": D("1.5")}
    with pytest.raises(DecodeError):
        jtoo.loads(doc)


def test_pretty_reads_back_as_htoo():
    v = {"a": [1, 2, {"b": "c"}], "when": datetime.date(2024, 5, 6), "m": [1, Pair("k", b"\x01")]}
    text = jtoo.pretty(v)
    assert jtoo.loads(text, htoo=True) == v


def test_json_conversions():
    v = jtoo.from_json('{"a": 1.5e3, "b": [1, 2], "c": "x", "big": 123456789012345678901234567890}')
    assert v == {"a": D("1500"), "b": [1, 2], "c": "x", "big": 123456789012345678901234567890}
    assert type(v["a"]) is D
    assert json.loads(jtoo.to_json({"a": D("1.5"), "b": [Y := True]})) == {"a": 1.5, "b": [Y]}
    with pytest.raises(DecodeError):
        jtoo.from_json("{")
    assert jtoo.from_json('{"a": null, "b": 1}') == {"b": 1}  # a null member is left out
    with pytest.raises(DecodeError):
        jtoo.from_json("[null]")


# --- frames and greetings ------------------------------------------------------


def test_encode_frame_layout():
    assert jtoo.encode_frame({"code": 200}, b"abc") == b'00000c 000003 ["code":200] abc\n'
    assert jtoo.encode_frame(None, b"xy") == b"000000 000002  xy\n"


def test_frame_decoder_byte_by_byte():
    frames = [({"n": i, "s": "é" * i}, bytes(range(i))) for i in range(5)]
    stream = b"".join(jtoo.encode_frame(v, b) for v, b in frames)
    d = jtoo.FrameDecoder()
    got = []
    for i in range(len(stream)):
        got += d.feed(stream[i : i + 1])
    d.eof()
    assert [(f.value(), f.binary) for f in got] == frames
    assert got[0].jtoo == b'["n":0,"s":""]'
    assert jtoo.FrameDecoder().feed(stream) == got


def test_frame_decoder_memory_follows_bytes_received():
    d = jtoo.FrameDecoder()
    # A header declaring 16 MiB sections, and ten bytes of body.
    assert d.feed(b"ffffff ffffff " + b"x" * 10) == []
    assert d.buffered <= 24
    with pytest.raises(jtoo.FrameError):
        d.eof()


def test_frame_errors():
    with pytest.raises(jtoo.FrameError):
        jtoo.FrameDecoder().feed(b"zzzzzz 000000 \n")
    with pytest.raises(jtoo.FrameError):
        jtoo.FrameDecoder().feed(b"000003 000000 [1,\n")
    with pytest.raises(jtoo.FrameError):
        jtoo.FrameDecoder(max_binary_len=4).feed(jtoo.encode_frame(None, b"12345"))
    d = jtoo.FrameDecoder()
    with pytest.raises(jtoo.FrameError):
        d.feed(b"000001 000000 x\n")
    with pytest.raises(jtoo.FrameError):  # stays failed
        d.feed(jtoo.encode_frame([1]))


def test_frame_decoder_any_bytes():
    rng = random.Random(7)
    good = jtoo.encode_frame({"a": [1, 2]}, b"bin")
    for _ in range(3000):
        data = bytearray(good * 2)
        for _ in range(rng.randrange(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        d = jtoo.FrameDecoder()
        try:
            for f in d.feed(bytes(data)):
                f.value()
        except jtoo.FrameError:
            pass


def test_greetings():
    g = jtoo.encode_greeting("jte/1", {"client": "test", "n": 1})
    (frame,) = jtoo.FrameDecoder().feed(g)
    assert jtoo.decode_greeting(frame) == ("jte/1", {"client": "test", "n": 1})
    assert not jtoo.is_unsupported_protocol_reply(frame)
    (reply,) = jtoo.FrameDecoder().feed(jtoo.UNSUPPORTED_PROTOCOL_REPLY)
    assert jtoo.is_unsupported_protocol_reply(reply)
    (not_greeting,) = jtoo.FrameDecoder().feed(jtoo.encode_frame([1, 2]))
    with pytest.raises(jtoo.FrameError):
        jtoo.decode_greeting(not_greeting)


def test_loads_agrees_with_the_value_conversion():
    """loads builds objects while parsing; Frame.value() converts a parsed
    jtoo::Value: both give the same objects for every valid case."""
    cases = sorted(SUITE.glob("**/valid/jtoo/**/*.jtoo"))
    assert len(cases) > 200
    extra = [b'[1,"a":2]', b'["a":1,"a":2]', b'[[1]:2,3]', b'["k":["x":[1:2]]]', b"[]", b"[[]]"]
    for doc in [c.read_bytes() for c in cases] + extra:
        wire = f"{len(doc):06x} {0:06x} ".encode() + doc + b" \n"
        (frame,) = jtoo.FrameDecoder().feed(wire)
        assert frame.value() == jtoo.loads(doc), doc


def test_many_distinct_keys_share_the_key_cache():
    """More keys than the key cache has slots: every key still comes back."""
    rec = {f"key{i}": i for i in range(5000)}
    text = jtoo.dumps(rec)
    for _ in range(2):
        assert jtoo.loads(text) == rec


def test_check_greeting_is_the_servers_decision():
    (frame,) = jtoo.FrameDecoder(max_frame_len=jtoo.GREETING_MAX_LEN).feed(
        jtoo.encode_greeting("jte/1", {"client": "test"})
    )
    assert jtoo.check_greeting(frame, ["x/2", "jte/1"]) == ("jte/1", {"client": "test"})
    with pytest.raises(jtoo.UnsupportedProtocolError) as e:
        jtoo.check_greeting(frame, ["x/2"])
    assert e.value.protocol == "jte/1"
    assert isinstance(e.value, jtoo.FrameError)
    assert pickle.loads(pickle.dumps(e.value)).protocol == "jte/1"
    # Not a greeting at all: a FrameError that is not "unsupported".
    (bad,) = jtoo.FrameDecoder().feed(jtoo.encode_frame({"protocol": 1}))
    with pytest.raises(jtoo.FrameError) as e:
        jtoo.check_greeting(bad, ["jte/1"])
    assert not isinstance(e.value, jtoo.UnsupportedProtocolError)
    # Over GREETING_MAX_LEN: not written, and not read by a greeting decoder.
    with pytest.raises(jtoo.FrameError):
        jtoo.encode_greeting("jte/1", {"pad": "x" * jtoo.GREETING_MAX_LEN})
    big = jtoo.encode_frame({"protocol": "jte/1", "pad": "x" * jtoo.GREETING_MAX_LEN})
    with pytest.raises(jtoo.FrameError):
        jtoo.FrameDecoder(max_frame_len=jtoo.GREETING_MAX_LEN).feed(big)


def test_type_stubs_cover_the_extension():
    """_jtoo.pyi names every public name of the extension, and py.typed ships."""
    import ast

    package = Path(jtoo.__file__).parent
    assert (package / "py.typed").exists()
    tree = ast.parse((package / "_jtoo.pyi").read_text(encoding="utf-8"))
    stubbed = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            stubbed.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            stubbed.add(node.target.id)
    public = {n for n in dir(jtoo._jtoo) if not n.startswith("_")}
    assert public - stubbed == set()


# --- JTE packets -----------------------------------------------------------------


def test_packets_both_encodings():
    p = {"command": "getmeta", "reqid": "r1", "data": {"n": 1, "x": D("0.5")}, "timeout": 500}
    for enc in ("jtoo", "json"):
        wire = jtoo.encode_packet(p, enc)
        back = jtoo.decode_packet(wire, enc)
        assert back["command"] == "getmeta"
        assert back["data"] == {"n": 1, "x": D("0.5")}
        assert jtoo.encode_packet(back, enc) == wire
    assert jtoo.encode_packet({"command": "x"}) == b'["command":"x"]'
    assert jtoo.encode_packet({"command": "x"}, "json") == b'{"command":"x"}'
    with pytest.raises(jtoo.PacketError):
        jtoo.decode_packet(b"[1,2]")
    with pytest.raises(jtoo.PacketError):
        jtoo.decode_packet(b"{", "json")
    with pytest.raises(ValueError):
        jtoo.encode_packet({"command": "x"}, "xml")


# --- conformance protocol, example -------------------------------------------------


def run(args, data):
    return subprocess.run([sys.executable, *args], input=data, capture_output=True, timeout=60)


def test_spec_decoder_and_encoder():
    r = run(["-m", "jtoo.spec_decoder"], b'["n":1_000,"at":S0]')
    assert r.returncode == 0, r.stderr
    tagged = r.stdout
    assert json.loads(tagged)[0]["value"] == {"type": "integer", "value": "1000"}
    r = run(["-m", "jtoo.spec_encoder"], tagged)
    assert (r.returncode, r.stdout) == (0, b'["n":1_000,"at":S0]')
    r = run(["-m", "jtoo.spec_decoder"], b"[1,]")
    assert r.returncode == 1 and b"expected" in r.stderr and r.stdout == b""
    r = run(["-m", "jtoo.spec_decoder", "--htoo"], b"[1,]")
    assert r.returncode == 0
    r = run(["-m", "jtoo.spec_encoder"], b'{"type":"integer","value":"1_0"}')
    assert r.returncode == 1 and b"invalid" in r.stderr


@pytest.mark.skipif(not (REPO / "spec-tests" / "runners").is_dir(), reason="not in the checkout")
@pytest.mark.parametrize(
    "args",
    [
        ["--decoder", f"{sys.executable} -m jtoo.spec_decoder"],
        ["--decoder", f"{sys.executable} -m jtoo.spec_decoder --htoo", "--htoo"],
        ["--encoder", f"{sys.executable} -m jtoo.spec_encoder"],
        ["--frame-decoder", f"{sys.executable} -m jtoo.spec_frame_decoder"],
        ["--from-json", f"{sys.executable} -m jtoo.spec_from_json"],
    ],
)
def test_conformance_suite(args):
    r = subprocess.run(
        [sys.executable, str(REPO / "spec-tests/runners/jtoo_spec_tests.py"), *args, "-j", "2"],
        capture_output=True, text=True, timeout=1200,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert " 0 failed" in r.stdout


def test_spec_frame_decoder_prints_the_frames_before_a_bad_one():
    good = jtoo.encode_frame({"a": 1}, b"\x01") + jtoo.encode_frame(None, b"")
    r = run(["-m", "jtoo.spec_frame_decoder"], good + b"000001 000000 x\n")
    assert r.returncode == 1
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert lines == [{"jtoo": '["a":1]', "binary": "01"}, {"jtoo": None, "binary": ""}]


def test_spec_jte_packet_checker():
    r = run(["-m", "jtoo.spec_jte_packet"], b'{"data":[1],"command":"c","x":2}')
    assert (r.returncode, r.stdout) == (0, b'["command":"c","data":[1]]')
    r = run(["-m", "jtoo.spec_jte_packet"], b"[1]")
    assert r.returncode == 1


def test_asyncio_example():
    r = subprocess.run(
        [sys.executable, str(PACKAGE / "examples" / "asyncio_echo.py")],
        capture_output=True, text=True, timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "ok"
    assert '-> ["id":2,"sum":1_000_000_000_000_000_000_000_000_000_001' in r.stdout
