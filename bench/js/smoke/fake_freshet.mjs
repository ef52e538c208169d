// NOT freshet. A plain-JS stand-in for the slice of the JS API (docs/js-api.md) that
// freshet.mjs and json_ingest.mjs call, so the harness's freshet path can be
// run before the real package is built:
//   FRESHET_MODULE=bench/js/smoke/fake_freshet.mjs node bench/js/run.mjs --orders 20000 --changes 200
// It knows only the orders workload's view and ignores the SQL it is given.
// Its figures mean nothing; run.mjs labels them so.

export const FAKE = true;

class Egress {
  constructor() {
    this.queue = [];
    this.waiting = null;
    this.sequenceNumber = 0;
  }
  push(step, inserts, deletes) {
    const chunk = { sequenceNumber: this.sequenceNumber++, step, snapshot: false, snapshotComplete: false, inserts, deletes };
    if (this.waiting) {
      this.waiting({ value: chunk, done: false });
      this.waiting = null;
    } else this.queue.push(chunk);
  }
  [Symbol.asyncIterator]() {
    return { next: () => (this.queue.length > 0 ? Promise.resolve({ value: this.queue.shift(), done: false }) : new Promise((resolve) => (this.waiting = resolve))) };
  }
  close() {}
}

export class Pipeline {
  static async create() {
    return new Pipeline();
  }

  constructor() {
    this.regions = new Map(); // customer id -> region
    this.orders = new Map(); // id -> row
    this.view = new Map(); // region -> { region, orders, total }
    this.pending = [];
    this.stepNumber = 0;
    this.egresses = [];
    this.state = 'running';
  }

  pause() {
    this.state = 'paused';
  }

  ingest(table, data) {
    const records = typeof data === 'string' ? JSON.parse(data) : data;
    for (const record of records) this.pending.push({ table, row: record.insert ?? record.delete, weight: record.insert ? 1 : -1 });
    return String(this.pending.length);
  }

  insert(table, rows) {
    return this.ingest(table, rows.map((row) => ({ insert: row })));
  }

  #contribute(order, sign, touched) {
    const region = this.regions.get(order.customer);
    if (region === undefined) return;
    if (!touched.has(region)) touched.set(region, this.view.get(region));
    const before = this.view.get(region) ?? { region, orders: 0, total: 0 };
    this.view.set(region, { region, orders: before.orders + sign, total: before.total + sign * order.amount });
  }

  step() {
    const touched = new Map(); // region -> its row before this step
    for (const { table, row, weight } of this.pending) {
      if (table === 'customers') this.regions.set(row.id, row.region);
      else if (weight > 0) {
        this.orders.set(row.id, row);
        this.#contribute(row, 1, touched);
      } else if (this.orders.delete(row.id)) this.#contribute(row, -1, touched);
    }
    const inputRecords = this.pending.length;
    this.pending = [];
    this.stepNumber += 1;
    const deletes = [...touched.values()].filter(Boolean);
    const inserts = [...touched.keys()].map((region) => this.view.get(region)).filter((row) => row.orders > 0);
    if (touched.size > 0) for (const egress of this.egresses) egress.push(this.stepNumber, inserts, deletes);
    return { step: this.stepNumber, inputRecords, durationMs: 0 };
  }

  egress() {
    const egress = new Egress();
    this.egresses.push(egress);
    return egress;
  }

  stats() {
    return { step: this.stepNumber, state: this.state, memoryBytes: 0 };
  }

  close() {}
}
