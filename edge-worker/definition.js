// A pipeline's definition: what PUT /v0/pipelines/{p} sent, checked, in the
// form the Durable Object keeps in its storage so that a restarted object
// knows what to recreate before it resumes from its KV checkpoint.
//
//   {
//     "program_code": "CREATE TABLE ...",
//     "outputs": {                                     optional
//       "<connector>": {
//         "view": "v", "index": "i",                   index optional
//         "send_snapshot": true,                       optional, default false
//         "sink": { "type": "kv", "prefix": "..." }    prefix optional
//       }
//     },
//     "checkpoint_interval_ms": 10000,                 optional, 0 = never by time
//     "checkpoint_interval_steps": 0,                  optional, 0 = never by steps
//     "on_runtime_error": "null",                      optional, default "fail"
//     "error_view_retention": 1000                     optional, rows error_view keeps
//   }
//
// Feldera's body (feldera_fields.js) may also carry `name` (the path's),
// `description`, `runtime_config`, `program_config`, `udf_rust`, `udf_toml`
// and `tags`: they are kept in the definition, with `warnings` for what
// Freshet does not honour. The Durable Object adds Feldera's identity and
// program fields (id, created_at, version, program_version, program_status,
// program_error) when it stores a definition.

import { KVSink } from '../wasm-bindings/js/workerd.js';
import { checkpointIntervalMs, parseFelderaFields } from './feldera_fields.js';
import { HttpError } from './http_errors.js';

export const DEFAULT_CHECKPOINT_INTERVAL_MS = 10_000;
/** KV keys the worker itself uses (checkpoints); no sink may write under it. */
export const RESERVED_KV_PREFIX = 'pipelines/';
// Freshet's fields, then Feldera's (feldera_fields.js).
const FIELDS = new Set(['program_code', 'outputs', 'checkpoint_interval_ms', 'checkpoint_interval_steps',
                        'on_runtime_error', 'error_view_retention', 'name', 'description', 'runtime_config', 'program_config', 'udf_rust', 'udf_toml', 'tags']);
const OUTPUT_FIELDS = new Set(['view', 'index', 'send_snapshot', 'sink']);
const NAME = /^[A-Za-z0-9_-]{1,100}$/;

/** Where a pipeline's checkpoints go in the KV namespace. */
export function checkpointPrefix(pipeline) {
  return `${RESERVED_KV_PREFIX}${pipeline}/checkpoints/`;
}

/** The default prefix of a KV connector's rows. */
export function defaultSinkPrefix(pipeline, connector) {
  return `outputs/${pipeline}/${connector}/`;
}

/** Throws INVALID_REQUEST unless `name` may name a pipeline (it becomes part of KV keys). */
export function checkPipelineName(name) {
  if (!NAME.test(name)) {
    throw new HttpError('INVALID_REQUEST', `'${name}' is not a pipeline name: use 1 to 100 letters, digits, '_' or '-'`);
  }
  return name;
}

/**
 * Checks a PUT body (parsed JSON) and returns the definition, with defaults
 * filled in. Throws INVALID_REQUEST naming the first problem.
 */
export function parseDefinition(name, body) {
  const bad = (message) => new HttpError('INVALID_REQUEST', message);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('the body must be a JSON object');
  for (const key of Object.keys(body)) if (!FIELDS.has(key)) throw bad(`unknown field '${key}'`);
  if (body.name !== undefined && body.name !== name) {
    throw bad(`the body names pipeline '${body.name}' but the path '${name}': renaming a pipeline is not supported`);
  }
  if (typeof body.program_code !== 'string' || !body.program_code.trim()) {
    throw bad("'program_code' must be a non-empty string of SQL");
  }
  const outputs = {};
  const rawOutputs = body.outputs ?? {};
  if (typeof rawOutputs !== 'object' || rawOutputs === null || Array.isArray(rawOutputs)) {
    throw bad("'outputs' must be an object of named connectors");
  }
  for (const [connector, config] of Object.entries(rawOutputs)) {
    if (!NAME.test(connector)) throw bad(`'${connector}' is not a connector name: use letters, digits, '_' or '-'`);
    outputs[connector] = parseOutput(name, connector, config, bad);
  }
  // Feldera's body (it has `name`, which Feldera requires) also carries
  // description, runtime_config, ...: kept and returned by GET.
  const { fields, warnings } = parseFelderaFields(body, bad);
  const intervalMs = body.checkpoint_interval_ms ?? checkpointIntervalMs(body);
  return {
    name,
    program_code: body.program_code,
    outputs,
    checkpoint_interval_ms: interval(intervalMs, DEFAULT_CHECKPOINT_INTERVAL_MS, 'checkpoint_interval_ms', bad),
    checkpoint_interval_steps: interval(body.checkpoint_interval_steps, 0, 'checkpoint_interval_steps', bad),
    ...runtimeErrorFields(body, bad),
    ...fields,
    warnings,
  };
}

