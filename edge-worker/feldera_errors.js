// Feldera's error codes for the lifecycle and the pipeline collection, with
// Feldera's statuses, where the edge worker meets the same situation.
// Source: feldera crates/pipeline-manager/src/db/error.rs (error_code and
// status_code of DBError), runner/error.rs (PipelineInteractionNotDeployed),
// auth.rs (AuthenticationFailed), adapters server/error.rs (ApiConnectionLimit);
// messages follow theirs.

export const FELDERA_ERROR_STATUS = {
  AuthenticationFailed: 401,
  DuplicateName: 409,
  UpdateRestrictedToStopped: 400,
  PauseWhileNotProvisioned: 400,
  ResumeWhileNotProvisioned: 400,
  InvalidStorageStatusTransition: 400,
  StorageStatusImmutableUnlessStopped: 400,
  CannotStartWithCompilationError: 400,
  CannotStartWithUndismissedError: 400,
  InitialImmutableUnlessStopped: 400,
  InitialStandbyNotAllowed: 400,
  PipelineInteractionNotDeployed: 503,
  ApiConnectionLimit: 429,
  // Bootstrapping a changed program (adapters server/error.rs, adapterlib errors/controller.rs, ApiError).
  AwaitingApproval: 503,
  BootstrapRejected: 409,
  BootstrapNotAllowed: 409,
  InvalidBootstrapConfig: 400,
};

/** Feldera's answer to a request that needs a running pipeline when it is stopped. */
export function notDeployedMessage(name) {
  return 'Unable to interact with pipeline because the deployment status (stopped) indicates it is not (yet) ' +
    `fully provisioned pipeline-id=N/A pipeline-name="${name}": start it with POST /v0/pipelines/${name}/start`;
}
