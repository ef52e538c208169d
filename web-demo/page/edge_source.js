// EdgeSource: the dashboard's data from a pipeline of the edge worker, over
// its HTTP API (docs/http-api.md): one egress stream per view
// (POST .../egress/<view>?format=json&send_snapshot=true, NDJSON), stats
// polled from GET .../stats, and the step-loop controls as POSTs, each with
// the API key when the worker wants one (api_key.js). What only
// the local engine has (the feed's rate, the SQL panel, the mirror) is off.
//
// Each stream is a named egress (a name of this page's own per view): when
// the connection drops it reconnects with resume_from = the last chunk it
// applied and goes on with the next one, without a new snapshot. Only when
// the worker no longer holds that chunk (410 RESUME_UNAVAILABLE) does it
// start again with a snapshot.

import { outlineOf } from '../worker/program_outline.js';
import { apiFetch } from './api_key.js';
import { readNdjson } from './ndjson_reader.js';

const STATS_EVERY_MS = 1000;
const RECONNECT_MS = 1000;
const FALLBACK_VIEWS = ['revenue_by_region', 'top_products', 'large_orders'];

export class EdgeSource {
  kind = 'edge';
  capabilities = { rate: false, sql: false, reset: false, step: true, checkpoint: true, latency: false };
  #base;
  #pipeline;
  #handlers;
  #stepRate = { at: 0, step: null, perSecond: 0 };
  #page = Math.random().toString(36).slice(2, 10);  // names this page's egress streams
  #connections = new Set();  // AbortControllers of the open egress requests
  #ingestRate = { ingested: null, perSecond: null };

  /** @param {{ base: string, pipeline: string }} where @param {object} handlers as LocalSource's */
  constructor({ base, pipeline }, handlers) {
    this.#base = base.replace(/\/$/, '');
    this.#pipeline = pipeline;
    this.#handlers = handlers;
  }

  get url() {
    return `${this.#base}/v0/pipelines/${encodeURIComponent(this.#pipeline)}`;
  }

  async start() {
    let sql = '', program = null;
    try {
      const response = await apiFetch(this.url);
      if (response.ok) {
        const info = await response.json();
        sql = info.program_code ?? info.program ?? '';
        program = info.program_description ?? null;
      }
    } catch {
      // No description: follow the sample's views.
    }
    const outline = program ? outlineOf(program) : { tables: [], views: FALLBACK_VIEWS, indexes: [] };
    this.#handlers.onProgram({ sql, outline, sample: false });
    for (const view of outline.views) this.#follow(view);
    this.#pollStats();
    setInterval(() => this.#pollStats(), STATS_EVERY_MS);
  }

  async #follow(view) {
    const name = `dashboard-${this.#page}-${view}`;
    let last = null;  // the sequence number of the last chunk applied
    for (;;) {
      const connection = new AbortController();
      this.#connections.add(connection);
      try {
        const resume = last === null ? '&send_snapshot=true' : `&resume_from=${last}`;
        const response = await apiFetch(`${this.url}/egress/${encodeURIComponent(view)}?format=json&name=${encodeURIComponent(name)}${resume}`,
          { method: 'POST', signal: connection.signal });
        if (response.status === 410) {
          last = null;  // RESUME_UNAVAILABLE: the worker no longer holds the next chunk
          throw new Error(`${(await response.json()).message}; starting again with a snapshot`);
        }
        if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
        for await (const wire of readNdjson(response.body)) {
          if (!wire.json_data) continue;  // a keepalive
          const chunk = { sequenceNumber: wire.sequence_number, snapshot: !!wire.snapshot, snapshotComplete: !!wire.snapshot_complete, inserts: [], deletes: [] };
          for (const record of wire.json_data) {
            if (record.insert) chunk.inserts.push(record.insert);
            else if (record.delete) chunk.deletes.push(record.delete);
          }
          this.#handlers.onChunk(view, chunk, undefined);
          last = wire.sequence_number;
        }
        throw new Error('the stream ended');
      } catch (error) {
        this.#handlers.onError(`edge egress of ${view}: ${error.message}; reconnecting`);
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
      } finally {
        this.#connections.delete(connection);
      }
    }
  }

