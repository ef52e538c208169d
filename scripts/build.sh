#!/usr/bin/env bash
# build.sh native|wasm [targets...]: configures (once) and builds one variant
# into build/<variant>. Incremental: a second run only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-native}; shift || true
jobs=$(nproc)
case $variant in
  native)
    [[ -f build/native/CMakeCache.txt ]] || cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++-12 >/dev/null
    cmake --build build/native -j "$jobs" ${1:+--target "$@"}
    ;;
  wasm)
    # Debian's emscripten runs its JS tools with the machine's node, which does
    # not search Debian's node modules by itself (every link fails on 'acorn').
    export NODE_PATH=/usr/share/nodejs
    [[ -f build/wasm/CMakeCache.txt ]] || emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
    cmake --build build/wasm -j "$jobs" ${1:+--target "$@"}
    ;;
  *) echo "usage: build.sh native|wasm [targets...]" >&2; exit 2 ;;
esac
