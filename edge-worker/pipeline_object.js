// PipelineObject: the Durable Object that hosts one pipeline (the npm
// package's Pipeline) and answers its routes (docs/http-api.md).
//
// ## What it keeps where
//   Durable Object storage   'definition' (the PUT body, checked: definition.js),
//                            'paused', 'incarnations' (ids of the Pipeline objects
//                            that issued completion tokens, to tell "lost" from "unknown"),
//                            'unsaved_input' (input arrived after the last checkpoint)
//   KV, pipelines/{p}/checkpoints/   the package's checkpoints (KVStorage)
//   KV, each connector's prefix      the connector's rows (KVSink)
// On a cold start the object reads its definition and recreates the pipeline
// from the newest KV checkpoint: state, step and the connectors' snapshot
// state, so no connector gets its snapshot twice.
//
// Unless input arrived after the last checkpoint: then the connectors' sinks
// may hold output of input that is lost with the old object, and the resumed
// object resets them (wipe, fresh snapshot of the restored state) so that
// they mirror the state again. 'unsaved_input' is set before such input is
// accepted and cleared by a checkpoint that covers it.
//
// ## Lifecycle
// Create, replace and delete run one at a time (#exclusive); every other
// request waits for the one in progress. A replace never leaves half a
// pipeline: the new program and outputs are checked on a throwaway pipeline
// before anything is wiped, and the old pipeline runs on if the new one fails.
//   same program   → checkpoint the old one, resume the new one from it
//                    (connectors whose configuration changed are reset)
//   other program  → wipe checkpoints and sinks, start afresh, checkpoint at once

import { FreshetError, KVStorage, Pipeline, callbackSink } from '../wasm-bindings/js/workerd.js';
import { AutoCheckpoint } from './auto_checkpoint.js';
import { checkpointPrefix, outputsOf, parseDefinition, sinkOf } from './definition.js';
import { egressResponse } from './egress_response.js';
import { checkpointStatus, controllerStatus, inputConnectorStatus, outputConnectorStatus } from './feldera_stats.js';
import { HttpError, errorResponse } from './http_errors.js';
import { incarnationOf, ingestCounted } from './incarnation.js';
import { jsonResponse } from './json.js';
import { queryFormat, queryResponse } from './query_formats.js';
import { matchRoute, splitPipelinePath } from './routes.js';
import { snakeCaseKeys } from './snake_case.js';
import { discardUnreadBody } from './unread_body.js';

const MAX_INCARNATIONS = 32;

export class PipelineObject {
  #ctx;
  #env;
  #definition = null;       // null: no pipeline by this name
  #pipeline = null;
  #loadError = null;        // why the stored pipeline could not be recreated
  #autoCheckpoint = null;
  #incarnations = [];
  #unsavedInput = false;    // mirrors 'unsaved_input' in storage
  #ingests = 0;             // ingress requests accepted, to see whether a checkpoint covers them all
  #resets = new Map();      // reset token → { connector, done, error, records }
  #lifecycle = Promise.resolve();

  constructor(ctx, env) {
    this.#ctx = ctx;
    this.#env = env;
    ctx.blockConcurrencyWhile(() => this.#load());
  }

  async fetch(request) {
    try {
      const url = new URL(request.url);
      const { pipeline: name, segments } = splitPipelinePath(url.pathname);
      const { handler, params } = matchRoute(request.method, segments);
      await this.#lifecycle;
      if (handler !== 'replace' && !this.#definition) {
        throw new HttpError('UNKNOWN_PIPELINE', `unknown pipeline '${name}': create it with PUT /v0/pipelines/${name}`);
      }
      return await this[handler]({ request, url, name, params });
    } catch (error) {
      return errorResponse(error);
    } finally {
      await discardUnreadBody(request);
    }
  }

  // ------------------------------------------------------------ lifecycle

  async #load() {
    const saved = await this.#ctx.storage.get(['definition', 'paused', 'incarnations', 'unsaved_input']);
    this.#incarnations = saved.get('incarnations') ?? [];
    this.#unsavedInput = saved.get('unsaved_input') === true;
    const definition = saved.get('definition');
    if (!definition) return;
    this.#definition = definition;
    try {
      this.#install(await this.#open(definition, { fresh: false }), saved.get('paused') === true);
      if (this.#unsavedInput) this.#resetConnectorsAfterLoss();
    } catch (error) {
      this.#loadError = error;
      console.error(`freshet edge worker: pipeline '${definition.name}' could not resume:`, error?.message ?? error);
    }
  }

  /** Sinks may hold output of lost input: rewrite each from the restored state. */
  #resetConnectorsAfterLoss() {
    const pipeline = this.#pipeline;
    for (const name of Object.keys(this.#definition.outputs)) {
      console.log(`freshet edge worker: pipeline '${this.#definition.name}' lost input since its checkpoint; resetting connector '${name}'`);
      pipeline.resetOutput(name).catch((error) => console.error(`freshet edge worker: reset of '${name}' failed:`, error?.message ?? error));
    }
  }

  #exclusive(work) {
    const run = this.#lifecycle.then(work);
    this.#lifecycle = run.catch(() => {});
    return run;
  }

