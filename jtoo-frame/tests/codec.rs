//! The frame codec on `BytesMut`: the seed's examples (corrected per the
//! errata), every rejection, truncation, limits, and any chunking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::{BufMut, BytesMut};
use jtoo_frame::{Frame, FrameCodec, FrameError, Section};
use proptest::prelude::*;
use tokio_util::codec::{Decoder, Encoder};

fn decode_all(input: &[u8]) -> Result<Vec<Frame>, FrameError> {
    let mut codec = FrameCodec::new();
    let mut buf = BytesMut::from(input);
    let mut out = Vec::new();
    while let Some(f) = codec.decode_eof(&mut buf)? {
        out.push(f);
    }
    Ok(out)
}

fn one(input: &[u8]) -> Frame {
    let frames = decode_all(input).unwrap();
    assert_eq!(frames.len(), 1, "{:?}", String::from_utf8_lossy(input));
    frames.into_iter().next().unwrap()
}

fn err(input: &[u8]) -> FrameError {
    decode_all(input).expect_err(&String::from_utf8_lossy(input))
}

fn encode(frame: &Frame) -> Vec<u8> {
    let mut buf = BytesMut::new();
    FrameCodec::new().encode(frame.clone(), &mut buf).unwrap();
    buf.to_vec()
}

#[test]
fn seed_examples_corrected() {
    // E5: the empty frame has two spaces.
    let f = one(b"000000 000000  \n");
    assert_eq!(f, Frame::empty());
    assert_eq!(encode(&f), b"000000 000000  \n");
    // E4: lower-case length digits.
    let f = one(b"00000e 000000 [[\"code\":200]] \n");
    assert_eq!(f.jtoo_str(), Some(r#"[["code":200]]"#));
    assert!(f.binary().is_empty());
    assert_eq!(encode(&f), b"00000e 000000 [[\"code\":200]] \n");
    // A binary section (`\0` is a NUL byte: 0x11 = 17 bytes; the two spaces
    // are the header's and the empty JTOO section's separator).
    let input = b"000000 000011  A binary message\0\n";
    let f = one(input);
    assert_eq!(f.jtoo(), None);
    assert_eq!(&f.binary()[..], b"A binary message\0");
    assert_eq!(encode(&f), input);
    // Both sections.
    let input = b"000016 000009 [[\"status\":\"success\"]] LzsGqqfC9\n";
    let f = one(input);
    assert_eq!(f.jtoo_str(), Some(r#"[["status":"success"]]"#));
    assert_eq!(&f.binary()[..], b"LzsGqqfC9");
    assert_eq!(encode(&f), input);
    // E6: the greeting is 0x44 bytes.
    let text = r#"[["protocol":"e7/LyniPSK","id":Bc8fd0fb7,"nonce":B8da5ab6f3fdb1bb0]]"#;
    let f = one(format!("000044 000000 {text} \n").as_bytes());
    assert_eq!(f.jtoo_str(), Some(text));
    // The 505 reply.
    let f = one(jtoo_frame::UNSUPPORTED_PROTOCOL_REPLY);
    assert!(jtoo_frame::is_unsupported_protocol_reply(&f));
}

#[test]
fn seed_examples_as_printed_are_rejected() {
    // E4: upper-case hex.
    assert!(matches!(
        err(b"00000E 000000 [[\"code\":200]] \n"),
        FrameError::MalformedHeader(_)
    ));
    // E5: one space only: the `\n` stands where the section separator goes.
    assert!(matches!(
        err(b"000000 000000 \n"),
        FrameError::MalformedFrame(_) | FrameError::Truncated { .. }
    ));
    // E6: 0x43 leaves the final `]` where the separator goes.
    let text = r#"[["protocol":"e7/LyniPSK","id":Bc8fd0fb7,"nonce":B8da5ab6f3fdb1bb0]]"#;
    assert!(matches!(
        err(format!("000043 000000 {text} \n").as_bytes()),
        FrameError::MalformedFrame(_)
    ));
}

#[test]
fn rejections() {
    let cases: &[(&[u8], &str)] = &[
        (b"0000a 000000  \n", "header"),
        (b"00000g 000000  \n", "header"),
        (b" 00000 000000  \n", "header"),
        (b"000000-000000  \n", "header"),
        (b"000000 000000\t \n", "header"),
        (b"000000  00000  \n", "header"),
        (b"0x0000 000000  \n", "header"),
        (b"000000 00000A  \n", "header"),
        (b"000000 000000 x\n", "frame"),
        (b"000000 000000  x", "frame"),
        (b"000000 000001  ab", "frame"),
        (b"000001 000000 1x\n", "frame"),
        (b"000002 000000 [] \r\n", "frame"),
        (b"000001 000000 x \n", "jtoo"),
        (b"000003 000000 [ ] \n", "jtoo"),
        (b"000004 000000 1000 \n", "jtoo"),
        (b"000004 000000 [1,2 \n", "jtoo"),
        (b"000003 000000 1 2 \n", "jtoo"),
        (b"000001 000000", "truncated"),
        (b"000000 000000  ", "truncated"),
        (b"000000 00", "truncated"),
        (b"000010 000000 []", "truncated"),
    ];
    for (input, kind) in cases {
        let e = err(input);
        let ok = match *kind {
            "header" => matches!(e, FrameError::MalformedHeader(_)),
            "frame" => matches!(e, FrameError::MalformedFrame(_)),
            "jtoo" => matches!(e, FrameError::InvalidJtoo(_)),
            "truncated" => matches!(e, FrameError::Truncated { .. }),
            _ => false,
        };
        assert!(
            ok,
            "{:?}: expected {kind}, got {e:?}",
            String::from_utf8_lossy(input)
        );
        if *kind != "truncated" {
            assert!(e.to_string().contains("unusable"), "{e}");
        }
    }
}

#[test]
fn invalid_jtoo_carries_the_jtoo_error() {
    let FrameError::InvalidJtoo(e) = err(b"000005 000000 [1,2x \n") else {
        panic!("expected InvalidJtoo");
    };
    assert_eq!(e.column(), 5);
}

#[test]
fn first_bad_header_byte_is_refused_at_once() {
    let mut codec = FrameCodec::new();
    let mut buf = BytesMut::from(&b"GET"[..]);
    assert!(matches!(
        codec.decode(&mut buf),
        Err(FrameError::MalformedHeader(_))
    ));
}

#[test]
fn stream_is_unusable_after_an_error() {
    let mut codec = FrameCodec::new();
    let mut buf = BytesMut::from(&b"00000X 000000  \n000000 000000  \n"[..]);
    assert!(codec.decode(&mut buf).is_err());
    assert!(codec.is_failed());
    assert!(matches!(codec.decode(&mut buf), Err(FrameError::Unusable)));
    assert!(matches!(
        codec.decode_eof(&mut buf),
        Err(FrameError::Unusable)
    ));
}

/// Issue 22, defect 1: a header declaring the largest frame must not make
/// the decoder reserve it before its bytes arrive.
#[test]
fn declared_length_is_not_reserved_before_the_bytes_arrive() {
    let mut codec = FrameCodec::new();
    let mut buf = BytesMut::from(&b"ffffff ffffff "[..]);
    assert!(matches!(codec.decode(&mut buf), Ok(None)));
    assert!(
        buf.capacity() <= 64 * 1024,
        "reserved {} bytes for 14 that arrived",
        buf.capacity()
    );
    // The frame still decodes once its bytes do arrive, in any steps.
    let mut jtoo = vec![b'"'; 0xff_ffff];
    jtoo[1..0xff_fffe].fill(b'a');
    let mut rest = jtoo;
    rest.push(b' ');
    rest.extend(std::iter::repeat_n(7u8, 0xff_ffff));
    rest.push(b'\n');
    for chunk in rest.chunks(1 << 20) {
        assert!(matches!(codec.decode(&mut buf), Ok(None)));
        buf.extend_from_slice(chunk);
    }
    let frame = codec.decode(&mut buf).unwrap().unwrap();
    assert_eq!(frame.jtoo_len(), 0xff_ffff);
    assert_eq!(frame.binary().len(), 0xff_ffff);
}

#[test]
fn oversize_declared_length_rejected_before_buffering() {
    let mut codec = FrameCodec::builder()
        .max_jtoo_len(100)
        .max_binary_len(1000)
        .new_codec();
    let mut buf = BytesMut::with_capacity(64);
    buf.put_slice(b"000000 0003e9 ");
    match codec.decode(&mut buf) {
        Err(FrameError::TooLong {
            section: Section::Binary,
            length: 1001,
            max: 1000,
        }) => {}
        other => panic!("{other:?}"),
    }
    assert!(buf.capacity() < 1001, "nothing reserved for the section");

    let mut codec = FrameCodec::builder().max_jtoo_len(100).new_codec();
    let mut buf = BytesMut::from(&b"ffffff 000000 "[..]);
    assert!(matches!(
        codec.decode(&mut buf),
        Err(FrameError::TooLong {
            section: Section::Jtoo,
            ..
        })
    ));
    assert!(buf.capacity() < 1000);

    // The whole-frame limit.
    let mut codec = FrameCodec::builder().max_frame_len(100).new_codec();
    let mut buf = BytesMut::from(&b"000030 000030 "[..]);
    assert!(matches!(
        codec.decode(&mut buf),
        Err(FrameError::TooLong {
            section: Section::Frame,
            length: 112,
            max: 100
        })
    ));
}

#[test]
fn default_limit_accepts_the_spec_maximum_header() {
    let mut codec = FrameCodec::new();
    let mut buf = BytesMut::from(&b"000000 ffffff "[..]);
    assert_eq!(codec.decode(&mut buf).unwrap(), None);
    assert!(!codec.is_between_frames());
}

#[test]
fn encoder_enforces_limits() {
    let mut codec = FrameCodec::builder().max_binary_len(3).new_codec();
    let mut buf = BytesMut::new();
    let e = codec
        .encode(Frame::from_binary(&b"abcd"[..]), &mut buf)
        .unwrap_err();
    assert!(matches!(e, FrameError::TooLong { .. }));
    assert!(buf.is_empty());
    codec
        .encode(Frame::from_binary(&b"abc"[..]), &mut buf)
        .unwrap();
    assert_eq!(&buf[..], b"000000 000003  abc\n");
}

#[test]
fn frame_constructors_validate() {
    assert!(matches!(
        Frame::from_jtoo(&b"[1,]"[..]),
        Err(FrameError::InvalidJtoo(_))
    ));
    assert_eq!(Frame::from_jtoo(&b""[..]).unwrap(), Frame::empty());
    let f = Frame::from_jtoo(&b"[\"a\":1]"[..]).unwrap();
    assert_eq!(
        f.value().unwrap().unwrap().get("a").unwrap().as_i64(),
        Some(1)
    );
}

#[test]
fn sections_share_the_read_buffer() {
    let mut codec = FrameCodec::new();
    let mut buf = BytesMut::from(&b"000002 000003 [] abc\n"[..]);
    let base = buf.as_ptr() as usize;
    let f = codec.decode(&mut buf).unwrap().unwrap();
    assert_eq!(f.jtoo().unwrap().as_ptr() as usize, base + 14);
    assert_eq!(f.binary().as_ptr() as usize, base + 17);
}

fn sample_stream() -> (Vec<u8>, Vec<Frame>) {
    let frames = vec![
        Frame::empty(),
        Frame::from_jtoo(&b"[[\"code\":200]]"[..]).unwrap(),
        Frame::from_binary(&b"\n\n \n"[..]),
        Frame::from_jtoo("[\"msg\":\"你好\",\"n\":1_000]".as_bytes())
            .unwrap()
            .with_binary(vec![0u8, 0xff, b'\n', b' ']),
        Frame::from_jtoo(&b"\"x\""[..]).unwrap(),
        Frame::from_binary(vec![7u8; 300]),
    ];
    let mut bytes = Vec::new();
    for f in &frames {
        bytes.extend_from_slice(&encode(f));
    }
    (bytes, frames)
}

/// Feeds `input` in chunks ending at `cuts` and collects the frames (or the
/// first error's variant name).
fn decode_chunked(input: &[u8], cuts: &[usize]) -> Result<Vec<Frame>, String> {
    let mut codec = FrameCodec::new();
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    let mut start = 0;
    let mut points: Vec<usize> = cuts.iter().map(|&c| c.min(input.len())).collect();
    points.sort_unstable();
    points.push(input.len());
    for end in points {
        buf.extend_from_slice(&input[start..end.max(start)]);
        start = end.max(start);
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(f)) => out.push(f),
                Ok(None) => break,
                Err(e) => return Err(format!("{e:?}").chars().take(16).collect()),
            }
        }
    }
    loop {
        match codec.decode_eof(&mut buf) {
            Ok(Some(f)) => out.push(f),
            Ok(None) => return Ok(out),
            Err(e) => return Err(format!("{e:?}").chars().take(16).collect()),
        }
    }
}

#[test]
fn one_byte_at_a_time() {
    let (bytes, frames) = sample_stream();
    let cuts: Vec<usize> = (0..bytes.len()).collect();
    assert_eq!(decode_chunked(&bytes, &cuts).unwrap(), frames);
    assert_eq!(decode_chunked(&bytes, &[]).unwrap(), frames);
}

proptest! {
    #[test]
    fn any_chunking_gives_the_same_frames(cuts in proptest::collection::vec(0usize..700, 0..40)) {
        let (bytes, frames) = sample_stream();
        prop_assert_eq!(decode_chunked(&bytes, &cuts).unwrap(), frames);
    }

    #[test]
    fn any_chunking_gives_the_same_error(cuts in proptest::collection::vec(0usize..80, 0..20), which in 0usize..4) {
        let (mut bytes, _) = sample_stream();
        bytes.truncate(60);
        let bad: &[u8] = match which {
            0 => b"00000E 000000  \n",
            1 => b"000001 000000 x \n",
            2 => b"000000 000000 x\n",
            _ => b"000001 00",
        };
        bytes.extend_from_slice(bad);
        let whole = decode_chunked(&bytes, &[]);
        prop_assert!(whole.is_err());
        prop_assert_eq!(decode_chunked(&bytes, &cuts), whole);
    }

    #[test]
    fn any_frame_round_trips(binary in proptest::collection::vec(any::<u8>(), 0..200), n in any::<i64>(), s in ".{0,20}") {
        let v: jtoo::Value = [("n", jtoo::Value::from(n)), ("s", jtoo::Value::from(s))].into_iter().collect();
        let f = Frame::from_value(&v).unwrap().with_binary(binary);
        let bytes = encode(&f);
        prop_assert_eq!(bytes.len(), f.encoded_len());
        prop_assert_eq!(decode_all(&bytes).unwrap(), vec![f]);
    }
}
