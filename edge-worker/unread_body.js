// Reads and drops what a handler left unread of a request's body.
//
// An answer given without reading the body (a bad parameter, an unknown
// pipeline or route) leaves the body's bytes in the connection; workerd then
// closes it with bytes unread, which TCP turns into a reset, and the client
// meets that reset on its next request over the same kept-alive connection
// ('fetch failed', ECONNRESET). Reading the rest keeps the connection usable.

/** @param {Request} request */
export async function discardUnreadBody(request) {
  if (!request.body || request.bodyUsed) return;
  try {
    const reader = request.body.getReader();
    while (!(await reader.read()).done);
  } catch {
    // The client went away: nothing left to keep usable.
  }
}
