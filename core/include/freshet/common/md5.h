// MD5 (RFC 1321), for SQL's MD5(string). Not for security: MD5 is broken as
// a cryptographic hash; SQL uses it as a checksum.
#pragma once

#include <string>
#include <string_view>

namespace freshet {

//! The MD5 digest of `data` as 32 lower-case hex digits.
std::string md5_hex(std::string_view data);

}  // namespace freshet
