// JsOutbox: the connectors' writes not yet picked up by JS, all in one buffer
// of 8-byte words that JS reads straight out of wasm memory with one call
// (Engine::take_writes_in_place, ../js/connector_writes.js). A step of a
// dashboard writes a chunk to each connector whose view changed; one crossing
// and no text to parse for all of them, instead of one JSON text of every
// write to decode and parse, keeps a delta's way to JS cheap when a program
// has many views. Views without a delta write nothing and cost nothing here.
//
// Layout, each word a double:
//   [0] writes n
//   then n writes, each: [0] the connector's number (Engine::add_output)
//     [1] its format (0 JSON text, js_chunk.h's object; 1 a row chunk, js_row_chunk.h)
//     [2] its payload's size in bytes, then the payload, padded to a whole word.
// A chunk goes as a row chunk where it can (js_row_chunk.h says where), else
// as its JSON text, marked for JS as every text of rows is (mark_inexact_for_js).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "freshet/pipeline/output_endpoint.h"

namespace freshet::wasm {

class JsOutbox {
 public:
  enum Format { kJsonText = 0, kRowChunk = 1 };

  //! Adds connector `connector`'s write of `chunk` of `endpoint`.
  void append(double connector, const OutputEndpoint& endpoint, const OutputChunk& chunk);
  bool empty() const { return words_.empty(); }
  //! Moves the writes so far into `out` (in the layout above; empty when
  //! there are none) and empties the outbox.
  void take(std::vector<uint64_t>* out);

 private:
  static constexpr size_t kKeptWords = 1 << 14;  // a snapshot's buffer is not kept
  std::vector<uint64_t> words_;                   // the layout above; empty while there are no writes
  std::string text_;                              // a JSON write's text, before it is copied in
};

}  // namespace freshet::wasm
