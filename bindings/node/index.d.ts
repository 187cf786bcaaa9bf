// Type declarations of the `jtoo` package (index.js).

/**
 * A JavaScript value that JTOO holds:
 * - `string`; `boolean` (`Y`/`N`);
 * - `number`: an integer within ±(2^53−1) is a JTOO integer, any other
 *   finite number the shortest decimal that reads back as it (NaN and
 *   ±Infinity are refused); `bigint` up to ±(2^128−1) is an integer;
 * - `Decimal`, `DateTime`, `Timestamp`;
 * - `Uint8Array` (or a Buffer): a byte string;
 * - an array: a list (its `Pair` items are `key:value` pairs);
 * - a plain object: a record (its own enumerable string keys, in order);
 * - a `Map`: a list of pairs, any keys.
 *
 * `null`, `undefined`, symbols, functions and `Date`s are refused with a
 * `TypeError` (use `Timestamp.fromDate`).
 */
export type JtooInput =
  | string
  | boolean
  | number
  | bigint
  | Decimal
  | DateTime
  | Timestamp
  | Uint8Array
  | ReadonlyArray<JtooInput | Pair<JtooInput, JtooInput>>
  | ReadonlyMap<JtooInput, JtooInput>
  | { readonly [key: string]: JtooInput }

/**
 * What `parse` returns:
 * - integers within ±(2^53−1) as `number`, beyond as `bigint`;
 * - decimals as `Decimal` (never a float), bytes as `Uint8Array`;
 * - a list of only `"key":value` pairs whose keys are strings, each once,
 *   none an array index (`"0"` … `"4294967294"`, which JavaScript objects
 *   enumerate first, in numeric order) and not `__proto__`: a plain object,
 *   whose key order is the document's;
 * - any other list: an array, with `Pair`s for its pairs.
 */
export type JtooValue =
  | string
  | boolean
  | number
  | bigint
  | Decimal
  | DateTime
  | Timestamp
  | Uint8Array
  | Array<JtooValue | Pair<JtooValue, JtooValue>>
  | { [key: string]: JtooValue }

export interface ParseOptions {
  /** Read HTOO, the lenient human-writable variant (spaces, comments, `1000`, `0.750`). */
  htoo?: boolean
}

/** Reads one JTOO document (a string or UTF-8 bytes). Throws `DecodeError`. */
export function parse(text: string | Uint8Array, options?: ParseOptions): JtooValue
/** Canonical JTOO text of a value. Throws `TypeError` for what JTOO cannot hold. */
export function stringify(value: JtooInput): string
/** Pretty HTOO text of a value. */
export function pretty(value: JtooInput): string
/** JSON text read exactly (every digit kept; JSON `null` members are left out). Throws `DecodeError`. */
export function fromJson(text: string | Uint8Array): JtooValue
/** A value as JSON text (exact numbers; order and repeated keys kept). */
export function toJson(value: JtooInput): string

/** An exact decimal. */
export class Decimal {
  /** From text (`"1_000.50"`, `"3"`), a number (shortest decimal) or a bigint. Throws `TypeError`. */
  constructor(value: string | number | bigint)
  /** The plain, normalised spelling: `"1000.5"`, `"-0.25"`, `"3.0"`. */
  readonly text: string
  toNumber(): number
  valueOf(): number
  toString(): string
  toJSON(): string
  equals(other: unknown): boolean
}

export type TimePrecision = 'hour' | 'minute' | 'second' | 'millisecond' | 'microsecond' | 'nanosecond'

/**
 * A JTOO date/time (`D…`/`T…`): a date (a year; a year and month; a full
 * date; an ISO week; a week day), a time, an offset, or a combination.
 * Parts the value does not have are `null`.
 */
export class DateTime {
  /** From JTOO (or HTOO) text such as `"D2024-03-04T10:20~08"`. Throws `TypeError`. */
  constructor(text: string)
  /** The canonical JTOO text. */
  readonly text: string
  readonly year: number | null
  readonly month: number | null
  readonly day: number | null
  /** ISO week number (week dates). */
  readonly week: number | null
  /** ISO week day, 1 (Monday) to 7. */
  readonly weekDay: number | null
  readonly hour: number | null
  readonly minute: number | null
  readonly second: number | null
  readonly nanosecond: number | null
  readonly precision: TimePrecision | null
  /** Minutes east of UTC (`~08` is -480), or `null` (local time). */
  readonly offset: number | null
  readonly hasDate: boolean
  readonly hasTime: boolean
  /** The moment, when exact: a full date, a time, an offset, whole milliseconds. Else `RangeError`. */
  toDate(): Date
  toString(): string
  toJSON(): string
  equals(other: unknown): boolean
}

