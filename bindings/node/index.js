'use strict'
// JTOO for Node.js: the Rust core (crates jtoo, htoo, jtoo-frame, jte)
// through napi-rs. Every rule lives in Rust; this file defines the value
// classes and hands them to the native functions.

// native.js is the loader `napi build --platform --js native.js` writes.
const native = require('./native.js')

// Lets the native side build instances without re-checking their text.
const TOKEN = Symbol('jtoo.token')
// Each class's prototype names its kind under this symbol.
const KIND = Symbol('jtoo.kind')

/**
 * An exact decimal. `text` is its plain spelling (`"1000.5"`, `"-0.25"`,
 * `"1.0"`). `new Decimal("1_000.50")`, `new Decimal(0.1)`,
 * `new Decimal(3n)` normalise.
 */
class Decimal {
  constructor (x, text) {
    if (x !== TOKEN) return native.decimal(x, CTX)
    this.text = text
    Object.freeze(this)
  }

  toString () { return this.text }
  toJSON () { return this.text }
  /** The nearest JavaScript number. */
  toNumber () { return Number(this.text) }
  valueOf () { return Number(this.text) }
  equals (other) { return other instanceof Decimal && other.text === this.text }
}

/**
 * A JTOO date/time value (`D…` / `T…`): a date (year; year-month;
 * year-month-day; ISO week; week day), a time (hour to nanoseconds), an
 * offset, or a combination. Absent parts are null.
 */
class DateTime {
  constructor (x, text, f) {
    if (x !== TOKEN) {
      const v = native.scalar(String(x), CTX)
      if (!(v instanceof DateTime)) throw new TypeError(`${JSON.stringify(String(x))} is not a JTOO date/time`)
      return v
    }
    this.text = text
    this.year = f[0]
    this.month = f[1]
    this.day = f[2]
    this.week = f[3]
    this.weekDay = f[4]
    this.hour = f[5]
    this.minute = f[6]
    this.second = f[7]
    this.nanosecond = f[8]
    this.precision = f[9]
    /** Minutes east of UTC (`~08` is -480), or null for local time. */
    this.offset = f[10]
    Object.freeze(this)
  }

  get hasDate () { return this.year !== null }
  get hasTime () { return this.hour !== null }
  toString () { return this.text }
  toJSON () { return this.text }
  equals (other) { return other instanceof DateTime && other.text === this.text }

  /**
   * The moment as a JavaScript Date, when that is exact: year-month-day, a
   * time, an offset, and nothing below milliseconds. Otherwise a RangeError.
   */
  toDate () {
    if (this.month === null || this.day === null || this.hour === null || this.offset === null) {
      throw new RangeError(`${this.text} is not a moment (needs year-month-day, a time and an offset)`)
    }
    const ns = this.nanosecond ?? 0
    if (ns % 1e6 !== 0) throw new RangeError(`${this.text} is more precise than a Date`)
    const d = new Date(0)
    d.setUTCFullYear(this.year, this.month - 1, this.day) // not Date.UTC: it maps years 0..99 to 19xx
    d.setUTCHours(this.hour, this.minute ?? 0, this.second ?? 0, ns / 1e6)
    return new Date(d.getTime() - this.offset * 60000)
  }
}

/**
 * A Unix timestamp (`S…`): `seconds` since the epoch, rounded down (a
 * number: timestamps span the years 1 to 9999), `nanosecond` after that
 * (so `S-1.500` is seconds -2, nanosecond 500000000), and `digits`, how
 * many fraction digits it is written with (0, 3, 6 or 9).
 */
class Timestamp {
  constructor (x, text, f) {
    if (x !== TOKEN) {
      const v = native.scalar(String(x), CTX)
      if (!(v instanceof Timestamp)) throw new TypeError(`${JSON.stringify(String(x))} is not a JTOO timestamp`)
      return v
    }
    this.text = text
    this.seconds = f[0]
    this.nanosecond = f[1]
    this.digits = f[2]
    Object.freeze(this)
  }

  /** A timestamp of millisecond precision. */
  static fromDate (d) { return native.timestampFromMillis(d.getTime(), CTX) }
  toString () { return this.text }
  toJSON () { return this.text }
  equals (other) { return other instanceof Timestamp && other.text === this.text }

