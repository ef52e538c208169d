#!/usr/bin/env bash
# Installs and builds the React example (examples/react-dashboard/) for the
# browser test e2e/react_dashboard.spec.mjs: `npm ci` in that folder only when
# its node_modules is missing or older than its package-lock.json, then its
# production build (dist/, whose bundle sizes it prints) and React's
# development build (dist-dev/, where StrictMode mounts twice). The package's
# engine must be built first (scripts/build-package.sh). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -f wasm-bindings/js/engine/freshet_engine.wasm ]]; then
  echo "scripts/react-dashboard.sh: the package's engine is not built; run scripts/build-package.sh first" >&2
  exit 1
fi
cd examples/react-dashboard
# npm writes node_modules/.package-lock.json on every install: older than the
# lock file means the lock changed since (a pull, a new dependency).
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --no-audit --no-fund
fi
npm run --silent build
npm run --silent build:dev >/dev/null
