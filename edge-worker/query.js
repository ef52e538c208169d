// The ad-hoc query route supports one statement: SELECT * FROM <name>, the
// rows of a materialized view or of an index (an index holds its view's rows).
// Anything else is UNSUPPORTED_QUERY, saying what is supported: the engine
// maintains views incrementally and has no ad-hoc query planner.

import { HttpError } from './http_errors.js';
import { sqlName } from './definition.js';

const SELECT_ALL = /^\s*select\s+\*\s+from\s+("[^"]+"|[A-Za-z_][A-Za-z0-9_]*)\s*;?\s*$/i;

/** The view or index name a query reads; throws UNSUPPORTED_QUERY for anything else. */
export function parseQuery(sql) {
  if (typeof sql !== 'string' || !sql.trim()) {
    throw new HttpError('INVALID_REQUEST', "the 'sql' parameter is required: ?sql=SELECT * FROM <view or index>");
  }
  const match = SELECT_ALL.exec(sql);
  if (!match) {
    throw new HttpError('UNSUPPORTED_QUERY',
      `unsupported query '${sql}': the edge worker answers only 'SELECT * FROM <materialized view or index>'`);
  }
  return sqlName(match[1]);
}
