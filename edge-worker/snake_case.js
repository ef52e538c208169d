// p.stats() in the HTTP API's snake_case (Feldera's style). Keys of the maps
// keyed by user names (tables, connectors, egress ids, views) stay as they are.

const NAMED_MAPS = new Set(['inputs', 'outputs', 'egress', 'views']);

export function snakeCase(key) {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** A deep copy of `value` with object keys in snake_case, except the names under NAMED_MAPS. */
export function snakeCaseKeys(value, keepKeys = false) {
  if (Array.isArray(value)) return value.map((item) => snakeCaseKeys(item));
  if (value === null || typeof value !== 'object') return value;
  const result = {};
  for (const [key, item] of Object.entries(value)) {
    if (keepKeys) result[key] = snakeCaseKeys(item);
    else result[snakeCase(key)] = snakeCaseKeys(item, NAMED_MAPS.has(key));
  }
  return result;
}
