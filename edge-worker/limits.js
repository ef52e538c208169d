// The edge worker's bounds on what one request may ask (it is on the
// internet): each is a Worker variable (wrangler.toml [vars], or the
// environment of `npm start`), with a default that fits a 128 MiB isolate.
// A request past a bound is answered 413 or 429 in Feldera's error shape,
// before anything of it is applied.
//
//   variable                        default    answer
//   FRESHET_MAX_BODY_BYTES          8 MiB      413 PAYLOAD_TOO_LARGE      any request's body
//   FRESHET_MAX_PROGRAM_BYTES       256 KiB    413 PROGRAM_TOO_LARGE      program_code of PUT, POST, PATCH
//   FRESHET_MAX_INGRESS_RECORDS     100,000    413 TOO_MANY_RECORDS       records of one ingress
//   FRESHET_MAX_EGRESS_CONNECTIONS  16         429 ApiConnectionLimit     open egress streams of one pipeline
//   FRESHET_MAX_PIPELINES           100        429 TOO_MANY_PIPELINES     pipelines of the deployment
//   FRESHET_MAX_QUERY_ROWS          100,000    413 LIMIT_EXCEEDED         rows of an ad-hoc query's answer
//   FRESHET_MAX_QUERY_BYTES         16 MiB     413 LIMIT_EXCEEDED         bytes of that answer
//   FRESHET_MAX_EGRESS_RETENTION_BYTES  4 MiB  413 LIMIT_EXCEEDED         retention_bytes a named egress asks for
//   FRESHET_MAX_MEMORY_BYTES        40 MiB     OUT_OF_MEMORY (the step)   a pipeline's state + what one step builds
//
// Why these defaults: an ingress body is held three times at its peak (the
// request's bytes, their copy in wasm memory, the parsed batch), so 8 MiB
// costs about 30 MiB beside the pipeline's state; 100,000 records is a
// 10 MiB JSON batch of the sample's orders. Each egress stream may queue up
// to a view's size (coalesced deltas). The engine bounds its own work too
// (docs/http-api.md, "Limits"): the query's work, a program's statements
// and operators.

import { HttpError } from './http_errors.js';

const MiB = 1024 * 1024;

export const LIMIT_DEFAULTS = Object.freeze({
  FRESHET_MAX_BODY_BYTES: 8 * MiB,
  FRESHET_MAX_PROGRAM_BYTES: 256 * 1024,
  FRESHET_MAX_INGRESS_RECORDS: 100_000,
  FRESHET_MAX_EGRESS_CONNECTIONS: 16,
  FRESHET_MAX_PIPELINES: 100,
  FRESHET_MAX_QUERY_ROWS: 100_000,
  FRESHET_MAX_QUERY_BYTES: 16 * MiB,
  FRESHET_MAX_EGRESS_RETENTION_BYTES: 4 * MiB,
  // The package's default (wasm-bindings/js/memory_budget.js): state and a step in a third of 128 MiB.
  FRESHET_MAX_MEMORY_BYTES: 40 * MiB,
});

const cache = new WeakMap();

/**
 * The bounds in force, from the Worker's variables (a positive integer each;
 * an unset or empty one keeps its default).
 * @param {Record<string, unknown>} env
 * @returns {{ bodyBytes: number, programBytes: number, ingressRecords: number, egressConnections: number,
 *             pipelines: number, queryRows: number, queryBytes: number, egressRetentionBytes: number }}
 */
export function limitsOf(env) {
  let limits = cache.get(env);
  if (limits) return limits;
  const value = (name) => {
    const text = env?.[name];
    if (text === undefined || text === null || text === '') return LIMIT_DEFAULTS[name];
    const number = Number(text);
    if (!Number.isSafeInteger(number) || number < 1) {
      throw new HttpError('INTERNAL', `the worker's variable ${name} must be a positive integer, not '${text}'`);
    }
    return number;
  };
  limits = Object.freeze({
    bodyBytes: value('FRESHET_MAX_BODY_BYTES'),
    programBytes: value('FRESHET_MAX_PROGRAM_BYTES'),
    ingressRecords: value('FRESHET_MAX_INGRESS_RECORDS'),
    egressConnections: value('FRESHET_MAX_EGRESS_CONNECTIONS'),
    pipelines: value('FRESHET_MAX_PIPELINES'),
    queryRows: value('FRESHET_MAX_QUERY_ROWS'),
    queryBytes: value('FRESHET_MAX_QUERY_BYTES'),
    egressRetentionBytes: value('FRESHET_MAX_EGRESS_RETENTION_BYTES'),
    memoryBytes: value('FRESHET_MAX_MEMORY_BYTES'),
  });
  if (env && typeof env === 'object') cache.set(env, limits);
  return limits;
}

