'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { FrameDecoder, encodeFrame, encodePacket, decodePacket, parse, stringify } = require('..')

test('frames encode and decode, fed a byte at a time', () => {
  const a = encodeFrame({ n: 1, s: 'x' })
  const b = encodeFrame(null, new Uint8Array([1, 2, 3]))
  const c = encodeFrame([1, 2], new Uint8Array([9]))
  const all = Buffer.concat([a, b, c])
  const d = new FrameDecoder()
  const frames = []
  for (const byte of all) frames.push(...d.feed(Uint8Array.of(byte)))
  assert.equal(frames.length, 3)
  assert.equal(frames[0].text, '["n":1,"s":"x"]')
  assert.deepEqual(frames[0].value(), { n: 1, s: 'x' })
  assert.equal(frames[0].binary.length, 0)
  assert.equal(frames[1].text, null)
  assert.equal(frames[1].value(), undefined)
  assert.deepEqual(frames[1].binary, new Uint8Array([1, 2, 3]))
  assert.deepEqual(frames[2].value(), [1, 2])
  assert.ok(d.isBetweenFrames)
  // All at once.
  assert.equal(new FrameDecoder().feed(all).length, 3)
})

test('a partial frame is held; a bad header is an error', () => {
  const f = encodeFrame('hello')
  const d = new FrameDecoder()
  assert.deepEqual(d.feed(f.subarray(0, 5)), [])
  assert.equal(d.isBetweenFrames, false)
  assert.equal(d.feed(f.subarray(5)).length, 1)
  assert.throws(() => new FrameDecoder().feed(Buffer.from('GET / HTTP/1.1\r\n\r\n')))
})

test('random bytes fed to a FrameDecoder give frames or errors, never a crash', () => {
  let seed = 7
  const rnd = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed >>> 16 }
  for (let i = 0; i < 3000; i++) {
    const d = new FrameDecoder()
    const b = new Uint8Array(rnd() % 40)
    for (let j = 0; j < b.length; j++) b[j] = rnd() & 0xff
    try { d.feed(b) } catch (e) { assert.ok(e instanceof Error) }
  }
})

test('JTE packets in JTOO and JSON', () => {
  const p = parse('["command":"echo","rpcid":"1","data":"hi"]')
  const text = encodePacket(p)
  assert.equal(stringify(decodePacket(text)), text)
  const json = encodePacket(p, { json: true })
  assert.equal(JSON.parse(json).command, 'echo')
  assert.equal(stringify(decodePacket(json, { json: true })), text)
  assert.throws(() => encodePacket({ command: 5 }))
  assert.throws(() => decodePacket('[1]'))
})

test('FrameDecoder limits refuse an oversized frame before buffering it, as a FrameError', () => {
  const { FrameError, GREETING_MAX_LEN } = require('..')
  const f = encodeFrame('x'.repeat(100))
  assert.equal(new FrameDecoder({ maxJtooLen: 200 }).feed(f).length, 1)
  assert.throws(() => new FrameDecoder({ maxJtooLen: 50 }).feed(f.subarray(0, 14)), FrameError)
  assert.throws(() => new FrameDecoder({ maxFrameLen: 50 }).feed(f), FrameError)
  const bin = encodeFrame(null, new Uint8Array(64))
  assert.throws(() => new FrameDecoder({ maxBinaryLen: 10 }).feed(bin), FrameError)
  assert.throws(() => new FrameDecoder({ maxJtooLen: -1 }), /maxJtooLen/)
  assert.equal(GREETING_MAX_LEN, 16 * 1024)
})

test('frame and packet errors are Error subclasses, positioned when there is a place', () => {
  const { FrameError, PacketError } = require('..')
  // A frame whose JTOO section is not JTOO: offset, line, column in the section.
  const doc = Buffer.from('[1,,2]')
  const wire = Buffer.concat([Buffer.from(`${doc.length.toString(16).padStart(6, '0')} 000000 `), doc, Buffer.from(' \n')])
  const e = captured(() => new FrameDecoder().feed(wire))
  assert.ok(e instanceof FrameError)
  assert.ok(e instanceof Error)
  assert.equal(e.name, 'FrameError')
  assert.deepEqual([e.offset, e.line, e.column], [3, 1, 4])
  const h = captured(() => new FrameDecoder().feed(Buffer.from('GET / HTTP/1.1\r\n\r\n')))
  assert.ok(h instanceof FrameError)
  assert.deepEqual([h.offset, h.line, h.column], [null, null, null])
  const p = captured(() => decodePacket('["command":1]'))
  assert.ok(p instanceof PacketError)
  const q = captured(() => decodePacket('["command":"x",]'))
  assert.ok(q instanceof PacketError)
  assert.deepEqual([q.offset, q.line, q.column], [15, 1, 16])
  const j = captured(() => decodePacket('{\n "command": }', { json: true }))
  assert.ok(j instanceof PacketError)
  assert.deepEqual([j.offset, j.line], [14, 2])
})

function captured (f) {
  try { f() } catch (e) { return e }
  assert.fail('no error')
}

test('greetings: encode, decode, the server check, the 505 reply', () => {
  const {
    encodeGreeting, decodeGreeting, checkGreeting, isUnsupportedProtocolReply,
    UNSUPPORTED_PROTOCOL_REPLY, GREETING_MAX_LEN, GreetingError, UnsupportedProtocolError, FrameError
  } = require('..')
  const [g] = new FrameDecoder({ maxFrameLen: GREETING_MAX_LEN }).feed(encodeGreeting('jte/1', { client: 'test', n: 1 }))
  assert.deepEqual(decodeGreeting(g), ['jte/1', { client: 'test', n: 1 }])
  assert.deepEqual(checkGreeting(g, ['x/2', 'jte/1']), ['jte/1', { client: 'test', n: 1 }])
  const u = captured(() => checkGreeting(g, ['x/2']))
  assert.ok(u instanceof UnsupportedProtocolError && u instanceof GreetingError && u instanceof FrameError)
  assert.equal(u.protocol, 'jte/1')
  assert.ok(!isUnsupportedProtocolReply(g))
  const [reply] = new FrameDecoder().feed(UNSUPPORTED_PROTOCOL_REPLY)
  assert.ok(isUnsupportedProtocolReply(reply))
  const [notGreeting] = new FrameDecoder().feed(encodeFrame([1, 2]))
  const n = captured(() => checkGreeting(notGreeting, ['jte/1']))
  assert.ok(n instanceof GreetingError && !(n instanceof UnsupportedProtocolError))
  assert.deepEqual(decodeGreeting(new FrameDecoder().feed(encodeGreeting('p', new Map([['k', 2n ** 70n]])))[0]), ['p', { k: 2n ** 70n }])
  assert.throws(() => encodeGreeting('p', { protocol: 'q' }), GreetingError)
  // Over GREETING_MAX_LEN: not written, and not read by a greeting decoder.
  assert.throws(() => encodeGreeting('jte/1', { pad: 'x'.repeat(GREETING_MAX_LEN) }), FrameError)
  const big = encodeFrame({ protocol: 'jte/1', pad: 'x'.repeat(GREETING_MAX_LEN) })
  assert.throws(() => new FrameDecoder({ maxFrameLen: GREETING_MAX_LEN }).feed(big), FrameError)
})
