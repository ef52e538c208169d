// A child process for durable_log.test.mjs: ingests numbered rows into a
// pipeline with `durability: 'log'` on a FileStorage, and prints each
// acknowledged batch (its first id, count and token) as one line once its
// token resolved, checkpointing now and then, until it is killed.
//   node durable_log_writer.mjs <dir> <seed> <first id>
import { FileStorage, Pipeline } from 'freshet';

import { DURABLE_SQL, random } from './support.mjs';

const [dir, seedText, firstText] = process.argv.slice(2);
const next = random(Number(seedText));
const p = await Pipeline.create({ sql: DURABLE_SQL, storage: new FileStorage(dir), durability: 'log' });
let id = Number(firstText);
let batches = 0;
for (;;) {
  // Several ingests in flight at once, so some share a log write and some are cut off by the kill.
  const inFlight = [];
  for (let i = 1 + Math.floor(next() * 4); i > 0; --i) {
    const count = 1 + Math.floor(next() * 50);
    const rows = Array.from({ length: count }, (_, k) => ({ id: id + k, v: (id + k) % 7 }));
    const first = id;
    id += count;
    inFlight.push(p.insert('t', rows).then((token) => process.stdout.write(`${first} ${count} ${token}\n`)));
  }
  await Promise.all(inFlight);
  if (++batches % 7 === 0) await p.checkpoint();
}
