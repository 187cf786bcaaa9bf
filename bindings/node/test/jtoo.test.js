'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const jtoo = require('..')
const { parse, stringify, pretty, fromJson, toJson, Decimal, DateTime, Timestamp, Pair, DecodeError } = jtoo

test('records are plain objects and round-trip', () => {
  const text = '["service":"billing","port":8_080,"ratio":0.75,"enabled":Y,"key":B4f4b,"hosts":["a","b"]]'
  const v = parse(text)
  assert.equal(v.service, 'billing')
  assert.equal(v.port, 8080)
  assert.ok(v.ratio instanceof Decimal)
  assert.equal(v.ratio.text, '0.75')
  assert.equal(v.enabled, true)
  assert.deepEqual(v.key, new Uint8Array([0x4f, 0x4b]))
  assert.equal(Object.getPrototypeOf(v.key), Uint8Array.prototype)
  assert.deepEqual(v.hosts, ['a', 'b'])
  assert.equal(stringify(v), text)
})

test('text outside ASCII and characters JSON escapes come through exactly', () => {
  const strings = ['你好', 'a你b', 'é', '😀', 'x😀y\u00e9z', 'ascii only', '\u0080\u07ff\u0800\uffff', '𝄞 clef', '"q" \\ 日本']
  for (let i = 0; i < 40; i += 7) {
    const pad = 'x'.repeat(i)
    strings.push(pad + '"', pad + '\\' + pad, pad + '\n' + pad + '\u0001', pad + '日"本' + pad)
  }
  const v = { 日本語: strings, k: 'Ā', ['"key\\' + 'y'.repeat(20)]: '\u001f' }
  const text = stringify(v)
  assert.deepEqual(parse(text), v)
  assert.deepEqual(parse(Buffer.from(text)), v)
  // A lone surrogate has no UTF-8: it reads as U+FFFD (napi's conversion).
  assert.equal(parse('"a\ud800b"'), 'a\ufffdb')
  assert.equal(parse('"\udc00"'), '\ufffd')
  // Text of three UTF-8 bytes a UTF-16 unit (more than the first buffer
  // holds), pairs and lone surrogates on either side of the growth.
  for (const n of [1, 100, 1000]) {
    const s = '日本'.repeat(n) + '😀'.repeat(n) + 'x'.repeat(n) + '語'.repeat(n)
    assert.equal(parse(`"${s}"`), s)
    assert.equal(parse(`"${s}\ud800${s}"`), `${s}\ufffd${s}`)
  }
})

test('documents of Latin-1 text (handed to V8 one byte a character) and beyond it', () => {
  const latin = ['é', 'ÿ\u00ff', '\u0080\u00a0 x', 'Zoë "q" \\ ' + 'ü'.repeat(40), 'a'.repeat(33) + 'ß', '\u00c4\u00c3\u00c2\u00c5']
  const v = { café: latin, 'ÿ': 'naïve', n: 1 }
  const text = stringify(v)
  assert.deepEqual(parse(text), v)
  assert.deepEqual(parse(Buffer.from(text)), v)
  // One character past U+00FF (U+0100) makes the whole text UTF-16.
  const w = { café: [...latin, 'Ā'], 'ÿ': '\u0100\u00ff' }
  assert.deepEqual(parse(stringify(w)), w)
  assert.deepEqual(parse('["é":"ÿ","s":"' + 'ñ'.repeat(100) + '"]'), { é: 'ÿ', s: 'ñ'.repeat(100) })
})

test('integers: numbers up to 2^53-1, BigInt beyond', () => {
  assert.equal(parse('9_007_199_254_740_991'), 2 ** 53 - 1)
  assert.equal(parse('-9_007_199_254_740_991'), -(2 ** 53 - 1))
  assert.equal(parse('9_007_199_254_740_992'), 2n ** 53n)
  assert.equal(parse('-340_282_366_920_938_463_463_374_607_431_768_211_455'), -(2n ** 128n - 1n))
  assert.equal(stringify(2n ** 128n - 1n), '340_282_366_920_938_463_463_374_607_431_768_211_455')
  assert.throws(() => stringify(2n ** 128n), TypeError)
  assert.equal(stringify(-0), '0')
  assert.equal(stringify(1e21), '1_000_000_000_000_000_000_000')
})

