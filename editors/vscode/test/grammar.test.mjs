// The TextMate grammars against the conformance suite (spec-tests/cases/):
// every character of every valid case gets a scope of its own beyond the
// root, never an `invalid` one, and each kind of scalar its own scope.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tokenize, grammarPath } from './tokenize.mjs';
import { grammarText } from '../scripts/grammars.mjs';

const casesRoot = fileURLToPath(new URL('../../../spec-tests/cases/', import.meta.url));

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Every case file of every revision, as { path, syntax, valid, category }. */
const cases = readdirSync(casesRoot)
  .filter((rev) => statSync(join(casesRoot, rev)).isDirectory())
  .flatMap((rev) => walk(join(casesRoot, rev)).map((path) => {
    const rel = path.slice(join(casesRoot, rev).length + 1).split(/[\\/]/);
    const syntax = path.endsWith('.jtoo') ? 'jtoo' : path.endsWith('.htoo') ? 'htoo' : null;
    return { path, syntax, kind: rel[0], category: rel[2] };
  }))
  .filter((c) => c.syntax);

const valid = cases.filter((c) => c.kind === 'valid');
// (Not implementation-defined/: its 100,000-deep list is a line VS Code
// does not tokenize at all, being over editor.maxTokenizationLineLength.)
const invalid = cases.filter((c) => c.kind === 'invalid');

/** The scope each kind of value must get (a prefix, before the `.jtoo`/`.htoo` suffix). */
const KIND = {
  string: /^string\.quoted\.double\./,
  bytes: /^constant\.other\.bytes\./,
  bool: /^constant\.language\.boolean\./,
  integer: /^constant\.numeric\.integer\./,
  decimal: /^constant\.numeric\.decimal\./,
  datetime: /^constant\.other\.(date|time)\./,
  timestamp: /^constant\.other\.timestamp\./,
  comment: /^comment\.(line\.double-slash|block)\./,
};

test('the conformance suite is there', () => {
  assert.ok(valid.length > 300, `only ${valid.length} valid cases under ${casesRoot}`);
  assert.ok(invalid.length > 300, `only ${invalid.length} invalid cases`);
});

test('the committed grammars are what scripts/grammars.mjs writes', () => {
  for (const flavour of ['jtoo', 'htoo']) {
    assert.equal(readFileSync(grammarPath(flavour), 'utf8'), grammarText(flavour),
      `${flavour}: run \`npm run build-grammars\``);
  }
});

/** Checks that the tokens cover every character of `text` with a non-root, valid scope. */
function assertCovered(tokens, text, what) {
  const lines = text.split('\n');
  lines.forEach((line, n) => {
    let at = 0;
    for (const t of tokens.filter((t) => t.line === n)) {
      assert.equal(t.start, at, `${what}: line ${n + 1}: gap before column ${t.start}`);
      assert.ok(t.scopes.length > 1,
        `${what}: line ${n + 1}: ${JSON.stringify(t.text)} has only the root scope`);
      const bad = t.scopes.find((s) => s.startsWith('invalid'));
      assert.equal(bad, undefined, `${what}: line ${n + 1}: ${JSON.stringify(t.text)} is ${bad}`);
      at = t.end;
    }
    assert.equal(at, line.length, `${what}: line ${n + 1} not covered to its end`);
  });
}

for (const flavour of ['jtoo', 'htoo']) {
  // HTOO accepts every JTOO document; JTOO only its own cases.
  const mine = valid.filter((c) => c.syntax === 'jtoo' || flavour === 'htoo');
  test(`${flavour}: every character of ${mine.length} valid cases gets a scope, none invalid`, async () => {
    for (const c of mine) {
      const text = readFileSync(c.path, 'utf8');
      assertCovered(await tokenize(flavour, text), text, c.path);
    }
  });

  test(`${flavour}: the valid cases of each kind get that kind's scope`, async () => {
    let checked = 0;
    for (const c of mine) {
      const kind = KIND[c.category];
      // (x.canonical.jtoo beside an HTOO case is its comment-free form.)
      if (!kind || c.path.endsWith('.canonical.jtoo')) continue;
      const text = readFileSync(c.path, 'utf8');
      const scopes = (await tokenize(flavour, text)).flatMap((t) => t.scopes);
      assert.ok(scopes.some((s) => kind.test(s)),
        `${c.path}: no ${kind} among ${[...new Set(scopes)].join(' ')}`);
      checked += 1;
    }
    assert.ok(checked > 200, `only ${checked} cases checked`);
  });

  test(`${flavour}: every invalid case tokenizes (no error, no hang)`, async () => {
    for (const c of invalid) {
      // Invalid UTF-8 becomes U+FFFD, as in an editor.
      const text = readFileSync(c.path).toString('utf8');
      const tokens = await tokenize(flavour, text);
      assert.ok(Array.isArray(tokens));
    }
  });
}

