#include "js_chunk.h"

#include <string_view>

namespace freshet::wasm {

void append_js_chunk(const OutputEndpoint& endpoint, const OutputChunk& chunk, std::string* out) {
  std::string additions, removals;
  endpoint.encode_split(chunk, &additions, &removals);
  out->reserve(out->size() + additions.size() + removals.size() + 128);
  using namespace std::string_view_literals;  // appends without strlen
  *out += "{\"sequenceNumber\":"sv;
  *out += std::to_string(chunk.sequence_number);
  *out += ",\"step\":"sv;
  *out += std::to_string(chunk.step);
  *out += chunk.snapshot ? ",\"snapshot\":true"sv : ",\"snapshot\":false"sv;
  *out += chunk.snapshot_complete ? ",\"snapshotComplete\":true"sv : ",\"snapshotComplete\":false"sv;
  *out += endpoint.through_index() ? ",\"upserts\":["sv : ",\"inserts\":["sv;
  *out += additions;
  *out += "],\"deletes\":["sv;
  *out += removals;
  *out += "]}"sv;
}

std::string& mark_inexact_for_js(std::string& json) {
  // As values.js's old test, /(?<![\d.])\d{16}/: a run of 16 digits not
  // after a '.' (a fraction's digits never matter; an exponent has 3 at most);
  // and in the same pass, a string that is "NaN", "Infinity" or "-Infinity".
  constexpr std::string_view kFloatWords[] = {"NaN\"", "Infinity\"", "-Infinity\""};
  std::string_view text = json;
  size_t run = 0;
  bool integer_part = false;
  char previous = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c >= '0' && c <= '9') {
      if (run++ == 0) integer_part = previous != '.';
      if (integer_part && run >= 16) return json += ' ';
    } else {
      run = 0;
      if (c == '"' && i + 1 < text.size() && (text[i + 1] == 'N' || text[i + 1] == 'I' || text[i + 1] == '-')) {
        for (std::string_view word : kFloatWords) {
          if (text.substr(i + 1, word.size()) == word) return json += ' ';
        }
      }
    }
    previous = c;
  }
  return json;
}

}  // namespace freshet::wasm
