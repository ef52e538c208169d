#!/usr/bin/env bash
# Parses every source with clang 14 (the fuzzers' compiler; warnings are
# errors, as in the builds) and fails on what it reports, or when a call has
# two arguments that build circuit operators
# (scripts/operand_order.query says why: operator ids count the order
# operators are built in, and the order of a call's arguments is the
# compiler's). Build them one per statement instead:
#   Stream right_keys = index_by(right, {});
#   Stream left_keys = index_by(left, {});
#   Stream joined = join(left_keys, right_keys, ...);
# Needs clang-query-14 (Debian's clang-tools-14) and the generated Unicode
# tables of a configured build (default build/native; the first argument
# names another build folder). Further arguments: the sources to check
# (default: all of them).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/native}
shift || true
if [[ ! -f $build/core/generated/unicode_tables.inc ]]; then
  echo "no $build/core/generated/unicode_tables.inc: build $build first (scripts/build.sh native)" >&2
  exit 2
fi
# By default every source that builds natively (the others need
# Emscripten's headers).
(($#)) || set -- core/src/*/*.cpp wasm-bindings/cpp/engine*.cpp wasm-bindings/cpp/js_*.cpp
report=$(printf '%s\n' "$@" |
  xargs -P "$(nproc)" -n 8 sh -c 'clang-query-14 -f scripts/operand_order.query "$@" -- -std=c++20 -Wall -Wextra -Werror -Wno-unused-parameter -Icore/include -I"$0"' \
    "$build/core/generated" 2>&1 || true)
if grep -q 'error:' <<<"$report"; then
  grep -A3 'error:' <<<"$report" >&2
  echo "clang 14 reports errors in the sources (above; warnings are errors)" >&2
  exit 2
fi
if grep -q 'binds here' <<<"$report"; then
  grep -A2 'binds here' <<<"$report" >&2
  echo "two arguments of one call build operators (above): build them one per statement, in a fixed order" >&2
  exit 1
fi
echo "clang 14: no error or warning; operand order: no call builds operators in two of its arguments"
