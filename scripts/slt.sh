#!/usr/bin/env bash
# slt.sh [corpus folder]: runs the whole sqllogictest corpus (default
# ../shared/slt, beside the project's folder) through freshet_slt and writes
# the census to tests/slt/REPORT.md (tests/slt/README.md). Each file runs its
# views in child processes with timeouts; SLT_FILE_BUDGET (seconds, default
# 600) bounds a file, SLT_QUERY_TIMEOUT (default 10) one view's pipeline.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/slt}
if [[ ! -d $corpus ]]; then
  echo "slt.sh: no sqllogictest corpus at $corpus" >&2
  exit 2
fi
bash scripts/build.sh native freshet_slt
./build/native/tests/slt/freshet_slt --report tests/slt/REPORT.md --file-budget "${SLT_FILE_BUDGET:-600}" \
  --query-timeout "${SLT_QUERY_TIMEOUT:-10}" "$corpus"
