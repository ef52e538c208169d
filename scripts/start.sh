#!/usr/bin/env bash
# npm start: installs what is missing, builds the npm package (wasm engine),
# and runs the edge worker in real workerd on http://127.0.0.1:8787 (PORT
# overrides) with the sample pipeline 'demo' and its order generator; the web
# demo is served from there too. State persists in build/edge-state/, so
# stopping (Ctrl-C) and starting again resumes. See edge-worker/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build-package.sh
exec node edge-worker/dev.mjs
