// Ad-hoc queries: the engine's answer (Engine::query, ../cpp/engine_query.cpp:
// `{"columns":[...],"rows":[...]}`) as row objects in the answer's order.

import { fixRow, parseJson } from './values.js';

/**
 * @param {string} text the engine's reply text
 * @returns {Record<string, any>[]}
 */
export function parseQueryRows(text) {
  const { value, tagged } = parseJson(text);
  if (tagged) for (const row of value.rows) fixRow(row, value.columns);
  return value.rows;
}
