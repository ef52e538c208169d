#!/usr/bin/env bash
# fuzz.sh <target> [seconds]: builds tests/fuzz/<target>_fuzzer.cpp with
# libFuzzer, ASan and UBSan (clang 14) into build/fuzz/ and runs it for the
# given seconds (default 600) over the seed corpus tests/fuzz/corpus/<target>/.
# New corpus entries go to build/fuzz/corpus/<target>/ (not committed);
# crashing inputs are written to build/fuzz/artifacts/<target>/ — copy each
# into tests/fuzz/regressions/<target>/ once fixed, so the gtest replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz.sh <target> [seconds]   (targets: sql_parser, sql_compiler, json_input, row_block, checkpoint_reader)}
seconds=${2:-600}
case $target in
  sql_parser) sources=(core/src/common/*.cpp core/src/types/*.cpp core/src/sql/*.cpp) ;;
  sql_compiler) sources=(core/src/*/*.cpp third_party/simdjson/simdjson.cpp) ;;
  json_input) sources=(core/src/*/*.cpp third_party/simdjson/simdjson.cpp) ;;
  row_block) sources=(core/src/*/*.cpp third_party/simdjson/simdjson.cpp) ;;
  checkpoint_reader) sources=(core/src/*/*.cpp third_party/simdjson/simdjson.cpp) ;;
  *) echo "unknown fuzz target '$target' (known: sql_parser, sql_compiler, json_input, row_block, checkpoint_reader)" >&2; exit 2 ;;
esac
# Checkpoint seeds are whole states of a small pipeline: allow them in full.
max_len=4096
dict=""
case $target in sql_parser | sql_compiler) dict="-dict=tests/fuzz/sql.dict" ;; esac
[ "$target" = checkpoint_reader ] && max_len=16384
mkdir -p build/fuzz "build/fuzz/corpus/$target" "build/fuzz/artifacts/$target"
binary="build/fuzz/${target}_fuzzer"
# simdjson (third_party/, from scripts/bootstrap.sh) is built as CMake builds
# it: with error codes instead of exceptions.
# The Unicode tables, as CMake generates them (core/CMakeLists.txt).
mkdir -p build/fuzz/generated
node core/tools/generate_unicode_tables.mjs /usr/share/unicode build/fuzz/generated/unicode_tables.inc
clang++-14 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -std=c++20 \
  -DSIMDJSON_EXCEPTIONS=0 -Icore/include -Ibuild/fuzz/generated -Ithird_party/simdjson "tests/fuzz/${target}_fuzzer.cpp" "${sources[@]}" -o "$binary"
exec "$binary" "build/fuzz/corpus/$target" "tests/fuzz/corpus/$target" \
  $dict -max_len=$max_len -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
  -artifact_prefix="build/fuzz/artifacts/$target/"
