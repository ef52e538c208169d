// Finds the freshet package: `freshet` as npm resolves it from here, or the
// module named by FRESHET_MODULE (a path, e.g. a build of the package, or a
// package name). Failing that, freshet is unavailable and the runner skips it.

import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EngineUnavailable } from './engine.mjs';

let cached;

export async function loadFreshet() {
  const requested = process.env.FRESHET_MODULE || 'freshet';
  const isPath = requested.startsWith('.') || isAbsolute(requested) || existsSync(requested);
  const specifier = isPath ? pathToFileURL(resolve(requested)).href : requested;
  try {
    cached ??= await import(specifier);
  } catch (error) {
    throw new EngineUnavailable(
      `cannot import '${requested}' (${error.code ?? error.message}); install a build of the package ` +
        `(npm install --no-save --prefix bench/js PATH/TO/freshet) or set FRESHET_MODULE to its entry file`,
    );
  }
  if (typeof cached.Pipeline?.create !== 'function') throw new EngineUnavailable(`'${requested}' has no Pipeline.create`);
  return cached;
}

/** The workload's program (Pipeline.create takes SQL text); defined beside the workload. */
export { SQL } from './workload.mjs';
