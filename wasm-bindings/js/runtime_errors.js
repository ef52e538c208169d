// Pipeline.create's onRuntimeError and errorViewRetention: what an SQL
// runtime error does in views without their own WITH ('on_runtime_error' = ...)
// ('fail': the step fails, as Feldera; 'null': the expression yields NULL,
// the row is counted and listed in error_view), and how many rows error_view
// keeps. Both reach the compiler through Engine.openWithOptions
// (core: sql::CompileOptions::on_runtime_error, Pipeline::set_error_view_retention).

import { invalidArgument } from './errors.js';

/** Validated options, or null when neither is given (the engine's plain open()). */
export function runtimeErrorOptions(options) {
  const { onRuntimeError, errorViewRetention } = options;
  if (onRuntimeError === undefined && errorViewRetention === undefined) return null;
  if (onRuntimeError !== undefined && onRuntimeError !== 'fail' && onRuntimeError !== 'null') {
    throw invalidArgument(`onRuntimeError is 'fail' or 'null', not '${onRuntimeError}'`);
  }
  if (errorViewRetention !== undefined && !(Number.isSafeInteger(errorViewRetention) && errorViewRetention >= 0)) {
    throw invalidArgument(`errorViewRetention is a number of rows (an integer >= 0), not ${String(errorViewRetention)}`);
  }
  return { onRuntimeError: onRuntimeError ?? 'fail', errorViewRetention: errorViewRetention ?? -1 };
}

/** Opens `sql` in `engine` with `runtime` (runtimeErrorOptions) when given; the engine's Reply. */
export function openProgram(engine, sql, runtime) {
  if (!runtime) return engine.open(sql);
  return engine.openWithOptions(sql, runtime.onRuntimeError, runtime.errorViewRetention);
}

/** error_view's figures in the JS API's shape (p.stats().errorView; the views' nulledErrors are in stats.js). */
export function errorViewStats(core) {
  const e = core.error_view;
  return e ? { rows: e.rows, retention: e.retention, evicted: e.evicted } : null;
}