/** The scopes of each token of `text`, innermost first, by token text. */
async function scopesOf(flavour, text) {
  return (await tokenize(flavour, text)).map((t) => [t.text, t.scopes[t.scopes.length - 1]]);
}

test('htoo: each kind of token gets a scope of its own', async () => {
  const doc = '["s":"a\\tb\\22", "n":-1_000, "d":0.50, "t":D2024-03-04T10:20:30~08, ' +
    'T10-0800, S1_709_528_240.001, B4F4b, Y, N] // end\n/* block */';
  const got = await scopesOf('htoo', doc);
  const want = [
    ['[', 'punctuation.section.list.begin.htoo'],
    ['"', 'punctuation.definition.string.begin.htoo'],
    ['s', 'support.type.property-name.htoo'],
    ['"', 'punctuation.definition.string.end.htoo'],
    [':', 'punctuation.separator.key-value.htoo'],
    ['"', 'punctuation.definition.string.begin.htoo'],
    ['a', 'string.quoted.double.htoo'],
    ['\\t', 'constant.character.escape.htoo'],
    ['b', 'string.quoted.double.htoo'],
    ['\\22', 'constant.character.escape.htoo'],
    ['"', 'punctuation.definition.string.end.htoo'],
    [',', 'punctuation.separator.list.htoo'],
    [' ', 'punctuation.whitespace.htoo'],
  ];
  assert.deepEqual(got.slice(0, want.length), want);
  const by = Object.fromEntries(got.map(([text, scope]) => [text, scope]));
  assert.equal(by['-1_000'], 'constant.numeric.integer.htoo');
  assert.equal(by['0.50'], 'constant.numeric.decimal.htoo');
  assert.equal(by['D2024-03-04T10:20:30~08'], 'constant.other.date.htoo');
  assert.equal(by['T10-0800'], 'constant.other.time.htoo');
  assert.equal(by['S1_709_528_240.001'], 'constant.other.timestamp.htoo');
  assert.equal(by.B4F4b, 'constant.other.bytes.htoo');
  assert.equal(by.Y, 'constant.language.boolean.htoo');
  assert.equal(by.N, 'constant.language.boolean.htoo');
  assert.equal(by[']'], 'punctuation.section.list.end.htoo');
  assert.equal(by[' end'], 'comment.line.double-slash.htoo');
  assert.equal(by[' block '], 'comment.block.htoo');
  // Distinct kinds, distinct scopes.
  const kinds = ['"', '-1_000', '0.50', 'D2024-03-04T10:20:30~08', 'T10-0800',
    'S1_709_528_240.001', 'B4F4b', 'Y', ' end', ' block '].map((k) => by[k]);
  assert.equal(new Set(kinds).size, kinds.length, kinds.join(' '));
});

test('htoo: a block comment spans lines; a string does not', async () => {
  const got = await scopesOf('htoo', '[1, /*\n two\n */ "a\n2]');
  assert.deepEqual(got.filter(([, s]) => s === 'comment.block.htoo').map(([t]) => t), [' two', ' ']);
  // The unterminated "a ends with its line; 2 on the next line is a number.
  assert.ok(got.some(([t, s]) => t === '2' && s === 'constant.numeric.integer.htoo'), JSON.stringify(got));
});

test('jtoo: what only HTOO allows is marked invalid', async () => {
  for (const [text, bad] of [
    ['[1, 2]', ' '],
    ['[1,2] // c', '// c'],
    ['B4F', 'B4F'],
    ['"\\n"', '\\n'],
    ['1000', '1000'],
    ['0.50', '0.50'],
    ['T10-08', 'T10-08'],
  ]) {
    const got = await scopesOf('jtoo', text);
    const hit = got.find(([t]) => t === bad);
    assert.ok(hit && hit[1].startsWith('invalid.illegal.'), `${text}: ${JSON.stringify(got)}`);
  }
});

test('htoo: misspelt scalars and stray delimiters are marked invalid', async () => {
  for (const [text, bad] of [
    ['D2023-1-01', 'D2023-1-01'],
    ['B4', 'B4'],
    ['yes', 'yes'],
    ['1__0', '1__0'],
    ['"\\x"', '\\x'],
    ['1]', ']'],
  ]) {
    const got = await scopesOf('htoo', text);
    const hit = got.find(([t]) => t === bad);
    assert.ok(hit && hit[1].startsWith('invalid.illegal.'), `${text}: ${JSON.stringify(got)}`);
  }
});
