// Exact DECIMAL arithmetic helpers. A DECIMAL(p, s) value is a 128-bit
// unscaled integer u meaning u / 10^s; the scale lives in the type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "freshet/common/status.h"
#include "freshet/types/sql_type.h"

namespace freshet {

using int128 = __int128;

//! 10^exponent for 0 <= exponent <= 38.
int128 pow10_int128(uint32_t exponent);

//! "-12.50" for (-1250, 2).
std::string decimal_to_string(int128 unscaled, uint8_t scale);

//! Parses "12.5", "-0.125", "3" into an unscaled integer of the given scale;
//! fails when digits would be lost or precision exceeded.
Result<int128> parse_decimal(std::string_view text, uint8_t precision, uint8_t scale);

//! Rescales an unscaled value from one scale to another (rounding half away
//! from zero when the scale shrinks).
int128 rescale_decimal(int128 unscaled, uint8_t from_scale, uint8_t to_scale);

//! Whether |unscaled| has at most `precision` digits.
bool decimal_fits(int128 unscaled, uint8_t precision);

}  // namespace freshet