  async #pollStats() {
    try {
      const response = await apiFetch(`${this.url}/stats`);
      if (!response.ok) throw new Error(`${response.status}`);
      this.#handlers.onStatus(this.#toStatus(await response.json()));
    } catch (error) {
      this.#handlers.onError(`edge stats: ${error.message}`);
    }
  }

  // The edge worker's snake_case stats in the shape the local worker posts.
  #toStatus(s) {
    const now = performance.now();
    const seconds = (now - this.#stepRate.at) / 1000;
    const endpoint = (e) => ({
      view: e.view, transmittedRecords: e.transmitted_records, transmittedBatches: e.transmitted_batches,
      queuedRecords: e.queued_records, snapshotRecords: e.snapshot_records, resets: e.resets,
      errors: e.errors, droppedChunks: e.dropped_chunks ?? 0,
    });
    const outputs = Object.fromEntries(Object.entries(s.connectors ?? {}).map(([name, e]) => [name, endpoint(e)]));
    // Every client's egress streams on the worker, this page's among them (keyed by the worker's stream id).
    const egress = Object.fromEntries(Object.entries(s.egress ?? {}).map(([id, e]) => [`${e.view} #${id}`, endpoint(e)]));
    const inputs = Object.fromEntries(Object.entries(s.tables ?? {}).map(([table, input]) => [table,
      { totalRecords: input.total_records ?? 0, totalBytes: input.total_bytes ?? 0, parseErrors: input.parse_errors ?? 0 }]));
    const ingested = Object.values(inputs).reduce((sum, input) => sum + input.totalRecords, 0);
    // Rates from the change between two polls.
    if (this.#stepRate.step !== null && seconds > 0) {
      this.#stepRate.perSecond = (s.step - this.#stepRate.step) / seconds;
      this.#ingestRate.perSecond = (ingested - this.#ingestRate.ingested) / seconds;
    }
    Object.assign(this.#stepRate, { at: now, step: s.step });
    this.#ingestRate.ingested = ingested;
    return {
      state: s.state, step: s.step, stepsPerSecond: this.#stepRate.perSecond, rate: null, ingestRate: this.#ingestRate.perSecond,
      ingested, liveOrders: null, feed: 'edge worker', memoryBytes: s.memory_bytes, wasmMemoryBytes: s.wasm_memory_bytes ?? null,
      inputs, outputs, egress,
      checkpoint: {
        sequenceNumber: s.checkpoint?.sequence_number ?? null, step: s.checkpoint?.step ?? null,
        restoredFrom: s.checkpoint?.restored_from ?? null, bytes: null, at: null,
      },
      mirrorWritten: null, failure: s.failure ?? null,
    };
  }

  async call(method, ...args) {
    const post = async (path) => {
      let response;
      try {
        response = await apiFetch(`${this.url}/${path}`, { method: 'POST' });
      } catch (error) {
        // A worker on another origin refuses writes unless it lists this one
        // (its preflight offers read methods only, so the browser says no more).
        const elsewhere = new URL(this.url).origin !== location.origin;
        throw elsewhere ? new Error(`${error.message}: the worker may refuse writes from ${location.origin}; ` +
                                    'list it in its FRESHET_CORS_ORIGINS') : error;
      }
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw Object.assign(new Error(body.message ?? `${response.status}`), { code: body.error_code });
      this.#pollStats();
      return body;
    };
    switch (method) {
      case 'pause': return post('pause');
      case 'resume': return post('resume');
      case 'step': return post('step');
      case 'checkpoint': return post('checkpoint');
      // Drops every egress connection, as a network failure would (the e2e test's way to cut them).
      case 'dropConnections': for (const connection of this.#connections) connection.abort(); return this.#connections.size;
      case 'snapshot': {
        const query = encodeURIComponent(`SELECT * FROM ${args[0]}`);
        const response = await apiFetch(`${this.url}/query?sql=${query}`);
        if (!response.ok) throw new Error(`query failed: ${response.status}`);
        // A JSON array, or one row (or {insert: row}) per line.
        const text = (await response.text()).trim();
        const rows = text.startsWith('[') ? JSON.parse(text) : text.split(/\r?\n/).filter(Boolean).map((line) => JSON.parse(line));
        return rows.map((row) => row.insert ?? row);
      }
      default: throw new Error(`${method} is not available for an edge pipeline`);
    }
  }
}