function parseOutput(pipeline, connector, config, bad) {
  const where = `outputs.${connector}`;
  if (typeof config !== 'object' || config === null) throw bad(`'${where}' must be an object`);
  for (const key of Object.keys(config)) if (!OUTPUT_FIELDS.has(key)) throw bad(`'${where}': unknown field '${key}'`);
  if (typeof config.view !== 'string' || !config.view) throw bad(`'${where}.view' must name a view`);
  if (config.index !== undefined && typeof config.index !== 'string') throw bad(`'${where}.index' must be a string`);
  if (config.send_snapshot !== undefined && typeof config.send_snapshot !== 'boolean') {
    throw bad(`'${where}.send_snapshot' must be true or false`);
  }
  const sink = config.sink ?? { type: 'kv' };
  if (sink?.type !== 'kv') throw bad(`'${where}.sink.type' must be "kv" (the only sink the edge worker has)`);
  const prefix = sink.prefix ?? defaultSinkPrefix(pipeline, connector);
  if (typeof prefix !== 'string' || !prefix) throw bad(`'${where}.sink.prefix' must be a non-empty string`);
  if (prefix.startsWith(RESERVED_KV_PREFIX) || RESERVED_KV_PREFIX.startsWith(prefix)) {
    throw bad(`'${where}.sink.prefix' may not overlap '${RESERVED_KV_PREFIX}', where checkpoints live`);
  }
  return {
    view: config.view,
    ...(config.index ? { index: config.index } : {}),
    send_snapshot: config.send_snapshot ?? false,
    sink: { type: 'kv', prefix },
  };
}

function interval(value, fallback, field, bad) {
  if (value === undefined || value === null) return fallback;
  if (!Number.isInteger(value) || value < 0) throw bad(`'${field}' must be a non-negative integer`);
  return value;
}

/**
 * on_runtime_error ('fail' | 'null') and error_view_retention (rows), Freshet's
 * own fields (Feldera has no runtime error mode): Pipeline.create's
 * onRuntimeError and errorViewRetention.
 */
function runtimeErrorFields(body, bad) {
  const mode = body.on_runtime_error ?? 'fail';
  if (mode !== 'fail' && mode !== 'null') throw bad(`'on_runtime_error' must be "fail" or "null", not ${JSON.stringify(mode)}`);
  return { on_runtime_error: mode, error_view_retention: interval(body.error_view_retention, 1000, 'error_view_retention', bad) };
}

/** Pipeline.create's options for a definition's runtime error fields (a definition stored before them has none). */
export function runtimeErrorOptionsOf(definition) {
  return { onRuntimeError: definition.on_runtime_error ?? 'fail', errorViewRetention: definition.error_view_retention ?? 1000 };
}

/** The sink of a connector's definition, writing into the worker's KV namespace. */
export function sinkOf(kv, output) {
  return new KVSink(kv, { prefix: output.sink.prefix });
}

/** Pipeline.create's `outputs` for a definition. */
export function outputsOf(kv, definition) {
  const outputs = {};
  for (const [connector, output] of Object.entries(definition.outputs)) {
    outputs[connector] = {
      view: output.view,
      ...(output.index ? { index: output.index } : {}),
      sendSnapshot: output.send_snapshot,
      sink: sinkOf(kv, output),
    };
  }
  return outputs;
}

/** A SQL identifier as the engine names it: lower-cased unless quoted. */
export function sqlName(identifier) {
  return identifier.startsWith('"') ? identifier.slice(1, -1) : identifier.toLowerCase();
}