/** A Unix timestamp (`S…`). */
export class Timestamp {
  /** From JTOO (or HTOO) text such as `"S1_709_528_240.001"`. Throws `TypeError`. */
  constructor(text: string)
  /** Of millisecond precision. */
  static fromDate(date: Date): Timestamp
  /** The canonical JTOO text. */
  readonly text: string
  /** Whole seconds since the epoch, rounded down (`S-1.500`: -2). */
  readonly seconds: number
  /** Nanoseconds after `seconds` (`S-1.500`: 500000000). */
  readonly nanosecond: number
  /** Fraction digits it is written with: 0, 3, 6 or 9. */
  readonly digits: 0 | 3 | 6 | 9
  /** As a Date when exact (whole milliseconds), else `RangeError`. */
  toDate(): Date
  toString(): string
  toJSON(): string
  equals(other: unknown): boolean
}

/** A `key:value` item of a list that is not a plain record. */
export class Pair<K = JtooValue, V = JtooValue> {
  constructor(key: K, value: V)
  key: K
  value: V
}

/** An invalid document: `reason`, and where (1-based `line` and `column`, 0-based byte `offset`). */
export class DecodeError extends SyntaxError {
  readonly reason: string
  readonly line: number
  readonly column: number
  readonly offset: number
}

/**
 * A malformed or oversized frame, or one that cannot be written. When an
 * invalid JTOO section is the reason, `offset` (0-based byte), `line` and
 * `column` (1-based) place the error inside that section; otherwise null.
 */
export class FrameError extends Error {
  readonly offset: number | null
  readonly line: number | null
  readonly column: number | null
}

/** A JTE packet that breaks the rules; positioned as `FrameError` (JSON: line and column). */
export class PacketError extends Error {
  readonly offset: number | null
  readonly line: number | null
  readonly column: number | null
}

/** A first frame that is not a valid greeting: drop the connection without a reply. */
export class GreetingError extends FrameError {}

/** A valid greeting for a protocol not supported: write `UNSUPPORTED_PROTOCOL_REPLY`, then close. */
export class UnsupportedProtocolError extends GreetingError {
  /** The protocol the greeting asked for. */
  readonly protocol: string
}

/** One frame. */
export class Frame {
  /** The JTOO section's text, or `null` when the frame has none. */
  readonly text: string | null
  /** The binary section (empty when absent). */
  readonly binary: Uint8Array
  /** The JTOO section's value, or `undefined`. Throws `DecodeError`. */
  value(): JtooValue | undefined
}

/** Reads frames from a byte stream; memory grows with the bytes received. */
export interface FrameLimits {
  /** Most bytes of a JTOO section. */
  maxJtooLen?: number
  /** Most bytes of a binary section. */
  maxBinaryLen?: number
  /** Most bytes of a whole frame (`GREETING_MAX_LEN` for a greeting). */
  maxFrameLen?: number
}

export class FrameDecoder {
  constructor(limits?: FrameLimits)
  /** Adds bytes; returns the frames they complete. Throws `FrameError` on a malformed or oversized frame. */
  feed(chunk: Uint8Array): Frame[]
  /** Bytes held that are not yet a whole frame. */
  readonly buffered: number
  /** No partial frame held: the stream may end here. */
  readonly isBetweenFrames: boolean
}

/** The bytes of one frame: a value (or `null` for none) and an optional binary section. */
export function encodeFrame(value: JtooInput | null | undefined, binary?: Uint8Array): Uint8Array

/** The greeting frame's bytes: `protocol`, then `fields` (an object or a Map of string keys). */
export function encodeGreeting(protocol: string, fields?: Record<string, JtooInput> | Map<string, JtooInput>): Uint8Array
/** `[protocol, fields]` of a greeting frame. Throws `GreetingError` when it is not one. */
export function decodeGreeting(frame: Frame): [string, Record<string, JtooValue>]
/**
 * A server's decision on the first frame: `[protocol, fields]` for a valid
 * greeting asking for one of `supported`. Throws `GreetingError` (drop the
 * connection) or `UnsupportedProtocolError` (reply, then close).
 */
export function checkGreeting(frame: Frame, supported: string[]): [string, Record<string, JtooValue>]
/** Whether a frame is a server's 505 reply to a greeting it does not speak. */
export function isUnsupportedProtocolReply(frame: Frame): boolean
/** The bytes of the 505 reply to a greeting for an unsupported protocol. */
export const UNSUPPORTED_PROTOCOL_REPLY: Uint8Array
/** The most bytes of a greeting frame (16 KiB). */
export const GREETING_MAX_LEN: number

export interface PacketOptions {
  /** JSON text instead of JTOO. */
  json?: boolean
}
/** A JTE packet (given as its JTOO record) as JTOO (or JSON) text; the fields are checked. */
export function encodePacket(packet: JtooInput, options?: PacketOptions): string
/** A JTE packet read and checked from JTOO (or JSON) text, as its JTOO record. */
export function decodePacket(text: string | Uint8Array, options?: PacketOptions): JtooValue

/** Tagged JSON, the conformance suite's form of a value. */
export function toTagged(value: JtooInput): string
/** A value from tagged JSON text. */
export function fromTagged(text: string | Uint8Array): JtooValue
