// PipelineObject: the Durable Object that hosts one pipeline (the npm
// package's Pipeline) and answers its routes (docs/http-api.md).
//
// ## What it keeps where
//   Durable Object storage   'definition' (the PUT body, checked: definition.js),
//                            'paused', 'incarnations' (ids of the Pipeline objects
//                            that issued completion tokens, to tell "lost" from "unknown"),
//                            under 'pipeline/': the input log and the checkpoints
//                            (pipeline_storage.js, the package's durability: 'log')
//   KV, each connector's prefix      the connector's rows (KVSink)
// Ingress is answered once its input is in the log. On a cold start the
// object reads its definition, recreates the pipeline from the newest
// checkpoint (state, step, the connectors' snapshot state, so no connector
// gets its snapshot twice) and replays the log after it: every acknowledged
// record is there once, and its token answers.
//
// ## Lifecycle
// Feldera's states (deployment.js): Stopped (no Pipeline, storage kept),
// Running, Paused; /start, /stop, /clear, /dismiss_error. Feldera's body
// (with `name`) follows Feldera's rules: a new pipeline is Stopped, a
// program that does not compile is stored with its errors (program_status
// SqlError), and only a stopped pipeline may be updated. Freshet's short
// body (no `name`) keeps Freshet's: create or replace, then run at once.
//
// Create, replace, delete and the transitions run one at a time (#exclusive); every other
// request waits for the one in progress. A replace never leaves half a
// pipeline: the new program and outputs are checked on a throwaway pipeline
// before anything is wiped, and the old pipeline runs on if the new one fails.
//   same program   → checkpoint the old one, resume the new one from it
//                    (connectors whose configuration changed are reset)
//   other program  → checkpoint the old one, resume the new program from it:
//                    Feldera's bootstrapping (program_change.js says what
//                    changed; new and changed views are computed once from
//                    what they read, the others keep their state, the input
//                    log is kept); a changed table starts the whole pipeline
//                    afresh (wipe checkpoints, log and sinks), checkpoint at once
// Feldera's body changes the program of a stopped pipeline and keeps its
// storage; /start?bootstrap_policy= then bootstraps (allow), refuses
// (reject) or waits in AwaitingApproval for /approve (await_approval).
// 'checkpoint_program' in Durable Object storage is the program (and
// outputs) the stored checkpoint and log belong to: what a change is from.

import { FreshetError, Pipeline, callbackSink } from '../wasm-bindings/js/workerd.js';
import { IncidentLog } from '../wasm-bindings/js/incidents.js';
import { AutoCheckpoint } from './auto_checkpoint.js';
import { outputsOf, parseDefinition, runtimeErrorOptionsOf, sinkOf } from './definition.js';
import { explainIncompatibleCheckpoint } from './checkpoint_upgrade.js';
import { Deployment } from './deployment.js';
import { openEgress, resumeParameters } from './egress_resume.js';
import { egressResponse } from './egress_response.js';
import { withInjectedFaults } from './fault_injection.js';
import { explainFailedResume, stopsForGood } from './failed_resume.js';
import { armTestAbort } from './test_abort.js';
import { beginResume, endResume } from './resume_attempts.js';
import { felderaDescription } from './feldera_description.js';
import { notDeployedMessage } from './feldera_errors.js';
import { checkpointStatus, controllerStatus, inputConnectorStatus, outputConnectorStatus } from './feldera_stats.js';
import { FLUSH_MS, connectorsFlushed, requireLocalHost, shuttingDownError } from './host_shutdown.js';
import { HttpError, errorObject, errorResponse } from './http_errors.js';
import { incarnationOf, ingestCounted } from './incarnation.js';
import { jsonResponse, stringify } from './json.js';
import { retriedKV } from './kv_retries.js';
import { checkEgressConnections, limitsOf } from './limits.js';
import { identify, storedBody, withIdentity } from './pipeline_identity.js';
import { registerPipeline, unregisterPipeline } from './pipeline_registry.js';
import { compileProgram, programInfo } from './program_info.js';
import { describeDiff, isEmptyDiff, programChange } from './program_change.js';
import { queryFormat, queryResponse } from './query_formats.js';
import { ingressDurability, pipelineStorage, wipePipelineStorage } from './pipeline_storage.js';
import { checkRecordCount } from './record_count.js';
import { matchRoute, splitPipelinePath } from './routes.js';
import { snakeCaseKeys } from './snake_case.js';
import { discardUnreadBody } from './unread_body.js';
import { hasFailedView, throwIfViewFailed } from './view_failure.js';

const MAX_INCARNATIONS = 32;

