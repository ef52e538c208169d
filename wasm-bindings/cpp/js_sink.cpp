#include "js_sink.h"

#include "freshet/format/json_output.h"
#include "js_chunk.h"

namespace freshet::wasm {

Result<SinkWrite> JsSink::write(const OutputChunk& chunk, const OutputEndpoint& from) {
  std::string json = "{\"output\":";
  format::append_json_string(output_, &json);
  json += ",\"chunk\":";
  append_js_chunk(from, chunk, &json);
  json += '}';
  outbox_->push_back(std::move(json));
  return SinkWrite::kPending;
}

}  // namespace freshet::wasm
