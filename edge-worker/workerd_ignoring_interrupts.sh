#!/bin/sh
# workerd for `npm start` (local.mjs, shieldWorkerdFromSignals): Ctrl-C in a
# terminal signals the whole process group; dev.mjs takes the last
# checkpoints through workerd, then stops it. So workerd ignores SIGINT and
# SIGTERM (inherited across exec; the pid stays Miniflare's child's).
trap '' INT TERM
exec "$FRESHET_WORKERD" "$@"