test('numbers with a fraction become the shortest decimal', () => {
  assert.equal(stringify(0.1), '0.1')
  assert.equal(stringify(-2.5), '-2.5')
  assert.equal(stringify([1.5, 3]), '[1.5,3]')
})

test('Decimal keeps the exact text', () => {
  const d = parse('123_456_789_012_345_678_901_234.567_890_123')
  assert.equal(d.text, '123456789012345678901234.567890123')
  assert.equal(stringify(d), '123_456_789_012_345_678_901_234.567_890_123')
  assert.equal(new Decimal('1_000.50').text, '1000.5')
  assert.equal(new Decimal('3').text, '3.0')
  assert.equal(new Decimal(0.1).text, '0.1')
  assert.equal(new Decimal(7n).text, '7.0')
  assert.throws(() => new Decimal('1e5'), TypeError)
  assert.ok(Object.isFrozen(d))
  assert.ok(d.equals(new Decimal('123456789012345678901234.567890123')))
})

test('dates, times and offsets keep every field', () => {
  const d = parse('D2024-03-04T10:20:30.123_456~08')
  assert.ok(d instanceof DateTime)
  assert.deepEqual(
    [d.year, d.month, d.day, d.week, d.weekDay, d.hour, d.minute, d.second, d.nanosecond, d.precision, d.offset],
    [2024, 3, 4, null, null, 10, 20, 30, 123456000, 'microsecond', -480])
  assert.equal(stringify(d), 'D2024-03-04T10:20:30.123_456~08')
  assert.throws(() => d.toDate(), RangeError) // below milliseconds
  const w = parse('D2024-W05-3')
  assert.deepEqual([w.year, w.month, w.week, w.weekDay, w.hour], [2024, null, 5, 3, null])
  assert.throws(() => w.toDate(), RangeError)
  const t = parse('T10:20')
  assert.deepEqual([t.hasDate, t.hour, t.minute, t.second, t.precision], [false, 10, 20, null, 'minute'])
  const exact = parse('D2024-03-04T10:20:30.500Z')
  assert.equal(exact.offset, 0)
  assert.equal(exact.toDate().toISOString(), '2024-03-04T10:20:30.500Z')
  assert.equal(new DateTime('D0099-01-02T00:00Z').toDate().toISOString(), '0099-01-02T00:00:00.000Z')
  assert.equal(new DateTime('D2024-03-04').text, 'D2024-03-04')
  assert.throws(() => new DateTime('D2024-13-01'), TypeError)
  assert.throws(() => new DateTime('S1'), TypeError)
})

test('timestamps', () => {
  const t = parse('S1_709_528_240.001')
  assert.ok(t instanceof Timestamp)
  assert.deepEqual([t.seconds, t.nanosecond, t.digits], [1709528240, 1000000, 3])
  assert.equal(t.toDate().getTime(), 1709528240001)
  assert.equal(stringify(t), 'S1_709_528_240.001')
  const before = Timestamp.fromDate(new Date(-1500))
  assert.equal(stringify(before), 'S-1.500') // -1.5 s
  assert.deepEqual([before.seconds, before.nanosecond], [-2, 500000000]) // floor, and nanoseconds after it
  assert.equal(before.toDate().getTime(), -1500)
  assert.throws(() => parse('S1.000_000_001').toDate(), RangeError)
  assert.equal(parse('S253_402_300_799.999_999_999').seconds, 253402300799) // year 9999: always a number
  assert.throws(() => stringify(new Date()), TypeError)
})

