#include "aggregate_functions.h"

#include <array>

namespace freshet::sql {
namespace {

using Kind = AggregateKind;
using Argument = AggregateArgument;

// Synonyms as Feldera has them (aggregates.md): STDDEV is STDDEV_SAMP,
// VARIANCE is VAR_SAMP, EVERY and LOGICAL_AND are BOOL_AND, SOME and
// LOGICAL_OR are BOOL_OR.
constexpr std::array<AggregateFunction, 23> kFunctions = {{
    {"count", Kind::kCount, Argument::kAny, 1},
    {"sum", Kind::kSum, Argument::kNumeric, 1},
    {"avg", Kind::kAvg, Argument::kNumeric, 1},
    {"min", Kind::kMin, Argument::kAny, 1},
    {"max", Kind::kMax, Argument::kAny, 1},
    {"stddev", Kind::kStddevSamp, Argument::kNumeric, 1},
    {"stddev_samp", Kind::kStddevSamp, Argument::kNumeric, 1},
    {"stddev_pop", Kind::kStddevPop, Argument::kNumeric, 1},
    {"variance", Kind::kVarSamp, Argument::kNumeric, 1},
    {"var_samp", Kind::kVarSamp, Argument::kNumeric, 1},
    {"var_pop", Kind::kVarPop, Argument::kNumeric, 1},
    {"bool_and", Kind::kBoolAnd, Argument::kBoolean, 1},
    {"logical_and", Kind::kBoolAnd, Argument::kBoolean, 1},
    {"every", Kind::kBoolAnd, Argument::kBoolean, 1},
    {"bool_or", Kind::kBoolOr, Argument::kBoolean, 1},
    {"logical_or", Kind::kBoolOr, Argument::kBoolean, 1},
    {"some", Kind::kBoolOr, Argument::kBoolean, 1},
    {"countif", Kind::kCountIf, Argument::kBoolean, 1},
    {"bit_and", Kind::kBitAnd, Argument::kInteger, 1},
    {"bit_or", Kind::kBitOr, Argument::kInteger, 1},
    {"bit_xor", Kind::kBitXor, Argument::kInteger, 1},
    {"arg_min", Kind::kArgMin, Argument::kAny, 2},
    {"arg_max", Kind::kArgMax, Argument::kAny, 2},
}};

}  // namespace

const AggregateFunction* find_aggregate_function(const std::string& name) {
  for (const AggregateFunction& function : kFunctions) {
    if (name == function.name) return &function;
  }
  return nullptr;
}

std::span<const AggregateFunction> aggregate_functions() { return kFunctions; }

const char* describe_argument(AggregateArgument argument) {
  switch (argument) {
    case AggregateArgument::kNumeric:
      return "a numeric";
    case AggregateArgument::kBoolean:
      return "a BOOLEAN";
    case AggregateArgument::kInteger:
      return "an integer";
    case AggregateArgument::kAny:
      break;
  }
  return "any";
}

bool argument_fits(AggregateArgument argument, const SqlType& type) {
  switch (argument) {
    case AggregateArgument::kNumeric:
      return type.is_numeric();
    case AggregateArgument::kBoolean:
      return type.id == TypeId::kBoolean;
    case AggregateArgument::kInteger:
      return type.is_integer();
    case AggregateArgument::kAny:
      break;
  }
  return true;
}

}  // namespace freshet::sql
