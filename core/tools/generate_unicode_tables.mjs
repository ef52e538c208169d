// Generates the Unicode tables of core/src/common/unicode_case.cpp and the
// regex engine from the Unicode Character Database files that Debian's
// `unicode-data` package installs (/usr/share/unicode). CMake runs it at
// build time; its output lives in the build folder, never in the repository.
//
// usage: node generate_unicode_tables.mjs <ucd-directory> <output.inc>
//
// The output defines, in namespace freshet::unicode_tables:
//   kSimpleUpper/kSimpleLower  {code, mapped}: UnicodeData.txt fields 12/13
//   kSpecialUpper/kSpecialLower {code, start, length} into kSpecialPool: the
//                              unconditional multi-character mappings of
//                              SpecialCasing.txt ('ß' -> "SS")
//   kFold                      {code, folded}: CaseFolding.txt, status C and S
//   kAlphanumeric, kCased, kCaseIgnorable, kDigit, kWord, kSpace: sorted
//                              disjoint {first, last} code point ranges
// Every table is sorted by code point, for binary search.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [directory, output] = process.argv.slice(2);
if (!directory || !output) {
  console.error('usage: node generate_unicode_tables.mjs <ucd-directory> <output.inc>');
  process.exit(2);
}
const read = (name) => readFileSync(join(directory, name), 'utf8');
const hex = (text) => parseInt(text, 16);

// Records of a UCD file: its ';'-separated fields, comments and blanks dropped.
function records(name) {
  return read(name)
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line.length > 0)
    .map((line) => line.split(';').map((field) => field.trim()));
}

// UnicodeData.txt: general categories (ranges appear as <..., First>/<..., Last> pairs) and simple mappings.
const category = new Map();
const simpleUpper = [];
const simpleLower = [];
let rangeStart = null;
for (const fields of records('UnicodeData.txt')) {
  const code = hex(fields[0]);
  if (fields[1].endsWith(', First>')) {
    rangeStart = code;
    continue;
  }
  const first = fields[1].endsWith(', Last>') ? rangeStart : code;
  for (let c = first; c <= code; ++c) category.set(c, fields[2]);
  if (fields[12]) simpleUpper.push([code, hex(fields[12])]);
  if (fields[13]) simpleLower.push([code, hex(fields[13])]);
}

// SpecialCasing.txt: only the unconditional entries (no condition field), as Rust's char::to_*case.
const specialUpper = [];
const specialLower = [];
const pool = [];
function poolRun(text) {
  const codes = text.split(' ').filter((part) => part).map(hex);
  const start = pool.length;
  pool.push(...codes);
  return [start, codes.length];
}
for (const fields of records('SpecialCasing.txt')) {
  if (fields.length > 4 && fields[4] !== '') continue;  // a conditional mapping
  const code = hex(fields[0]);
  const lower = fields[1].split(' ').filter((p) => p);
  const upper = fields[3].split(' ').filter((p) => p);
  if (lower.length !== 1 || hex(lower[0]) !== code) specialLower.push([code, ...poolRun(fields[1])]);
  if (upper.length !== 1 || hex(upper[0]) !== code) specialUpper.push([code, ...poolRun(fields[3])]);
}

const fold = records('CaseFolding.txt')
  .filter((fields) => fields[1] === 'C' || fields[1] === 'S')
  .map((fields) => [hex(fields[0]), hex(fields[2])]);

// Code points with a property from a file of "XXXX..YYYY ; Property" lines.
function property(name, wanted) {
  const set = new Set();
  for (const fields of records(name)) {
    if (fields[1] !== wanted) continue;
    const [first, last] = fields[0].split('..').map(hex);
    for (let c = first; c <= (last ?? first); ++c) set.add(c);
  }
  return set;
}
const alphabetic = property('DerivedCoreProperties.txt', 'Alphabetic');
const whiteSpace = property('PropList.txt', 'White_Space');
const joinControl = property('PropList.txt', 'Join_Control');
const isCategory = (c, ...prefixes) => prefixes.some((p) => (category.get(c) ?? 'Cn').startsWith(p));

// Sorted disjoint ranges of the code points for which `test` holds.
function ranges(test) {
  const out = [];
  for (let c = 0; c <= 0x10ffff; ++c) {
    if (!test(c)) continue;
    if (out.length && out[out.length - 1][1] === c - 1) out[out.length - 1][1] = c;
    else out.push([c, c]);
  }
  return out;
}
const cased = property('DerivedCoreProperties.txt', 'Cased');
const caseIgnorable = property('DerivedCoreProperties.txt', 'Case_Ignorable');
const tables = {
  // Rust's char::is_alphanumeric: Alphabetic or Numeric (Nd, Nl, No).
  kAlphanumeric: ranges((c) => alphabetic.has(c) || isCategory(c, 'Nd', 'Nl', 'No')),
  kCased: ranges((c) => cased.has(c)),
  kCaseIgnorable: ranges((c) => caseIgnorable.has(c)),
  // Rust regex's Unicode \d, \w and \s (UTS #18 Annex C).
  kDigit: ranges((c) => isCategory(c, 'Nd')),
  kWord: ranges((c) => alphabetic.has(c) || isCategory(c, 'M', 'Nd', 'Pc') || joinControl.has(c)),
  kSpace: ranges((c) => whiteSpace.has(c)),
};

const rows = (list) => list.map((row) => `{${row.map((v) => '0x' + v.toString(16)).join(', ')}}`).join(',\n    ');
const bySort = (list) => list.sort((a, b) => a[0] - b[0]);
let text = `// Generated by core/tools/generate_unicode_tables.mjs from ${directory}; do not edit.
namespace freshet::unicode_tables {
inline constexpr CodeMapping kSimpleUpper[] = {
    ${rows(bySort(simpleUpper))}};
inline constexpr CodeMapping kSimpleLower[] = {
    ${rows(bySort(simpleLower))}};
inline constexpr SpecialMapping kSpecialUpper[] = {
    ${rows(bySort(specialUpper))}};
inline constexpr SpecialMapping kSpecialLower[] = {
    ${rows(bySort(specialLower))}};
inline constexpr char32_t kSpecialPool[] = {${pool.map((v) => '0x' + v.toString(16)).join(', ')}};
inline constexpr CodeMapping kFold[] = {
    ${rows(bySort(fold))}};
`;
for (const [name, list] of Object.entries(tables)) {
  text += `inline constexpr CodeRange ${name}[] = {\n    ${rows(list)}};\n`;
}
text += '}  // namespace freshet::unicode_tables\n';
writeFileSync(output, text);
