// Binding of the time functions, with Feldera's signatures (docs.feldera.com
// datetime.md): which units each accepts, the result types, and the errors
// that show Feldera's form when a program is written in another dialect
// (PostgreSQL's date_trunc('hour', ts)).
//
// | call                            | arguments               | result              |
// |---------------------------------|-------------------------|---------------------|
// | EXTRACT(f FROM x), DATE_PART    | DATE, TIMESTAMP         | BIGINT              |
// | YEAR(x) ... DAYOFWEEK(x)        | DATE, TIMESTAMP         | BIGINT              |
// | DATE_TRUNC(x, MILLENNIUM..DAY)  | DATE, TIMESTAMP         | x's type            |
// | TIMESTAMP_TRUNC(x, ..SECOND)    | TIMESTAMP (DATE: cast)  | TIMESTAMP           |
// | FLOOR/CEIL(x TO ..NANOSECOND)   | DATE, TIMESTAMP         | x's type            |
// | TIMESTAMPADD(YEAR..MICROSECOND) | integer, DATE/TIMESTAMP | DATE for DAY and    |
// |                                 |                         | longer on a DATE,   |
// |                                 |                         | else TIMESTAMP      |
// | TIMESTAMPDIFF(u, a, b)          | DATE/TIMESTAMP (cast)   | INTEGER             |
// | DATEDIFF(YEAR..HOUR, a, b)      | DATE                    | INTEGER             |
// | MAKE_DATE(y, m, d)              | integers                | DATE, NULL if none  |
// | MAKE_TIMESTAMP(y,mo,d,h,mi,s)   | integers, numeric s     | TIMESTAMP, NULL ... |
#include "expression_binder.h"
#include "type_rules.h"

