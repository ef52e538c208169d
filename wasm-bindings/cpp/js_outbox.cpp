#include "js_outbox.h"

#include <cstring>
#include <string>

#include "js_chunk.h"
#include "js_row_chunk.h"

namespace freshet::wasm {
namespace {

uint64_t bits_of(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace

void JsOutbox::append(double connector, const OutputEndpoint& endpoint, const OutputChunk& chunk) {
  if (words_.empty()) words_.push_back(bits_of(0));
  const size_t header = words_.size();
  words_.resize(header + 3);
  words_[header] = bits_of(connector);
  size_t bytes;
  if (append_js_row_chunk(endpoint, chunk, &words_)) {
    words_[header + 1] = bits_of(kRowChunk);
    bytes = (words_.size() - header - 3) * sizeof(uint64_t);
  } else {
    text_.clear();
    append_js_chunk(endpoint, chunk, &text_);
    mark_inexact_for_js(text_);
    words_[header + 1] = bits_of(kJsonText);
    bytes = text_.size();
    words_.resize(header + 3 + (bytes + 7) / 8, 0);
    std::memcpy(words_.data() + header + 3, text_.data(), bytes);
  }
  words_[header + 2] = bits_of(static_cast<double>(bytes));
  double writes;
  std::memcpy(&writes, words_.data(), sizeof writes);
  words_[0] = bits_of(writes + 1);
}

void JsOutbox::take(std::vector<uint64_t>* out) {
  out->swap(words_);
  words_.clear();
  if (words_.capacity() > kKeptWords) words_ = {};
  if (text_.capacity() > kKeptWords) text_ = {};
}

}  // namespace freshet::wasm
