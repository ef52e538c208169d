// Figures of per-change times, for the user-shaped runs under Node
// (user_shaped.mjs) and in the browser (bench/web/page/user_shaped.mjs).
// No Node API here: the page imports it too.

/**
 * p50, mean, p99 and max in µs of `times` (any unit: `toUs` scales one to
 * µs), and how many are over `spikeUs`. Percentiles index the sorted times
 * at floor(n × q).
 */
export function timeFigures(times, toUs, spikeUs) {
  const sorted = Float64Array.from(times).sort();
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] * toUs;
  return {
    p50Us: at(0.5),
    meanUs: (sorted.reduce((a, b) => a + b, 0) / sorted.length) * toUs,
    p99Us: at(0.99),
    maxUs: sorted[sorted.length - 1] * toUs,
    overSpike: sorted.filter((time) => time * toUs > spikeUs).length,
  };
}

/** The `count` largest of `values`, in change order, as [change index, value] pairs. */
export function slowestChanges(values, count) {
  return [...values.entries()].sort((a, b) => b[1] - a[1]).slice(0, count).sort((a, b) => a[0] - b[0]);
}
