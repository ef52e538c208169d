// GET .../query?sql=...&format=... on real workerd over HTTP, in the formats
// Feldera writes. What Feldera's Python client sends
// (python/feldera/rest/feldera_client.py): query_as_text (query_tabular)
// GETs `?pipeline_name=P&sql=Q&format=text` and yields the body's lines;
// _query_json_stream (Pipeline.query) GETs `format=json` and parses each
// non-empty line as JSON. Feldera's answers (crates/adapters/src/adhoc.rs,
// adhoc/executor.rs, adhoc/format.rs): text is Arrow's pretty table through
// comfy-table (preset "||--+-++|    ++++++", values left-aligned, NULL empty,
// a value over 64 characters cut to 64 and "..."), text/plain; json is one
// object a line, application/json. `format` is one of text, json, parquet,
// arrow_ipc, hash (openapi.json, AdHocResultFormat); Freshet adds json_array.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { edgeWorker, sortedRows, until } from './support.mjs';

const SQL = `
CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR, amount DOUBLE);
CREATE MATERIALIZED VIEW everything AS SELECT * FROM t;
CREATE VIEW hidden AS SELECT * FROM t WHERE amount > 1;
CREATE INDEX everything_by_id ON everything(id);
`;
const LONG = 'x'.repeat(70);
const ROWS = [
  { id: 1, name: 'ab', amount: 1.5 },
  { id: 22, name: null, amount: 10 },
  { id: 3, name: LONG, amount: -2.25 },
];

let edge;
before(async () => {
  edge = await edgeWorker();
  assert.equal((await edge.call('PUT', 'q', { program_code: SQL })).status, 201);
  const { body } = await edge.call('POST', 'q/ingress/t?update_format=raw', ROWS);
  await until(async () => (await edge.call('GET', `q/completion_status?token=${body.token}`)).body.status === 'complete',
              { what: 'the rows to be in the view' });
});
after(() => edge?.stop());

/** GET .../query with the parameters Feldera's client sends; the raw answer. */
async function query(sql, format) {
  const params = new URLSearchParams({ pipeline_name: 'q', sql });
  if (format) params.set('format', format);
  const response = await fetch(`${edge.url}/v0/pipelines/q/query?${params}`);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

test("format=text: Feldera's table", async () => {
  const answer = await query('SELECT * FROM everything', 'text');
  assert.equal(answer.status, 200, answer.text);
  assert.match(answer.type, /^text\/plain/);
  const lines = answer.text.split('\n');
  const cut = `${'x'.repeat(64)}...`;
  const border = `+----+${'-'.repeat(cut.length + 2)}+--------+`;
  assert.deepEqual(lines.slice(0, 3), [border, `| id | name${' '.repeat(cut.length - 4)} | amount |`, border]);
  assert.equal(lines.at(-1), border, 'the last line is a border, without a newline after it');
  assert.equal(lines.length, 7);
  const pad = (text, width) => text + ' '.repeat(width - text.length);
  assert.deepEqual(lines.slice(3, 6).sort(), [
    `| ${pad('1', 2)} | ${pad('ab', cut.length)} | ${pad('1.5', 6)} |`,
    `| ${pad('22', 2)} | ${pad('', cut.length)} | ${pad('10', 6)} |`,
    `| ${pad('3', 2)} | ${cut} | ${pad('-2.25', 6)} |`,
  ].sort());
});

test('format=json: one object a line; json_array (and no format): one array', async () => {
  const json = await query('SELECT * FROM everything', 'json');
  assert.equal(json.status, 200, json.text);
  assert.equal(json.type, 'application/json');
  assert.ok(json.text.endsWith('\n'));
  const lines = json.text.split('\n');
  assert.equal(lines.pop(), '');
  assert.deepEqual(sortedRows(lines.map((line) => JSON.parse(line))), sortedRows(ROWS));
  for (const format of ['json_array', undefined]) {
    const array = await query('select * from everything;', format);
    assert.equal(array.status, 200, array.text);
    assert.deepEqual(sortedRows(JSON.parse(array.text)), sortedRows(ROWS), String(format));
  }
  // Any SELECT, not only SELECT *: the engine's front end compiles it (p.query).
  const filtered = await query('SELECT id FROM everything WHERE id > 1 ORDER BY id DESC', 'json_array');
  assert.equal(filtered.status, 200, filtered.text);
  assert.deepEqual(JSON.parse(filtered.text), ROWS.filter((row) => row.id > 1).map(({ id }) => ({ id })).sort((a, b) => b.id - a.id));
});

test("formats Feldera writes and Freshet does not are 400 UNSUPPORTED_FORMAT in Feldera's error shape; so is nonsense", async () => {
  for (const format of ['parquet', 'arrow_ipc', 'hash', 'yaml']) {
    const answer = await query('SELECT * FROM everything', format);
    assert.equal(answer.status, 400, format);
    const body = JSON.parse(answer.text);
    assert.deepEqual(Object.keys(body).sort(), ['details', 'error_code', 'message']);
    assert.equal(body.error_code, 'UNSUPPORTED_FORMAT');
    assert.match(body.message, new RegExp(`'${format}'.*text, json, json_array`));
  }
});

test('errors: a view that is not materialized, an unknown view, no sql', async () => {
  const hidden = await query('SELECT * FROM hidden', 'text');
  assert.equal(hidden.status, 400);
  assert.equal(JSON.parse(hidden.text).error_code, 'NOT_MATERIALIZED');
  const unknown = await query('SELECT * FROM nope', 'json');
  assert.equal(unknown.status, 400);  // the SQL front end: unknown table or view, at its line and column
  assert.equal(JSON.parse(unknown.text).error_code, 'SQL_ERROR');
  assert.match(JSON.parse(unknown.text).message, /nope/);
  const none = await fetch(`${edge.url}/v0/pipelines/q/query?format=text`);
  assert.equal(none.status, 400);
  await none.text();
});
