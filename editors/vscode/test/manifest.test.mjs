// The extension manifest holds together: every file it names exists, the
// grammars it names are the ones in syntaxes/ with the scope names it
// gives, and extension.js starts `jtoo lsp` for both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(`../${p}`, import.meta.url));
const manifest = JSON.parse(readFileSync(here('package.json'), 'utf8'));

test('languages: jtoo and htoo, by extension, with a configuration that parses', () => {
  const langs = Object.fromEntries(manifest.contributes.languages.map((l) => [l.id, l]));
  assert.deepEqual(langs.jtoo.extensions, ['.jtoo']);
  assert.deepEqual(langs.htoo.extensions, ['.htoo']);
  for (const l of Object.values(langs)) {
    const config = JSON.parse(readFileSync(here(l.configuration), 'utf8'));
    assert.equal(config.comments.lineComment, '//');
    assert.deepEqual(config.comments.blockComment, ['/*', '*/']);
  }
});

test('grammars: each file exists and declares the scope name the manifest gives', () => {
  for (const g of manifest.contributes.grammars) {
    const grammar = JSON.parse(readFileSync(here(g.path), 'utf8'));
    assert.equal(grammar.scopeName, g.scopeName);
    assert.equal(g.scopeName, `source.${g.language}`);
  }
});

test('extension.js parses and starts `<jtoo.server.path> lsp` for both languages', () => {
  assert.ok(existsSync(here(manifest.main)));
  execFileSync(process.execPath, ['--check', here(manifest.main)]);
  const source = readFileSync(here(manifest.main), 'utf8');
  assert.match(source, /args: \['lsp'\]/);
  assert.match(source, /get\('server\.path'\)/);
  assert.match(source, /\{ language: 'jtoo' \}/);
  assert.match(source, /\{ language: 'htoo' \}/);
  assert.equal(manifest.contributes.configuration.properties['jtoo.server.path'].default, 'jtoo');
  assert.ok(manifest.dependencies['vscode-languageclient']);
});
