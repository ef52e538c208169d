// FreshetError: every error the package throws. `code` is stable and spelled
// as the core's ErrorCode names (error_code_name() in
// core/include/freshet/common/status.h, the C++ twin of ERROR_CODES below).

/** The stable error codes, mirroring core/include/freshet/common/status.h. */
export const ERROR_CODES = Object.freeze([
  'INVALID_ARGUMENT', 'SQL_ERROR', 'PARSE_ERROR', 'TYPE_ERROR', 'UNKNOWN_TABLE', 'UNKNOWN_VIEW',
  'UNKNOWN_INDEX', 'UNKNOWN_OUTPUT', 'DUPLICATE_OUTPUT', 'UNKNOWN_TOKEN', 'NOT_MATERIALIZED',
  'NOT_RESETTABLE', 'PROGRAM_MISMATCH', 'CHECKPOINT_CORRUPT', 'STORAGE_ERROR', 'CLOSED', 'OVERFLOW',
  'INTERNAL', 'RESUME_UNAVAILABLE', 'LIMIT_EXCEEDED', 'OUT_OF_MEMORY',
  // JS only (checkpoint_versions.js checks a manifest's version before the engine reads it):
  'CHECKPOINT_VERSION',
]);

export class FreshetError extends Error {
  /**
   * @param {string} code one of ERROR_CODES
   * @param {string} message what went wrong, for a person
   */
  constructor(code, message) {
    super(message);
    this.name = 'FreshetError';
    this.code = code;
    // Where the problem is, when the message says it: SQL errors name a line
    // and column, input errors a record (and a column).
    this.details = detailsOf(message);
  }
}

function detailsOf(message) {
  const details = {};
  const at = /\bline (\d+), column (\d+)/.exec(message);
  if (at) {
    details.line = Number(at[1]);
    details.column = Number(at[2]);
  }
  // A failed view's error (core/src/pipeline/view_failures.cpp).
  const view = /^view '([^']*)' failed at step (\d+): /.exec(message);
  if (view) {
    details.view = view[1];
    details.step = Number(view[2]);
    details.viewFailed = true;
  }
  const table = /^table '([^']*)'/.exec(message);
  if (table) details.table = table[1];
  const record = /\brecord (\d+)(?:, column '([^']*)')?/.exec(message);
  if (record) {
    details.record = Number(record[1]);
    if (record[2] !== undefined) details.column = record[2];
  }
  return details;
}

/** The FreshetError a failed facade Reply carries (engine.lastError() after a failed per-change call). */
export function errorOf(reply) {
  return new FreshetError(reply.code, reply.message);
}

/** Throws the FreshetError a facade Reply carries; returns the Reply otherwise. */
export function unwrap(reply) {
  if (reply.code) throw errorOf(reply);
  return reply;
}

export function invalidArgument(message) {
  return new FreshetError('INVALID_ARGUMENT', message);
}

/** Throws INVALID_ARGUMENT unless `value` is a string (Embind would throw a bare BindingError). */
export function requireString(value, what) {
  if (typeof value !== 'string') throw invalidArgument(`${what} must be a string, not ${value === null ? 'null' : typeof value}`);
  return value;
}
