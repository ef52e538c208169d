// The checkpoint half of the facade: JS owns the (asynchronous) storage and
// drives the protocol of core/include/freshet/checkpoint/checkpoint.h with
// these pieces — encode at a step boundary and hand out the blobs (parts,
// then the manifest) for JS to store in that order; read a manifest, take its
// parts, verify and restore. Names cross as '\n'-joined text (a blob name
// never holds a newline).
#include <algorithm>
#include <string_view>

#include "engine.h"
#include "freshet/checkpoint/checkpoint.h"
#include "freshet/format/json_output.h"

namespace freshet::wasm {
namespace {

// Not with std::istringstream: it alone linked iostreams and locales into
// the .wasm (66 KB of code).
std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    if (end > 0) lines.emplace_back(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return lines;
}

}  // namespace

Reply Engine::checkpoint_prepare(double sequence_number, double max_part_bytes) {
  if (!pipeline_) return closed_reply();
  Result<CheckpointImage> image =
      encode_checkpoint(*pipeline_, static_cast<uint64_t>(sequence_number), static_cast<size_t>(max_part_bytes));
  if (!image.ok()) return Reply::error(image.status());
  prepared_ = std::move(*image);
  std::string blobs = "[";
  for (const NamedBlob& part : prepared_->parts) {
    format::append_json_string(part.name, &blobs);
    blobs += ',';
  }
  format::append_json_string(prepared_->manifest.name, &blobs);
  blobs += ']';
  return Reply::ok("{\"sequence_number\":" + std::to_string(prepared_->sequence_number) +
                   ",\"step\":" + std::to_string(prepared_->step) + ",\"bytes\":" +
                   std::to_string(prepared_->total_bytes()) + ",\"blobs\":" + blobs + "}");
}

std::string_view Engine::checkpoint_blob(size_t index) const {
  if (!prepared_) return {};
  if (index < prepared_->parts.size()) return prepared_->parts[index].bytes;
  return index == prepared_->parts.size() ? std::string_view(prepared_->manifest.bytes) : std::string_view();
}

void Engine::checkpoint_release() { prepared_.reset(); }

Reply Engine::checkpoint_read_manifest(const std::string& bytes) {
  if (!pipeline_) return closed_reply();
  Result<Manifest> manifest = decode_manifest(bytes);
  if (!manifest.ok()) return Reply::error(manifest.status());
  std::string parts = "[";
  for (const Manifest::Part& part : manifest->parts) {
    if (parts.size() > 1) parts += ',';
    format::append_json_string(part.name, &parts);
  }
  bool matches = manifest->program_hash == pipeline_->program_hash();
  restoring_ = std::move(*manifest);
  restoring_parts_.clear();
  return Reply::ok("{\"sequence_number\":" + std::to_string(restoring_->sequence_number) +
                   ",\"step\":" + std::to_string(restoring_->step) +
                   ",\"program_matches\":" + (matches ? "true" : "false") +
                   ",\"version\":" + std::to_string(restoring_->version) + ",\"parts\":" + parts + "]}");
}

void Engine::restore_add_part(const std::string& bytes) { restoring_parts_.push_back(bytes); }

Reply Engine::restore_finish() {
  if (!pipeline_) return closed_reply();
  if (!restoring_) return Reply::error(Status(ErrorCode::kInvalidArgument, "no checkpoint manifest was read"));
  Manifest manifest = std::move(*restoring_);
  restoring_.reset();
  Result<SavedState> state = decode_payload(manifest, std::move(restoring_parts_));
  restoring_parts_.clear();
  if (!state.ok()) return Reply::error(state.status());
  Status restored = pipeline_->restore_state(*state);
  if (!restored.ok()) {
    // A program it cannot fit (program_change.cpp), or operators changed since an older format: not damage.
    ErrorCode code = restored.code() == ErrorCode::kProgramMismatch || restored.code() == ErrorCode::kCheckpointVersion
                         ? restored.code()
                         : ErrorCode::kCheckpointCorrupt;
    return Reply::error(Status(code, "checkpoint " + std::to_string(manifest.sequence_number) + ": " + restored.message()));
  }
  return Reply::ok({}, static_cast<double>(manifest.step));
}

void Engine::set_host_state(const std::string& bytes) {
  if (pipeline_) pipeline_->set_host_state(bytes);
}

std::string Engine::host_state() const { return pipeline_ ? pipeline_->host_state() : std::string(); }

std::string Engine::checkpoint_blobs_to_prune(const std::string& names, double newest) {
  std::string out;
  for (const std::string& name : blobs_to_prune(split_lines(names), static_cast<uint64_t>(newest))) out += name + "\n";
  return out;
}

double Engine::next_checkpoint_sequence(const std::string& names) {
  return static_cast<double>(freshet::next_checkpoint_sequence(split_lines(names)));
}

}  // namespace freshet::wasm
