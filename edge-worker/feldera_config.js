// GET /v0/config: Feldera's Configuration (openapi.json, components.schemas
// Configuration and BuildInformation), which FelderaClient() reads when it is
// constructed (python/feldera/rest/feldera_config.py: edition, version,
// revision, changelog_url, license_validity, update_info, telemetry). The
// edition must be one Feldera's client knows; `version` is Freshet's own, so
// Feldera's client logs that its version differs, which is true.

import { jsonResponse } from './json.js';

/** The package's version (package.json; tests/edge/feldera_pipelines.test.mjs checks they agree). */
export const FRESHET_VERSION = '0.2.0';

/** The answer of GET /v0/config. */
export function configResponse() {
  return jsonResponse({
    edition: 'Open source',
    version: FRESHET_VERSION,
    revision: '',
    runtime_revision: '',
    changelog_url: '',
    build_source: 'source',
    build_info: {
      build_timestamp: '', build_cpu: 'wasm32', build_os: 'workerd', cargo_dependencies: '', cargo_features: '',
      cargo_debug: 'false', cargo_opt_level: '', cargo_target_triple: 'wasm32-unknown-emscripten', rustc_version: '',
    },
    license_validity: null,
    update_info: null,
    telemetry: '',
    posthog: '',
    conceptualhq: '',
    product_fruits: '',
    unstable_features: null,
    // Freshet's: what answers this API.
    engine: 'freshet',
  });
}