namespace freshet::sql {
namespace {

std::string describe(const SqlType& type) { return type.with_nullable(true).to_string(); }
bool is_datetime(const SqlType& type) { return type.id == TypeId::kDate || type.id == TypeId::kTimestamp; }
bool is_time(const SqlType& type) { return type.id == TypeId::kTime; }
bool in_units(TimeUnit unit, TimeUnit first, TimeUnit last) { return unit >= first && unit <= last; }

std::string upper(std::string_view word) {
  std::string out(word);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

struct Shorthand {
  std::string_view name;
  TimeUnit field;
};

// Feldera's abbreviations of EXTRACT.
constexpr Shorthand kShorthands[] = {
    {"year", TimeUnit::kYear},           {"quarter", TimeUnit::kQuarter},     {"month", TimeUnit::kMonth},
    {"week", TimeUnit::kWeek},           {"dayofyear", TimeUnit::kDayOfYear}, {"dayofmonth", TimeUnit::kDay},
    {"dayofweek", TimeUnit::kDayOfWeek}, {"hour", TimeUnit::kHour},           {"minute", TimeUnit::kMinute},
    {"second", TimeUnit::kSecond},
};

std::optional<TimeUnit> shorthand_field(const std::string& name) {
  for (const Shorthand& entry : kShorthands) {
    if (entry.name == name) return entry.field;
  }
  return std::nullopt;
}

// How a message shows an argument: its column name, its string, else "x".
std::string sketch(const AstExpr& ast) {
  if (ast.kind == AstExprKind::kColumnRef) {
    std::string text;
    for (const std::string& part : ast.names) text += (text.empty() ? "" : ".") + part;
    return text;
  }
  if (ast.kind == AstExprKind::kLiteral && ast.literal_kind == LiteralKind::kString) return "'" + ast.text + "'";
  return "x";
}

bool is_string_literal(const AstExpr& ast) {
  return ast.kind == AstExprKind::kLiteral && ast.literal_kind == LiteralKind::kString;
}

// The unit a quoted string names, upper case ("HOUR" for 'hour'), else the text as written.
std::string unit_text(const std::string& text) {
  std::string lower = text;
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  std::optional<TimeUnit> unit = time_unit_from_name(lower);
  return unit ? time_unit_name(*unit) : upper(text);
}

ExprPtr make_call(ScalarFunction function, SqlType type, std::vector<ExprPtr> args, TimeUnit unit) {
  ExprPtr call = function_expr(function, type, std::move(args));
  call->field = unit;
  return call;
}

bool any_nullable(const std::vector<ExprPtr>& args) {
  for (const ExprPtr& arg : args) {
    if (arg->type.nullable) return true;
  }
  return false;
}

}  // namespace

namespace {

// EXTRACT(field FROM child) -> BIGINT; a TIME has the fields HOUR .. NANOSECOND.
Result<ExprPtr> make_extract(SourcePosition position, TimeUnit field, ExprPtr child, const std::string& what) {
  if (is_null_literal(*child)) child = null_literal(SqlType::timestamp());
  // Intervals have Feldera's fields: year-month MILLENNIUM .. MONTH, day-time DAY .. MICROSECOND and EPOCH.
  bool interval_field =
      what == "EXTRACT" && ((child->type.id == TypeId::kIntervalYearMonth &&
                             in_units(field, TimeUnit::kMillennium, TimeUnit::kMonth) && field != TimeUnit::kWeek) ||
                            (child->type.id == TypeId::kIntervalDayTime &&
                             (in_units(field, TimeUnit::kDay, TimeUnit::kMicrosecond) || field == TimeUnit::kEpoch)));
  bool ok = is_datetime(child->type) || interval_field ||
            (is_time(child->type) && in_units(field, TimeUnit::kHour, TimeUnit::kNanosecond));
  if (!ok) {
    if (what != "EXTRACT")
      return sql_error(position, what + "() needs a DATE, TIMESTAMP or TIME, not " + describe(child->type));
    return sql_error(position,
                     std::string("cannot EXTRACT ") + time_unit_name(field) + " from " + describe(child->type));
  }
  SqlType type = SqlType::bigint(child->type.nullable);  // read before `child` moves
  std::vector<ExprPtr> children;
  children.push_back(std::move(child));
  ExprPtr extract = make_expr(ExprKind::kExtract, type, std::move(children));
  extract->field = field;
  return extract;
}

}  // namespace

//! EXTRACT(field FROM x) and DATE_PART(field, x).
Result<ExprPtr> ExpressionBinder::bind_extract(const AstExpr& ast) {
  if (ast.children.size() != 1) {
    return sql_error(ast.position, "DATE_PART takes 2 arguments, not " + std::to_string(ast.children.size() + 1));
  }
  Result<ExprPtr> operand = bind(*ast.children[0]);
  if (!operand.ok()) return operand.status();
  return make_extract(ast.position, *ast.unit, std::move(*operand), "EXTRACT");
}

Result<ExprPtr> ExpressionBinder::bind_time_function(const AstExpr& ast) {
  const std::string& name = ast.name;
  bool unit_first = name == "timestampadd" || name == "timestampdiff" || name == "datediff" || name == "date_part";
  if (unit_first && !ast.unit) {
    // PostgreSQL's date_part('year', ts), datediff('day', a, b): Feldera takes a keyword.
    std::string form = upper(name) + "(" + unit_text(ast.children[0]->text);
    for (size_t i = 1; i < ast.children.size(); ++i) form += ", " + sketch(*ast.children[i]);
    return sql_error(ast.children[0]->position,
                     name + " takes the unit without quotes, as Feldera does: " + form + ")");
  }
  if (std::optional<TimeUnit> field = shorthand_field(name)) {
    if (ast.children.size() != 1) {
      return sql_error(ast.position, name + "() takes 1 argument, not " + std::to_string(ast.children.size()));
    }
    Result<ExprPtr> operand = bind(*ast.children[0]);
    if (!operand.ok()) return operand.status();
    return make_extract(ast.position, *field, std::move(*operand), name);
  }
  if (name == "date_trunc" || name == "timestamp_trunc" || name == "time_trunc") return bind_truncate(ast);
  if (name == "floor" || name == "ceil" || name == "ceiling") return bind_floor_ceil(ast);
  if (name == "timestampadd") return bind_timestamp_add(ast);
  if (name == "timestampdiff" || name == "datediff") return bind_timestamp_diff(ast);
  if (name == "date_add" || name == "date_sub") return bind_date_add(ast);
  if (name == "make_date" || name == "make_timestamp" || name == "make_time") return bind_make(ast);
  return Status(ErrorCode::kInternal, "the function catalog names a binder that does not know " + name + "()");
}

//! DATE_TRUNC(x, unit), TIMESTAMP_TRUNC(x, unit), TIME_TRUNC(x, unit).
Result<ExprPtr> ExpressionBinder::bind_truncate(const AstExpr& ast) {
  const std::string& name = ast.name;
  bool timestamp_trunc = name == "timestamp_trunc";
  if (!ast.unit) {
    bool postgres = ast.children.size() == 2 && is_string_literal(*ast.children[0]);
    const AstExpr& operand = postgres ? *ast.children[1] : *ast.children[0];
    const AstExpr& unit = postgres ? *ast.children[0] : *ast.children[1];
    Result<ExprPtr> bound_operand = bind(operand);
    if (!bound_operand.ok()) return bound_operand.status();
    bool is_date = (*bound_operand)->type.id == TypeId::kDate && !timestamp_trunc;
    std::string form = std::string(is_date ? "DATE_TRUNC(" : "TIMESTAMP_TRUNC(") + sketch(operand) + ", " +
                       (is_string_literal(unit) ? unit_text(unit.text) : "HOUR") + ")";
    if (postgres) {
      return sql_error(ast.position, name + " takes the unit second, without quotes, as Feldera does: " + form);
    }
    if (is_string_literal(unit)) {
      return sql_error(unit.position, name + " takes the unit as a keyword, without quotes: " + form);
    }
    return sql_error(unit.position, name + " takes a time unit (YEAR, MONTH, DAY, HOUR, ...) as argument 2");
  }
  Result<ExprPtr> operand = bind(*ast.children[0]);
  if (!operand.ok()) return operand.status();
  ExprPtr child = std::move(*operand);
  if (is_null_literal(*child)) {
    child = null_literal(timestamp_trunc        ? SqlType::timestamp()
                         : name == "time_trunc" ? SqlType::time()
                                                : SqlType::date());
  }
  TimeUnit unit = *ast.unit;
  if (name == "time_trunc") {
    if (!is_time(child->type)) {
      return sql_error(ast.position, "TIME_TRUNC needs a TIME, not " + describe(child->type));
    }
    if (!in_units(unit, TimeUnit::kHour, TimeUnit::kSecond)) {
      return sql_error(ast.unit_position,
                       std::string("TIME_TRUNC takes a unit from HOUR to SECOND, not ") + time_unit_name(unit));
    }
    SqlType type = child->type;
    std::vector<ExprPtr> args;
    args.push_back(std::move(child));
    return make_call(ScalarFunction::kDateTrunc, type, std::move(args), unit);
  }
  if (!is_datetime(child->type)) {
    return sql_error(ast.position, upper(name) + " needs a DATE or TIMESTAMP, not " + describe(child->type));
  }
  if (timestamp_trunc) child = cast_to(std::move(child), SqlType::timestamp());
  TimeUnit last = timestamp_trunc ? TimeUnit::kSecond : TimeUnit::kDay;
  if (!in_units(unit, TimeUnit::kMillennium, last)) {
    std::string what = timestamp_trunc ? "TIMESTAMP_TRUNC" : "DATE_TRUNC of a " + describe(child->type);
    bool hint =
        !timestamp_trunc && child->type.id == TypeId::kTimestamp && in_units(unit, TimeUnit::kHour, TimeUnit::kSecond);
    return sql_error(ast.unit_position, what + " takes a unit from MILLENNIUM to " + time_unit_name(last) + ", not " +
                                            time_unit_name(unit) + (hint ? " (TIMESTAMP_TRUNC takes it)" : ""));
  }
  SqlType type = child->type;
  std::vector<ExprPtr> args;
  args.push_back(std::move(child));
  return make_call(ScalarFunction::kDateTrunc, type, std::move(args), unit);
}

//! FLOOR(x), CEIL(x) of numbers; FLOOR(x TO unit), CEIL(x TO unit) of dates and timestamps.
Result<ExprPtr> ExpressionBinder::bind_floor_ceil(const AstExpr& ast) {
  bool floor = ast.name == "floor";
  Result<ExprPtr> operand = bind(*ast.children[0]);
  if (!operand.ok()) return operand.status();
  ExprPtr child = std::move(*operand);
  std::vector<ExprPtr> args;
  if (!ast.unit) {
    if (is_null_literal(*child)) child = null_literal(SqlType::integer());
    if (is_datetime(child->type)) {
      return sql_error(ast.position, upper(ast.name) + " of a " + describe(child->type) + " needs a unit: " +
                                         upper(ast.name) + "(" + sketch(*ast.children[0]) + " TO DAY)");
    }
    if (!child->type.is_numeric()) {
      return sql_error(ast.position, ast.name + "() needs a number, not " + describe(child->type));
    }
    SqlType type = child->type;
    if (type.id == TypeId::kDecimal && type.scale > 0) {
      // The integral part may grow by one digit (CEIL(9.5) = 10).
      int precision = type.precision == 0 ? 0 : type.precision - type.scale + 1;
      type.precision = static_cast<uint8_t>(precision > kMaxDecimalPrecision ? kMaxDecimalPrecision : precision);
      type.scale = 0;
    }
    args.push_back(std::move(child));
    return make_call(floor ? ScalarFunction::kFloor : ScalarFunction::kCeil, type, std::move(args), TimeUnit::kDay);
  }
  if (is_null_literal(*child)) child = null_literal(SqlType::timestamp());
  if (!is_datetime(child->type) && !is_time(child->type)) {
    return sql_error(ast.position,
                     upper(ast.name) + " TO needs a DATE, TIMESTAMP or TIME, not " + describe(child->type));
  }
  TimeUnit unit = *ast.unit;
  TimeUnit first = is_time(child->type) ? TimeUnit::kHour : TimeUnit::kMillennium;
  if (!in_units(unit, first, TimeUnit::kNanosecond)) {
    std::string what = upper(ast.name) + " TO" + (is_time(child->type) ? " of a TIME" : "");
    return sql_error(ast.unit_position, what + " takes a unit from " + time_unit_name(first) + " to NANOSECOND, not " +
                                            time_unit_name(unit));
  }
  SqlType type = child->type;
  args.push_back(std::move(child));
  return make_call(floor ? ScalarFunction::kFloorTo : ScalarFunction::kCeilTo, type, std::move(args), unit);
}

//! TIMESTAMPADD(unit, count, x).
Result<ExprPtr> ExpressionBinder::bind_timestamp_add(const AstExpr& ast) {
  if (ast.children.size() != 2) {
    return sql_error(ast.position, "TIMESTAMPADD takes 3 arguments, not " + std::to_string(ast.children.size() + 1));
  }
  Result<std::vector<ExprPtr>> bound = bind_children(ast);
  if (!bound.ok()) return bound.status();
  std::vector<ExprPtr>& args = *bound;
  TimeUnit unit = *ast.unit;
  if (!in_units(unit, TimeUnit::kYear, TimeUnit::kMicrosecond)) {
    return sql_error(ast.unit_position,
                     std::string("TIMESTAMPADD takes a unit from YEAR to MICROSECOND, not ") + time_unit_name(unit));
  }
  if (is_null_literal(*args[0])) args[0] = null_literal(SqlType::bigint());
  if (is_null_literal(*args[1])) args[1] = null_literal(SqlType::timestamp());
  if (!args[0]->type.is_integer()) {
    return sql_error(ast.children[0]->position,
                     "TIMESTAMPADD needs an integer count as argument 2, not " + describe(args[0]->type));
  }
  if (!is_datetime(args[1]->type) && !is_time(args[1]->type)) {
    return sql_error(ast.children[1]->position,
                     "TIMESTAMPADD needs a DATE, TIMESTAMP or TIME as argument 3, not " + describe(args[1]->type));
  }
  if (is_time(args[1]->type) && !in_units(unit, TimeUnit::kHour, TimeUnit::kMicrosecond)) {
    return sql_error(
        ast.unit_position,
        std::string("TIMESTAMPADD to a TIME takes a unit from HOUR to MICROSECOND, not ") + time_unit_name(unit));
  }
  args[0] = cast_to(std::move(args[0]), SqlType::bigint());
  // A TIME stays a TIME (wrapping at midnight); a DATE stays a DATE for DAY and longer.
  SqlType type = args[1]->type.id == TypeId::kDate && unit > TimeUnit::kDay ? SqlType::timestamp() : args[1]->type;
  type.nullable = any_nullable(args);
  return make_call(ScalarFunction::kTimestampAdd, type, std::move(args), unit);
}

//! TIMESTAMPDIFF(unit, a, b) and DATEDIFF(unit, a, b): b - a in units.
Result<ExprPtr> ExpressionBinder::bind_timestamp_diff(const AstExpr& ast) {
  bool datediff = ast.name == "datediff";
  const char* what = datediff ? "DATEDIFF" : "TIMESTAMPDIFF";
  if (ast.children.size() != 2) {
    return sql_error(ast.position,
                     std::string(what) + " takes 3 arguments, not " + std::to_string(ast.children.size() + 1));
  }
  Result<std::vector<ExprPtr>> bound = bind_children(ast);
  if (!bound.ok()) return bound.status();
  std::vector<ExprPtr>& args = *bound;
  TimeUnit unit = *ast.unit;
  if (datediff && in_units(unit, TimeUnit::kMinute, TimeUnit::kNanosecond)) {
    return sql_error(ast.unit_position, std::string("DATEDIFF in ") + time_unit_name(unit) +
                                            " would overflow: use TIMESTAMPDIFF, as Feldera requires");
  }
  TimeUnit first = datediff ? TimeUnit::kYear : TimeUnit::kMillennium;
  TimeUnit last = datediff ? TimeUnit::kHour : TimeUnit::kMicrosecond;
  if (!in_units(unit, first, last)) {
    return sql_error(ast.unit_position, std::string(what) + " takes a unit from " + time_unit_name(first) + " to " +
                                            time_unit_name(last) + ", not " + time_unit_name(unit));
  }
  // Two TIMEs subtract as they are; a TIME beside a DATE or TIMESTAMP is 1970-01-01 at that time (as Feldera).
  bool times = !datediff && is_time(args[0]->type) && is_time(args[1]->type);
  if (times && !in_units(unit, TimeUnit::kHour, TimeUnit::kMicrosecond)) {
    return sql_error(ast.unit_position, std::string("TIMESTAMPDIFF of two TIMEs takes a unit from HOUR to "
                                                    "MICROSECOND, not ") +
                                            time_unit_name(unit));
  }
  SqlType operand_type = datediff ? SqlType::date() : times ? SqlType::time() : SqlType::timestamp();
  for (size_t i = 0; i < 2; ++i) {
    if (is_null_literal(*args[i])) args[i] = null_literal(operand_type);
    bool ok = datediff ? args[i]->type.id == TypeId::kDate : is_datetime(args[i]->type) || is_time(args[i]->type);
    if (!ok) {
      std::string hint = datediff && args[i]->type.id == TypeId::kTimestamp ? " (TIMESTAMPDIFF takes timestamps)" : "";
      return sql_error(ast.children[i]->position,
                       std::string(what) + " needs " + (datediff ? "a DATE" : "a DATE, TIMESTAMP or TIME") +
                           " as argument " + std::to_string(i + 2) + ", not " + describe(args[i]->type) + hint);
    }
    args[i] = cast_to(std::move(args[i]), operand_type);
  }
  SqlType type = SqlType::integer(any_nullable(args));
  return make_call(datediff ? ScalarFunction::kDateDiff : ScalarFunction::kTimestampDiff, type, std::move(args), unit);
}

//! MAKE_DATE(y, m, d), MAKE_TIMESTAMP(y, mo, d, h, mi, s): NULL when invalid.
Result<ExprPtr> ExpressionBinder::bind_make(const AstExpr& ast) {
  bool timestamp = ast.name == "make_timestamp", time = ast.name == "make_time";
  size_t arity = timestamp ? 6 : 3;
  if (ast.children.size() != arity) {
    return sql_error(ast.position, ast.name + "() takes " + std::to_string(arity) + " arguments, not " +
                                       std::to_string(ast.children.size()));
  }
  Result<std::vector<ExprPtr>> bound = bind_children(ast);
  if (!bound.ok()) return bound.status();
  std::vector<ExprPtr>& args = *bound;
  for (size_t i = 0; i < args.size(); ++i) {
    if (is_null_literal(*args[i])) args[i] = null_literal(SqlType::bigint());
    bool seconds = (timestamp && i == 5) || (time && i == 2);
    bool ok = seconds ? args[i]->type.is_numeric() : args[i]->type.is_integer();
    if (!ok) {
      return sql_error(ast.children[i]->position, ast.name + "() needs " + (seconds ? "a number" : "an integer") +
                                                      " as argument " + std::to_string(i + 1) + ", not " +
                                                      describe(args[i]->type));
    }
    if (!seconds) {
      args[i] = cast_to(std::move(args[i]), SqlType::bigint());
    } else if (args[i]->type.is_floating()) {
      args[i] = cast_to(std::move(args[i]), SqlType::double_precision());
    } else if (args[i]->type.is_integer()) {
      args[i] = cast_to(std::move(args[i]), SqlType::bigint());
    }
  }
  // Always nullable: an impossible date is NULL, not an error (as Feldera).
  if (time) return make_call(ScalarFunction::kMakeTime, SqlType::time(true), std::move(args), TimeUnit::kDay);
  if (timestamp) {
    return make_call(ScalarFunction::kMakeTimestamp, SqlType::timestamp(true), std::move(args), TimeUnit::kDay);
  }
  return make_call(ScalarFunction::kMakeDate, SqlType::date(true), std::move(args), TimeUnit::kDay);
}

//! DATE_ADD(date, interval) and DATE_SUB(date, interval): Feldera's synonyms
//! of date + interval and date - interval.
Result<ExprPtr> ExpressionBinder::bind_date_add(const AstExpr& ast) {
  if (ast.children.size() != 2) {
    return sql_error(ast.position, ast.name + "() takes 2 arguments, not " + std::to_string(ast.children.size()));
  }
  Result<std::vector<ExprPtr>> bound = bind_children(ast);
  if (!bound.ok()) return bound.status();
  std::vector<ExprPtr>& args = *bound;
  if (is_null_literal(*args[0])) args[0] = null_literal(SqlType::date());
  if (args[0]->type.id != TypeId::kDate) {
    return sql_error(ast.children[0]->position, ast.name + "() needs a DATE as argument 1, not " +
                                                    describe(args[0]->type) + " (write x + INTERVAL ... instead)");
  }
  if (!is_null_literal(*args[1]) && !args[1]->type.is_interval()) {
    return sql_error(ast.children[1]->position, ast.name + "() needs an INTERVAL as argument 2, not " +
                                                    describe(args[1]->type) +
                                                    " (for a count of days: TIMESTAMPADD(DAY, n, date))");
  }
  AstExpr arithmetic;
  arithmetic.kind = AstExprKind::kBinary;
  arithmetic.position = ast.position;
  arithmetic.operator_position = ast.position;
  arithmetic.op = ast.name == "date_add" ? AstOperator::kAdd : AstOperator::kSubtract;
  return bind_temporal_arithmetic(arithmetic, std::move(args[0]), std::move(args[1]));
}

}  // namespace freshet::sql
