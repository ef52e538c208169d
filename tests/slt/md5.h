//! MD5 (RFC 1321), for the result hashes of sqllogictest records ("N values
//! hashing to <md5>"). Not for security: sqllogictest's format needs MD5.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace freshet::slt {

//! Incremental MD5: update() any number of times, then hex() once.
class Md5 {
 public:
  Md5();
  void update(std::string_view bytes);
  //! The digest as 32 lowercase hex digits; the object is spent afterwards.
  std::string hex();

 private:
  void transform(const uint8_t block[64]);

  uint32_t state_[4];
  uint64_t length_ = 0;  //!< bytes hashed so far
  uint8_t buffer_[64];
};

//! The MD5 of `bytes` as lowercase hex.
std::string md5_hex(std::string_view bytes);

}  // namespace freshet::slt
