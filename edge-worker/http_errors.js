// Errors as the HTTP API answers them, in Feldera's shape:
//   { "message": "...", "error_code": "UNKNOWN_VIEW", "details": { ... } }
// A FreshetError keeps its code; the status follows from the code. Errors
// that only exist at the HTTP level (an unknown pipeline, a malformed request)
// use codes of their own, listed in HTTP_ERROR_STATUS and in README.md.

import { FreshetError } from '../wasm-bindings/js/workerd.js';
import { FELDERA_ERROR_STATUS } from './feldera_errors.js';
import { jsonResponse } from './json.js';

/** HTTP status of each FreshetError code (docs/js-api.md). */
const ENGINE_ERROR_STATUS = {
  INVALID_ARGUMENT: 400,
  SQL_ERROR: 400,
  PARSE_ERROR: 400,
  TYPE_ERROR: 400,
  NOT_MATERIALIZED: 400,
  NOT_RESETTABLE: 400,
  OVERFLOW: 400,
  LIMIT_EXCEEDED: 413,  // a program or ad-hoc query past one of the engine's bounds
  // A step past the pipeline's memory budget: a bound of the server's, not a bad request
  // (4xx), and not transient (503 would invite retries of the same step).
  OUT_OF_MEMORY: 507,
  UNKNOWN_TABLE: 404,
  UNKNOWN_VIEW: 404,
  UNKNOWN_INDEX: 404,
  UNKNOWN_OUTPUT: 404,
  UNKNOWN_TOKEN: 404,
  DUPLICATE_OUTPUT: 409,
  RESUME_UNAVAILABLE: 410,  // a named egress no longer holds the chunks asked for (egress_resume.js)
  PROGRAM_MISMATCH: 409,
  CHECKPOINT_VERSION: 409,  // a checkpoint of a format this build does not read: /clear, or the worker that wrote it
  CLOSED: 503,
  STORAGE_ERROR: 503,
  CHECKPOINT_CORRUPT: 500,
  INTERNAL: 500,
};

// A failed view's error (a runtime error in the SQL, on this data: docs/js-api.md)
// keeps the engine's code (INVALID_ARGUMENT for a division by zero, OVERFLOW),
// but it is no fault of the request, so not 400: 503 as PIPELINE_FAILED, the
// same state narrowed to one view, which answers no more until the pipeline
// is replaced. Details: { view, step, view_failed: true }.
const VIEW_FAILED_STATUS = 503;

function viewFailedDetails(error) {
  return { view: error.details.view, step: error.details.step, view_failed: true };
}

/** Codes of the HTTP layer, with their status. */
export const HTTP_ERROR_STATUS = {
  INVALID_REQUEST: 400,      // a malformed body, parameter or pipeline name
  UNSUPPORTED_FORMAT: 400,   // /query in a format Feldera writes and the edge worker does not (parquet, arrow_ipc, hash)
  IncarnationUuidMismatch: 400,  // /checkpoint_status of an earlier incarnation (Feldera's code)
  UnknownInputEndpoint: 404,     // .../tables/{t}/connectors/{c}/stats (Feldera's code)
  UnknownOutputEndpoint: 404,    // .../views/{v}/connectors/{c}/stats (Feldera's code)
  UnknownPipelineName: 404,  // Feldera's code and status for an unknown pipeline
  UNKNOWN_CONNECTOR: 404,    // no such connector on that view (connector reset)
  NOT_FOUND: 404,            // no such route
  ORIGIN_NOT_ALLOWED: 403,   // a write from an origin FRESHET_CORS_ORIGINS does not list (cors.js)
  METHOD_NOT_ALLOWED: 405,
  INPUT_LOST: 410,           // a completion token whose input was lost in a restart
  PAYLOAD_TOO_LARGE: 413,    // a body over FRESHET_MAX_BODY_BYTES (limits.js)
  PROGRAM_TOO_LARGE: 413,    // program_code over FRESHET_MAX_PROGRAM_BYTES
  TOO_MANY_RECORDS: 413,     // an ingress over FRESHET_MAX_INGRESS_RECORDS
  TOO_MANY_PIPELINES: 429,   // a create past FRESHET_MAX_PIPELINES
  PIPELINE_FAILED: 503,      // a step failed; the pipeline steps no more until replaced
  ...FELDERA_ERROR_STATUS,
};

/** An error the HTTP layer raises: a code (of HTTP_ERROR_STATUS, or a FreshetError code), a message, details. */
export class HttpError extends Error {
  constructor(code, message, details = {}) {
    super(message);
    this.code = code;
    this.status = HTTP_ERROR_STATUS[code] ?? ENGINE_ERROR_STATUS[code] ?? 500;
    this.details = details;
  }
}

/** The response for any thrown value: an HttpError, a FreshetError, or a bug (500 INTERNAL). */
export function errorResponse(error) {
  if (error instanceof HttpError) return errorBody(error.status, error.code, error.message, error.details);
  if (error instanceof FreshetError) {
    if (error.details?.viewFailed) return errorBody(VIEW_FAILED_STATUS, error.code, error.message, viewFailedDetails(error));
    return errorBody(ENGINE_ERROR_STATUS[error.code] ?? 500, error.code, error.message, error.details ?? {});
  }
  console.error('freshet edge worker: unexpected error', error?.stack ?? error);
  return errorBody(500, 'INTERNAL', `internal error: ${error?.message ?? error}`, {});
}

/** The wire object of an error (also written into an egress stream that fails). */
export function errorObject(error) {
  if (error instanceof FreshetError && error.details?.viewFailed) {
    return { message: error.message, error_code: error.code, details: viewFailedDetails(error) };
  }
  if (error instanceof HttpError || error instanceof FreshetError) {
    return { message: error.message, error_code: error.code, details: error.details ?? {} };
  }
  return { message: String(error?.message ?? error), error_code: 'INTERNAL', details: {} };
}

function errorBody(status, code, message, details) {
  return jsonResponse({ message, error_code: code, details }, status);
}