  /** A pipeline for `definition` on its KV storage; `fresh` wipes checkpoints and sinks first. */
  async #open(definition, { fresh }) {
    const storage = new KVStorage(this.#env.KV, { prefix: checkpointPrefix(definition.name) });
    if (fresh) {
      for (const name of await storage.list('')) await storage.delete(name);
      await Promise.all(Object.values(definition.outputs).map((output) => sinkOf(this.#env.KV, output).reset()));
    }
    return Pipeline.create({
      sql: definition.program_code,
      storage,
      outputs: outputsOf(this.#env.KV, definition),
      // The definition in Durable Object storage is the truth; a checkpoint of
      // another program is left over from a replace that did not finish.
      onProgramChange: 'restart',
    });
  }

  #install(pipeline, paused) {
    this.#autoCheckpoint?.stop();
    this.#pipeline = pipeline;
    this.#loadError = null;
    incarnationOf(pipeline);  // begins now: its start_time and incarnation_uuid in /stats
    if (paused) pipeline.pause();
    this.#autoCheckpoint = new AutoCheckpoint(pipeline, () => this.#checkpoint(), {
      intervalMs: this.#definition.checkpoint_interval_ms,
      intervalSteps: this.#definition.checkpoint_interval_steps,
    });
    this.#autoCheckpoint.poke();
  }

  async #checkpoint() {
    const pipeline = this.#running();
    const ingests = this.#ingests;
    let result;
    try {
      result = await pipeline.checkpoint();
    } catch (error) {
      incarnationOf(pipeline).checkpointFailed(pipeline, error);  // /checkpoint_status reports it
      throw error;
    }
    incarnationOf(pipeline).checkpointWritten(result);
    if (pipeline !== this.#pipeline) return result;
    this.#autoCheckpoint.written(result.step);
    if (ingests === this.#ingests) await this.#setUnsavedInput(false);  // no ingress while it was written
    return result;
  }

  async #setUnsavedInput(value) {
    if (this.#unsavedInput === value) return;
    this.#unsavedInput = value;
    await this.#ctx.storage.put('unsaved_input', value);
  }

  /** The pipeline, or the error that keeps it from running. */
  #running() {
    if (this.#pipeline) return this.#pipeline;
    throw this.#loadError ?? new HttpError('UNKNOWN_PIPELINE', 'the pipeline is not running');
  }

  /**
   * A connector the current definition does not have starts on an empty
   * prefix. The package resets only connectors configured otherwise than in
   * the checkpoint, not ones absent from it (one removed by an earlier PUT and
   * added again would keep rows it no longer gets deletes for).
   */
  async #wipeAddedConnectors(definition) {
    const added = Object.entries(definition.outputs).filter(([name]) => !this.#definition?.outputs[name]);
    await Promise.all(added.map(([, output]) => sinkOf(this.#env.KV, output).reset()));
  }

  /** Checks a program and its outputs on a throwaway pipeline: SQL errors, unknown views, before anything changes. */
  async #check(definition) {
    const outputs = {};
    for (const [name, output] of Object.entries(definition.outputs)) {
      outputs[name] = { view: output.view, index: output.index, sink: callbackSink(() => {}) };
    }
    const probe = await Pipeline.create({ sql: definition.program_code, outputs });
    probe.close();
  }

  // --------------------------------------------------------------- routes

  async replace({ request, name }) {
    let body;
    try {
      body = await request.json();
    } catch {
      throw new HttpError('INVALID_REQUEST', 'the body must be JSON: { "program_code": "...", "outputs": { ... } }');
    }
    const definition = parseDefinition(name, body);
    await this.#check(definition);
    return this.#exclusive(async () => {
      const old = this.#pipeline;
      const wasRunning = old?.state === 'running';
      // A pipeline that could not resume tries again from its checkpoints
      // (a corrupt one fails again: DELETE, then PUT, starts over).
      const sameProgram = this.#definition?.program_code === definition.program_code;
      let pipeline;
      try {
        old?.pause();
        if (old && sameProgram) await old.checkpoint();
        if (sameProgram) await this.#wipeAddedConnectors(definition);
        pipeline = await this.#open(definition, { fresh: !sameProgram });
      } catch (error) {
        if (wasRunning) old.start();
        throw error;
      }
      old?.close();
      const created = !this.#definition;
      this.#definition = definition;
      this.#resets.clear();
      await this.#ctx.storage.put({ definition, paused: false });
      this.#install(pipeline, false);
      if (!sameProgram) await this.#checkpoint();
      return jsonResponse(this.#description(), created ? 201 : 200);
    });
  }

  async describe() {
    return jsonResponse(this.#description());
  }

  #description() {
    const { name, program_code, outputs, checkpoint_interval_ms, checkpoint_interval_steps } = this.#definition;
    const description = { name, program_code, outputs, checkpoint_interval_ms, checkpoint_interval_steps };
    if (!this.#pipeline) return { ...description, state: 'failed', error: this.#loadError?.message ?? null };
    const stats = this.#pipeline.stats();
    return { ...description, state: stats.failure ? 'failed' : stats.state, step: stats.step,
             checkpoint: snakeCaseKeys(stats.checkpoint), error: stats.failure?.message ?? null,
             program_description: this.#pipeline.program };
  }

  async remove({ name }) {
    return this.#exclusive(async () => {
      this.#autoCheckpoint?.stop();
      this.#pipeline?.close();
      this.#pipeline = null;
      this.#definition = null;
      this.#loadError = null;
      this.#resets.clear();
      const storage = new KVStorage(this.#env.KV, { prefix: checkpointPrefix(name) });
      for (const blob of await storage.list('')) await storage.delete(blob);
      await this.#ctx.storage.delete(['definition', 'paused', 'unsaved_input']);
      this.#unsavedInput = false;
      return jsonResponse({ name, deleted: true });
    });
  }

  async ingress({ request, url, params }) {
    this.#healthy();
    const format = oneOf(url, 'format', ['json', 'csv'], 'json');
    const updateFormat = oneOf(url, 'update_format', ['insert_delete', 'raw'], format === 'csv' ? 'raw' : 'insert_delete');
    const arrayParam = oneOf(url, 'array', ['true', 'false'], null);
    const body = new Uint8Array(await request.arrayBuffer());
    // Without ?array=, a JSON body that opens with '[' is an array, anything else newline-delimited records.
    const array = arrayParam === null ? firstNonBlank(body) === 0x5b : arrayParam === 'true';
    await this.#setUnsavedInput(true);  // before the input can reach a sink
    ++this.#ingests;
    const pipeline = this.#healthy();
    const token = ingestCounted(pipeline, params.table, () => pipeline.ingest(params.table, body, { format, updateFormat, array }));
    this.#remember(token);
    this.#autoCheckpoint.poke();
    // poke() looks one timer turn later, which is usually after the automatic
    // step; when that step comes later (held back by a full egress queue, or
    // timers of a busy isolate), look again once this input is in a step.
    pipeline.waitForCompletion(token).then(() => this.#autoCheckpoint?.poke(), () => {});
    return jsonResponse({ token });
  }

  async egress({ url, params }) {
    const pipeline = this.#healthy();
    oneOf(url, 'format', ['json'], 'json');
    const sendSnapshot = oneOf(url, 'send_snapshot', ['true', 'false'], 'false') === 'true';
    const backpressure = oneOf(url, 'backpressure', ['true', 'false'], 'false') === 'true';
    // Without backpressure a slow client's pending deltas merge into one
    // chunk (memory bounded by the view), rather than being dropped.
    const stream = pipeline.egress(params.view, { sendSnapshot, onLag: backpressure ? 'block' : 'coalesce' });
    return egressResponse(stream);
  }

  async completionStatus({ url }) {
    const pipeline = this.#running();
    const token = required(url, 'token');
    try {
      return jsonResponse({ status: pipeline.completionStatus(token) });
    } catch (error) {
      if (error instanceof FreshetError && error.code === 'UNKNOWN_TOKEN' && this.#wasIssuedHere(token)) {
        throw new HttpError('INPUT_LOST', `completion token '${token}' names input that is not in the pipeline's ` +
          'state: it arrived after the last checkpoint and was lost in a restart, or the pipeline was replaced ' +
          'since. Ingest it again.', { token });
      }
      throw error;
    }
  }

  async resetConnector({ params }) {
    const pipeline = this.#healthy();
    const output = this.#definition.outputs[params.connector];
    if (!output || output.view !== params.view) {
      throw new HttpError('UNKNOWN_CONNECTOR', `view '${params.view}' has no connector '${params.connector}'`,
                          { view: params.view, connector: params.connector });
    }
    const token = crypto.randomUUID();
    const reset = { connector: params.connector, done: false, error: null, records: 0 };
    const outcome = pipeline.resetOutput(params.connector).then(() => {
      reset.done = true;
      reset.records = pipeline.stats().outputs[params.connector]?.snapshotRecords ?? 0;
    }, (error) => {
      reset.error = error;
    });
    // A reset the package refuses (NOT_MATERIALIZED, ...) fails before any step: answer with that.
    await Promise.race([outcome, new Promise((resolve) => setTimeout(resolve, 0))]);
    if (reset.error) throw reset.error;
    this.#resets.set(token, reset);
    return jsonResponse({ token }, 202);
  }

  async resetStatus({ url }) {
    const token = required(url, 'token');
    const reset = this.#resets.get(token);
    if (!reset) {
      throw new HttpError('UNKNOWN_TOKEN', `unknown reset token '${token}' (reset tokens do not survive a restart ` +
                          'or a replace of the pipeline)', { token });
    }
    if (reset.error) throw reset.error;
    const records = reset.done ? reset.records : this.#running().stats().outputs[reset.connector]?.snapshotRecords ?? 0;
    return jsonResponse({ status: reset.done ? 'complete' : 'inprogress', snapshot_records_sent: records });
  }

  async pause() {
    this.#running().pause();
    await this.#ctx.storage.put('paused', true);
    return jsonResponse({ state: 'paused' });
  }

  async resume() {
    this.#running().start();
    await this.#ctx.storage.put('paused', false);
    return jsonResponse({ state: 'running' });
  }

  async step() {
    const result = this.#healthy().step();
    this.#autoCheckpoint.poke();
    return jsonResponse({ step: result.step, input_records: result.inputRecords, duration_ms: result.durationMs });
  }

  async checkpoint() {
    const pipeline = this.#running();
    const result = await this.#checkpoint();
    // The checkpoint is written when this answers: /checkpoint_status already reports it as `success`.
    return jsonResponse({ checkpoint_sequence_number: result.sequenceNumber, incarnation_uuid: incarnationOf(pipeline).uuid,
                          step: result.step, bytes: result.bytes });
  }

  async checkpointStatus({ url }) {
    return jsonResponse(checkpointStatus(this.#running(), url.searchParams.get('incarnation_uuid')));
  }

  async stats() {
    return jsonResponse(controllerStatus(this.#running()));
  }

  async inputConnectorStats({ params }) {
    return jsonResponse(inputConnectorStatus(this.#running(), params.table, params.connector));
  }

  async outputConnectorStats({ params }) {
    return jsonResponse(outputConnectorStatus(this.#running(), params.view, params.connector));
  }

  async query({ url }) {
    const pipeline = this.#running();
    const format = queryFormat(url);
    const sql = url.searchParams.get('sql');
    if (!sql?.trim()) throw new HttpError('INVALID_REQUEST', "the 'sql' parameter is required: ?sql=SELECT ...");
    // Any SELECT over the materialized views and tables, compiled by the engine's SQL front end.
    return queryResponse({ rows: await pipeline.query(sql) }, format);
  }


  // -------------------------------------------------------------- helpers

  /** The pipeline, unless it is not running or a step failed. */
  #healthy() {
    const pipeline = this.#running();
    const failure = pipeline.stats().failure;
    if (failure) {
      throw new HttpError('PIPELINE_FAILED', `the pipeline stopped after a failed step (${failure.code}: ` +
                          `${failure.message}); replace it with PUT to start again`, { cause: failure });
    }
    return pipeline;
  }

  /** Records the incarnation (the Pipeline object) a token comes from, to recognise it after a restart. */
  #remember(token) {
    const incarnation = token.split('-')[0];
    if (this.#incarnations.includes(incarnation)) return;
    this.#incarnations = [...this.#incarnations, incarnation].slice(-MAX_INCARNATIONS);
    this.#ctx.storage.put('incarnations', this.#incarnations);
  }

  #wasIssuedHere(token) {
    return this.#incarnations.includes(String(token).split('-')[0]);
  }
}

function oneOf(url, parameter, allowed, fallback) {
  const value = url.searchParams.get(parameter);
  if (value === null) return fallback;
  if (!allowed.includes(value)) {
    throw new HttpError('INVALID_REQUEST', `'${parameter}' must be ${allowed.join(' or ')}, not '${value}'`);
  }
  return value;
}

function required(url, parameter) {
  const value = url.searchParams.get(parameter);
  if (!value) throw new HttpError('INVALID_REQUEST', `the '${parameter}' parameter is required`);
  return value;
}

function firstNonBlank(bytes) {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return byte;
  return -1;
}
