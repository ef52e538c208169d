// INTERVAL values and the calendar arithmetic of DATE, TIMESTAMP and TIME.
//
// A day-time ("short") interval is a signed count of microseconds; a
// year-month ("long") interval a signed count of months (as Feldera). The
// qualifier (`HOUR TO MINUTE`) lives in the SqlType and decides only how a
// literal or string is read and how the value is written as text.
//
// Text forms follow Feldera's CAST(interval AS VARCHAR): a sign, then the
// qualifier's fields, the first unbounded and the others two digits:
//   INTERVAL '90' MINUTE             -> +90
//   INTERVAL '1 02:03' DAY TO MINUTE -> +1 02:03
//   INTERVAL '1-2' YEAR TO MONTH     -> +1-02
//   INTERVAL '1.5' SECOND            -> +1.500000
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "freshet/common/status.h"
#include "freshet/types/sql_type.h"

namespace freshet {

//! The earliest and latest DATE (days) and TIMESTAMP (microseconds) the
//! formats read and write: 0000-01-01 to 9999-12-31 23:59:59.999999.
inline constexpr int64_t kMinDateDays = -719'528;
inline constexpr int64_t kMaxDateDays = 2'932'896;
inline constexpr int64_t kMinTimestampMicros = kMinDateDays * 86'400'000'000;
inline constexpr int64_t kMaxTimestampMicros = (kMaxDateDays + 1) * 86'400'000'000 - 1;

//! Microseconds in one DAY, HOUR, MINUTE or SECOND; months in a YEAR or MONTH.
int64_t interval_unit_size(IntervalUnit unit);

//! Reads an interval literal's or string's text for `type`'s qualifier:
//! an optional sign (which applies to every field), then the fields as
//! `Y-M`, `D H:M:S.ffffff` and their sub-ranges; fields after the first are
//! bounded (months < 12, hours < 24, minutes and seconds < 60). When
//! `leading_precision` is not 0 the first field has at most that many digits.
//! Errors (kTypeError) name the text, the qualifier and the problem.
Result<int64_t> parse_interval(std::string_view text, const SqlType& type, uint32_t leading_precision = 0);

//! The value of an interval of `type` as CAST(... AS VARCHAR) gives it.
std::string format_interval(int64_t value, const SqlType& type);

//! `days` plus `months`, the day clamped to the target month's last day
//! (2024-01-31 + 1 month = 2024-02-29). False when out of the DATE range.
bool add_months_to_date(int64_t days, int64_t months, int64_t* out);
//! The same for a TIMESTAMP (the time of day is kept).
bool add_months_to_timestamp(int64_t micros, int64_t months, int64_t* out);
//! Whole months from `earlier` to `later` (TIMESTAMPs), truncated toward
//! zero: a month counts once the later day and time reach the earlier ones'.
int64_t months_between(int64_t later, int64_t earlier);

inline bool date_in_range(int64_t days) { return days >= kMinDateDays && days <= kMaxDateDays; }
inline bool timestamp_in_range(int64_t micros) {
  return micros >= kMinTimestampMicros && micros <= kMaxTimestampMicros;
}

}  // namespace freshet
