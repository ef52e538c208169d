// Number formats for the dashboard: readable at a glance, exact on hover.

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2, minimumFractionDigits: 2 });
const moneyWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export const formatMoney = (value) => money.format(value);

/** $2.89M, $41.2k, $950 */
export function formatMoneyShort(value) {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `$${decimal.format(value / 1e6)}M`;
  if (abs >= 1e4) return `$${decimal.format(value / 1e3)}k`;
  return moneyWhole.format(value);
}

export const formatCount = (value) => (value === null || value === undefined ? '–' : count.format(value));
export const formatDecimal = (value) => decimal.format(value);

export function formatBytes(bytes) {
  if (bytes === null || bytes === undefined) return '–';
  if (bytes >= 1 << 30) return `${decimal.format(bytes / (1 << 30))} GiB`;
  if (bytes >= 1 << 20) return `${decimal.format(bytes / (1 << 20))} MiB`;
  if (bytes >= 1 << 10) return `${decimal.format(bytes / (1 << 10))} KiB`;
  return `${bytes} B`;
}

export function formatMs(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '–';
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/** A cell's text for a SQL value of unknown meaning (generic tables). */
export function formatValue(value) {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return Number.isInteger(value) ? count.format(value) : decimal.format(value);
  return String(value);
}

/** "3 s ago" */
export function formatAge(epochMs) {
  if (!epochMs) return '–';
  const seconds = Math.max(0, Math.round((Date.now() - epochMs) / 1000));
  return seconds < 60 ? `${seconds} s ago` : `${Math.round(seconds / 60)} min ago`;
}
