// JSON text and responses. Rows may hold BigInts (a BIGINT outside ±2^53−1,
// docs/js-api.md); JSON.stringify refuses them, so they are written with every
// digit on a slower path taken only when one is present.

const BIGINT_TAG = '\u0000bigint:';

export function stringify(value) {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  const text = JSON.stringify(value, (key, v) => (typeof v === 'bigint' ? `${BIGINT_TAG}${v}` : v));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

export function jsonResponse(value, status = 200, headers = {}) {
  return new Response(stringify(value), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
