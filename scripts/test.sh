#!/usr/bin/env bash
# npm test: installs what is missing, builds, and runs every test:
# the C++ suite natively, then the same suite compiled to wasm under node,
# then the npm package (wasm engine + JS API) and its JS tests, then the edge
# worker on real workerd.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

echo "== native build and tests (g++ 12)"
bash scripts/build.sh native
./build/native/tests/freshet_tests --gtest_brief=1

echo "== sqllogictest sample (every 4th query of each file of ../shared/slt, about 30 s; all of it: scripts/slt.sh)"
# The runner's self-check holds two wrong records on purpose: it must fail.
if ./build/native/tests/slt/freshet_slt tests/slt/fixtures/self_check.test >/dev/null; then
  echo "freshet_slt passed tests/slt/fixtures/self_check.test, whose two wrong records it must report"; exit 1
fi
./build/native/tests/slt/freshet_slt --stride 4 --query-timeout 3 --file-budget 60 --min-compile-rate 98 ../shared/slt

echo "== the core under native clang 14 (the fuzzers' compiler)"
# The Unicode tables are generated (CMake does it for the builds); the native build made them.
printf '%s\n' core/src/*/*.cpp wasm-bindings/cpp/engine*.cpp wasm-bindings/cpp/js_*.cpp | xargs -P "$(nproc)" -n 8 \
  clang++-14 -std=c++20 -fsyntax-only -Wall -Wextra -Werror -Wno-unused-parameter -Icore/include \
  -Ibuild/native/core/generated
echo "== operand order: no call builds operators in two of its arguments (operator ids must not depend on the compiler)"
bash scripts/check_operand_order.sh

echo "== wasm build and tests (Emscripten, under node)"
bash scripts/build.sh wasm freshet_tests
node build/wasm/tests/freshet_tests.js --gtest_brief=1

echo "== the npm package: build, type declarations, JS tests (node:test)"
bash scripts/build-package.sh
node_modules/.bin/tsc -p tests/js/types
node --test tests/js/
echo "== the edge worker on workerd (Miniflare): HTTP API, egress, restarts (node:test)"
node --test tests/edge/
echo "== the React example (examples/react-dashboard/): install when needed, build"; bash scripts/react-dashboard.sh
echo "== browser tests (e2e/: Playwright, Debian's Chromium)"; node_modules/.bin/playwright test -c e2e/playwright.config.mjs