  /** As a Date when exact (whole milliseconds within Date's range), else a RangeError. */
  toDate () {
    if (this.nanosecond % 1e6 !== 0 || typeof this.seconds !== 'number') {
      throw new RangeError(`${this.text} is not exact as a Date`)
    }
    const d = new Date(this.seconds * 1000 + this.nanosecond / 1e6)
    if (Number.isNaN(d.getTime())) throw new RangeError(`${this.text} is outside a Date's range`)
    return d
  }
}

/**
 * A `key:value` item of a list that is not a plain record: keys that are
 * not strings, repeated, or integer-like, or pairs mixed with values.
 */
class Pair {
  constructor (key, value) {
    this.key = key
    this.value = value
  }
}

/** A document that is not valid JTOO (or HTOO, or JSON): where and why. */
class DecodeError extends SyntaxError {
  constructor (message, line, column, offset) {
    super(`${message} at line ${line} column ${column}`)
    this.name = 'DecodeError'
    this.reason = message
    this.line = line
    this.column = column
    this.offset = offset
  }
}

/**
 * A malformed or oversized frame (or a frame that cannot be written).
 * `offset`, `line`, `column` locate an invalid JTOO section's error inside
 * that section; null when the error has no place.
 */
class FrameError extends Error {
  constructor (message, offset, line, column) {
    super(message)
    this.name = 'FrameError'
    placeError(this, offset, line, column)
  }
}

/** A JTE packet that breaks the rules (position as `FrameError`'s). */
class PacketError extends Error {
  constructor (message, offset, line, column) {
    super(message)
    this.name = 'PacketError'
    placeError(this, offset, line, column)
  }
}

/** Sets the place fields a frame or packet error carries (null: no place). */
function placeError (error, offset, line, column) {
  error.offset = offset
  error.line = line
  error.column = column
}

/** A first frame that is not a valid greeting: drop the connection. */
class GreetingError extends FrameError {
  constructor (message, offset, line, column) {
    super(message, offset, line, column)
    this.name = 'GreetingError'
  }
}

/**
 * A valid greeting for a protocol this side does not speak: send
 * `UNSUPPORTED_PROTOCOL_REPLY`, then close. `protocol` is what was asked.
 */
class UnsupportedProtocolError extends GreetingError {
  constructor (protocol, offset, line, column) {
    super(`unsupported protocol ${JSON.stringify(protocol)}`, offset, line, column)
    this.name = 'UnsupportedProtocolError'
    this.protocol = protocol
  }
}

Decimal.prototype[KIND] = 1
DateTime.prototype[KIND] = 2
Timestamp.prototype[KIND] = 3
Pair.prototype[KIND] = 4

const CTX = Object.freeze({
  Decimal,
  DateTime,
  Timestamp,
  Pair,
  DecodeError,
  FrameError,
  PacketError,
  GreetingError,
  UnsupportedProtocolError,
  Map,
  token: TOKEN,
  kind: KIND
})

// The native side hands a parsed value over as JSON text for V8's
// JSON.parse plus patches for what JSON cannot hold (see src/lib.rs,
// "Bulk transfer"): each patch is [kind, n, path (n steps)…, payload…] and
// replaces the placeholder at the end of its path.
function fromTransfer (json) {
  if (typeof json !== 'string') return json[0] // built node by node
  const t = JSON.parse(json)
  const patches = t[1]
  for (let p = 0; p < patches.length; p++) {
    const q = patches[p]
    const n = q[1]
    let o = t
    for (let i = 2; i < n + 1; i++) o = o[q[i]]
    const last = q[n + 1]
    const j = n + 2 // first payload item
    switch (q[0]) {
      case 1: o[last] = BigInt(q[j]); break
      case 2: o[last] = new Decimal(TOKEN, q[j]); break
      case 3: o[last] = new DateTime(TOKEN, q[j], q.slice(j + 1)); break
      case 4: o[last] = new Timestamp(TOKEN, q[j], q.slice(j + 1)); break
      case 5: { const b = Buffer.from(q[j], 'hex'); o[last] = new Uint8Array(b.buffer, b.byteOffset, b.length); break }
      case 6: { const kv = o[last]; o[last] = new Pair(kv[0], kv[1]); break }
    }
  }
  return t[0]
}

/**
 * Reads a JTOO document (a string or UTF-8 bytes); `{htoo: true}` reads
 * HTOO. Throws DecodeError.
 */
function parse (text, options) {
  return fromTransfer(native.parseTransfer(text, Boolean(options && options.htoo), CTX))
}