export class PipelineObject {
  #ctx;
  #env;
  #definition = null;       // null: no pipeline by this name
  #pipeline = null;
  #loadError = null;        // why the stored pipeline could not be recreated
  #autoCheckpoint = null;
  #incarnations = [];
  #legacyLoss = false;      // 'unsaved_input' of a version without the input log: input was lost
  #resets = new Map();      // reset token → { connector, done, error, records }
  #lifecycle = Promise.resolve();
  #deployment = null;       // Deployment: stopped or not, deployment_error, storage status
  #programInfo = undefined; // Feldera's ProgramInfo of the definition's program (undefined: not derived yet)
  #egressConnections = 0;   // egress responses streaming now (FRESHET_MAX_EGRESS_CONNECTIONS)
  #kvIncidents = new IncidentLog();  // KV calls that failed and were retried (kv_retries.js), in /stats
  #shuttingDown = false;    // the local host stops workerd next: no more input (host_shutdown.js)
  #ran = null;              // 'checkpoint_program': the program whose state the storage holds (null: unknown or none)

  constructor(ctx, env) {
    this.#ctx = ctx;
    // Every KV call of this object is retried (kv_retries.js); tests may inject faults under that (fault_injection.js).
    const faulty = withInjectedFaults(env);
    this.#env = { ...faulty, KV: retriedKV(faulty.KV, this.#kvIncidents) };
    ctx.blockConcurrencyWhile(() => this.#load());
  }

  async fetch(request) {
    try {
      const url = new URL(request.url);
      const { pipeline: name, segments } = splitPipelinePath(url.pathname);
      // POST on the pipeline itself is how the worker hands over POST /v0/pipelines (pipeline_collection.js).
      const internalCreate = request.method === 'POST' && !segments.length;
      const { handler, params } = internalCreate ? { handler: 'create', params: {} } : matchRoute(request.method, segments);
      await this.#lifecycle;
      if (handler !== 'replace' && handler !== 'create' && !this.#definition) {
        throw new HttpError('UnknownPipelineName', `Unknown pipeline name '${name}': create it with PUT /v0/pipelines/${name}`,
                            { pipeline_name: name });
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
    const saved = await this.#ctx.storage.get(['definition', 'paused', 'incarnations', 'unsaved_input', 'checkpoint_program']);
    this.#incarnations = saved.get('incarnations') ?? [];
    this.#ran = saved.get('checkpoint_program') ?? null;
    this.#legacyLoss = saved.get('unsaved_input') === true;
    this.#deployment = await Deployment.load(this.#ctx.storage);
    const stored = saved.get('definition');
    if (!stored) return;
    const definition = withIdentity(stored);
    this.#definition = definition;
    if (definition !== stored) await this.#ctx.storage.put('definition', definition);
    // Also lists pipelines made before the registry existed, once they are used.
    registerPipeline(this.#env, definition.name).catch((error) => console.error('freshet edge worker: registry:', error?.message ?? error));
    // AwaitingApproval: nothing runs until /approve (or /stop).
    if (this.#deployment.stopped || this.#deployment.record.awaiting || definition.program_status !== 'Success') return;
    try {
      await beginResume(this.#ctx.storage);
      await armTestAbort(this.#env);
      const paused = saved.get('paused') === true;
      this.#install(await this.#open(definition, { fresh: false, paused }), paused);
      await endResume(this.#ctx.storage);
      await this.#resetConnectorsAfterLegacyLoss();
    } catch (thrown) {
      await endResume(this.#ctx.storage).catch(() => {});  // an error, not a cut-off (resume_attempts.js)
      const error = explainFailedResume(thrown, definition.name);
      // Kept: the next start of the object would fail the same way (failed_resume.js).
      if (stopsForGood(error)) await this.#deployment.update({ stopped: true, error: errorObject(error) });
      this.#loadError = error;
      console.error(`freshet edge worker: pipeline '${definition.name}' could not resume:`, error?.message ?? error);
    }
  }

  /**
   * A version without the input log lost input in a restart, and its sinks
   * may hold that input's output: rewrite each from the restored state, once.
   * (With the log nothing acknowledged is lost, and only durable input is
   * ever stepped, so sinks never see output of lost input.)
   */
  async #resetConnectorsAfterLegacyLoss() {
    if (!this.#legacyLoss) return;
    this.#legacyLoss = false;
    await this.#ctx.storage.delete('unsaved_input');
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

  /**
   * A pipeline for `definition` on its storage (pipeline_storage.js); `fresh` wipes log, checkpoints and sinks first.
   * `onProgramChange` 'fail': a checkpoint the new program cannot resume from is an error, not a fresh start.
   * `paused`: it starts paused, so that input the resume leaves buffered is not stepped (the package steps it otherwise).
   */
  async #open(definition, { fresh, onProgramChange = 'restart', paused = false }) {
    if (fresh) {
      await wipePipelineStorage(this.#ctx, this.#env, definition.name);
      await Promise.all(Object.values(definition.outputs).map((output) => sinkOf(this.#env.KV, output).reset()));
    }
    return Pipeline.create({
      sql: definition.program_code,
      storage: await pipelineStorage(this.#ctx, this.#env, definition.name),
      // Ingress is acknowledged once durable; a restart replays the log.
      durability: ingressDurability(this.#env),
      maxMemoryBytes: limitsOf(this.#env).memoryBytes,
      outputs: outputsOf(this.#env.KV, definition),
      // The definition in Durable Object storage is the truth; a checkpoint of
      // another program is left over from a change that did not finish (a
      // format-7 one resumes with what changed bootstrapped).
      onProgramChange,
      paused,
      ...runtimeErrorOptionsOf(definition),
    }).catch((error) => {
      throw explainIncompatibleCheckpoint(error, definition.name);  // CHECKPOINT_VERSION: say the way out
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
    return result;
  }

  /** The pipeline, or the error that keeps it from running (Feldera's PipelineInteractionNotDeployed when stopped). */
  #running() {
    if (this.#pipeline && !this.#deployment.stopped) return this.#pipeline;
    if (this.#deployment.record.awaiting && !this.#deployment.stopped) {
      // Feldera's PipelineError::AwaitingApproval (503).
      throw new HttpError('AwaitingApproval', 'Operation failed: the pipeline is waiting for approval to bootstrap modified components.', null);
    }
    if (this.#loadError && !this.#deployment.stopped) throw this.#loadError;
    const name = this.#definition.name;
    throw new HttpError('PipelineInteractionNotDeployed', notDeployedMessage(name),
                        { pipeline_name: name, status: 'Stopped', desired_status: 'Stopped' });
  }

  /** What runs now, in Feldera's terms: a failed or unloadable pipeline counts as Stopped with its error. */
  #current() {
    if (this.#deployment.stopped) return { status: 'Stopped', error: this.#deployment.record.error };
    const { awaiting } = this.#deployment.record;
    if (awaiting) return { status: 'AwaitingApproval', error: null, details: awaiting.change.diff };
    if (!this.#pipeline) return { status: 'Stopped', error: errorObject(this.#loadError ?? new Error('the pipeline is not running')) };
    const failure = this.#pipeline.stats().failure;
    if (failure) return { status: 'Stopped', error: { message: failure.message, error_code: failure.code, details: failure.details ?? {} } };
    return { status: this.#pipeline.state === 'paused' ? 'Paused' : 'Running', error: null };
  }

  /** Closes the pipeline; resolves once its log writes in flight are done (the next pipeline reads the log). */
  async #closePipeline() {
    this.#autoCheckpoint?.stop();
    this.#autoCheckpoint = null;
    const closed = this.#pipeline?.close({ checkpoint: false });  // the object checkpoints where it means to (stop)
    this.#pipeline = null;
    this.#loadError = null;
    this.#resets.clear();
    await closed;
  }

  /** Drops the pipeline's storage: its log and checkpoints, and the rows of its connectors (`definitions`' outputs). */
  async #wipeStorage(...definitions) {
    await wipePipelineStorage(this.#ctx, this.#env, this.#definition.name);
    const outputs = definitions.filter(Boolean).flatMap((definition) => Object.values(definition.outputs));
    await Promise.all(outputs.map((output) => sinkOf(this.#env.KV, output).reset()));
    await this.#setRan(null);
  }

  /** Records whose program the stored checkpoint and log now belong to (null: the storage holds none). */
  async #setRan(definition) {
    if (!definition) {
      this.#ran = null;
      await this.#ctx.storage.delete('checkpoint_program');
      return;
    }
    const { program_code, outputs, on_runtime_error, error_view_retention } = definition;
    this.#ran = { program_code, outputs, on_runtime_error, error_view_retention };
    await this.#ctx.storage.put('checkpoint_program', this.#ran);
  }

  /**
   * The program the stored state belongs to, as a definition (program_code,
   * outputs); null when the storage holds none. A pipeline stored before
   * 'checkpoint_program' existed ran its definition.
   */
  #checkpointed() {
    if (this.#deployment.record.storage_status !== 'InUse') return null;
    return this.#ran ?? this.#definition;
  }

  /**
   * Opens `definition` over the state of `before`'s program (program_change.js):
   * a bootstrap resumes the checkpoint (a checkpoint the engine cannot resume
   * into it is an error: nothing was wiped); a changed table starts afresh.
   */
  async #openChanged(definition, before, change, paused = false) {
    if (change.kind !== 'bootstrap') {
      await this.#wipeStorage(before, definition);
      return this.#open(definition, { fresh: false, paused });
    }
    await this.#wipeAddedConnectors(definition, before);
    return this.#open(definition, { fresh: false, onProgramChange: 'fail', paused });
  }

  /**
   * After a bootstrap: the connectors of removed views are wiped (their rows
   * are of a view that is gone); those of new and changed views were reset by
   * the package (their checkpointed state was the old view's) and get the
   * view's full contents: a snapshot with send_snapshot, else one is sent now
   * (a view that is not materialized has none to send: it starts empty).
   */
  async #afterChange(pipeline, definition, before, change) {
    if (change.kind !== 'bootstrap') return;
    const log = (what) => (error) => console.error(`freshet edge worker: pipeline '${definition.name}': ${what}:`, error?.message ?? error);
    const removed = new Set(change.diff.program_diff.removed_views);
    const prefixes = new Set(Object.values(definition.outputs).map((output) => output.sink.prefix));
    const gone = Object.values(before.outputs).filter((output) => removed.has(output.view) && !prefixes.has(output.sink.prefix));
    // The new program runs already: a wipe that still fails (after kv_retries.js) is reported, not undone.
    await Promise.all(gone.map((output) => sinkOf(this.#env.KV, output).reset().catch(log(`wiping '${output.sink.prefix}'`))));
    const rebuilt = new Set(change.rebuiltViews);
    const materialized = new Set(pipeline.program.views.filter((view) => view.materialized).map((view) => view.name));
    for (const [name, output] of Object.entries(definition.outputs)) {
      if (!rebuilt.has(output.view) || output.send_snapshot || !materialized.has(output.view)) continue;
      // Not awaited: a paused pipeline writes the snapshot once it runs.
      pipeline.resetOutput(name).catch(log(`the contents of '${output.view}' for connector '${name}'`));
    }
  }

  /** What GET shows of a program change: `status` 'awaiting_approval', 'bootstrapped' or 'fresh_start'. */
  static #changeRecord(change, status) {
    return { status, reason: change.reason, pipeline_diff: change.diff, at: new Date().toISOString() };
  }

  /** Feldera's ProgramInfo of the current program, from `p.program` (or, while stopped, the compiler's same description). */
  async #info() {
    if (this.#definition.program_status !== 'Success') return null;
    if (this.#programInfo === undefined) {
      const description = this.#pipeline?.program ?? (await compileProgram(this.#definition.program_code)).description;
      this.#programInfo = description ? programInfo(description) : null;
    }
    return this.#programInfo;
  }



  /**
   * A connector the current definition does not have starts on an empty
   * prefix. The package resets only connectors configured otherwise than in
   * the checkpoint, not ones absent from it (one removed by an earlier PUT and
   * added again would keep rows it no longer gets deletes for).
   */
  async #wipeAddedConnectors(definition, before = this.#definition) {
    const added = Object.entries(definition.outputs).filter(([name]) => !before?.outputs[name]);
    await Promise.all(added.map(([, output]) => sinkOf(this.#env.KV, output).reset()));
  }

  /** Checks a program and its outputs on a throwaway pipeline: SQL errors, unknown views, before anything changes. */
  async #check(definition) {
    const outputs = {};
    for (const [name, output] of Object.entries(definition.outputs)) {
      outputs[name] = { view: output.view, index: output.index, sink: callbackSink(() => {}) };
    }
    const probe = await Pipeline.create({ sql: definition.program_code, outputs, ...runtimeErrorOptionsOf(definition) });
    probe.close();
  }

  // --------------------------------------------------------------- routes

  async replace({ request, name }) {
    const body = await readBody(request);
    if (body?.name !== undefined) return this.#putFeldera(name, body, { create: false });
    const parsed = parseDefinition(name, body);
    const compiled = await compileProgram(parsed.program_code);
    if (compiled.error) throw compiled.error;  // Freshet's short body: a bad program changes nothing
    const definition = identify(this.#definition, parsed, compiled);
    await this.#check(definition);
    return this.#exclusive(async () => {
      const old = this.#pipeline;
      const wasRunning = old?.state === 'running';
      const created = !this.#definition;
      // The program the stored state belongs to: the running one's, or (stopped,
      // awaiting approval, or not loaded) the one that last ran.
      const before = old ? this.#definition : this.#checkpointed();
      // A pipeline that could not resume tries again from its checkpoints
      // (a corrupt one fails again: DELETE, then PUT, starts over).
      const sameProgram = !before || before.program_code === definition.program_code;
      // Decided before anything changes: a program that cannot be bootstrapped starts afresh.
      const change = sameProgram ? null : await programChange(before, definition);
      const fresh = created || (change !== null && change.kind !== 'bootstrap');
      let pipeline;
      try {
        old?.pause();
        // The same program again recovers its failed views (rebuilt from
        // their inputs, the others keep their state) before it is kept.
        if (old && sameProgram && hasFailedView(old)) await old.replaceProgram(definition.program_code);
        // The state the new program resumes from, all acknowledged input in it
        // (a failed pipeline writes none: its last checkpoint and the log after it).
        if (old && !fresh && (sameProgram || !old.stats().failure)) await old.checkpoint();
        if (created) pipeline = await this.#open(definition, { fresh: true });
        else if (change) pipeline = await this.#openChanged(definition, before, change);
        else {
          await this.#wipeAddedConnectors(definition, before);
          pipeline = await this.#open(definition, { fresh: false });
        }
      } catch (error) {
        if (wasRunning) old.start();
        throw error;
      }
      await old?.close({ checkpoint: false });  // checkpointed above; the new one runs on the same storage
      this.#definition = definition;
      this.#programInfo = programInfo(compiled.description);
      this.#resets.clear();
      const programChanged = change ? PipelineObject.#changeRecord(change, fresh ? 'fresh_start' : 'bootstrapped') : undefined;
      if (change) console.log(`freshet edge worker: pipeline '${name}' changed its program (${programChanged.status}):\n${describeDiff(change.diff)}`);
      // Freshet's short body runs the pipeline, whatever state it was in.
      if (created) this.#deployment = Deployment.fresh(this.#ctx.storage, { stopped: false });
      else {
        await this.#deployment.update({ stopped: false, error: null, storage_status: 'InUse', awaiting: null,
                                        ...(programChanged ? { program_change: programChanged } : {}) });
      }
      await this.#ctx.storage.put({ definition, paused: false });
      await this.#deployment.save();
      this.#install(pipeline, false);
      await this.#setRan(definition);
      if (change) await this.#afterChange(pipeline, definition, before, change);
      // The new program's state is the newest checkpoint from now on.
      if (created || change) await this.#checkpoint();
      if (created) await registerPipeline(this.#env, name);
      return jsonResponse(await this.#description(), created ? 201 : 200);
    });
  }

  /** POST /v0/pipelines (handed over by the worker): Feldera's create, 409 DuplicateName if it exists. */
  async create({ request, name }) {
    return this.#putFeldera(name, await readBody(request), { create: true });
  }

  /** PATCH: the fields given replace the stored ones; absent or null ones are kept (Feldera's patch_pipeline). */
  async patch({ request, name }) {
    const body = await readBody(request);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError('INVALID_REQUEST', 'the body must be a JSON object');
    const stored = storedBody(this.#definition);
    for (const [field, value] of Object.entries(body)) if (value !== null) stored[field] = value;
    const answer = await this.#putFeldera(name, stored, { create: false });
    return new Response(answer.body, { status: 200, headers: answer.headers });
  }

  /**
   * Feldera's create or update: only while stopped; a new pipeline is
   * Stopped; a program that does not compile is stored with its errors.
   */
  async #putFeldera(name, body, { create }) {
    const parsed = parseDefinition(name, body);
    const compiled = await compileProgram(parsed.program_code);
    if (!compiled.error) await this.#check(parsed);  // outputs on unknown views are refused, not stored
    return this.#exclusive(async () => {
      const created = !this.#definition;
      if (create && !created) throw new HttpError('DuplicateName', 'An entity with this name already exists', null);
      if (!created && this.#current().status !== 'Stopped') {
        throw new HttpError('UpdateRestrictedToStopped', "Pipeline can only be updated while stopped. Stop it first by invoking '/stop'.", null);
      }
      const definition = identify(this.#definition, parsed, compiled);
      if (created) {
        this.#deployment = Deployment.fresh(this.#ctx.storage, { stopped: true });
      } else {
        await this.#closePipeline();  // a failed pipeline still in memory
        // The stored state is kept: a changed program is bootstrapped from it
        // at /start (bootstrap_policy), as Feldera's. 'checkpoint_program'
        // already says whose state it is, unless it was stored before that
        // record existed: then it is the definition's that is replaced now.
        if (!this.#ran && this.#checkpointed()) await this.#setRan(this.#definition);
        await this.#wipeAddedConnectors(definition);
        await this.#deployment.update({ stopped: true });
      }
      this.#definition = definition;
      this.#programInfo = compiled.description ? programInfo(compiled.description) : null;
      await this.#ctx.storage.put('definition', definition);
      await this.#deployment.save();
      if (created) await registerPipeline(this.#env, name);
      return jsonResponse(await this.#description(), created ? 201 : 200);
    });
  }

  async describe({ url }) {
    const selector = oneOf(url, 'selector', ['all', 'status', 'status_with_connectors'], 'all');
    return jsonResponse(await this.#description(selector));
  }

  /** Feldera's fields, then Freshet's own (state, step, checkpoint, error, outputs, intervals). */
  async #description(selector = 'all') {
    const { outputs, checkpoint_interval_ms, checkpoint_interval_steps } = this.#definition;
    const current = this.#current();
    const info = selector === 'all' ? await this.#info() : null;
    const description = { ...felderaDescription(this.#definition, this.#deployment.record, current, info, selector),
                          outputs, checkpoint_interval_ms, checkpoint_interval_steps,
                          program_change: this.#deployment.record.program_change ?? null };
    if (this.#deployment.stopped || !this.#pipeline) {
      const state = this.#deployment.stopped ? 'stopped' : current.status === 'AwaitingApproval' ? 'awaiting_approval' : 'failed';
      return { ...description, state, error: current.error?.message ?? null };
    }
    const stats = this.#pipeline.stats();
    return { ...description, state: stats.failure ? 'failed' : stats.state, step: stats.step,
             checkpoint: snakeCaseKeys(stats.checkpoint), error: stats.failure?.message ?? null,
             program_description: this.#pipeline.program };
  }

  // Feldera's transitions (deployment.js). They answer 202 with no body, as Feldera's.

  async start({ url }) {
    const initial = url.searchParams.get('initial') ?? 'running';
    if (initial === 'standby') {
      throw new HttpError('InitialStandbyNotAllowed', "initial=standby is not available: a Freshet pipeline starts 'running' or 'paused'");
    }
    if (initial !== 'running' && initial !== 'paused') {
      throw new HttpError('INVALID_REQUEST', `'initial' must be running or paused, not '${initial}'`);
    }
    const dismiss = oneOf(url, 'dismiss_error', ['true', 'false'], 'true') === 'true';
    const policy = oneOf(url, 'bootstrap_policy', ['allow', 'reject', 'await_approval'], 'await_approval');
    refuseUnsupportedBootstrap({ silent_bootstrap: oneOf(url, 'silent_bootstrap', ['true', 'false'], 'false'),
                                 concurrent_bootstrap: oneOf(url, 'concurrent_bootstrap', ['true', 'false'], 'false') });
    return this.#exclusive(async () => {
      const current = this.#current();
      if (current.status !== 'Stopped') {
        if (initial !== this.#deployment.record.initial) {
          throw new HttpError('InitialImmutableUnlessStopped', 'Initial desired runtime status cannot be changed unless the ' +
                              `pipeline is desired to become Stopped (it was started '${this.#deployment.record.initial}')`);
        }
        return accepted();
      }
      if (this.#definition.program_status !== 'Success') {
        throw new HttpError('CannotStartWithCompilationError', 'Cannot process `/start` if the `program_status` is `SqlError`, ' +
                            '`RustError` or `SystemError`. Make changes to fix the error, which will trigger recompilation.', null);
      }
      if (current.error && !dismiss) {
        throw new HttpError('CannotStartWithUndismissedError', 'Cannot process `/start?dismiss_error=false` if the ' +
                            '`deployment_error` is set. First call `/dismiss_error`.', null);
      }
      await this.#closePipeline();
      const before = this.#checkpointed();
      const change = before && before.program_code !== this.#definition.program_code
        ? await programChange(before, this.#definition) : null;
      // Feldera answers these starts 202 and the pipeline stops with the error
      // in deployment_error, its storage kept (the client's wait reports it).
      if (change?.kind === 'refused') {
        await this.#deployment.update({ stopped: true, error: bootstrapError('BootstrapNotAllowed',
          'The pipeline has been modified since the last checkpoint; however it cannot be bootstrapped due to the ' +
          `following reasons:\n- ${change.reason}`, change) });
        return accepted();
      }
      if (change && !isEmptyDiff(change.diff) && policy === 'reject') {
        await this.#deployment.update({ stopped: true, error: bootstrapError('BootstrapRejected',
          `Bootstrapping of the modified pipeline was rejected by the user.\n${describeDiff(change.diff)}`, change) });
        return accepted();
      }
      if (change && !isEmptyDiff(change.diff) && policy === 'await_approval') {
        await this.#ctx.storage.put('paused', initial === 'paused');
        await this.#deployment.update({ stopped: false, initial, error: null, id: crypto.randomUUID(), awaiting: { change },
                                        program_change: PipelineObject.#changeRecord(change, 'awaiting_approval') });
        return accepted();
      }
      await this.#startWith(initial, before, change);
      return accepted();
    });
  }

  /** Feldera's /approve: an AwaitingApproval pipeline bootstraps the changes it listed and runs. */
  async approve({ url }) {
    refuseUnsupportedBootstrap({ silent_bootstrap: oneOf(url, 'silent_bootstrap', ['true', 'false'], 'false'),
                                 concurrent_bootstrap: oneOf(url, 'concurrent_bootstrap', ['true', 'false'], 'false') });
    return this.#exclusive(async () => {
      const { awaiting, initial } = this.#deployment.record;
      if (!awaiting || this.#deployment.stopped) {
        this.#running();  // stopped: PipelineInteractionNotDeployed; running: nothing awaits approval (as Feldera's)
        return jsonResponse('Bootstrap approved');
      }
      await this.#startWith(initial, this.#checkpointed(), awaiting.change);
      return jsonResponse('Bootstrap approved');
    });
  }

  /** Opens the definition (over `before`'s state when `change`), installs it and records the deployment. */
  async #startWith(initial, before, change) {
    let pipeline;
    const paused = initial === 'paused';
    try {
      pipeline = change ? await this.#openChanged(this.#definition, before, change, paused)
                        : await this.#open(this.#definition, { fresh: false, paused });
    } catch (error) {
      await this.#deployment.update({ stopped: true, awaiting: null, error: errorObject(error) });
      throw error;
    }
    const programChanged = change ? PipelineObject.#changeRecord(change, change.kind === 'bootstrap' ? 'bootstrapped' : 'fresh_start') : undefined;
    if (change) console.log(`freshet edge worker: pipeline '${this.#definition.name}' changed its program (${programChanged.status}):\n${describeDiff(change.diff)}`);
    await this.#ctx.storage.put('paused', paused);
    await this.#deployment.update({ stopped: false, initial, error: null, awaiting: null, storage_status: 'InUse', id: crypto.randomUUID(),
                                    ...(programChanged ? { program_change: programChanged } : {}) });
    this.#install(pipeline, paused);
    await this.#setRan(this.#definition);
    if (change) {
      await this.#afterChange(pipeline, this.#definition, before, change);
      await this.#checkpoint();  // the new program's state is the newest checkpoint from now on
    }
    await this.#resetConnectorsAfterLegacyLoss();
  }

  async stop({ url }) {
    const force = oneOf(url, 'force', ['true', 'false'], 'false') === 'true';
    return this.#exclusive(async () => {
      if (this.#deployment.stopped) return accepted();
      // AwaitingApproval runs nothing: stopping leaves the storage as it was (the change not applied).
      if (this.#deployment.record.awaiting) {
        await this.#deployment.update({ stopped: true, awaiting: null, program_change: null });
        return accepted();
      }
      let { error } = this.#current();
      // force=false checkpoints first; if that fails the pipeline stops anyway, with the error (as Feldera's suspend).
      if (!force && !error) {
        try {
          this.#pipeline.pause();
          await this.#checkpoint();
        } catch (failure) {
          error = errorObject(failure);
        }
      }
      await this.#closePipeline();
      await this.#deployment.update({ stopped: true, error });
      return accepted();
    });
  }

  async clear() {
    return this.#exclusive(async () => {
      const { status } = this.#current();
      const storage = this.#deployment.record.storage_status;
      if (status !== 'Stopped') {
        throw new HttpError('StorageStatusImmutableUnlessStopped', `Cannot transition storage status from '${storage}' to ` +
                            `'Clearing' with deployment status '${status}'. Storage status cannot be changed unless the pipeline is fully stopped.`);
      }
      if (storage === 'Cleared') {
        throw new HttpError('InvalidStorageStatusTransition', "Cannot transition from storage status 'Cleared' to 'Clearing'",
                            { current_status: 'Cleared', new_status: 'Clearing' });
      }
      await this.#closePipeline();
      await this.#wipeStorage(this.#definition, this.#ran);
      await this.#deployment.update({ stopped: true, storage_status: 'Cleared', program_change: null });
      return accepted();
    });
  }

  async dismissError() {
    return this.#exclusive(async () => {
      const current = this.#current();
      if (current.status === 'Stopped' && current.error) {
        await this.#closePipeline();  // a failed pipeline is stopped for good
        await this.#deployment.update({ stopped: true, error: null });
      }
      return new Response(null, { status: 200 });
    });
  }

  async remove({ name }) {
    return this.#exclusive(async () => {
      await this.#closePipeline();
      this.#definition = null;
      this.#programInfo = undefined;
      await wipePipelineStorage(this.#ctx, this.#env, name);
      await this.#ctx.storage.delete(['definition', 'paused', 'unsaved_input', 'deployment', 'checkpoint_program']);
      this.#ran = null;
      this.#legacyLoss = false;
      await unregisterPipeline(this.#env, name);
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
    checkRecordCount(body, { format, array, updateFormat }, limitsOf(this.#env).ingressRecords);  // 413 before anything is applied
    const pipeline = this.#healthy();
    // Answered once the input is in the log (durability: 'log'): a restart replays it.
    const token = await ingestCounted(pipeline, params.table, () => pipeline.ingest(params.table, body, { format, updateFormat, array }));
    await this.#remember(token);
    this.#autoCheckpoint.poke();
    // poke() looks one timer turn later, which is usually after the automatic
    // step; when that step comes later (held back by a full egress queue, or
    // timers of a busy isolate), look again once this input is in a step.
    pipeline.waitForCompletion(token).then(() => this.#autoCheckpoint?.poke(), () => {});
    return jsonResponse({ token });
  }

  async egress({ url, params }) {
    const pipeline = this.#healthy();
    // Connections, not endpoints: a named egress whose client went lives on without one.
    checkEgressConnections(this.#egressConnections, limitsOf(this.#env));  // 429 ApiConnectionLimit
    oneOf(url, 'format', ['json'], 'json');
    const sendSnapshot = oneOf(url, 'send_snapshot', ['true', 'false'], 'false') === 'true';
    const backpressure = oneOf(url, 'backpressure', ['true', 'false'], 'false') === 'true';
    // Without backpressure a slow client's pending deltas merge into one
    // chunk (memory bounded by the view), rather than being dropped.
    const { searchParams } = url;
    const resume = resumeParameters({
      name: searchParams.get('name'), resume: searchParams.get('resume_from'),
      chunks: searchParams.get('retention_chunks'), bytes: searchParams.get('retention_bytes'),
    }, limitsOf(this.#env).egressRetentionBytes);
    throwIfViewFailed(pipeline, params.view);  // 503, not a stream of one error line
    const stream = openEgress(pipeline, params.view, { sendSnapshot, onLag: backpressure ? 'block' : 'coalesce', ...resume });
    ++this.#egressConnections;
    return egressResponse(stream, { chunkNumbers: resume.name !== undefined, resumeFrom: resume.resumeFrom,
                                    onEnd: () => --this.#egressConnections });
  }

  async closeEgress({ url }) {
    this.#healthy().closeEgress(required(url, 'name'));
    return jsonResponse({});
  }

  async completionStatus({ url }) {
    const pipeline = this.#running();
    const token = required(url, 'token');
    try {
      return jsonResponse({ status: pipeline.completionStatus(token) });
    } catch (error) {
      if (error instanceof FreshetError && error.code === 'UNKNOWN_TOKEN' && this.#wasIssuedHere(token)) {
        throw new HttpError('INPUT_LOST', `completion token '${token}' names input that is not in the pipeline's ` +
          'state: the pipeline started afresh since (its storage cleared, or a program that changed a table). Ingest it again.', { token });
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
    if (this.#current().status === 'Stopped') {
      throw new HttpError('PauseWhileNotProvisioned', 'You can only call /pause when the pipeline is not Stopped, Provisioning or Stopping.', null);
    }
    this.#running().pause();
    await this.#ctx.storage.put('paused', true);
    return jsonResponse({ state: 'paused' }, 202);
  }

  async resume() {
    if (this.#current().status === 'Stopped') {
      throw new HttpError('ResumeWhileNotProvisioned', 'You can only call /resume when the pipeline is not Stopped, Provisioning or Stopping.', null);
    }
    this.#running().start();
    await this.#ctx.storage.put('paused', false);
    return jsonResponse({ state: 'running' }, 202);
  }

  async step() {
    const result = await this.#healthy().step();  // once the input before it is durable
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

  /** Local hosts only (host_shutdown.js): refuse input from now on, deliver what was accepted, a last checkpoint. */
  async shutdown({ url }) {
    requireLocalHost(this.#env);
    const flushMs = Number(url.searchParams.get('flush_ms') ?? FLUSH_MS);
    return this.#exclusive(async () => {
      this.#shuttingDown = true;
      if (this.#current().status === 'Stopped' || !this.#pipeline) return jsonResponse({ checkpointed: false, flushed: true });
      const flushed = await connectorsFlushed(this.#pipeline, flushMs);
      const result = await this.#checkpoint();
      return jsonResponse({ checkpointed: true, flushed, step: result.step, checkpoint_sequence_number: result.sequenceNumber });
    });
  }

  async checkpointStatus({ url }) {
    return jsonResponse(checkpointStatus(this.#running(), url.searchParams.get('incarnation_uuid')));
  }

  async stats() {
    return jsonResponse({ ...controllerStatus(this.#running()), kv_incidents: snakeCaseKeys(this.#kvIncidents.snapshot()) });
  }

  async inputConnectorStats({ params }) {
    return jsonResponse(inputConnectorStatus(this.#running(), params.table, params.connector));
  }

  async outputConnectorStats({ params }) {
    return jsonResponse(outputConnectorStatus(this.#running(), params.view, params.connector));
  }

  async query({ url }) {
    const pipeline = this.#running();
    const format = queryFormat(url.searchParams.get('format'));
    const sql = url.searchParams.get('sql');
    if (!sql?.trim()) throw new HttpError('INVALID_REQUEST', "the 'sql' parameter is required: ?sql=SELECT ...");
    // Any SELECT over the materialized views and tables, compiled by the engine's SQL front end.
    const { queryRows, queryBytes } = limitsOf(this.#env);
    return queryResponse({ rows: await pipeline.query(sql, { maxRows: queryRows, maxBytes: queryBytes }) }, format);
  }


  // -------------------------------------------------------------- helpers

  /** The pipeline, unless it is not running or a step failed. */
  #healthy() {
    const pipeline = this.#running();
    if (this.#shuttingDown) throw shuttingDownError(this.#definition.name);
    const failure = pipeline.stats().failure;
    if (failure) {
      throw new HttpError('PIPELINE_FAILED', `the pipeline stopped after a failed step (${failure.code}: ` +
                          `${failure.message}); replace it with PUT to start again`, { cause: failure });
    }
    return pipeline;
  }

  /** Records the incarnation (the Pipeline object) a token comes from, to recognise it after a restart. */
  async #remember(token) {
    const incarnation = token.split('-')[0];
    if (this.#incarnations.includes(incarnation)) return;
    this.#incarnations = [...this.#incarnations, incarnation].slice(-MAX_INCARNATIONS);
    await this.#ctx.storage.put('incarnations', this.#incarnations);
  }

  #wasIssuedHere(token) {
    return this.#incarnations.includes(String(token).split('-')[0]);
  }
}

/** A start that did not bootstrap, as Feldera's deployment_error: the diff in `details`. */
function bootstrapError(code, message, change) {
  return { message, error_code: code, details: { pipeline_diff: change.diff } };
}

/**
 * Feldera's silent_bootstrap and concurrent_bootstrap are not available: the
 * package resets the connectors of a rebuilt view (silent would keep the sink
 * as it is), and a bootstrap here is one synchronous step (nothing to overlap).
 */
function refuseUnsupportedBootstrap(options) {
  for (const [option, value] of Object.entries(options)) {
    if (value === 'true') {
      throw new HttpError('InvalidBootstrapConfig', `${option}=true is not available on Freshet's edge worker: a ` +
                          'bootstrap sends the full contents of new and changed views to their connectors (docs/http-api.md)', { option });
    }
  }
}

/** Feldera's answer to a transition it accepted: 202, no body. */
function accepted() {
  return new Response(null, { status: 202 });
}

async function readBody(request) {
  try {
    return await request.json();
  } catch {
    throw new HttpError('INVALID_REQUEST', 'the body must be JSON: { "program_code": "...", "outputs": { ... } }');
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
