// An egress stream as Feldera's wire format: newline-delimited JSON, one
// object per chunk, "\r\n" after each, in a streaming Response.
//
//   {"sequence_number":0,"snapshot":true,"snapshot_complete":false,"json_data":[{"insert":{...}},...]}
//   {"sequence_number":1,"snapshot":true,"snapshot_complete":true,"json_data":[...]}
//   {"sequence_number":2,"snapshot":false,"json_data":[{"delete":{...}},{"insert":{...}}]}
//   {"sequence_number":3,"snapshot":false}          keepalive after KEEPALIVE_MS of silence
//
// ## Design
// `sequence_number` counts the objects this stream wrote, from 0, keepalives
// included (as Feldera's example shows): a snapshot split into several wire
// chunks and a keepalive each take a number of their own, so the numbers are
// the stream's and not the package's chunk numbers. Deletes come before
// inserts within a chunk, so that applying records in order is correct.
//
// A named egress (egress_resume.js) numbers its lines with the endpoint's
// chunk numbers instead, so that a client can resume after any of them: the
// package already splits its snapshot into chunks of SNAPSHOT_RECORDS_PER_CHUNK
// records (one line each), and a keepalive repeats the number of the last
// chunk written (resume_from before the first; none on a new stream that has
// written nothing yet), so resuming after a keepalive's number is always right.
//
// The stream is pull-based: the next chunk is taken from the package's
// iterator only when the response body wants more, so a client that stops
// reading leaves chunks in the engine's queue, where the endpoint's lag
// policy (block or coalesce) sees it. A client that disconnects cancels the
// stream, which closes the iterator and frees the endpoint.

import { errorObject } from './http_errors.js';
import { stringify } from './json.js';

export const KEEPALIVE_MS = 3000;
/** Records per wire chunk of a snapshot (a large snapshot spans several). */
export const SNAPSHOT_RECORDS_PER_CHUNK = 10_000;

const encoder = new TextEncoder();
const SILENCE = Symbol('silence');

/** The records of one package chunk in Feldera's insert_delete form. */
function recordsOf(chunk) {
  const records = [];
  if (chunk.upserts) {
    for (const { key } of chunk.deletes) records.push({ delete: key });
    for (const { row } of chunk.upserts) records.push({ insert: row });
  } else {
    for (const row of chunk.deletes) records.push({ delete: row });
    for (const row of chunk.inserts) records.push({ insert: row });
  }
  return records;
}

/**
 * A Response streaming `iterator` (the package's EgressStream).
 * @param {AsyncIterator<object> & { close(): void }} iterator
 * @param {{ keepaliveMs?: number, snapshotRecordsPerChunk?: number, headers?: object,
 *   chunkNumbers?: boolean, resumeFrom?: number, onEnd?: () => void }} [options] chunkNumbers: a named egress
 *   (lines carry chunk numbers); onEnd runs once when the response ends or the client goes
 */
export function egressResponse(iterator, options = {}) {
  const keepaliveMs = options.keepaliveMs ?? KEEPALIVE_MS;
  const perChunk = options.snapshotRecordsPerChunk ?? SNAPSHOT_RECORDS_PER_CHUNK;
  let sequence = 0;
  let lastChunk = options.resumeFrom;  // a named egress: the last chunk number the client has
  let pending = null;  // the iterator's next() outlives a keepalive
  let timer = null;
  let ended = false;
  const end = () => {
    if (!ended) options.onEnd?.();
    ended = true;
  };
  const line = (object) => {
    const number = options.chunkNumbers ? lastChunk : sequence++;
    return encoder.encode(`${stringify({ sequence_number: number, ...object })}\r\n`);
  };

  const body = new ReadableStream({
    async pull(controller) {
      pending ??= iterator.next();
      const silence = new Promise((resolve) => (timer = setTimeout(() => resolve(SILENCE), keepaliveMs)));
      let result;
      try {
        result = await Promise.race([pending, silence]);
      } catch (error) {
        // The pipeline closed (replaced, deleted) or failed: say why, then end.
        if (error?.code !== 'CLOSED') controller.enqueue(line({ snapshot: false, error: errorObject(error) }));
        controller.close();
        end();
        return;
      } finally {
        clearTimeout(timer);
      }
      if (result === SILENCE) {
        controller.enqueue(line({ snapshot: false }));
        return;
      }
      pending = null;
      if (result.done) {
        controller.close();
        end();
        return;
      }
      const chunk = result.value;
      const records = recordsOf(chunk);
      if (options.chunkNumbers) {
        lastChunk = chunk.sequenceNumber;
        const flags = chunk.snapshot ? { snapshot: true, snapshot_complete: chunk.snapshotComplete } : { snapshot: false };
        controller.enqueue(line({ ...flags, json_data: records }));
        return;
      }
      if (!chunk.snapshot) {
        controller.enqueue(line({ snapshot: false, json_data: records }));
        return;
      }
      // An empty snapshot still sends its one chunk.
      for (let start = 0; start === 0 || start < records.length; start += perChunk) {
        const last = start + perChunk >= records.length;
        controller.enqueue(line({ snapshot: true, snapshot_complete: last, json_data: records.slice(start, start + perChunk) }));
      }
    },
    cancel() {
      clearTimeout(timer);
      iterator.close();
      end();
    },
  }, { highWaterMark: 0 });

  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store', ...options.headers },
  });
}
