#!/usr/bin/env bash
# Installs what a fresh Debian bookworm machine lacks to build, test and run Freshet.
# Idempotent: every step first checks whether its result is already there, so a
# second run does nothing slow. Called by `npm test` and `npm start`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages, as "command-or-file:package" pairs: a package is installed
# only when its probe is missing.
probes=(
  "/usr/bin/g++-12:g++-12"
  "/usr/bin/make:make"
  "/usr/bin/ccache:ccache"
  "/usr/bin/cmake:cmake"
  "/usr/bin/clang++-14:clang-14"
  "/usr/bin/clang-query-14:clang-tools-14"
  "/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev"
  "/usr/bin/em++:emscripten"
  "/usr/bin/wasm-opt:binaryen"
  "/usr/include/simdjson.h:libsimdjson-dev"
  "/usr/src/googletest/CMakeLists.txt:googletest"
  "/usr/include/gtest/gtest.h:libgtest-dev"
  "/usr/include/benchmark/benchmark.h:libbenchmark-dev"
  "/usr/include/sqlite3.h:libsqlite3-dev"
  "/usr/share/keyrings/debian-archive-keyring.gpg:debian-archive-keyring"
  "/usr/bin/dpkg-source:dpkg-dev"
  "/usr/bin/chromium:chromium"
  "/usr/bin/curl:curl"
  "/usr/share/unicode/UnicodeData.txt:unicode-data"
)
missing=()
for probe in "${probes[@]}"; do
  path=${probe%%:*}; package=${probe#*:}
  [[ -e $path ]] || missing+=("$package")
done
sudo_cmd=()
[[ $(id -u) == 0 ]] || sudo_cmd=(sudo)

# Emscripten depends on the `nodejs` package. When the machine's Node was put
# there without dpkg (a tarball, nvm, a copied binary), apt would install
# Debian's older Node over it; register the machine's Node with dpkg first.
if ((${#missing[@]})) && command -v node >/dev/null && ! dpkg -s nodejs >/dev/null 2>&1; then
  echo "bootstrap: registering the machine's Node $(node --version) with dpkg"
  work=$(mktemp -d)
  mkdir -p "$work/nodejs/DEBIAN"
  cat >"$work/nodejs/DEBIAN/control" <<CONTROL
Package: nodejs
Version: $(node -p process.versions.node)-machine
Architecture: $(dpkg --print-architecture)
Multi-Arch: allowed
Maintainer: Freshet bootstrap <bootstrap@freshet.invalid>
Description: placeholder for this machine's own Node.js, installed outside dpkg
CONTROL
  dpkg-deb --build "$work/nodejs" "$work/nodejs.deb" >/dev/null
  "${sudo_cmd[@]}" dpkg -i "$work/nodejs.deb" >/dev/null
  rm -rf "$work"
fi

if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# simdjson's single-header sources for the wasm build come from Debian's source
# package, fetched into an ignored folder (never committed).
simdjson_dir=third_party/simdjson
if [[ ! -f $simdjson_dir/simdjson.cpp ]]; then
  echo "bootstrap: fetching simdjson sources"
  work=$(mktemp -d)
  mkdir -p "$work/lists/partial" "$work/parts"
  chmod -R a+rwX "$work"   # apt downloads as the unprivileged _apt user
  # deb822 entries are only read from *.sources files in a SourceParts folder.
  cat >"$work/parts/debian-src.sources" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt_options=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$work/parts"
               -o "Dir::State::Lists=$work/lists" -o Debug::NoLocking=1)
  apt-get "${apt_options[@]}" update -qq
  (cd "$work" && apt-get "${apt_options[@]}" source -qq simdjson >/dev/null 2>&1)
  mkdir -p "$simdjson_dir"
  cp "$work"/simdjson-*/singleheader/simdjson.{h,cpp} "$simdjson_dir/"
  rm -rf "$work"
fi

# npm devDependencies (exact versions in package-lock.json), installed again
# only when node_modules is missing or older than the lockfile.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "bootstrap: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
