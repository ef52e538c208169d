#include "js_chunk.h"

namespace freshet::wasm {

void append_js_chunk(const OutputEndpoint& endpoint, const OutputChunk& chunk, std::string* out) {
  std::string additions, removals;
  endpoint.encode_split(chunk, &additions, &removals);
  out->reserve(out->size() + additions.size() + removals.size() + 128);
  *out += "{\"sequenceNumber\":";
  *out += std::to_string(chunk.sequence_number);
  *out += ",\"step\":";
  *out += std::to_string(chunk.step);
  *out += chunk.snapshot ? ",\"snapshot\":true" : ",\"snapshot\":false";
  *out += chunk.snapshot_complete ? ",\"snapshotComplete\":true" : ",\"snapshotComplete\":false";
  *out += endpoint.through_index() ? ",\"upserts\":[" : ",\"inserts\":[";
  *out += additions;
  *out += "],\"deletes\":[";
  *out += removals;
  *out += "]}";
}

}  // namespace freshet::wasm
