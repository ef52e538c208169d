#!/bin/sh
# workerd for `npm start` (workerd_process.mjs, detachWorkerd): Ctrl-C in a
# terminal, or SIGTERM to the process group, would reach workerd too and
# stop it before dev.mjs could take the last checkpoints through it. setsid
# puts it in a session of its own (no fork: Miniflare's child keeps its pid,
# and Miniflare still stops it with SIGKILL).
exec setsid "$FRESHET_WORKERD" "$@"
