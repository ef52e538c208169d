#include "freshet/checkpoint/checkpoint_format.h"

#include <algorithm>
#include <cstdio>

#include "freshet/common/byte_io.h"
#include "freshet/common/hash.h"

namespace freshet {
namespace {

constexpr std::string_view kMagic = "FRSHCKPT";
constexpr std::string_view kPrefix = "checkpoint-";
constexpr std::string_view kManifestSuffix = ".manifest";
constexpr uint64_t kChecksumSeed = 0x46524553484554ULL;  // "FRESHET"

std::string padded(uint64_t n, int width) {
  char text[32];
  std::snprintf(text, sizeof text, "%0*llu", width, static_cast<unsigned long long>(n));
  return text;
}

Status corrupt(uint64_t sequence_number, const std::string& what) {
  return Status(ErrorCode::kCheckpointCorrupt, "checkpoint " + std::to_string(sequence_number) + ": " + what);
}

}  // namespace

uint64_t checkpoint_checksum(std::string_view bytes) {
  return hash_bytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), kChecksumSeed);
}

size_t CheckpointImage::total_bytes() const {
  size_t total = manifest.bytes.size();
  for (const NamedBlob& part : parts) total += part.bytes.size();
  return total;
}

std::string checkpoint_manifest_name(uint64_t sequence_number) {
  return std::string(kPrefix) + padded(sequence_number, 20) + std::string(kManifestSuffix);
}

std::string checkpoint_part_name(uint64_t sequence_number, size_t part) {
  return std::string(kPrefix) + padded(sequence_number, 20) + ".part-" + padded(part, 4);
}

