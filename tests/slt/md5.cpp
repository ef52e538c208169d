// MD5 as RFC 1321 specifies it: 64-byte blocks, four rounds of 16 steps,
// little-endian words, the length in bits appended after 0x80 and zeros.
#include "md5.h"

#include <cstring>

namespace freshet::slt {
namespace {

constexpr uint32_t kSine[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
constexpr uint8_t kShift[64] = {7,  12, 17, 22, 7,  12, 17, 22, 7,  12, 17, 22, 7,  12, 17, 22, 5,  9,  14, 20, 5,  9,
                                14, 20, 5,  9,  14, 20, 5,  9,  14, 20, 4,  11, 16, 23, 4,  11, 16, 23, 4,  11, 16, 23,
                                4,  11, 16, 23, 6,  10, 15, 21, 6,  10, 15, 21, 6,  10, 15, 21, 6,  10, 15, 21};

uint32_t rotate_left(uint32_t x, uint32_t n) { return (x << n) | (x >> (32 - n)); }

}  // namespace

Md5::Md5() : state_{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476} {}

void Md5::transform(const uint8_t block[64]) {
  uint32_t words[16];
  for (int i = 0; i < 16; ++i) {
    words[i] = uint32_t(block[4 * i]) | uint32_t(block[4 * i + 1]) << 8 | uint32_t(block[4 * i + 2]) << 16 |
               uint32_t(block[4 * i + 3]) << 24;
  }
  uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
  for (int i = 0; i < 64; ++i) {
    uint32_t f;
    int g;
    if (i < 16) {
      f = (b & c) | (~b & d), g = i;
    } else if (i < 32) {
      f = (d & b) | (~d & c), g = (5 * i + 1) % 16;
    } else if (i < 48) {
      f = b ^ c ^ d, g = (3 * i + 5) % 16;
    } else {
      f = c ^ (b | ~d), g = (7 * i) % 16;
    }
    uint32_t next = b + rotate_left(a + f + kSine[i] + words[g], kShift[i]);
    a = d, d = c, c = b, b = next;
  }
  state_[0] += a, state_[1] += b, state_[2] += c, state_[3] += d;
}

void Md5::update(std::string_view bytes) {
  size_t used = length_ % 64;
  length_ += bytes.size();
  size_t i = 0;
  if (used > 0) {
    size_t take = std::min<size_t>(64 - used, bytes.size());
    std::memcpy(buffer_ + used, bytes.data(), take);
    i = take;
    if (used + take < 64) return;
    transform(buffer_);
  }
  for (; i + 64 <= bytes.size(); i += 64) transform(reinterpret_cast<const uint8_t*>(bytes.data()) + i);
  std::memcpy(buffer_, bytes.data() + i, bytes.size() - i);
}

std::string Md5::hex() {
  uint64_t bits = length_ * 8;
  static const uint8_t kPadding[64] = {0x80};
  size_t used = length_ % 64;
  update(std::string_view(reinterpret_cast<const char*>(kPadding), used < 56 ? 56 - used : 120 - used));
  uint8_t length_bytes[8];
  for (int i = 0; i < 8; ++i) length_bytes[i] = uint8_t(bits >> (8 * i));
  update(std::string_view(reinterpret_cast<const char*>(length_bytes), 8));
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (uint32_t word : state_) {
    for (int i = 0; i < 4; ++i) {
      uint8_t byte = uint8_t(word >> (8 * i));
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

std::string md5_hex(std::string_view bytes) {
  Md5 md5;
  md5.update(bytes);
  return md5.hex();
}

}  // namespace freshet::slt
