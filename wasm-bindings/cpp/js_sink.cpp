#include "js_sink.h"

#include "freshet/format/json_output.h"

namespace freshet::wasm {

Result<SinkWrite> JsSink::write(const OutputChunk& chunk, const std::string& json) {
  outbox_->push_back(encode_chunk(output_, chunk, json));
  return SinkWrite::kPending;
}

std::string encode_chunk(const std::string& output, const OutputChunk& chunk, const std::string& records_json) {
  std::string json;
  json.reserve(records_json.size() + 160);
  json += "{\"output\":";
  format::append_json_string(output, &json);
  json += ",\"sequence_number\":" + std::to_string(chunk.sequence_number) + ",\"step\":" + std::to_string(chunk.step) +
          ",\"snapshot\":" + (chunk.snapshot ? "true" : "false") +
          ",\"snapshot_complete\":" + (chunk.snapshot_complete ? "true" : "false") + ",\"records\":";
  json += records_json;
  json += '}';
  return json;
}

}  // namespace freshet::wasm
