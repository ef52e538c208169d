#!/usr/bin/env bash
# npm test: installs what is missing, builds, and runs every test:
# the C++ suite natively, then the same suite compiled to wasm under node,
# then the npm package (wasm engine + JS API) and its JS tests, then the edge
# worker on real workerd, the React example and the browser tests.
#
# The machines have two cores and most runners below use one, so steps that
# need nothing of each other run side by side: `beside` starts one in the
# background with its output in build/test-logs/, `settle` waits for it,
# prints that output and stops the run when it failed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

logs=build/test-logs
mkdir -p "$logs"
# A step that fails stops the run: what runs beside it stops too.
trap 'jobs -p | xargs -r kill 2>/dev/null || true' EXIT
declare -A running
declare -A titles
beside() {  # beside NAME TITLE COMMAND...
  local name=$1 title=$2; shift 2
  titles[$name]=$title
  "$@" >"$logs/$name.log" 2>&1 &
  running[$name]=$!
}
settle() {  # settle NAME
  local name=$1 status=0
  wait "${running[$name]}" || status=$?
  echo "== ${titles[$name]} (ran beside the steps above; its output: $logs/$name.log)"
  cat "$logs/$name.log"
  if ((status != 0)); then echo "${titles[$name]}: failed (exit $status)"; exit "$status"; fi
}

echo "== native build (g++ 12)"
bash scripts/build.sh native

# clang 14 is the fuzzers' compiler: every source must compile warning-free
# with it too; the same parse checks that no call builds operators in two of
# its arguments (operator ids must not depend on the compiler).
beside clang14 "clang 14 over the sources (warnings are errors), operand order" bash scripts/check_operand_order.sh
# The sqllogictest sample: every 4th query of each file of ../shared/slt
# (all of it: scripts/slt.sh). The runner's self-check holds two wrong
# records on purpose: it must fail.
slt_sample() {
  if ./build/native/tests/slt/freshet_slt tests/slt/fixtures/self_check.test >/dev/null; then
    echo "freshet_slt passed tests/slt/fixtures/self_check.test, whose two wrong records it must report"; return 1
  fi
  ./build/native/tests/slt/freshet_slt --stride 4 --query-timeout 3 --file-budget 60 --min-compile-rate 98 ../shared/slt
}
beside slt "sqllogictest sample (every 4th query of each file of ../shared/slt)" slt_sample
echo "== native tests"
./build/native/tests/freshet_tests --gtest_brief=1
settle slt
settle clang14

echo "== wasm build and tests (Emscripten, under node)"
bash scripts/build.sh wasm freshet_tests
# The npm package's engine (another target of the same build folder).
beside package "the npm package's build (scripts/build-package.sh)" bash scripts/build-package.sh
node build/wasm/tests/freshet_tests.js --gtest_brief=1
settle package

echo "== the npm package: type declarations, JS tests (node:test)"
node_modules/.bin/tsc -p tests/js/types
# The React example for the browser tests: install when needed, build.
beside react "the React example (examples/react-dashboard/): install when needed, build" bash scripts/react-dashboard.sh
node --test tests/js/
settle react
echo "== the edge worker on workerd (Miniflare): HTTP API, egress, restarts (node:test)"
node --test tests/edge/
echo "== browser tests (e2e/: Playwright, Debian's Chromium)"; node_modules/.bin/playwright test -c e2e/playwright.config.mjs
