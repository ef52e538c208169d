// p.explain(view?) and p.inspect() on the real wasm engine: the circuit's
// operators with their edges, state and sharing; rows and bytes grow on the
// operators that keep state; a view's explanation holds only what it depends
// on; step times add up.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FreshetError, Pipeline } from 'freshet';

const PROGRAM = `
CREATE TABLE orders (id BIGINT NOT NULL, customer BIGINT NOT NULL, amount BIGINT NOT NULL);
CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR);
CREATE VIEW big AS SELECT id, amount FROM orders WHERE amount > 10;
CREATE MATERIALIZED VIEW spend AS
  SELECT c.name, SUM(o.amount) AS total FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.name;
CREATE MATERIALIZED VIEW top2 AS SELECT id, amount FROM orders ORDER BY amount DESC LIMIT 2;
`;

async function paused(sql = PROGRAM) {
  const p = await Pipeline.create({ sql });
  p.pause();
  return p;
}

const byKind = (ops, kind) => ops.filter((op) => op.kind === kind);

test('explain lists every operator with its inputs, outputs and the views it serves', async () => {
  const p = await paused();
  const { text, operators, views } = p.explain();
  assert.equal(typeof text, 'string');
  const ID = /^[0-9a-f]{12}$/;  // stable ids from the plan (the same view text, the same ids)
  assert.equal(text.trim().split('\n').filter((line) => ID.test(line.split(' ')[0])).length, operators.length);
  const ids = new Set(operators.map((op) => op.id));
  for (const op of operators) {
    assert.match(op.id, ID);
    for (const input of op.inputs) assert.ok(ids.has(input), `${op.id} reads ${input}`);
  }
  assert.deepEqual(byKind(operators, 'input')[0].outputs, ['table orders']);
  assert.deepEqual(byKind(operators, 'upsert input')[0].outputs, ['table customers']);
  // The join fused with spend's GROUP BY, said over the columns' names.
  const [join] = byKind(operators, 'join_aggregate');
  assert.equal(join.description, 'on (customer), SUM(amount) by (name)');
  assert.deepEqual(join.views, ['spend']);
  assert.deepEqual(join.outputs, ['view spend']);
  assert.equal(byKind(operators, 'top_k')[0].description, 'limit 2');
  assert.deepEqual(views.find((v) => v.name === 'spend').materialized, true);
  // orders feeds three views: its input's output is read by three operators;
  // customers' by the join alone (its table's name is no reader).
  const [orders] = byKind(operators, 'input');
  assert.equal(orders.shared, true);
  assert.equal(orders.consumers, 3);
  assert.deepEqual([...orders.views].sort(), ['big', 'spend', 'top2']);
  const [customers] = byKind(operators, 'upsert input');
  assert.equal(customers.shared, false);
  await p.close();
});

test("a view's explanation lists only the operators it depends on", async () => {
  const p = await paused();
  const all = p.explain().operators;
  const big = p.explain('big');
  assert.ok(big.operators.length > 0 && big.operators.length < all.length);
  for (const op of big.operators) assert.ok(op.views.includes('big'), `${op.id} ${op.kind} serves big`);
  assert.deepEqual(byKind(big.operators, 'join_aggregate'), []);
  assert.deepEqual(byKind(big.operators, 'upsert input'), []);
  assert.deepEqual(big.views.map((v) => v.name), ['big']);
  assert.ok(!big.text.includes('join'));
  assert.throws(() => p.explain('nope'), (e) => e instanceof FreshetError && e.code === 'UNKNOWN_VIEW');
  await p.close();
});

test('inspect: rows and bytes grow on the operators that keep state, not elsewhere', async () => {
  const p = await paused();
  const before = p.inspect();
  assert.equal(before.step, 0);
  assert.equal(byKind(before.operators, 'join_aggregate')[0].rows, 0);
  p.insert('customers', [{ id: 1, name: 'ann' }, { id: 2, name: 'bob' }]);
  p.insert('orders', [{ id: 1, customer: 1, amount: 5 }, { id: 2, customer: 2, amount: 50 }, { id: 3, customer: 1, amount: 20 }]);
  p.step();
  const after = p.inspect();
  assert.equal(after.step, 1);
  const [join] = byKind(after.operators, 'join_aggregate');
  assert.equal(join.rows, 2);  // 2 groups (ann, bob); the sides are the arrangements'
  assert.deepEqual(byKind(after.operators, 'arrange').map((op) => op.rows).sort(), [2, 3]);  // 3 orders, 2 customers
  assert.ok(join.bytes > 0);
  assert.equal(byKind(after.operators, 'upsert input')[0].rows, 2);
  assert.equal(byKind(after.operators, 'top_k')[0].rows, 3);
  for (const op of byKind(after.operators, 'filter')) assert.equal(op.bytes, 0);
  assert.ok(after.totals.bytes >= join.bytes);
  assert.ok(after.totals.viewBytes > before.totals.viewBytes);
  assert.equal(after.totals.rows, after.operators.reduce((sum, op) => sum + op.rows, 0));
  // Times: every operator evaluated once, so its total is its last step.
  for (const op of after.operators) assert.equal(op.totalMicros, op.lastStepMicros);
  assert.ok(after.totals.totalMicros > 0);
  p.insert('orders', { id: 4, customer: 2, amount: 7 });
  p.step();
  const third = p.inspect();
  assert.equal(byKind(third.operators, 'join_aggregate')[0].rows, 2);  // bob's group was there
  assert.deepEqual(byKind(third.operators, 'arrange').map((op) => op.rows).sort(), [2, 4]);  // one more order
  assert.equal(byKind(third.operators, 'top_k')[0].rows, 4);
  assert.ok(third.totals.totalMicros > after.totals.totalMicros);
  await p.close();
});

