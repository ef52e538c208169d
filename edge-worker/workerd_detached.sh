#!/bin/sh
# workerd for `npm start` (workerd_process.mjs, detachWorkerd): Ctrl-C in a
# terminal, or SIGTERM to the process group, would reach workerd too and
# stop it before dev.mjs could take the last checkpoints through it. setsid
# puts it in a session of its own (no fork: Miniflare's child keeps its pid,
# and Miniflare still stops it with SIGKILL). Without setsid (not Linux),
# workerd runs as before and Ctrl-C stops it at once.
if command -v setsid >/dev/null 2>&1; then exec setsid "$FRESHET_WORKERD" "$@"; fi
exec "$FRESHET_WORKERD" "$@"
