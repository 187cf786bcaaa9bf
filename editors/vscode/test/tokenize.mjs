// Loads the committed grammars into vscode-textmate with the Oniguruma
// WebAssembly build, as VS Code does, and tokenizes text with them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import vsctm from 'vscode-textmate';
import oniguruma from 'vscode-oniguruma';

const require = createRequire(import.meta.url);
const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
const onigLib = oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength)).then(() => ({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (s) => new oniguruma.OnigString(s),
}));

export const grammarPath = (flavour) =>
  fileURLToPath(new URL(`../syntaxes/${flavour}.tmLanguage.json`, import.meta.url));

const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scopeName) => {
    const flavour = scopeName.replace(/^source\./, '');
    if (flavour !== 'jtoo' && flavour !== 'htoo') return null;
    const path = grammarPath(flavour);
    return vsctm.parseRawGrammar(readFileSync(path, 'utf8'), path);
  },
});

const grammars = {};
/** The loaded grammar of `jtoo` or `htoo`. */
export async function load(flavour) {
  grammars[flavour] ??= await registry.loadGrammar(`source.${flavour}`);
  return grammars[flavour];
}

/**
 * Tokens of `text` (split into lines at `\n`, as an editor does; a `\r`
 * stays on its line), each `{ line, start, end, text, scopes }`, clipped to
 * the line's characters.
 */
export async function tokenize(flavour, text) {
  const grammar = await load(flavour);
  let stack = vsctm.INITIAL;
  const out = [];
  text.split('\n').forEach((line, n) => {
    const r = grammar.tokenizeLine(line, stack);
    for (const t of r.tokens) {
      const start = Math.min(t.startIndex, line.length);
      const end = Math.min(t.endIndex, line.length);
      if (start < end) {
        out.push({ line: n, start, end, text: line.slice(start, end), scopes: t.scopes });
      }
    }
    stack = r.ruleStack;
  });
  return out;
}
