#include "js_sink.h"

namespace freshet::wasm {

Result<SinkWrite> JsSink::write(const OutputChunk& chunk, const OutputEndpoint& from) {
  outbox_->append(connector_, from, chunk);
  return SinkWrite::kPending;
}

}  // namespace freshet::wasm
