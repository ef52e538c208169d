// JsSink: a connector's Sink whose destination lives in JS (a MapSink, an
// IndexedDB store, a callback). The core writes synchronously during a step,
// but a JS sink is asynchronous and may fail, so a write only queues the
// chunk in an outbox and answers kPending:
//
//   core step ─► JsSink::write ─► outbox ─► Engine::take_writes_in_place ─► JS sink.write()
//                                                   resolved ─► Engine::acknowledge
//                                                   rejected ─► JS retries the same chunk
//
// The core keeps the chunk queued until it is acknowledged and writes one
// chunk at a time per connector, so a sink that is slow or throws delays its
// connector but never loses or reorders a chunk.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "freshet/pipeline/output_endpoint.h"
#include "js_outbox.h"

namespace freshet::wasm {

class JsSink final : public Sink {
 public:
  //! `connector`: the number JS knows the connector by (its writes carry it).
  JsSink(double connector, bool resettable, std::string description, std::shared_ptr<JsOutbox> outbox)
      : connector_(connector),
        resettable_(resettable),
        description_(std::move(description)),
        outbox_(std::move(outbox)) {}

  Result<SinkWrite> write(const OutputChunk& chunk, const OutputEndpoint& from) override;
  bool resettable() const override { return resettable_; }
  //! The JS side wipes the destination itself, asynchronously, before it
  //! writes the snapshot that follows (its writes to one sink are serial).
  //! The request is remembered for add_output: a connector that changed since
  //! the checkpoint is reset by the core as it is added, and JS must know.
  Status reset() override {
    reset_requested_ = true;
    return Status::OK();
  }
  bool reset_requested() const { return reset_requested_; }
  std::string describe() const override { return description_; }

 private:
  double connector_;
  bool resettable_;
  bool reset_requested_ = false;
  std::string description_;
  std::shared_ptr<JsOutbox> outbox_;
};

}  // namespace freshet::wasm
