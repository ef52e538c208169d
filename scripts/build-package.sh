#!/usr/bin/env bash
# npm run build: builds what the npm package ships that is not in git — the
# wasm engine and its Emscripten glue — into wasm-bindings/js/engine/.
# Incremental: a second run only relinks what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh wasm freshet_wasm
mkdir -p wasm-bindings/js/engine
cp build/wasm/wasm-bindings/cpp/freshet_engine.mjs build/wasm/wasm-bindings/cpp/freshet_engine.wasm \
   wasm-bindings/js/engine/
