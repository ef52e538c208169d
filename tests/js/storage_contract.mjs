// The storage contract every storage meets (put/get/list/delete, copies,
// overwrite, missing blobs, bad names, STORAGE_ERROR), written without
// node: imports so the same checks run in Node (storages.test.mjs), in
// workerd (kv.test.mjs's worker) and in Chromium (e2e/).

function fail(message) {
  throw new Error(`storage contract: ${message}`);
}

function equalBytes(actual, expected, what) {
  if (!(actual instanceof Uint8Array)) fail(`${what}: expected a Uint8Array, got ${actual === undefined ? 'undefined' : Object.prototype.toString.call(actual)}`);
  if (actual.length !== expected.length) fail(`${what}: expected ${expected.length} bytes, got ${actual.length}`);
  for (let i = 0; i < expected.length; ++i) if (actual[i] !== expected[i]) fail(`${what}: byte ${i} differs`);
}

function equalList(actual, expected, what) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) fail(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Awaits `promise`, which must reject with a FreshetError STORAGE_ERROR whose message mentions every `mentions`. */
export async function expectStorageError(promise, mentions, what) {
  let error;
  try {
    await promise;
  } catch (caught) {
    error = caught;
  }
  if (!error) fail(`${what}: expected STORAGE_ERROR, it succeeded`);
  if (error.name !== 'FreshetError' || error.code !== 'STORAGE_ERROR') fail(`${what}: expected FreshetError STORAGE_ERROR, got ${error.name} ${error.code}: ${error.message}`);
  for (const text of mentions) if (!error.message.includes(text)) fail(`${what}: message ${JSON.stringify(error.message)} does not mention ${JSON.stringify(text)}`);
  return error;
}

function pattern(length, seed) {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; ++i) bytes[i] = (i * 31 + seed) & 0xff;
  return bytes;
}

/**
 * Runs the contract against an empty storage; `label` is how its errors
 * name it (e.g. 'MemoryStorage'). Returns the number of checks run.
 */
export async function checkStorageContract(storage, label) {
  let checks = 0;
  const step = () => ++checks;

  equalList(await storage.list(''), [], 'an empty storage lists nothing'); step();
  if ((await storage.get('missing')) !== undefined) fail('a missing blob reads as undefined'); step();
  await storage.delete('missing'); step();  // deleting a missing blob is fine

  const big = pattern(300_000, 7);
  await storage.put('b', new Uint8Array([1, 2, 3]));
  await storage.put('a-1', new Uint8Array(0));
  await storage.put('a-2', big);
  await storage.put('é-ü', new Uint8Array([42]));
  equalBytes(await storage.get('b'), [1, 2, 3], 'get b'); step();
  equalBytes(await storage.get('a-1'), [], 'an empty blob'); step();
  equalBytes(await storage.get('a-2'), big, 'a 300 kB blob'); step();
  equalBytes(await storage.get('é-ü'), [42], 'a non-ASCII name'); step();
  equalList(await storage.list(''), ['a-1', 'a-2', 'b', 'é-ü'], 'list all, sorted'); step();
  equalList(await storage.list(), ['a-1', 'a-2', 'b', 'é-ü'], 'list with no prefix'); step();
  equalList(await storage.list('a-'), ['a-1', 'a-2'], 'list a prefix'); step();
  equalList(await storage.list('a-2'), ['a-2'], 'a prefix that is a whole name'); step();
  equalList(await storage.list('zz'), [], 'a prefix nothing has'); step();

  await storage.put('b', new Uint8Array([9]));
  equalBytes(await storage.get('b'), [9], 'overwrite replaces the blob'); step();

  // Copies in and out: the caller's buffer is not the stored blob.
  const mine = new Uint8Array([5, 6, 7]);
  await storage.put('copy', mine);
  mine[0] = 0;
  const read = await storage.get('copy');
  read[1] = 0;
  equalBytes(await storage.get('copy'), [5, 6, 7], 'stored bytes do not alias the caller\'s'); step();

  // A view into a larger buffer stores only its own bytes.
  await storage.put('view', pattern(100, 1).subarray(10, 14));
  equalBytes(await storage.get('view'), pattern(100, 1).subarray(10, 14), 'a subarray stores only its bytes'); step();

  await storage.delete('b');
  if ((await storage.get('b')) !== undefined) fail('a deleted blob reads as undefined'); step();
  equalList(await storage.list(''), ['a-1', 'a-2', 'copy', 'view', 'é-ü'], 'a deleted blob is not listed'); step();

  for (const bad of ['', 'a/b', 'a\\b', '.hidden', '..', 'x'.repeat(201), 'nul\0']) {
    await expectStorageError(storage.put(bad, new Uint8Array(1)), [label], `put(${JSON.stringify(bad)})`); step();
    await expectStorageError(storage.get(bad), [label], `get(${JSON.stringify(bad)})`); step();
  }
  await expectStorageError(storage.put(42, new Uint8Array(1)), [label, '42'], 'a name that is not a string'); step();
  const notBytes = await expectStorageError(storage.put('text', 'hello'), [label, "'text'", 'Uint8Array'], 'bytes that are a string'); step();
  if (notBytes.details?.blob !== 'text' || notBytes.details?.storage !== label) fail('STORAGE_ERROR details name the storage and blob'); step();
  await expectStorageError(storage.list(7), [label], 'a prefix that is not a string'); step();
  if ((await storage.get('text')) !== undefined) fail('a rejected put stores nothing'); step();

  for (const name of await storage.list('')) await storage.delete(name);
  equalList(await storage.list(''), [], 'everything deleted'); step();
  return checks;
}
