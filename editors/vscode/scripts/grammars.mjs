// The one definition of the JTOO and HTOO TextMate grammars. Both grammar
// files under syntaxes/ are generated from here (`npm run build-grammars`);
// the grammar test checks that they are up to date.
//
// HTOO is JTOO plus whitespace, comments, trailing commas, `\t \r \n \"`
// escapes, upper-case hex in byte strings, free `_` in numbers and `-` or
// zero offsets (spec-decisions.md, "HTOO"). The JTOO grammar is the same
// with those leniencies marked `invalid.illegal`: the editor shows what the
// strict parser will reject before the language server says so.

/** Oniguruma pieces shared by both flavours. */
const DATE = '[0-9]{4}(?:-W[0-9]{2}(?:-[0-9])?|-[0-9]{2}(?:-[0-9]{2})?)?';
const CLOCK = '[0-9]{2}(?::[0-9]{2}(?::[0-9]{2}(?:\\.[0-9]{3}(?:_[0-9]{3}){0,2})?)?)?';
/** What may not follow a scalar: it would make one longer, invalid token. */
const END = '(?![0-9A-Za-z_.+~-])';

function pieces(htoo) {
  const int = htoo ? '-?(?:0|[1-9](?:_?[0-9])*)' : '-?(?:0|[1-9][0-9]{0,2}(?:_[0-9]{3})*)';
  // Strict fractions have no trailing zero (`0.5`, `1.0`, `0.000_1`).
  const frac = htoo ? '[0-9](?:_?[0-9])*' : '(?:0|(?:[0-9]{3}_)*[0-9]{0,2}[1-9])';
  const tsFrac = htoo ? '[0-9](?:_?[0-9])*' : '[0-9]{3}(?:_[0-9]{3}){0,2}';
  const offset = htoo ? '(?:Z|[+~-][0-9]{2}(?:[0-9]{2})?)' : '(?:Z|[+~][0-9]{2}(?:[0-9]{2})?)';
  const hex = htoo ? '[0-9a-fA-F]' : '[0-9a-f]';
  return { int, frac, tsFrac, offset, hex };
}

/**
 * The grammar of one flavour, `jtoo` or `htoo`, as a plain object (what
 * the `.tmLanguage.json` file holds).
 */
export function grammar(flavour) {
  const htoo = flavour === 'htoo';
  const s = flavour;
  const p = pieces(htoo);
  const escape = htoo
    ? '\\\\(?:[01][0-9a-f]|7f|22|5c|[trn"])'
    : '\\\\(?:[01][0-9a-f]|7f|22|5c)';
  // Space between tokens: whitespace and comments in HTOO, errors in JTOO.
  const gap = htoo ? '(?:[ \\t\\r]|/\\*.*?\\*/)*' : '';
  const layout = htoo
    ? [
        { include: '#comment-block' },
        { include: '#comment-line' },
        { match: '[ \\t\\r]+', name: `punctuation.whitespace.${s}` },
      ]
    : [
        { match: '/\\*.*?(?:\\*/|$)|//.*$', name: `invalid.illegal.comment.${s}` },
        { match: '[ \\t\\r]+', name: `invalid.illegal.whitespace.${s}` },
      ];
  const repository = {
    value: {
      patterns: [
        { include: '#list' },
        { include: '#key' },
        { include: '#string' },
        { include: '#date' },
        { include: '#time' },
        { include: '#timestamp' },
        { include: '#bytes' },
        { include: '#boolean' },
        { include: '#decimal' },
        { include: '#integer' },
        { include: '#illegal' },
      ],
    },
    list: {
      name: `meta.structure.list.${s}`,
      begin: '\\[',
      beginCaptures: { 0: { name: `punctuation.section.list.begin.${s}` } },
      end: '\\]',
      endCaptures: { 0: { name: `punctuation.section.list.end.${s}` } },
      patterns: [
        ...layout,
        { match: ',', name: `punctuation.separator.list.${s}` },
        { match: ':', name: `punctuation.separator.key-value.${s}` },
        { include: '#value' },
      ],
    },
    // A string followed (on the same line) by `:` is a pair's key.
    key: stringRule(
      s,
      `"(?=(?:[^"\\\\]|\\\\.)*"${gap}:)`,
      `string.quoted.double.${s} support.type.property-name.${s}`,
      escape,
    ),
    string: stringRule(s, '"', `string.quoted.double.${s}`, escape),
    date: {
      match: `D${DATE}(?:T${CLOCK})?${p.offset}?${END}`,
      name: `constant.other.date.${s}`,
    },
    time: {
      match: `T${CLOCK}${p.offset}?${END}`,
      name: `constant.other.time.${s}`,
    },
    timestamp: {
      match: `S${p.int}(?:\\.${p.tsFrac})?${END}`,
      name: `constant.other.timestamp.${s}`,
    },
    bytes: {
      match: `B(?:${p.hex}{2})*${END}`,
      name: `constant.other.bytes.${s}`,
    },
    boolean: {
      match: `[YN]${END}`,
      name: `constant.language.boolean.${s}`,
    },
    decimal: {
      match: `${p.int}\\.${p.frac}${END}`,
      name: `constant.numeric.decimal.${s}`,
    },
    integer: {
      match: `${p.int}${END}`,
      name: `constant.numeric.integer.${s}`,
    },
    // Anything else up to the next delimiter: a misspelt scalar.
    illegal: {
      match: '[^\\s\\[\\],:"/]+|/',
      name: `invalid.illegal.token.${s}`,
    },
  };
  if (htoo) {
    repository['comment-block'] = {
      name: `comment.block.${s}`,
      begin: '/\\*',
      beginCaptures: { 0: { name: `punctuation.definition.comment.${s}` } },
      end: '\\*/',
      endCaptures: { 0: { name: `punctuation.definition.comment.${s}` } },
    };
    repository['comment-line'] = {
      name: `comment.line.double-slash.${s}`,
      match: '(//).*$',
      captures: { 1: { name: `punctuation.definition.comment.${s}` } },
    };
  }
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: htoo ? 'HTOO' : 'JTOO',
    scopeName: `source.${s}`,
    fileTypes: [s],
    comment: 'Generated by scripts/grammars.mjs: edit that file, then run `npm run build-grammars`.',
    patterns: [
      ...layout,
      { match: '[\\],:]', name: `invalid.illegal.delimiter.${s}` },
      { include: '#value' },
    ],
    repository,
  };
}

function stringRule(s, begin, name, escape) {
  return {
    name,
    begin,
    beginCaptures: { 0: { name: `punctuation.definition.string.begin.${s}` } },
    // A string never spans lines (a raw line feed must be escaped): an
    // unterminated string ends at the end of its line.
    end: '"|$',
    endCaptures: { 0: { name: `punctuation.definition.string.end.${s}` } },
    patterns: [
      { match: escape, name: `constant.character.escape.${s}` },
      { match: '\\\\.?', name: `invalid.illegal.escape.${s}` },
      { match: '[\\x{00}-\\x{1f}\\x{7f}]', name: `invalid.illegal.control.${s}` },
    ],
  };
}

/** The file text of a flavour's grammar, as committed under syntaxes/. */
export function grammarText(flavour) {
  return JSON.stringify(grammar(flavour), null, 2) + '\n';
}
