// The fields of Feldera's pipeline body (openapi.json, components.schemas
// PipelineDescr / PatchPipeline; python/feldera/rest/feldera_client.py,
// create_or_update_pipeline, sends all of them) as the edge worker keeps
// them. Everything is accepted and stored so that GET returns it; what
// Freshet cannot honour is reported in `warnings`, not refused.

/** Feldera's fields besides `name` and `program_code`. */
export const FELDERA_FIELDS = ['description', 'runtime_config', 'program_config', 'udf_rust', 'udf_toml', 'tags'];

/**
 * Checks Feldera's fields of a PUT/POST/PATCH body and returns them with
 * defaults, plus the warnings for what Freshet will not do.
 * @param {object} body the parsed body
 * @param {(message: string) => Error} bad makes the INVALID_REQUEST error
 */
export function parseFelderaFields(body, bad) {
  const text = (field) => {
    const value = body[field] ?? '';
    if (typeof value !== 'string') throw bad(`'${field}' must be a string`);
    return value;
  };
  const object = (field) => {
    const value = body[field] ?? {};
    if (typeof value !== 'object' || Array.isArray(value)) throw bad(`'${field}' must be a JSON object`);
    return value;
  };
  const tags = body.tags ?? [];
  if (!Array.isArray(tags) || tags.some((tag) => typeof tag !== 'string')) throw bad("'tags' must be an array of strings");
  const fields = {
    description: text('description'),
    runtime_config: object('runtime_config'),
    program_config: object('program_config'),
    udf_rust: text('udf_rust'),
    udf_toml: text('udf_toml'),
    tags,
  };
  return { fields, warnings: warningsOf(fields) };
}

function warningsOf({ runtime_config: runtime, udf_rust: udfRust, udf_toml: udfToml }) {
  const warnings = [];
  if (udfRust.trim() || udfToml.trim()) {
    warnings.push('udf_rust and udf_toml are stored but not used: Freshet has no Rust user-defined functions');
  }
  if ((runtime.workers ?? 1) > 1 || (runtime.hosts ?? 1) > 1) {
    warnings.push('runtime_config.workers and hosts are ignored: each pipeline runs single-threaded in one Durable Object');
  }
  if (Object.values(runtime.resources ?? {}).some((value) => value !== null && value !== undefined)) {
    warnings.push('runtime_config.resources is ignored: a Durable Object has the resources Cloudflare gives it');
  }
  if (runtime.storage !== undefined && runtime.storage !== null) {
    warnings.push("runtime_config.storage is ignored: checkpoints go to the worker's KV namespace");
  }
  return warnings;
}

/**
 * Freshet's checkpoint interval from Feldera's
 * runtime_config.fault_tolerance.checkpoint_interval_secs, when the body
 * has no checkpoint_interval_ms of Freshet's own.
 */
export function checkpointIntervalMs(body) {
  const seconds = body.runtime_config?.fault_tolerance?.checkpoint_interval_secs;
  return Number.isInteger(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}
