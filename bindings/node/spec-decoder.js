#!/usr/bin/env node
'use strict'
// The conformance suite's decoder protocol (what `jtoo decode` speaks):
// one document on stdin; exit 0 with its tagged JSON and a newline on
// stdout, or 1 with the error on stderr. `--htoo` reads HTOO.
// The document goes through the package's JavaScript values: parse() builds
// them, toTagged() converts them back (the tagged mapping is the Rust
// crate's, spec_tests::tagged).
const fs = require('node:fs')
const jtoo = require('./index.js')

const htoo = process.argv.includes('--htoo')
let value
try {
  value = jtoo.parse(fs.readFileSync(0), { htoo })
} catch (e) {
  if (!(e instanceof jtoo.DecodeError)) throw e
  process.stderr.write(`jtoo: <stdin>: ${e.message}\n`)
  process.exitCode = 1
}
if (process.exitCode !== 1) process.stdout.write(jtoo.toTagged(value) + '\n')
