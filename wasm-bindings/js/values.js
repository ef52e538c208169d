// SQL values as JS sees them (docs/js-api.md): BIGINT → number, or BigInt outside
// ±(2^53 − 1); REAL and DOUBLE → number (the core writes NaN and the
// infinities as the strings "NaN", "Infinity", "-Infinity"); DECIMAL →
// number; DATE, TIMESTAMP, TIME, VARCHAR → string; an INTERVAL (a view's
// column only) → its text as CAST(... AS VARCHAR) gives it ("+1 02:00:00",
// "+1-02"; the column's type names the qualifier, "INTERVAL DAY TO SECOND");
// NULL → null.
//
// ## Design
// The core's JSON keeps every digit, but JSON.parse rounds integers beyond
// 2^53. Parsing stays one JSON.parse of the whole text; only text that might
// need care takes the slow path, and the facade marks such text with a
// trailing space (../cpp/js_chunk.h: mark_inexact_for_js), which is cheaper
// in wasm than a regular expression over the text here. Marked text holds:
//   - an integer part of 16+ digits (the only way to spell an unsafe integer): each
//     integer literal of 16+ digits becomes a tagged string, then fixRow()
//     turns it into a BigInt or number by the column's type;
//   - a "NaN" / "Infinity" string: fixRow() turns it into a number in
//     REAL/DOUBLE columns.
// Tags start with U+0000 ("\u0000n…" for a number). A genuine string that
// starts with U+0000 is re-tagged "\u0000s…" so that it reads back unchanged.

const TAG = '\u0000';
const ESCAPED_TAG = '\\u0000';  // the tag as JSON text spells it
const MARK = 32;  // the facade's trailing ' ' on text that needs the slow path
// A string literal, or an integer literal of 16+ digits (not part of a fraction or an exponent).
const LITERALS = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![\d.eE])/g;
const SAFE_MIN = BigInt(Number.MIN_SAFE_INTEGER);
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
const FLOAT_WORDS = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };

/**
 * Parses the facade's JSON text. `tagged` says whether rows may hold values
 * fixRow() must finish.
 * @returns {{ value: any, tagged: boolean }}
 */
export function parseJson(text) {
  if (text.charCodeAt(text.length - 1) !== MARK) return { value: JSON.parse(text), tagged: false };
  const retagged = text.replace(LITERALS, (literal) => {
    if (literal[0] !== '"') return `"${ESCAPED_TAG}n${literal}"`;
    return literal.startsWith(`"${ESCAPED_TAG}`) ? `"${ESCAPED_TAG}s${literal.slice(1)}` : literal;
  });
  return { value: JSON.parse(retagged), tagged: true };
}

/**
 * Finishes the values of one row object parsed with `tagged`, in place.
 * @param {Record<string, any>} row
 * @param {{ name: string, type: string }[]} columns the row's schema
 */
export function fixRow(row, columns) {
  for (const { name, type } of columns) {
    const value = row[name];
    if (typeof value !== 'string') continue;
    if (value.charCodeAt(0) === 0) {
      if (value[1] === 's') {
        row[name] = value.slice(2);
      } else {
        const digits = value.slice(2);
        const big = BigInt(digits);
        row[name] = type === 'BIGINT' && (big < SAFE_MIN || big > SAFE_MAX) ? big : Number(digits);
      }
    } else if ((type === 'DOUBLE' || type === 'REAL') && value in FLOAT_WORDS) {
      row[name] = FLOAT_WORDS[value];
    }
  }
  return row;
}

/** Parses a JSON array of rows of one schema. */
export function parseRows(text, columns) {
  const { value: rows, tagged } = parseJson(text);
  if (tagged) for (const row of rows) fixRow(row, columns);
  return rows;
}

/**
 * JSON text for the core from JS values. BigInts are written with every
 * digit (JSON.stringify refuses them, so only then a slower path runs).
 */
export function stringifyJson(value) {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  const text = JSON.stringify(value, (key, v) => (typeof v === 'bigint' ? `${TAG}n${v}` : v));
  return text.replace(/"\\u0000n(-?\d+)"/g, '$1');
}
