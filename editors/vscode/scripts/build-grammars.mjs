// Writes syntaxes/{jtoo,htoo}.tmLanguage.json from scripts/grammars.mjs.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { grammarText } from './grammars.mjs';

for (const flavour of ['jtoo', 'htoo']) {
  const file = fileURLToPath(new URL(`../syntaxes/${flavour}.tmLanguage.json`, import.meta.url));
  writeFileSync(file, grammarText(flavour));
  console.log(`wrote ${file}`);
}
