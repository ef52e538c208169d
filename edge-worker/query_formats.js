// The answer to GET .../query?sql=...&format=F in the formats Feldera writes
// (crates/adapters/src/adhoc.rs and adhoc/executor.rs, adhoc/format.rs):
//   text        the table Feldera prints (Arrow's pretty format through
//               comfy-table: `+---+` borders, `| a |` cells, values left-aligned,
//               NULL empty, a value over 64 characters cut to 64 and '...'),
//               text/plain, the last line without a newline
//   json        one JSON object a row, each followed by '\n' (application/json)
//   json_array  one JSON array of the rows: Freshet's own, and its default
//               when `format` is absent (Feldera requires `format`)
// Feldera's `parquet`, `arrow_ipc` and `hash` are answered 400
// UNSUPPORTED_FORMAT, naming the ones Freshet writes.

import { HttpError } from './http_errors.js';
import { jsonResponse, stringify } from './json.js';

export const QUERY_FORMATS = ['text', 'json', 'json_array'];
const FELDERA_ONLY_FORMATS = ['parquet', 'arrow_ipc', 'hash'];
const CELL_MAX_LENGTH = 64;

/** The `format` parameter of a query: one of QUERY_FORMATS; json_array when absent. */
export function queryFormat(format) {
  if (format === null) return 'json_array';
  if (QUERY_FORMATS.includes(format)) return format;
  const why = FELDERA_ONLY_FORMATS.includes(format) ? 'Feldera writes it, the edge worker does not' : 'no such format';
  throw new HttpError('UNSUPPORTED_FORMAT', `query format '${format}' is not supported (${why}); use ` +
                      `${QUERY_FORMATS.join(', ')}`, { format, supported: QUERY_FORMATS });
}

/**
 * The response for a query's result.
 * @param {{ columns?: string[], rows: object[] }} result rows as objects; `columns` in order when
 *   known (else the keys of the first row: an empty result then prints no header)
 * @param {'text' | 'json' | 'json_array'} format
 */
export function queryResponse({ columns, rows }, format) {
  if (format === 'json_array') return jsonResponse(rows);
  if (format === 'json') {
    return new Response(rows.map((row) => `${stringify(row)}\n`).join(''), {
      headers: { 'content-type': 'application/json' },
    });
  }
  return new Response(textTable(columns ?? Object.keys(rows[0] ?? {}), rows), {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}

/**
 * Feldera's text table:
 *   +----+------+
 *   | id | name |
 *   +----+------+
 *   | 1  | a    |
 *   |    | b    |      (id NULL)
 *   +----+------+
 * An empty result prints the header between two borders and a closing border.
 */
export function textTable(columns, rows) {
  const cells = rows.map((row) => columns.map((column) => cellText(row[column])));
  const widths = columns.map((column, i) => Math.max(length(column), ...cells.map((line) => length(line[i]))));
  const border = `+${widths.map((width) => '-'.repeat(width + 2)).join('+')}+`;
  const line = (values) => `|${values.map((value, i) => ` ${value}${' '.repeat(widths[i] - length(value))} `).join('|')}|`;
  return [border, line(columns), border, ...cells.map(line), border].join('\n');
}

function cellText(value) {
  let text;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'object') text = stringify(value);
  else text = String(value);
  const characters = [...text];
  return characters.length > CELL_MAX_LENGTH ? `${characters.slice(0, CELL_MAX_LENGTH).join('')}...` : text;
}

/** Width in characters (code points), as comfy-table counts them for these values. */
function length(text) {
  return [...text].length;
}
