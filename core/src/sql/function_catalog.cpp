#include "function_catalog.h"

#include <array>

#include "aggregate_functions.h"
#include "freshet/common/ascii.h"

namespace freshet::sql {
namespace {

using Kind = SqlFunctionKind;
using Binder = FunctionBinder;

constexpr FunctionEntry scalar(const char* name, Binder binder) { return {name, Kind::kScalar, binder}; }
constexpr FunctionEntry window(const char* name, Binder binder) { return {name, Kind::kWindow, binder}; }
constexpr FunctionEntry unsupported(const char* name, Unsupported why, const char* hint = nullptr) {
  return {name, Kind::kUnsupported, Binder::kNone, why, hint};
}

// Synonyms as Feldera has them: CHARACTER_LENGTH and LENGTH are CHAR_LENGTH,
// IFNULL and NVL two-argument COALESCE, TRUNC is TRUNCATE, CEILING is CEIL.
// The unsupported ones are functions other engines have: named so that a
// port gets an error that says so rather than "unknown function".
constexpr std::array kFunctions = {
    scalar("abs", Binder::kGeneral),
    scalar("round", Binder::kGeneral),
    scalar("lower", Binder::kGeneral),
    scalar("upper", Binder::kGeneral),
    scalar("char_length", Binder::kGeneral),
    scalar("character_length", Binder::kGeneral),
    scalar("length", Binder::kGeneral),
    scalar("substring", Binder::kGeneral),
    scalar("now", Binder::kGeneral),
    scalar("coalesce", Binder::kCoalesce),
    scalar("ifnull", Binder::kCoalesce),
    scalar("nvl", Binder::kCoalesce),
    scalar("nullif", Binder::kComparison),
    scalar("greatest", Binder::kComparison),
    scalar("least", Binder::kComparison),
    scalar("mod", Binder::kMath),
    scalar("power", Binder::kMath),
    scalar("sqrt", Binder::kMath),
    scalar("exp", Binder::kMath),
    scalar("ln", Binder::kMath),
    scalar("log10", Binder::kMath),
    scalar("log", Binder::kMath),
    scalar("sign", Binder::kMath),
    scalar("truncate", Binder::kMath),
    scalar("trunc", Binder::kMath),
    scalar("trim", Binder::kString),
    scalar("ltrim", Binder::kString),
    scalar("rtrim", Binder::kString),
    scalar("position", Binder::kString),
    scalar("replace", Binder::kString),
    scalar("concat", Binder::kString),
    scalar("concat_ws", Binder::kString),
    scalar("left", Binder::kString),
    scalar("right", Binder::kString),
    scalar("repeat", Binder::kString),
    scalar("reverse", Binder::kString),
    scalar("initcap", Binder::kString),
    scalar("split_part", Binder::kString),
    scalar("md5", Binder::kString),
    scalar("rlike", Binder::kString),
    scalar("regexp_replace", Binder::kString),
    scalar("extract", Binder::kExtract),
    scalar("date_part", Binder::kTime),
    scalar("year", Binder::kTime),
    scalar("quarter", Binder::kTime),
    scalar("month", Binder::kTime),
    scalar("week", Binder::kTime),
    scalar("dayofyear", Binder::kTime),
    scalar("dayofmonth", Binder::kTime),
    scalar("dayofweek", Binder::kTime),
    scalar("hour", Binder::kTime),
    scalar("minute", Binder::kTime),
    scalar("second", Binder::kTime),
    scalar("date_trunc", Binder::kTime),
    scalar("timestamp_trunc", Binder::kTime),
    scalar("time_trunc", Binder::kTime),
    scalar("floor", Binder::kTime),
    scalar("ceil", Binder::kTime),
    scalar("ceiling", Binder::kTime),
    scalar("timestampadd", Binder::kTime),
    scalar("timestampdiff", Binder::kTime),
    scalar("datediff", Binder::kTime),
    scalar("date_add", Binder::kTime),
    scalar("date_sub", Binder::kTime),
    scalar("make_date", Binder::kTime),
    scalar("make_timestamp", Binder::kTime),
    scalar("make_time", Binder::kTime),
    window("row_number", Binder::kRank),
    window("rank", Binder::kRank),
    window("dense_rank", Binder::kRank),
    window("lag", Binder::kOffset),
    window("lead", Binder::kOffset),
    window("first_value", Binder::kFrameValue),
    window("last_value", Binder::kFrameValue),
    FunctionEntry{"grouping", Kind::kGrouping, Binder::kGrouping},
    FunctionEntry{"grouping_id", Kind::kGrouping, Binder::kGrouping},
    unsupported("lpad", Unsupported::kFelderaLacks),
    unsupported("rpad", Unsupported::kFelderaLacks),
    unsupported("regexp_like", Unsupported::kFelderaLacks),
    unsupported("bin", Unsupported::kFelderaLacks),
    unsupported("hex", Unsupported::kFelderaLacks),
    unsupported("instr", Unsupported::kFelderaLacks),
    unsupported("strpos", Unsupported::kFelderaLacks),
    unsupported("to_timestamp", Unsupported::kHint,
                "to_timestamp() is not a Feldera function: write TIMESTAMPADD(SECOND, seconds, DATE "
                "'1970-01-01'), as Feldera's documentation does"),
    unsupported("format_date", Unsupported::kNotYet),
    unsupported("parse_date", Unsupported::kNotYet),
    unsupported("convert_timezone", Unsupported::kNotYet),
    unsupported("nth_value", Unsupported::kWindow),
    unsupported("ntile", Unsupported::kWindow),
    unsupported("percent_rank", Unsupported::kWindow),
    unsupported("cume_dist", Unsupported::kWindow),
    unsupported("array_agg", Unsupported::kAggregate),
    unsupported("mode", Unsupported::kAggregate),
    unsupported("covar_pop", Unsupported::kAggregate),
    unsupported("covar_samp", Unsupported::kAggregate),
    unsupported("regr_avgx", Unsupported::kAggregate),
    unsupported("regr_avgy", Unsupported::kAggregate),
    unsupported("regr_count", Unsupported::kAggregate),
    unsupported("regr_intercept", Unsupported::kAggregate),
    unsupported("regr_r2", Unsupported::kAggregate),
    unsupported("regr_slope", Unsupported::kAggregate),
    unsupported("regr_sxx", Unsupported::kAggregate),
    unsupported("regr_sxy", Unsupported::kAggregate),
    unsupported("regr_syy", Unsupported::kAggregate),
};

}  // namespace

const FunctionEntry* find_function(std::string_view name) {
  for (const FunctionEntry& entry : kFunctions) {
    if (name == entry.name) return &entry;
  }
  return nullptr;
}

std::string unsupported_message(const FunctionEntry& entry) {
  const std::string name = entry.name;
  switch (entry.unsupported) {
    case Unsupported::kFelderaLacks:
      return "function " + ascii_upper(name) + "() is not supported (Feldera's SQL has no " + ascii_upper(name) + ")";
    case Unsupported::kWindow:
      return "window function " + name + "() is not supported";
    case Unsupported::kAggregate:
      return "aggregate " + ascii_upper(name) + "() is not supported";
    case Unsupported::kHint:
      return entry.hint;
    case Unsupported::kNotYet:
    case Unsupported::kNo:
      break;
  }
  return "function " + ascii_upper(name) + "() is not supported";
}

bool is_grouping_function(std::string_view name) {
  const FunctionEntry* entry = find_function(name);
  return entry && entry->kind == SqlFunctionKind::kGrouping;
}

std::vector<SqlFunctionName> sql_functions() {
  std::vector<SqlFunctionName> names;
  for (const FunctionEntry& entry : kFunctions) names.push_back({ascii_upper(entry.name), entry.kind});
  for (const AggregateFunction& aggregate : aggregate_functions()) {
    names.push_back({ascii_upper(aggregate.name), SqlFunctionKind::kAggregate});
  }
  return names;
}

}  // namespace freshet::sql
