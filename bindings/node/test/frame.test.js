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