test('lists that are not plain records use Pair and round-trip exactly', () => {
  for (const text of [
    '[1,"k":2]', // mixed
    '["a":1,"a":2]', // repeated key
    '["2":"x","1":"y"]', // array-index keys: an object would reorder them
    '["__proto__":1]',
    '[1:"one",D2024-01-01:Y,B00:N]', // keys that are not strings
    '["b":1,"4294967294":2]'
  ]) {
    const v = parse(text)
    assert.ok(Array.isArray(v), text)
    assert.equal(stringify(v), text)
  }
  const v = parse('[1,"k":2]')
  assert.deepEqual(v, [1, new Pair('k', 2)])
  // Keys that are not array indices stay an object.
  assert.equal(Array.isArray(parse('["b":1,"4294967295":1,"01":2,"-1":3]')), false)
  assert.throws(() => stringify(new Pair('k', 1)), TypeError)
  assert.throws(() => stringify([new Pair(parse('T10:20'), 1)]), TypeError) // ambiguous key
  assert.equal(stringify(new Map([[1, 'a'], ['b', 2]])), '[1:"a","b":2]')
  assert.equal(stringify([]), '[]')
  assert.equal(stringify({}), '[]')
})

test('stringify refuses what JTOO cannot hold', () => {
  for (const bad of [null, undefined, NaN, Infinity, -Infinity, Symbol('s'), () => 1, { a: undefined }, [null], '\ud800']) {
    assert.throws(() => stringify(bad), TypeError)
  }
  const cyclic = []
  cyclic.push(cyclic)
  assert.throws(() => stringify(cyclic), TypeError)
  assert.throws(() => stringify(new Float64Array(1)), TypeError)
})

test('parse errors are DecodeErrors with line, column and offset', () => {
  assert.throws(() => parse('[1,2x]'), DecodeError)
  try { parse('[1,2x]') } catch (err) {
    assert.ok(err instanceof SyntaxError)
    assert.deepEqual([err.line, err.column, err.offset, err.reason], [1, 5, 4, 'expected `,` or `]`'])
  }
  try { parse('[1,\n 2x]', { htoo: true }) } catch (err) {
    assert.ok(err instanceof DecodeError)
    assert.deepEqual([err.line, err.column, err.offset], [2, 3, 6])
    assert.match(err.message, /line 2 column 3/)
  }
  assert.throws(() => parse('[1, 2]'), DecodeError) // strict: no spaces
  assert.deepEqual(parse('[1, 2] // two\n', { htoo: true }), [1, 2])
  assert.throws(() => parse(new Uint8Array([0x22, 0xff, 0x22])), DecodeError)
  assert.throws(() => parse(42), TypeError)
})

test('any bytes give a value or a DecodeError, never a crash', () => {
  let seed = 12345
  const rnd = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed >>> 16 }
  const alphabet = Buffer.from('[]:,"\\_.-~+YNBDTSZW0123456789abcdefx \n\t/\x00\xff')
  for (let i = 0; i < 20000; i++) {
    const n = rnd() % 24
    const b = new Uint8Array(n)
    for (let j = 0; j < n; j++) b[j] = (rnd() & 1) ? alphabet[rnd() % alphabet.length] : rnd() & 0xff
    for (const htoo of [false, true]) {
      try {
        parse(b, { htoo })
      } catch (e) {
        assert.ok(e instanceof DecodeError, `${Buffer.from(b).toString('hex')}: ${e}`)
      }
    }
  }
  assert.throws(() => parse('['.repeat(100000)), DecodeError)
})

test('pretty, fromJson and toJson', () => {
  const v = fromJson('{"a":1.50,"b":[123456789012345678901,true],"c":null}')
  assert.equal(v.a.text, '1.5')
  assert.equal(v.b[0], 123456789012345678901n)
  assert.equal('c' in v, false)
  assert.equal(toJson(v), '{"a":1.5,"b":[123456789012345678901,true]}')
  assert.equal(stringify(v), '["a":1.5,"b":[123_456_789_012_345_678_901,Y]]')
  assert.equal(pretty(parse('["a":1]')), '["a": 1]')
  assert.deepEqual(parse(pretty(v), { htoo: true }), v)
  assert.throws(() => fromJson('{"a":}'), DecodeError)
})

