#include "freshet/common/byte_io.h"

#include <cstring>

namespace freshet {

void ByteWriter::f64(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  u64(bits);
}

void ByteWriter::i128(__int128 v) {
  u64(static_cast<uint64_t>(static_cast<unsigned __int128>(v)));
  u64(static_cast<uint64_t>(static_cast<unsigned __int128>(v) >> 64));
}

void ByteWriter::varint(uint64_t v) {
  while (v >= 0x80) {
    u8(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  u8(static_cast<uint8_t>(v));
}

bool ByteReader::need(size_t size, const char* what) {
  if (!ok()) return false;
  if (size <= remaining()) return true;
  fail(std::string("truncated: ") + what + " needs " + std::to_string(size) + " bytes, " +
       std::to_string(remaining()) + " left");
  return false;
}

void ByteReader::fail(const std::string& message) {
  if (ok()) status_ = Status(ErrorCode::kCheckpointCorrupt, what_ + " at byte " + std::to_string(position_) + ": " + message);
}

uint8_t ByteReader::u8() {
  if (!need(1, "byte")) return 0;
  return static_cast<uint8_t>(data_[position_++]);
}

bool ByteReader::boolean() {
  uint8_t v = u8();
  if (v > 1) fail("expected a boolean, found " + std::to_string(v));
  return v == 1;
}

double ByteReader::f64() {
  uint64_t bits = u64();
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

__int128 ByteReader::i128() {
  uint64_t low = u64();
  uint64_t high = u64();
  return static_cast<__int128>((static_cast<unsigned __int128>(high) << 64) | low);
}

uint64_t ByteReader::varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    uint8_t byte = u8();
    if (!ok()) return 0;
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return v;
  }
  fail("varint longer than 10 bytes");
  return 0;
}

std::string_view ByteReader::bytes() {
  uint64_t size = varint();
  if (!ok()) return {};
  if (size > remaining()) {
    fail("a length of " + std::to_string(size) + " bytes runs past the end (" + std::to_string(remaining()) + " left)");
    return {};
  }
  return raw(static_cast<size_t>(size));
}

std::string_view ByteReader::raw(size_t size) {
  if (!need(size, "bytes")) return {};
  std::string_view v = data_.substr(position_, size);
  position_ += size;
  return v;
}

size_t ByteReader::count(size_t min_item_bytes) {
  uint64_t n = varint();
  if (!ok()) return 0;
  if (min_item_bytes > 0 && n > remaining() / min_item_bytes) {
    fail("a count of " + std::to_string(n) + " cannot fit in the " + std::to_string(remaining()) + " bytes left");
    return 0;
  }
  if (min_item_bytes == 0 && n > (uint64_t{1} << 32)) {
    fail("a count of " + std::to_string(n) + " is implausible");
    return 0;
  }
  return static_cast<size_t>(n);
}

void ByteReader::expect_end() {
  if (ok() && remaining() != 0) fail(std::to_string(remaining()) + " unexpected bytes after the end");
}

}  // namespace freshet
