// Which checkpoint format versions this package reads, and the check that
// runs before the engine decodes a manifest.
//
// A manifest starts with the magic "FRSHCKPT" and its format version, a
// little-endian u32 (core/include/freshet/checkpoint/checkpoint_format.h,
// kCheckpointFormatVersion, which says what changed in each version). A
// checkpoint of a version not in READABLE_CHECKPOINT_VERSIONS is refused with
// CHECKPOINT_VERSION (never skipped as damaged: resuming from an older
// checkpoint of a readable version instead would be a silently wrong state),
// unless the pipeline was created with onIncompatibleCheckpoint: 'restart'.
//
//   package   writes   reads
//   0.1.0     4        4
//   0.2.0     5        4, 5   (5 adds named egress endpoints; 4 reads as having none)
//   next      7        4 to 7   (6 adds failed views, 4 and 5 read as having none; 7 stores
//                               operators by id and restores into a changed program, 4 to 6
//                               only into one that builds the same operators)
// Keep this list in step with the engine: the last entry is the version the
// engine writes (tests/js/checkpoint_versions.test.mjs checks it), and a
// version stays here as long as the engine keeps a reader for it.

import { FreshetError } from './errors.js';

export const READABLE_CHECKPOINT_VERSIONS = Object.freeze([4, 5, 6, 7]);

const MAGIC = 'FRSHCKPT';

/** The format version a manifest declares, or null when it is no manifest (the engine then says what is wrong). */
export function manifestVersion(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length < MAGIC.length + 4) return null;
  for (let i = 0; i < MAGIC.length; ++i) if (bytes[i] !== MAGIC.charCodeAt(i)) return null;
  return new DataView(bytes.buffer, bytes.byteOffset + MAGIC.length, 4).getUint32(0, true);
}

/** Throws CHECKPOINT_VERSION when checkpoint `sequence` is of a format this package does not read. */
export function checkVersion(bytes, sequence) {
  const version = manifestVersion(bytes);
  if (version === null || READABLE_CHECKPOINT_VERSIONS.includes(version)) return;
  const readable = READABLE_CHECKPOINT_VERSIONS.join(', ');
  const newer = version > READABLE_CHECKPOINT_VERSIONS.at(-1);
  const error = new FreshetError('CHECKPOINT_VERSION',
    `checkpoint ${sequence} is in format version ${version}, and this version of freshet reads format${READABLE_CHECKPOINT_VERSIONS.length > 1 ? 's' : ''} ${readable}; ` +
    (newer ? 'resume it with the newer freshet that wrote it, ' : 'resume it with an older freshet that reads it, ') +
    "or pass onIncompatibleCheckpoint: 'restart' to start afresh without it");
  error.details = { ...error.details, sequenceNumber: sequence, version, readableVersions: [...READABLE_CHECKPOINT_VERSIONS] };
  throw error;
}
