// callbackSink(fn): a sink that hands each chunk to a function. The
// function may return a Promise; a rejection (or a throw) makes the pipeline
// retry the same chunk. Pass `reset` to make it resettable and `description`
// to tell two callback sinks apart in a checkpoint.

/**
 * @param {(chunk: object) => unknown} write
 * @param {{ reset?: () => unknown, description?: unknown }} [options]
 */
export function callbackSink(write, options = {}) {
  const sink = {
    write: (chunk) => write(chunk),
    describe: () => ({ type: 'callback', ...(options.description === undefined ? {} : { description: options.description }) }),
  };
  if (options.reset) sink.reset = () => options.reset();
  return sink;
}