function tooLarge(what, size, limit, variable) {
  return new HttpError('PAYLOAD_TOO_LARGE', `the request's body has ${size} bytes${what}; the limit is ${limit} ` +
                       `(${variable}): split it into smaller requests`, { size, limit });
}

/**
 * The request, with its body within FRESHET_MAX_BODY_BYTES, or 413
 * PAYLOAD_TOO_LARGE. A declared Content-Length is checked without reading
 * (HTTP bounds the body by it); a body without one (chunked) is read up to
 * the limit and handed on as bytes.
 * @param {Request} request
 * @param {{ bodyBytes: number }} limits
 * @returns {Promise<Request>}
 */
export async function boundedBody(request, limits) {
  if (!request.body) return request;
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    if (Number(declared) > limits.bodyBytes) throw tooLarge('', Number(declared), limits.bodyBytes, 'FRESHET_MAX_BODY_BYTES');
    return request;
  }
  const reader = request.body.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limits.bodyBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(' or more', size, limits.bodyBytes, 'FRESHET_MAX_BODY_BYTES');
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return new Request(request, { body: bytes });
}

/**
 * Refuses a definition (PUT, POST or PATCH body) whose program_code is over
 * FRESHET_MAX_PROGRAM_BYTES (413 PROGRAM_TOO_LARGE), before it is compiled.
 * A body no larger than the limit is not parsed: its program cannot be larger.
 * @param {Request} request a definition route's request (its body within the body limit)
 * @param {{ programBytes: number }} limits
 * @returns {Promise<Request>} the request to hand on (its body read once here, when it was)
 */
export async function boundedProgram(request, limits) {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (!request.body || declared <= limits.programBytes) return request;
  const text = await request.text();
  let program;
  try {
    program = JSON.parse(text)?.program_code;
  } catch {
    program = undefined;  // not JSON: the handler answers that
  }
  if (typeof program === 'string') {
    const size = new TextEncoder().encode(program).byteLength;
    if (size > limits.programBytes) {
      throw new HttpError('PROGRAM_TOO_LARGE', `program_code has ${size} bytes; the limit is ${limits.programBytes} ` +
                          '(FRESHET_MAX_PROGRAM_BYTES)', { size, limit: limits.programBytes });
    }
  }
  return new Request(request, { body: text });
}

/** 429 ApiConnectionLimit (Feldera's code) when a pipeline already streams FRESHET_MAX_EGRESS_CONNECTIONS egresses. */
export function checkEgressConnections(open, limits) {
  if (open < limits.egressConnections) return;
  throw new HttpError('ApiConnectionLimit', 'The API connections limit has been exceded. Close some of the existing ' +
                      `connections before opening new ones. (${open} egress streams are open on this pipeline; the ` +
                      `limit is ${limits.egressConnections}, FRESHET_MAX_EGRESS_CONNECTIONS)`,
                      { open, limit: limits.egressConnections });
}

/** 429 TOO_MANY_PIPELINES when creating one more pipeline than FRESHET_MAX_PIPELINES. */
export function checkPipelineCount(names, name, limits) {
  if (names.includes(name) || names.length < limits.pipelines) return;
  throw new HttpError('TOO_MANY_PIPELINES', `the deployment has ${names.length} pipelines; the limit is ` +
                      `${limits.pipelines} (FRESHET_MAX_PIPELINES): delete one before creating '${name}'`,
                      { pipelines: names.length, limit: limits.pipelines });
}