test('a record is an object exactly when its keys are distinct, at every size', () => {
  const record = (keys) => '[' + keys.map((k, i) => `${JSON.stringify(k)}:${i}`).join(',') + ']'
  for (const n of [1, 2, 4, 5, 8, 23, 40, 64, 65, 200]) {
    const keys = [...Array(n).keys()].map((i) => `key_${'x'.repeat(i % 7)}${i}`)
    const v = parse(record(keys))
    assert.equal(Array.isArray(v), false, `${n} keys`)
    assert.deepEqual(Object.keys(v), keys)
    for (const at of [0, n >> 1, n - 1]) {
      const text = record([...keys, keys[at]])
      const w = parse(text)
      assert.ok(Array.isArray(w), `${n} keys, key ${at} again`)
      assert.equal(stringify(w), text)
    }
  }
  // Same length, same first and last eight bytes: still different keys.
  const alike = ['abcdefgh1_12345678', 'abcdefgh2_12345678', 'abcdefgh3_12345678', 'a', 'b', 'c']
  assert.deepEqual(Object.keys(parse(record(alike))), alike)
  assert.ok(Array.isArray(parse(record([...alike, 'abcdefgh2_12345678']))))
})

test('strings and keys with escapes (strict and HTOO) become the same JavaScript strings', () => {
  const v = parse('["k\\22\\5c\\0a":"v\\09\\22\\5c\\01\\7f","plain":"日本\\0a語"]')
  assert.deepEqual(v, { 'k"\\\n': 'v\t"\\\u0001\u007f', plain: '日本\n語' })
  const h = parse('["k\\"\\t":"a\\nb\\r",\n "x":"\\5c"]', { htoo: true })
  assert.deepEqual(h, { 'k"\t': 'a\nb\r', x: '\\' })
})

test('tagged JSON round trip', () => {
  const v = parse('[1,"k":D2024-01-01]')
  const t = jtoo.toTagged(v)
  assert.equal(t, '[{"type":"integer","value":"1"},{"key":{"type":"string","value":"k"},"value":{"type":"datetime","value":"D2024-01-01"}}]')
  assert.equal(stringify(jtoo.fromTagged(t)), '[1,"k":D2024-01-01]')
})

test('parse builds the same values as the per-node path (fromTagged), for tricky documents', () => {
  const texts = ['1.5', 'B00ff', 'S-1.500', 'D2024-W05-3T10:20:30.000_000_001', '-9_007_199_254_740_992']
  for (const v of [
    'a"b\\c\u0000\u001f\u2028\ud83d\ude00',
    { 'k"ey': 'x\ny', '': [[]], nested: { a: { b: [1, new Decimal('2.5'), new Uint8Array(0)] } } },
    [new Pair({ a: 1 }, { b: new Decimal('1.5'), c: [new Pair(parse('S0'), parse('D2024'))] }), new Pair('z', 'y')],
    [1, new Pair('k', { j: [new Pair(parse('T10:20:30'), 'v')] })],
    { big: 123456789012345678901n, list: [new Pair('a', 1), new Pair('a', 2)] }
  ]) texts.push(stringify(v))
  for (const text of texts) {
    const v = parse(text)
    assert.equal(stringify(v), text)
    assert.deepEqual(v, jtoo.fromTagged(jtoo.toTagged(v)), text)
  }
})

test('a document of mostly special values (built node by node) reads the same', () => {
  const text = stringify([...Array(3000).keys()].map((i) => new Decimal(`${i}.5`)))
  const v = parse(text)
  assert.equal(v.length, 3000)
  assert.equal(v[2999].text, '2999.5')
  assert.equal(stringify(v), text)
  assert.deepEqual(v, jtoo.fromTagged(jtoo.toTagged(v)))
})
