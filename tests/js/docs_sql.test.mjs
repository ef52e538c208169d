// docs/sql.md is checked against the engine: every ```sql block is a program
// that compiles (or, when it ends with `-- error: <message>`, fails with
// exactly that message), and every table row with an Example and a Gives
// cell evaluates the example and gets what the row says.
//
// Gives cells: `NULL`, `TRUE`/`FALSE`, a number (`12.50`, compared as a
// number), a quoted string (`'abc'`), a DATE or TIMESTAMP written bare
// (`2024-02-29 00:00:00`), or error: `<text>`, a step that fails with a
// message containing the text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { Pipeline } from 'freshet';

const DOC = readFileSync(new URL('../../docs/sql.md', import.meta.url), 'utf8');

/** The ```sql blocks of the page. */
function sqlBlocks(text) {
  return [...text.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1]);
}

/** Markdown table cells of one line, with `\|` kept as a `|` inside cells. */
function cells(line) {
  return line
    .replace(/\\\|/g, '\u0001')
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim().replace(/\u0001/g, '|'));
}

/**
 * { expression, gives, code, line } for every table row with an Example and
 * a Gives column (`code`: the error code column's value, when the table has one).
 */
function examples(text) {
  const found = [];
  let exampleColumn = -1;
  let givesColumn = -1;
  let codeColumn = -1;
  text.split('\n').forEach((line, index) => {
    if (!line.startsWith('|')) {
      exampleColumn = givesColumn = codeColumn = -1;
      return;
    }
    const row = cells(line);
    if (row.includes('Example') && row.includes('Gives')) {
      exampleColumn = row.indexOf('Example');
      givesColumn = row.indexOf('Gives');
      codeColumn = row.indexOf('`code`');
      return;
    }
    if (exampleColumn < 0 || /^-+$/.test(row[0] ?? '')) return;
    const example = /^`(.+)`$/.exec(row[exampleColumn] ?? '');
    const code = codeColumn >= 0 ? /^`(.+)`$/.exec(row[codeColumn] ?? '')?.[1] : undefined;
    if (example) found.push({ expression: example[1], gives: row[givesColumn], code, line: index + 1 });
  });
  return found;
}

/** The JS value a Gives cell stands for, or { error } for an expected failure. */
function expected(gives) {
  const error = /^error: `(.+)`$/.exec(gives);
  if (error) return { error: error[1] };
  const value = /^`(.+)`$/.exec(gives);
  assert.ok(value, `a Gives cell must be \`value\` or error: \`text\`, not ${gives}`);
  const text = value[1];
  if (text === 'NULL') return { value: null };
  if (text === 'TRUE' || text === 'FALSE') return { value: text === 'TRUE' };
  if (/^'.*'$/.test(text)) return { value: text.slice(1, -1).replaceAll("''", "'") };
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text)) return { number: Number(text) };
  return { value: text };  // a DATE or TIMESTAMP
}

test('every SQL block of docs/sql.md compiles (or fails as it says)', async () => {
  const blocks = sqlBlocks(DOC);
  assert.ok(blocks.length >= 10, `found only ${blocks.length} sql blocks`);
  for (const block of blocks) {
    const error = /^-- error: (.+)$/m.exec(block);
    if (error) {
      await assert.rejects(Pipeline.create({ sql: block }), (e) => {
        assert.equal(e.code, 'SQL_ERROR');
        assert.equal(e.message, error[1], `the error of:\n${block}`);
        return true;
      });
    } else {
      const p = await Pipeline.create({ sql: block }).catch((e) => {
        throw new Error(`docs/sql.md block does not compile: ${e.message}\n${block}`);
      });
      p.close();
    }
  }
});

test('every example of docs/sql.md gives what the page says', async () => {
  const rows = examples(DOC);
  assert.ok(rows.length >= 50, `found only ${rows.length} examples`);
  const failures = [];
  for (const { expression, gives, code, line } of rows) {
    const want = expected(gives);
    const where = `docs/sql.md:${line}: ${expression}`;
    let p;
    try {
      p = await Pipeline.create({
        sql: `CREATE TABLE one (x INT);\nCREATE MATERIALIZED VIEW v AS SELECT ${expression} AS r FROM one;`,
      });
    } catch (e) {
      failures.push(`${where}: does not compile: ${e.message}`);
      continue;
    }
    p.pause();
    p.insert('one', [{ x: 1 }]);
    try {
      p.step();
      const [row] = p.snapshot('v');
      const got = row.r;
      if (want.error) failures.push(`${where}: gives ${JSON.stringify(got)}, the page says error ${want.error}`);
      else if (want.number !== undefined) {
        if (typeof got !== 'number' && typeof got !== 'bigint') failures.push(`${where}: gives ${JSON.stringify(got)}, the page says ${gives}`);
        else if (Number(got) !== want.number) failures.push(`${where}: gives ${got}, the page says ${gives}`);
      } else if (got !== want.value) failures.push(`${where}: gives ${JSON.stringify(got)}, the page says ${gives}`);
    } catch (e) {
      if (!want.error || !e.message.includes(want.error)) failures.push(`${where}: fails with ${e.message}, the page says ${gives}`);
      else if (code && e.code !== code) failures.push(`${where}: fails with code ${e.code}, the page says ${code}`);
    } finally {
      p.close();
    }
  }
  assert.deepEqual(failures, []);
});
