// Type-checked, never run: the public API used the way docs/js-api.md shows it.
import { DurableObjectStorage, FreshetError, MapSink, MemoryStorage, Pipeline, callbackSink, warmUp, type Chunk, type Row, type Storage, type WarmUpResult } from 'freshet';
import type { LiveStatus, LiveView } from 'freshet';
import type { ColumnDescription, IndexDescription, ProgramDescription, TableDescription, ViewDescription } from 'freshet';

export async function usage(sql: string): Promise<void> {
  const p = await Pipeline.create({
    sql,
    outputs: { dash: { view: 'by_region', sendSnapshot: true, sink: new MapSink() } },
  });
  const token: string = p.ingest('orders', '[{"insert": {"id": 1}}]', { format: 'json', updateFormat: 'insert_delete' });
  p.insert('orders', [{ id: 1, customer: 2n, amount: 3.5 }]);
  p.delete('orders', { id: 1 });
  const status: 'complete' | 'inprogress' = p.completionStatus(token);
  await p.waitForCompletion(token);
  const { step, inputRecords, durationMs } = p.step();
  p.pause();
  p.start();
  const state: 'running' | 'paused' | 'closed' = p.state;

  const changes = p.egress('by_region', { sendSnapshot: true, maxQueuedChunks: 10, onLag: 'coalesce' });
  for await (const chunk of changes) {
    const inserted: Row[] = chunk.inserts;
    if (chunk.snapshotComplete) break;
    void inserted;
  }
  const keyed = p.egress('by_region', { index: 'by_region_idx' });
  const next = await keyed.next();
  if (!next.done) for (const { key, row } of next.value.upserts) void [key, row];
  keyed.close();

  p.addOutput('log', { view: 'by_region', sink: callbackSink(async (chunk: Chunk) => void chunk) });
  await p.resetOutput('dash');
  p.removeOutput('log');
  const rows: Row[] = p.snapshot('by_region');
  p.lookup('by_region_idx', { region: 'north' });
  p.lookup('by_region_idx', ['north']);
  const stats = p.stats();
  const sent: boolean = stats.outputs.dash.snapshotSent;
  const total: number = stats.inputs.orders.totalRecords;
  await p.close({ timeoutMs: 1000 });

  // durability: 'log': ingests and steps answer once the input is durable.
  const logged = await Pipeline.create({ sql, storage: new MemoryStorage(), durability: 'log' });
  const durable: string = await logged.insert('orders', [{ id: 2 }]);
  const stepped: number = (await logged.step()).step;
  void [durable, stepped];
  await logged.close({ checkpoint: false });
  new DurableObjectStorage({ get: async () => undefined, put: async () => {}, delete: async () => true,
                             list: async () => new Map() } as never, { prefix: 'log/', maxValueBytes: 1 << 20 });

  const blobs = new Map<string, Uint8Array>();
  const storage: Storage = {
    put: (name, bytes) => void blobs.set(name, bytes),
    get: (name) => blobs.get(name),
    list: (prefix) => [...blobs.keys()].filter((name) => name.startsWith(prefix)),
    delete: (name) => void blobs.delete(name),
  };
  const resumed = await Pipeline.create({ sql, storage, onProgramChange: 'restart' });
  let fakeNow = Date.parse('2024-01-01T00:00:00Z');
  const clocked = await Pipeline.create({ sql, clock: () => fakeNow, clockResolutionMs: 1000, temporalStepMs: 500 });
  fakeNow += 1000;
  const lastNow: number | null = clocked.now;
  void lastNow;
  const { sequenceNumber, bytes } = await resumed.checkpoint();
  const restoredFrom: number | null = resumed.stats().checkpoint.restoredFrom;
  const skipped: number[] = resumed.stats().checkpoint.skippedDamaged;
  void [sequenceNumber, bytes, restoredFrom, skipped];
  try {
    p.step();
  } catch (error) {
    if (error instanceof FreshetError && error.code === 'CLOSED') void error.details;
  }
  void [status, step, inputRecords, durationMs, state, rows, sent, total];
}

export async function storages(): Promise<void> {
  const { MemoryStorage, IndexedDBStorage } = await import('freshet');
  const p = await Pipeline.create({ sql: '', storage: new MemoryStorage() });
  const q = await Pipeline.create({ sql: '', storage: new IndexedDBStorage('dash') });
  void [p, q];
}

export async function liveViews(): Promise<void> {
  const p = await Pipeline.create({ sql: '' });
  type Region = { region: string; orders: number; total: number | null };
  const byRegion: LiveView<Region> = p.live<Region>('by_region', { key: 'region' });
  const keyed = p.live('by_region', { index: 'by_region_idx' });
  const first: string | undefined = byRegion.current[0]?.region;
  const status: LiveStatus = byRegion.status;
  const code: string | undefined = byRegion.error?.code;
  const unsubscribe = byRegion.subscribe((rows) => void rows.length);
  const unlisten = keyed.listen(() => {
    const changes = keyed.changes;
    if (changes && 'upserts' in changes) void changes.upserts.map(({ key, row }) => [key, row]);
    else if (changes) void changes.inserts.length;
  });
  unsubscribe();
  unlisten();
  byRegion.close();
  void [first, status, code, byRegion.version, byRegion.view];
}

export async function programDescription(): Promise<void> {
  const p = await Pipeline.create({ sql: 'CREATE TABLE t (id BIGINT PRIMARY KEY); CREATE MATERIALIZED VIEW v AS SELECT * FROM t;' });
  const program: ProgramDescription = p.program;
  const table: TableDescription = program.tables[0];
  const key: string[] = table.primaryKey;
  const late: string | undefined = table.lateness[0]?.lateness;
  const view: ViewDescription = program.views[0];
  const column: ColumnDescription = view.columns[0];
  const index: IndexDescription | undefined = view.indexes[0];
  const decimal: [number | undefined, number | undefined, number | undefined] = [column.precision, column.scale, column.length];
  const flags: boolean[] = [table.materialized, view.materialized, column.nullable, program.readsNow];
  void [key, late, column.type, index?.key, decimal, flags];
}

export async function warmingUp(): Promise<number> {
  const result: WarmUpResult = await warmUp();
  // @ts-expect-error warmUp takes no options
  void warmUp({ rows: 10 });
  return result.ms;
}