std::optional<uint64_t> checkpoint_sequence_of(std::string_view name) {
  if (name.substr(0, kPrefix.size()) != kPrefix || name.size() < kPrefix.size() + 20) return std::nullopt;
  uint64_t n = 0;
  for (char c : name.substr(kPrefix.size(), 20)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  return n;
}

bool is_checkpoint_manifest(std::string_view name) {
  return checkpoint_sequence_of(name) && name.size() == kPrefix.size() + 20 + kManifestSuffix.size() &&
         name.substr(name.size() - kManifestSuffix.size()) == kManifestSuffix;
}

std::string encode_manifest(const Manifest& m) {
  ByteWriter out;
  out.raw(kMagic);
  out.u32(m.version);
  out.u64(m.program_hash);
  out.u64(m.sequence_number);
  out.u64(m.step);
  out.u64(m.payload_bytes);
  out.varint(m.sections.size());
  for (const Manifest::Section& s : m.sections) {
    out.bytes(s.name);
    out.u64(s.offset);
    out.u64(s.size);
    out.u64(s.checksum);
  }
  out.varint(m.parts.size());
  for (const Manifest::Part& p : m.parts) {
    out.bytes(p.name);
    out.u64(p.size);
    out.u64(p.checksum);
  }
  out.u64(checkpoint_checksum(out.data()));
  return out.take();
}

Result<CheckpointImage> encode_checkpoint(const Pipeline& pipeline, uint64_t sequence_number, size_t max_part_bytes) {
  Result<SavedState> state = pipeline.save_state();
  if (!state.ok()) return state.status();
  CheckpointImage image;
  image.sequence_number = sequence_number;
  image.step = pipeline.step_count();

  Manifest manifest;
  manifest.version = kCheckpointFormatVersion;
  manifest.program_hash = pipeline.program_hash();
  manifest.sequence_number = sequence_number;
  manifest.step = image.step;
  manifest.payload_bytes = state->payload.size();
  for (const SavedState::Section& section : state->sections) {
    manifest.sections.push_back({section.name, section.offset, section.size, checkpoint_checksum(state->bytes(section))});
  }
  // Parts: slices of the payload; a payload that fits in one is moved, not copied.
  if (max_part_bytes == 0) max_part_bytes = kMaxCheckpointPartBytes;
  std::string_view payload = state->payload;
  for (size_t offset = 0; offset < payload.size() || image.parts.empty(); offset += max_part_bytes) {
    std::string name = checkpoint_part_name(sequence_number, image.parts.size());
    std::string bytes = payload.size() <= max_part_bytes ? std::move(state->payload)
                                                         : std::string(payload.substr(offset, max_part_bytes));
    manifest.parts.push_back({name, bytes.size(), checkpoint_checksum(bytes)});
    image.parts.push_back({std::move(name), std::move(bytes)});
    if (offset + max_part_bytes >= payload.size()) break;
  }
  image.manifest = {checkpoint_manifest_name(sequence_number), encode_manifest(manifest)};
  return image;
}

Result<Manifest> decode_manifest(std::string_view bytes) {
  ByteReader in(bytes, "manifest");
  if (bytes.size() < kMagic.size() + 8 || in.raw(kMagic.size()) != kMagic) {
    return Status(ErrorCode::kCheckpointCorrupt, "not a checkpoint manifest (no FRSHCKPT header)");
  }
  std::string_view body = bytes.substr(0, bytes.size() - 8);
  ByteReader trailer(bytes.substr(bytes.size() - 8), "manifest checksum");
  if (trailer.u64() != checkpoint_checksum(body)) return Status(ErrorCode::kCheckpointCorrupt, "manifest checksum mismatch");
  in = ByteReader(body.substr(kMagic.size()), "manifest");
  Manifest m;
  m.version = in.u32();
  if (in.ok() && (m.version < kOldestReadableCheckpointFormatVersion || m.version > kCheckpointFormatVersion)) {
    return Status(ErrorCode::kCheckpointCorrupt, "checkpoint format version " + std::to_string(m.version) +
                                                     " (this build reads versions " +
                                                     std::to_string(kOldestReadableCheckpointFormatVersion) + " to " +
                                                     std::to_string(kCheckpointFormatVersion) + ")");
  }
  m.program_hash = in.u64();
  m.sequence_number = in.u64();
  m.step = in.u64();
  m.payload_bytes = in.u64();
  size_t sections = in.count(25);
  uint64_t expected_offset = 0;
  for (size_t i = 0; i < sections && in.ok(); ++i) {
    Manifest::Section s{std::string(in.bytes()), in.u64(), in.u64(), in.u64()};
    if (in.ok() && (s.offset != expected_offset || s.size > m.payload_bytes - s.offset)) in.fail("section '" + s.name + "' out of place");
    expected_offset += s.size;
    m.sections.push_back(std::move(s));
  }
  if (in.ok() && expected_offset != m.payload_bytes) in.fail("sections do not cover the payload");
  size_t parts = in.count(17);
  uint64_t part_total = 0;
  for (size_t i = 0; i < parts && in.ok(); ++i) {
    Manifest::Part p{std::string(in.bytes()), in.u64(), in.u64()};
    part_total += p.size;
    if (in.ok() && checkpoint_sequence_of(p.name) != m.sequence_number) in.fail("part '" + p.name + "' of another checkpoint");
    m.parts.push_back(std::move(p));
  }
  if (in.ok() && part_total != m.payload_bytes) in.fail("parts do not add up to the payload");
  in.expect_end();
  if (!in.ok()) return in.status();
  return m;
}

Result<SavedState> decode_payload(const Manifest& manifest, std::vector<std::string> parts) {
  if (parts.size() != manifest.parts.size()) {
    return corrupt(manifest.sequence_number, std::to_string(parts.size()) + " parts given, the manifest names " +
                                                 std::to_string(manifest.parts.size()));
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    const Manifest::Part& expected = manifest.parts[i];
    if (parts[i].size() != expected.size) {
      return corrupt(manifest.sequence_number, "part '" + expected.name + "' holds " + std::to_string(parts[i].size()) +
                                                   " bytes, the manifest says " + std::to_string(expected.size));
    }
    if (checkpoint_checksum(parts[i]) != expected.checksum) {
      return corrupt(manifest.sequence_number, "part '" + expected.name + "' checksum mismatch");
    }
  }
  SavedState state;
  state.format_version = manifest.version;
  if (parts.size() == 1) {
    state.payload = std::move(parts[0]);
  } else {
    state.payload.reserve(static_cast<size_t>(manifest.payload_bytes));
    for (std::string& part : parts) {
      state.payload += part;
      part = std::string();  // free as we go: a large state is held about once
    }
  }
  for (const Manifest::Section& s : manifest.sections) {
    state.sections.push_back({s.name, static_cast<size_t>(s.offset), static_cast<size_t>(s.size)});
    if (checkpoint_checksum(state.bytes(state.sections.back())) != s.checksum) {
      return corrupt(manifest.sequence_number, "section '" + s.name + "' checksum mismatch");
    }
  }
  return state;
}

}  // namespace freshet
