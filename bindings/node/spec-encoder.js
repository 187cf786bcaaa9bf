#!/usr/bin/env node
'use strict'
// The conformance suite's encoder protocol (what `jtoo encode` speaks):
// tagged JSON on stdin; exit 0 with the value's canonical JTOO on stdout
// (no final newline), or 1 with the reason on stderr.
// The value goes through the package's JavaScript values: fromTagged()
// builds them, stringify() encodes them.
const fs = require('node:fs')
const jtoo = require('./index.js')

let out
try {
  out = jtoo.stringify(jtoo.fromTagged(fs.readFileSync(0)))
} catch (e) {
  process.stderr.write(`jtoo: <stdin>: ${e.message}\n`)
  process.exitCode = 1
}
if (process.exitCode !== 1) process.stdout.write(out)