/** Canonical JTOO text of a value; TypeError for what JTOO cannot hold. */
function stringify (value) { return native.stringify(value, CTX) }

/** Pretty HTOO text of a value (ends with a newline). */
function pretty (value) { return native.pretty(value, CTX) }

/** JSON text read exactly into JTOO's types (JSON null members are left out). */
function fromJson (text) { return fromTransfer(native.fromJsonTransfer(text, CTX)) }

/** A value as JSON text (decimals and big integers keep every digit). */
function toJson (value) { return native.toJson(value, CTX) }

/** One frame: its JTOO text (or null) and its binary section. */
class Frame {
  constructor (text, binary) {
    this.text = text
    this.binary = binary
  }

  /** The JTOO section's value, or undefined when the frame has none. */
  value () { return this.text === null ? undefined : parse(this.text) }
}

/**
 * Reads frames from a byte stream: `feed(chunk)` returns the frames
 * completed, and throws a FrameError on a malformed or oversized frame.
 * Limits (bytes, optional): `{maxJtooLen, maxBinaryLen, maxFrameLen}`.
 */
class FrameDecoder {
  constructor (limits) {
    const l = limits ?? {}
    this._d = new native.FrameDecoder(l.maxJtooLen ?? undefined, l.maxBinaryLen ?? undefined, l.maxFrameLen ?? undefined)
  }

  feed (chunk) { return this._d.feed(chunk, CTX).map(([t, b]) => new Frame(t, b)) }
  /** Bytes held that are not yet a whole frame. */
  get buffered () { return this._d.buffered }
  /** True when no partial frame is held (a clean end of stream). */
  get isBetweenFrames () { return this._d.isBetweenFrames }
}

/** The bytes of one frame: `value` (or null for none) and optional binary bytes. */
function encodeFrame (value, binary) { return native.encodeFrame(value, binary ?? undefined, CTX) }

/** The greeting frame's bytes: `protocol`, then `fields` (an object or a Map). */
function encodeGreeting (protocol, fields) { return native.encodeGreeting(protocol, fields, CTX) }

/** `[protocol, fields]` of a greeting frame; GreetingError when it is not one. */
function decodeGreeting (frame) { return native.decodeGreeting(frame.text, frame.binary, CTX) }

/**
 * A server's check of the first frame: `[protocol, fields]` when it is a
 * greeting for one of `supported`; GreetingError when it is not a valid
 * greeting (drop the connection); UnsupportedProtocolError when the protocol
 * is not supported (write UNSUPPORTED_PROTOCOL_REPLY, then close). Read the
 * first frame with `new FrameDecoder({maxFrameLen: GREETING_MAX_LEN})`.
 */
function checkGreeting (frame, supported) { return native.checkGreeting(frame.text, frame.binary, supported, CTX) }

/** Whether a frame is the server's reply to a greeting it does not speak. */
function isUnsupportedProtocolReply (frame) { return native.isUnsupportedProtocolReply(frame.text, frame.binary, CTX) }

/** A JTE packet (its JTOO value) as JTOO text, or JSON text with `{json: true}`. */
function encodePacket (value, options) { return native.encodePacket(value, Boolean(options && options.json), CTX) }

/** A JTE packet read and checked from JTOO text (or JSON with `{json: true}`), as its value. */
function decodePacket (text, options) { return native.decodePacket(text, Boolean(options && options.json), CTX) }

/** Tagged JSON (the conformance suite's form) of a value. */
function toTagged (value) { return native.toTagged(value, CTX) }

/** A value from tagged JSON text. */
function fromTagged (text) { return native.fromTagged(text, CTX) }

module.exports = {
  parse,
  stringify,
  pretty,
  fromJson,
  toJson,
  Decimal,
  DateTime,
  Timestamp,
  Pair,
  DecodeError,
  FrameError,
  PacketError,
  GreetingError,
  UnsupportedProtocolError,
  Frame,
  FrameDecoder,
  encodeFrame,
  encodeGreeting,
  decodeGreeting,
  checkGreeting,
  isUnsupportedProtocolReply,
  UNSUPPORTED_PROTOCOL_REPLY: native.unsupportedProtocolReply(),
  GREETING_MAX_LEN: native.greetingMaxLen(),
  encodePacket,
  decodePacket,
  toTagged,
  fromTagged
}
