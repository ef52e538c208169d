// A stored definition's identity and versions, as Feldera's pipeline has
// them (openapi.json, PipelineSelectedInfo): `id`, `created_at`, `version`
// (every PUT or PATCH), `program_version` (every new program),
// `program_status`, `program_status_since` and `program_error`.

import { PROGRAM_OK, programError, programWarnings } from './program_info.js';

/**
 * The definition a PUT stores: `definition` (definition.js) with the
 * identity of `old` (the stored one, or null) carried over and the versions
 * moved on; `compiled` is compileProgram()'s answer for its program.
 */
export function identify(old, definition, compiled) {
  const now = new Date().toISOString();
  const programChanged = old?.program_code !== definition.program_code;
  const sqlError = compiled.error?.code === 'SQL_ERROR' || compiled.error?.code === 'TYPE_ERROR';
  return {
    ...definition,
    id: old?.id ?? crypto.randomUUID(),
    created_at: old?.created_at ?? now,
    version: (old?.version ?? 0) + 1,
    program_version: programChanged ? (old?.program_version ?? 0) + 1 : old.program_version,
    program_status: compiled.error ? (sqlError ? 'SqlError' : 'SystemError') : 'Success',
    program_status_since: programChanged ? now : old.program_status_since,
    program_error: compiled.error ? programError(compiled.error, definition.program_code) : programWarnings(compiled.description),
  };
}

/** A definition stored before Feldera's fields existed, with them filled in (a compiled program, version 1). */
export function withIdentity(definition) {
  if (definition.id) return definition;
  const now = new Date().toISOString();
  return { description: '', tags: [], runtime_config: {}, program_config: {}, udf_rust: '', udf_toml: '', warnings: [],
           ...definition, id: crypto.randomUUID(), created_at: now, version: 1, program_version: 1,
           program_status: 'Success', program_status_since: now, program_error: PROGRAM_OK };
}

/** A definition as a PUT body again (for PATCH): Freshet's fields and Feldera's. */
export function storedBody(definition) {
  const { name, program_code, outputs, checkpoint_interval_ms, checkpoint_interval_steps, description, runtime_config,
          program_config, udf_rust, udf_toml, tags, on_runtime_error, error_view_retention } = definition;
  return { name, program_code, outputs, checkpoint_interval_ms, checkpoint_interval_steps, description, runtime_config,
           program_config, udf_rust, udf_toml, tags, on_runtime_error, error_view_retention };
}
