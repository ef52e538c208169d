#!/usr/bin/env bash
# npm run build: builds what the npm package ships that is not in git — the
# wasm engine and its Emscripten glue — into wasm-bindings/js/engine/.
# Incremental: a second run only relinks what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
# A build folder configured before wasm-bindings/cpp existed learns of it here.
if [[ -f build/wasm/CMakeCache.txt && ! -f build/wasm/wasm-bindings/cpp/Makefile ]]; then
  NODE_PATH=/usr/share/nodejs cmake build/wasm >/dev/null
fi
bash scripts/build.sh wasm freshet_wasm
mkdir -p wasm-bindings/js/engine
cp build/wasm/wasm-bindings/cpp/freshet_engine.mjs build/wasm/wasm-bindings/cpp/freshet_engine.wasm \
   wasm-bindings/js/engine/
