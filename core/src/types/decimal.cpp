#include "freshet/types/decimal.h"

#include <algorithm>

namespace freshet {

int128 pow10_int128(uint32_t exponent) {
  int128 value = 1;
  for (uint32_t i = 0; i < exponent; ++i) value *= 10;
  return value;
}

std::string decimal_to_string(int128 unscaled, uint8_t scale) {
  bool negative = unscaled < 0;
  // Work on the unsigned magnitude so that the most negative value is fine.
  unsigned __int128 magnitude =
      negative ? static_cast<unsigned __int128>(-(unscaled + 1)) + 1 : static_cast<unsigned __int128>(unscaled);
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  while (digits.size() <= scale) digits.push_back('0');
  std::reverse(digits.begin(), digits.end());
  if (scale > 0) digits.insert(digits.end() - scale, '.');
  if (negative) digits.insert(digits.begin(), '-');
  return digits;
}

Result<int128> parse_decimal(std::string_view text, uint8_t precision, uint8_t scale) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  int128 value = 0;
  uint32_t digits = 0, fraction_digits = 0;
  bool seen_point = false, seen_digit = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') {
      return Status(ErrorCode::kTypeError, "'" + std::string(text) + "' is not a decimal number");
    }
    seen_digit = true;
    if (seen_point) {
      if (fraction_digits == scale) {
        if (c != '0') {
          return Status(ErrorCode::kTypeError, "'" + std::string(text) + "' has more than " +
                                                   std::to_string(scale) + " digits after the point");
        }
        continue;
      }
      ++fraction_digits;
    }
    if (value != 0 || c != '0') ++digits;
    if (digits > kMaxDecimalPrecision) {
      return Status(ErrorCode::kOverflow, "'" + std::string(text) + "' has too many digits");
    }
    value = value * 10 + (c - '0');
  }
  if (!seen_digit) {
    return Status(ErrorCode::kTypeError, "'" + std::string(text) + "' is not a decimal number");
  }
  // Scaling up adds digits too: 38 of them still fit, more would overflow.
  if (value != 0 && digits + (scale - fraction_digits) > kMaxDecimalPrecision) {
    return Status(ErrorCode::kOverflow, "'" + std::string(text) + "' has too many digits");
  }
  value *= pow10_int128(scale - fraction_digits);
  if (negative) value = -value;
  if (precision != 0 && !decimal_fits(value, precision)) {
    return Status(ErrorCode::kOverflow, "'" + std::string(text) + "' does not fit DECIMAL(" +
                                            std::to_string(precision) + ", " + std::to_string(scale) + ")");
  }
  return value;
}

int128 rescale_decimal(int128 unscaled, uint8_t from_scale, uint8_t to_scale) {
  if (to_scale >= from_scale) return unscaled * pow10_int128(to_scale - from_scale);
  int128 divisor = pow10_int128(from_scale - to_scale);
  int128 quotient = unscaled / divisor;
  int128 remainder = unscaled % divisor;
  if (2 * (remainder < 0 ? -remainder : remainder) >= divisor) quotient += unscaled < 0 ? -1 : 1;
  return quotient;
}

bool decimal_fits(int128 unscaled, uint8_t precision) {
  int128 limit = pow10_int128(precision);
  return unscaled < limit && unscaled > -limit;
}

}  // namespace freshet
