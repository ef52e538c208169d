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

std::string& mark_inexact_for_js(std::string& json) {
  // As values.js's old test, /(?<![\d.])\d{16}/: a run of 16 digits not
  // after a '.' (a fraction's digits never matter; an exponent has 3 at most).
  size_t run = 0;
  bool integer_part = false;
  char previous = 0;
  for (char c : json) {
    if (c >= '0' && c <= '9') {
      if (run++ == 0) integer_part = previous != '.';
      if (integer_part && run >= 16) return json += ' ';
    } else {
      run = 0;
    }
    previous = c;
  }
  if (json.find("\"NaN\"") != std::string::npos || json.find("Infinity\"") != std::string::npos) json += ' ';
  return json;
}

}  // namespace freshet::wasm