test('two views over one join: the join is shared', async () => {
  // Sub-plans computed alike are built once (CompileOptions::share_subplans):
  // the join's output has two consumers, and its traces are held once.
  const p = await paused(`
    CREATE TABLE orders (id BIGINT NOT NULL, customer BIGINT NOT NULL, amount BIGINT NOT NULL);
    CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR);
    CREATE VIEW a AS SELECT c.name, COUNT(*) AS n FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.name;
    CREATE VIEW b AS SELECT c.name, MAX(o.amount) AS m FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.name;
  `);
  const joins = byKind(p.explain().operators, 'join');
  assert.equal(joins.length, 1);
  assert.equal(joins[0].shared, true);
  assert.equal(joins[0].consumers, 2);
  assert.deepEqual([...joins[0].views].sort(), ['a', 'b']);
  await p.close();
});

test('two views over one join hold one copy of each side', async () => {
  const p = await paused(`
    CREATE TABLE orders (id BIGINT NOT NULL, customer BIGINT NOT NULL, amount BIGINT NOT NULL);
    CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR);
    CREATE MATERIALIZED VIEW a AS SELECT o.id, c.name FROM orders o JOIN customers c ON o.customer = c.id;
    CREATE MATERIALIZED VIEW b AS SELECT o.id, c.name FROM orders o JOIN customers c ON o.customer = c.id WHERE o.amount > 10;
  `);
  p.insert('customers', [{ id: 1, name: 'ann' }]);
  p.insert('orders', [{ id: 1, customer: 1, amount: 5 }, { id: 2, customer: 1, amount: 50 }]);
  p.step();
  // Each join keeping its own traces would hold a's (2 orders + 1 customer)
  // and b's (1 order + 1 customer), 5 rows. With customers arranged once by
  // id (one arrangement, read by both joins), 4: orders of a, orders of b,
  // customers once.
  const { operators } = p.inspect();
  const held = operators.filter((op) => op.kind !== 'upsert input').reduce((sum, op) => sum + op.rows, 0);
  assert.ok(held <= 4, `join state rows ${held}`);
  const arrangements = operators.filter((op) => op.kind === 'arrange');
  assert.equal(arrangements.filter((op) => op.rows === 1 && op.consumers === 2).length, 1, JSON.stringify(arrangements));
  await p.close();
});

test('inspect: operators are timed only from the first look on', async () => {
  const p = await paused();
  p.insert('orders', { id: 1, customer: 1, amount: 5 });
  p.step();
  assert.equal(p.inspect().totals.totalMicros, 0);  // nothing timed before anyone looked
  p.insert('orders', { id: 2, customer: 1, amount: 6 });
  p.step();
  assert.ok(p.inspect().totals.totalMicros > 0);
  await p.close();
});

test('a DISTINCT and an INTERSECT over one column hold its rows once', async () => {
  // Both read the orders' customer column arranged by the whole row
  // (distinct.h, multiset_set_operation.h): one arrangement, two readers,
  // and neither keeps rows of its own.
  const p = await paused(`
    CREATE TABLE orders (id BIGINT NOT NULL, customer BIGINT NOT NULL, amount BIGINT NOT NULL);
    CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR);
    CREATE MATERIALIZED VIEW buyers AS SELECT DISTINCT customer FROM orders;
    CREATE MATERIALIZED VIEW known AS SELECT customer FROM orders INTERSECT SELECT id FROM customers;
  `);
  p.insert('customers', [{ id: 1, name: 'ann' }, { id: 3, name: 'cy' }]);
  p.insert('orders', [{ id: 1, customer: 1, amount: 5 }, { id: 2, customer: 1, amount: 6 }, { id: 3, customer: 2, amount: 7 }]);
  p.step();
  const { operators } = p.inspect();
  for (const kind of ['distinct', 'multiset_set_operation']) {
    const [op] = byKind(operators, kind);
    assert.equal(op.rows, 0, kind);
    assert.equal(op.bytes, 0, kind);
  }
  const shared = byKind(operators, 'arrange').filter((op) => op.consumers === 2);
  assert.equal(shared.length, 1, JSON.stringify(byKind(operators, 'arrange')));
  assert.equal(shared[0].rows, 2);  // customers 1 (twice) and 2, with their counts
  assert.deepEqual(p.snapshot('buyers').map((r) => r.customer).sort(), [1, 2]);
  assert.deepEqual(p.snapshot('known').map((r) => r.customer), [1]);
  await p.close();
});
