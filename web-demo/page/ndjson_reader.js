// Reads newline-delimited JSON from a byte stream (a fetch() body): the edge
// worker's egress sends one object per chunk, each followed by "\r\n"
// (Feldera's wire format). Objects are yielded as they complete, however the
// network splits the bytes: in the middle of an object, between "\r" and
// "\n", or inside a multi-byte UTF-8 character. Blank lines are skipped; a
// last object without its line ending is still yielded.

/**
 * @param {ReadableStream<Uint8Array>} stream
 * @returns {AsyncGenerator<any>}
 */
export async function* readNdjson(stream) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let end;
      while ((end = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        const object = parseLine(line);
        if (object !== undefined) yield object;
      }
      if (done) break;
    }
    const last = parseLine(pending);
    if (last !== undefined) yield last;
  } finally {
    reader.releaseLock();
  }
}

function parseLine(line) {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SyntaxError(`egress stream: a line is not JSON (${error.message}): ${text.slice(0, 80)}`);
  }
}
