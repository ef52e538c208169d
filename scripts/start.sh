#!/usr/bin/env bash
# npm start: installs what is missing, builds, and runs the sample pipeline
# (orders and customers, a join and a group-by), printing its changes step by
# step. The web demo on the edge worker replaces this once it exists.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh native sample_pipeline >/dev/null
./build/native/examples/sample_pipeline
