// GET /v0/pipelines/{p} in Feldera's shape: PipelineSelectedInfo of
// Feldera's openapi.json (its example of get_pipeline lists every field),
// read by python/feldera/rest/pipeline.py (Pipeline.from_dict) and the
// status polling of feldera_client.py.
//
// The edge worker's transitions complete before the request that asked for
// them answers, so the desired status always equals the status, and the
// resources status is Provisioned exactly when a Pipeline runs.

import { FRESHET_VERSION } from './feldera_config.js';

/** Fields Feldera leaves out under `?selector=status` (the large ones). */
const NOT_IN_STATUS = ['program_code', 'udf_rust', 'udf_toml', 'program_config', 'runtime_config', 'program_info'];

/**
 * @param {object} definition the stored definition (definition.js, with identity fields)
 * @param {object} deployment the Deployment record (deployment.js)
 * @param {{ status: 'Stopped'|'Running'|'Paused'|'AwaitingApproval', error: object|null, details?: object }} current what runs now (details: AwaitingApproval's diff)
 * @param {object|null} info Feldera's ProgramInfo, null when the program did not compile
 * @param {'all'|'status'|'status_with_connectors'} selector
 */
export function felderaDescription(definition, deployment, current, info, selector = 'all') {
  const since = deployment.since;
  const provisioned = current.status !== 'Stopped';
  const runtime = provisioned ? current.status : null;
  // AwaitingApproval is on the way to what /start asked for (Feldera's desired status).
  const desired = current.status === 'AwaitingApproval' ? (deployment.initial === 'paused' ? 'Paused' : 'Running') : current.status;
  const description = {
    id: definition.id,
    name: definition.name,
    description: definition.description ?? '',
    tags: definition.tags ?? [],
    created_at: definition.created_at,
    version: definition.version,
    platform_version: FRESHET_VERSION,
    runtime_config: definition.runtime_config ?? {},
    program_code: definition.program_code,
    udf_rust: definition.udf_rust ?? '',
    udf_toml: definition.udf_toml ?? '',
    program_config: definition.program_config ?? {},
    program_version: definition.program_version,
    program_status: definition.program_status,
    program_status_since: definition.program_status_since,
    program_error: definition.program_error,
    program_info: info,
    deployment_error: current.error,
    refresh_version: definition.version,
    storage_status: deployment.storage_status,
    storage_status_details: null,
    deployment_id: provisioned ? deployment.id : null,
    deployment_initial: provisioned ? deployment.initial : null,
    deployment_status: current.status,
    deployment_status_since: since.status,
    deployment_desired_status: desired,
    deployment_desired_status_since: since.desired,
    deployment_resources_status: provisioned ? 'Provisioned' : 'Stopped',
    deployment_resources_status_details: null,
    deployment_resources_status_since: since.status,
    deployment_resources_desired_status: provisioned ? 'Provisioned' : 'Stopped',
    deployment_resources_desired_status_since: since.desired,
    deployment_runtime_status: runtime,
    // AwaitingApproval: the changes to approve (Feldera's PipelineDiff).
    deployment_runtime_status_details: current.details ?? null,
    deployment_runtime_status_since: provisioned ? since.status : null,
    deployment_runtime_desired_status: provisioned ? desired : null,
    deployment_runtime_desired_status_since: provisioned ? since.desired : null,
    // Freshet's: what was accepted but is not honoured (feldera_fields.js).
    warnings: definition.warnings ?? [],
  };
  if (selector !== 'all') for (const field of NOT_IN_STATUS) delete description[field];
  return description;
}
