// ViewState: the page's copy of one view, kept from its snapshot and the
// deltas after it. Two chunk shapes arrive:
//   - rows (a view): inserts and deletes of whole rows; a row may appear
//     several times, so entries are { row, count } by the row's text;
//   - keyed (through an index): upserts { key, row } and deletes { key }.
// A snapshot replaces everything; one that spans several chunks (the edge
// egress may split it) starts with the first chunk flagged `snapshot` and
// is complete at the one flagged `snapshotComplete`.

const stableText = (value) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v));

/** The text naming a row: its values in column order (as the engine gives them). */
export const rowText = (row) => stableText(Object.values(row));

export class ViewState {
  #entries = new Map();   // text → { row, count }
  #inSnapshot = false;
  /** True once a complete snapshot has been applied. */
  ready = false;
  /** Bumped by every change: renderers skip a view whose version they drew. */
  version = 0;
  step = null;
  chunks = { snapshot: 0, delta: 0 };

  /** @param {{ snapshot: boolean, snapshotComplete: boolean, step?: number, inserts?: object[], deletes: object[], upserts?: { key: object, row: object }[] }} chunk */
  apply(chunk) {
    if (chunk.snapshot && !this.#inSnapshot) {
      this.#entries.clear();
      this.#inSnapshot = true;
    }
    if (chunk.upserts) {
      for (const { key } of chunk.deletes) this.#entries.delete(stableText(Object.values(key)));
      for (const { key, row } of chunk.upserts) this.#entries.set(stableText(Object.values(key)), { row, count: 1 });
    } else {
      for (const row of chunk.deletes) this.#add(row, -1);
      for (const row of chunk.inserts) this.#add(row, +1);
    }
    if (chunk.snapshot) {
      this.chunks.snapshot += 1;
      if (chunk.snapshotComplete) {
        this.#inSnapshot = false;
        this.ready = true;
      }
    } else {
      this.chunks.delta += 1;
    }
    if (chunk.step !== undefined) this.step = chunk.step;
    this.version += 1;
  }

  #add(row, by) {
    const text = rowText(row);
    const entry = this.#entries.get(text);
    const count = (entry?.count ?? 0) + by;
    if (count > 0) this.#entries.set(text, { row, count });
    else this.#entries.delete(text);
  }

  /** Every row, each as many times as the view holds it. */
  rows() {
    const rows = [];
    for (const { row, count } of this.#entries.values()) for (let i = 0; i < count; ++i) rows.push(row);
    return rows;
  }

  get size() {
    let size = 0;
    for (const { count } of this.#entries.values()) size += count;
    return size;
  }
}
