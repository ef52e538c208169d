// DuckDB (duckdb-wasm, Node blocking bindings) as a differential oracle for
// the JS tests: open an in-memory database, run a query, and bring its rows
// and Freshet's snapshot rows to one canonical form so that the two compare
// as sorted multisets.
//
// ## Canonical values (by the DuckDB column type, column by column)
//   integers (any width, HUGEINT too)  digits: '42'
//   DECIMAL                            the number's shortest JS text: '12.5'
//                                      (exact: both sides' decimal text reads
//                                      back as the same double)
//   DOUBLE / FLOAT                     a number, compared with a relative
//                                      tolerance (sorting uses 9 significant digits)
//   TIMESTAMP                          'YYYY-MM-DD HH:MM:SS[.ffffff]', trailing
//                                      zeros of the fraction dropped
//   DATE, VARCHAR                      the text
//   BOOLEAN                            true / false
//   NULL                               null
// DuckDB's TIMESTAMP, DATE, DECIMAL, HUGEINT, INTERVAL and TIME columns are
// cast to VARCHAR inside DuckDB (its Arrow values are epoch milliseconds or
// limb arrays), so each query runs wrapped in a projection of casts.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

//! Relative tolerance for DOUBLE columns (sums of the same values in another order).
export const DOUBLE_TOLERANCE = 1e-9;

/**
 * An in-memory DuckDB with one connection, through the synchronous Node bindings.
 * @returns {Promise<{ query(sql: string): object[], columns(sql: string): {name: string, type: string}[], close(): void }>}
 */
export async function openDuckDB() {
  const duckdb = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking');
  const dist = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs'));
  // Both bundles: DuckDB picks 'eh' (wasm exceptions, ~1.5x faster here) when Node has them.
  const db = await duckdb.createDuckDB(
    {
      mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: path.join(dist, 'duckdb-node-mvp.worker.cjs') },
      eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: path.join(dist, 'duckdb-node-eh.worker.cjs') },
    },
    new duckdb.VoidLogger(),
    duckdb.NODE_RUNTIME,
  );
  await db.instantiate();
  const connection = db.connect();
  return {
    /** Runs one statement; its rows as plain objects (BIGINT as BigInt). */
    query(sql) {
      return connection.query(sql).toArray().map((row) => row.toJSON());
    },
    /** The names and DuckDB types of a query's columns. */
    columns(sql) {
      return connection
        .query(`DESCRIBE ${sql}`)
        .toArray()
        .map((row) => ({ name: row.column_name, type: row.column_type }));
    },
    close() {
      connection.close();
    },
  };
}

const TEXT_CASTS = /^(TIMESTAMP|DATE|DECIMAL|HUGEINT|UHUGEINT|INTERVAL|TIME)/;

/** A double-quoted SQL identifier. */
function quoteName(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The query wrapped so that every column DuckDB would hand over as an Arrow
 * timestamp, date or limb array comes as VARCHAR text instead.
 */
export function textProjection(sql, columns) {
  const items = columns.map(({ name, type }) =>
    TEXT_CASTS.test(type) ? `CAST(${quoteName(name)} AS VARCHAR) AS ${quoteName(name)}` : quoteName(name),
  );
  return `SELECT ${items.join(', ')} FROM (${sql}) AS oracle_query`;
}

/** 'YYYY-MM-DD HH:MM:SS[.f...]' with the fraction's trailing zeros dropped. */
export function canonicalTimestamp(text) {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?$/.exec(text);
  if (!match) return `unparsable timestamp ${JSON.stringify(text)}`;
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  return `${match[1]} ${match[2]}${fraction ? `.${fraction}` : ''}`;
}

/** The kind of comparison a DuckDB column type asks for. */
export function columnKind(duckType) {
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/.test(duckType)) return 'integer';
  if (duckType.startsWith('DECIMAL')) return 'decimal';
  if (duckType === 'DOUBLE' || duckType === 'FLOAT') return 'double';
  if (duckType.startsWith('TIMESTAMP')) return 'timestamp';
  if (duckType === 'BOOLEAN') return 'boolean';
  return 'text';
}

/** One value in canonical form (see the header); doubles stay numbers. */
export function canonicalValue(value, kind) {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'integer':
      return typeof value === 'number' && !Number.isInteger(value) ? `non-integer ${value}` : String(value);
    case 'decimal':
      return String(Number(value));
    case 'double':
      return Number(value);
    case 'timestamp':
      return canonicalTimestamp(String(value));
    case 'boolean':
      return Boolean(value);
    default:
      return String(value);
  }
}

/** A row's sort key: doubles at 9 significant digits, the rest as they are. */
function sortKey(row) {
  return JSON.stringify(row.map((v) => (typeof v === 'number' ? Number(v.toPrecision(9)) : v)));
}

/**
 * Rows (objects) as canonical value arrays in the columns' order, sorted.
 * @param {object[]} rows
 * @param {{name: string, kind: string}[]} columns
 */
export function canonicalRows(rows, columns) {
  return rows
    .map((row) => columns.map(({ name, kind }) => canonicalValue(row[name], kind)))
    .map((values) => ({ values, key: sortKey(values) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((entry) => entry.values);
}

function valuesEqual(a, b) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
    return Math.abs(a - b) <= DOUBLE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
  }
  return a === b;
}

function rowsEqual(a, b) {
  return a.length === b.length && a.every((value, i) => valuesEqual(value, b[i]));
}

/**
 * Compares two sorted canonical multisets. Returns null when they are equal,
 * else the rows each side has that the other lacks (at most `limit` each).
 */
export function multisetDifference(freshet, oracle, limit = 5) {
  const onlyFreshet = [];
  const onlyOracle = [];
  let i = 0;
  let j = 0;
  while (i < freshet.length || j < oracle.length) {
    if (i < freshet.length && j < oracle.length && rowsEqual(freshet[i], oracle[j])) {
      ++i;
      ++j;
    } else if (j >= oracle.length || (i < freshet.length && sortKey(freshet[i]) <= sortKey(oracle[j]))) {
      onlyFreshet.push(freshet[i++]);
    } else {
      onlyOracle.push(oracle[j++]);
    }
  }
  if (onlyFreshet.length === 0 && onlyOracle.length === 0) return null;
  return {
    onlyFreshet: onlyFreshet.slice(0, limit),
    onlyOracle: onlyOracle.slice(0, limit),
    counts: { onlyFreshet: onlyFreshet.length, onlyOracle: onlyOracle.length },
  };
}

/** Rows as aligned text lines for a failure message. */
export function formatRows(rows, columns) {
  if (rows.length === 0) return '    (none)';
  return rows.map((row) => `    (${row.map((v, c) => `${columns[c].name}=${JSON.stringify(v)}`).join(', ')})`).join('\n');
}

/** A SQL literal for DuckDB from a JS value of the tests' tables. */
export function sqlLiteral(value, type) {
  if (value === null || value === undefined) return 'NULL';
  if (type === 'TIMESTAMP' || type === 'DATE') return `${type} '${value}'`;
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  return String(value);
}
