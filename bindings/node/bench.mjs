// jtoo.parse / jtoo.stringify against JSON.parse / JSON.stringify on the
// corpus (testdata/corpus: twitter, citm_catalog, canada), in one run.
// Each JSON file is converted to canonical JTOO first (jtoo.fromJson then
// jtoo.stringify); both sides parse their own text into fresh values and
// stringify the values they parsed. Median of the runs, in milliseconds of
// CPU time (process.cpuUsage: on a shared machine wall time counts the
// other processes too).
//   node bench.mjs [runs]
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const require = createRequire(import.meta.url)
const jtoo = require('./index.js')
const here = path.dirname(fileURLToPath(import.meta.url))
const corpus = path.join(here, '..', '..', 'testdata', 'corpus')
const runs = Number(process.argv[2] ?? 30)

function median (f) {
  for (let i = 0; i < 3; i++) f() // warm-up
  const times = []
  for (let i = 0; i < runs; i++) {
    const t = process.cpuUsage()
    f()
    const d = process.cpuUsage(t)
    times.push((d.user + d.system) / 1e3)
  }
  times.sort((a, b) => a - b)
  return times[times.length >> 1]
}

const rows = []
for (const name of ['twitter', 'citm_catalog', 'canada']) {
  const json = readFileSync(path.join(corpus, `${name}.json`), 'utf8')
  const text = jtoo.stringify(jtoo.fromJson(json))
  const jsValue = JSON.parse(json)
  const jtooValue = jtoo.parse(text)
  const jp = median(() => JSON.parse(json))
  const tp = median(() => jtoo.parse(text))
  const js = median(() => JSON.stringify(jsValue))
  const ts = median(() => jtoo.stringify(jtooValue))
  rows.push({ file: name, 'JSON.parse': jp, 'jtoo.parse': tp, 'parse ×': tp / jp, 'JSON.stringify': js, 'jtoo.stringify': ts, 'stringify ×': ts / js })
}
const fmt = (x) => (typeof x === 'number' ? x.toFixed(2) : x)
console.log(`node ${process.version}, ${runs} runs each, median CPU ms (× = jtoo / JSON)`)
console.log('| file | JSON.parse | jtoo.parse | × | JSON.stringify | jtoo.stringify | × |')
console.log('|---|---:|---:|---:|---:|---:|---:|')
for (const r of rows) console.log(`| ${Object.values(r).map(fmt).join(' | ')} |`)
