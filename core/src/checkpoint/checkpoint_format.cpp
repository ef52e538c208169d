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
  Result<std::vector<StateSection>> sections = pipeline.save_state();
  if (!sections.ok()) return sections.status();
  CheckpointImage image;
  image.sequence_number = sequence_number;
  image.step = pipeline.step_count();

  Manifest manifest;
  manifest.version = kCheckpointFormatVersion;
  manifest.program_hash = pipeline.program_hash();
  manifest.sequence_number = sequence_number;
  manifest.step = image.step;
  for (const StateSection& section : *sections) {
    manifest.sections.push_back({section.name, manifest.payload_bytes, section.bytes.size(), checkpoint_checksum(section.bytes)});
    manifest.payload_bytes += section.bytes.size();
  }

  // Cut the payload into parts, copying each section's bytes once.
  if (max_part_bytes == 0) max_part_bytes = kMaxCheckpointPartBytes;
  std::string part;
  auto close_part = [&] {
    manifest.parts.push_back({checkpoint_part_name(sequence_number, image.parts.size()), part.size(), checkpoint_checksum(part)});
    image.parts.push_back({manifest.parts.back().name, std::move(part)});
    part = std::string();
  };
  for (const StateSection& section : *sections) {
    std::string_view rest = section.bytes;
    while (!rest.empty()) {
      size_t take = std::min(rest.size(), max_part_bytes - part.size());
      if (part.empty()) part.reserve(std::min<uint64_t>(max_part_bytes, manifest.payload_bytes));
      part.append(rest.substr(0, take));
      rest.remove_prefix(take);
      if (part.size() == max_part_bytes) close_part();
    }
  }
  if (!part.empty() || image.parts.empty()) close_part();
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
  if (in.ok() && m.version != kCheckpointFormatVersion) {
    return Status(ErrorCode::kCheckpointCorrupt, "checkpoint format version " + std::to_string(m.version) +
                                                     " (this build reads version " +
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

Result<std::vector<StateSection>> decode_sections(const Manifest& manifest, const std::vector<std::string>& parts) {
  if (parts.size() != manifest.parts.size()) {
    return corrupt(manifest.sequence_number, std::to_string(parts.size()) + " parts given, the manifest names " +
                                                 std::to_string(manifest.parts.size()));
  }
  std::string payload;
  payload.reserve(static_cast<size_t>(manifest.payload_bytes));
  for (size_t i = 0; i < parts.size(); ++i) {
    const Manifest::Part& expected = manifest.parts[i];
    if (parts[i].size() != expected.size) {
      return corrupt(manifest.sequence_number, "part '" + expected.name + "' holds " + std::to_string(parts[i].size()) +
                                                   " bytes, the manifest says " + std::to_string(expected.size));
    }
    if (checkpoint_checksum(parts[i]) != expected.checksum) {
      return corrupt(manifest.sequence_number, "part '" + expected.name + "' checksum mismatch");
    }
    payload += parts[i];
  }
  std::vector<StateSection> sections;
  for (const Manifest::Section& s : manifest.sections) {
    std::string_view bytes = std::string_view(payload).substr(static_cast<size_t>(s.offset), static_cast<size_t>(s.size));
    if (checkpoint_checksum(bytes) != s.checksum) return corrupt(manifest.sequence_number, "section '" + s.name + "' checksum mismatch");
    sections.push_back({s.name, std::string(bytes)});
  }
  return sections;
}

}  // namespace freshet
