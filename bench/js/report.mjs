// Prints run.mjs's report as plain-text tables (Markdown-compatible, so a run
// can be pasted into README.md as it is).

const BASELINE = 'plain_js';
const FRESHET = 'freshet';

function fixed(value, digits = 1) {
  if (value === undefined || value === null || Number.isNaN(value)) return '–';
  return value !== 0 && Math.abs(value) < 0.1 ? value.toPrecision(2) : value.toFixed(digits);
}

function table(header, rows) {
  const lines = [header, header.map(() => '---'), ...rows];
  const widths = header.map((_, c) => Math.max(...lines.map((row) => String(row[c]).length)));
  for (const row of lines) console.log(`| ${row.map((cell, c) => String(cell).padEnd(widths[c])).join(' | ')} |`);
  console.log();
}

function ownMemory(memory) {
  if (!memory) return '–';
  return Object.entries(memory)
    .map(([label, bytes]) => `${label} ${fixed(bytes / 2 ** 20)} MiB`)
    .join(', ');
}

function printRatios(report) {
  const baseline = report.engines.find((e) => e.module === BASELINE);
  if (baseline) {
    console.log(`Against the plain-JS floor (engine ÷ ${baseline.engine}):`);
    table(
      ['engine', 'load ×', 'p50 ×', 'p99 ×'],
      report.engines.map((e) => [e.engine, fixed(e.loadMs / baseline.loadMs), fixed(e.p50Us / baseline.p50Us), fixed(e.p99Us / baseline.p99Us)]),
    );
  }
  const freshet = report.engines.find((e) => e.module === FRESHET);
  if (freshet) {
    console.log('freshet against each peer (peer ÷ freshet; > 1 means freshet is faster):');
    table(
      ['peer', 'load', 'p50', 'p99'],
      report.engines.filter((e) => e !== freshet).map((e) => [e.engine, fixed(e.loadMs / freshet.loadMs, 2), fixed(e.p50Us / freshet.p50Us, 2), fixed(e.p99Us / freshet.p99Us, 2)]),
    );
  }
}

function printJsonIngest(slot) {
  if (!slot) return;
  if (slot.skipped) {
    console.log(`JSON ingest: skipped, freshet unavailable: ${slot.skipped}\n`);
    return;
  }
  console.log(`JSON ingest of ${slot.records} orders (${fixed(slot.megabytes)} MiB of JSON text), through the step:`);
  table(
    ['way', 'ingest call ms', 'total ms', 'records/s', 'MiB/s'],
    slot.ways.map((w) => [w.way, fixed(w.ingestMs), fixed(w.totalMs), Math.round(w.recordsPerSecond).toLocaleString('en'), fixed(w.megabytesPerSecond)]),
  );
}

export function printReport(report) {
  console.log(`Node ${report.node}; ${report.orders} orders, ${report.changes} changes; one hrtime pair costs ${report.timerFloorNs} ns (inside every per-change figure); load average at start ${report.loadAverage.toFixed(2)} (other work on this machine skews every figure)\n`);
  table(
    ['engine', 'load ms', 'p50 µs', 'p99 µs', 'p50 insert / update µs', 'rss Δ MiB', 'heap Δ MiB', 'external Δ MiB', "engine's own count"],
    report.engines.map((e) => [e.engine, fixed(e.loadMs), fixed(e.p50Us, 2), fixed(e.p99Us, 2), `${fixed(e.insertP50Us, 2)} / ${fixed(e.updateP50Us, 2)}`, fixed(e.memory.rssMiB), fixed(e.memory.heapUsedMiB), fixed(e.memory.externalMiB), ownMemory(e.ownMemory)]),
  );
  printRatios(report);
  printJsonIngest(report.jsonIngest);
  for (const s of report.skipped) console.log(`SKIPPED ${s.module}: ${s.reason}`);
  for (const f of report.failed) console.log(`FAILED ${f.module}: ${f.error}`);
  for (const e of report.engines) {
    console.log(e.problems.length === 0 ? `final view OK: ${e.engine}` : `final view WRONG: ${e.engine}\n  ${e.problems.join('\n  ')}`);
  }
}
