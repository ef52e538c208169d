// Prints syntax trees as compact S-expressions so parser tests can state a
// whole tree in one line: "(OR a (AND b c))", "(JOIN (CROSS a b) c (= a.x c.x))".
#pragma once

#include <string>

#include "freshet/sql/ast.h"

namespace freshet::sql::testing {

inline const char* operator_symbol(AstOperator op) {
  switch (op) {
    case AstOperator::kNegate:
      return "-";
    case AstOperator::kNot:
      return "NOT";
    case AstOperator::kAdd:
      return "+";
    case AstOperator::kSubtract:
      return "-";
    case AstOperator::kMultiply:
      return "*";
    case AstOperator::kDivide:
      return "/";
    case AstOperator::kModulo:
      return "%";
    case AstOperator::kEqual:
      return "=";
    case AstOperator::kNotEqual:
      return "<>";
    case AstOperator::kLess:
      return "<";
    case AstOperator::kLessEqual:
      return "<=";
    case AstOperator::kGreater:
      return ">";
    case AstOperator::kGreaterEqual:
      return ">=";
    case AstOperator::kAnd:
      return "AND";
    case AstOperator::kOr:
      return "OR";
    case AstOperator::kConcat:
      return "||";
    case AstOperator::kNone:
      break;
  }
  return "?";
}

inline std::string print(const AstExpr& expr);

inline std::string print_children(const AstExpr& expr, size_t from = 0) {
  std::string out;
  for (size_t i = from; i < expr.children.size(); ++i) out += " " + print(*expr.children[i]);
  return out;
}

inline std::string print_literal(const AstExpr& expr) {
  switch (expr.literal_kind) {
    case LiteralKind::kNull:
      return "NULL";
    case LiteralKind::kBoolean:
      return expr.text == "true" ? "TRUE" : "FALSE";
    case LiteralKind::kInteger:
      return expr.text;
    case LiteralKind::kDecimal:
      return "dec:" + expr.text;
    case LiteralKind::kFloat:
      return "float:" + expr.text;
    case LiteralKind::kString:
      return "'" + expr.text + "'";
    case LiteralKind::kDate:
      return "DATE'" + expr.text + "'";
    case LiteralKind::kTimestamp:
      return "TIMESTAMP'" + expr.text + "'";
    case LiteralKind::kTime: return "TIME'" + expr.text + "'";
    case LiteralKind::kInterval: return "INTERVAL'" + expr.text + "' " + expr.cast_type.to_string().substr(9);
  }
  return "?";
}

inline std::string print(const Query& query);

inline std::string print(const AstExpr& expr) {
  std::string not_prefix = expr.negated ? "NOT " : "";
  switch (expr.kind) {
    case AstExprKind::kLiteral:
      return print_literal(expr);
    case AstExprKind::kColumnRef: {
      std::string out;
      for (const std::string& part : expr.names) out += (out.empty() ? "" : ".") + part;
      return out;
    }
    case AstExprKind::kUnary:
    case AstExprKind::kBinary:
      return std::string("(") + operator_symbol(expr.op) + print_children(expr) + ")";
    case AstExprKind::kIsNull:
      return "(IS " + not_prefix + "NULL" + print_children(expr) + ")";
    case AstExprKind::kIsDistinct:
      return "(IS " + not_prefix + "DISTINCT FROM" + print_children(expr) + ")";
    case AstExprKind::kIsTruth:
      return "(IS " + not_prefix + expr.text + print_children(expr) + ")";
    case AstExprKind::kBetween:
      return "(" + not_prefix + "BETWEEN" + print_children(expr) + ")";
    case AstExprKind::kInList:
      return "(" + not_prefix + "IN" + print_children(expr) + ")";
    case AstExprKind::kLike:
      return "(" + not_prefix + (expr.name == "ilike" ? "ILIKE" : "LIKE") + print_children(expr) + ")";
    case AstExprKind::kCase: {
      std::string out = "(CASE";
      if (expr.case_operand) out += " " + print(*expr.case_operand);
      for (size_t i = 0; i + 1 < expr.children.size(); i += 2) {
        out += " (WHEN " + print(*expr.children[i]) + " " + print(*expr.children[i + 1]) + ")";
      }
      if (expr.else_result) out += " (ELSE " + print(*expr.else_result) + ")";
      return out + ")";
    }
    case AstExprKind::kCast:
      return "(CAST" + print_children(expr) + " " + expr.cast_type.to_string() + ")";
    case AstExprKind::kFunction: {
      if (expr.star) return expr.name + "(*)";
      std::string out = expr.name + (expr.unit ? std::string("[") + time_unit_name(*expr.unit) + "]" : "") + "(" +
                        (expr.distinct ? "DISTINCT" : "");
      std::string args = print_children(expr);
      return out + (expr.distinct ? args : args.empty() ? "" : args.substr(1)) + ")";
    }
    case AstExprKind::kExtract:
      return "(EXTRACT " + expr.name + print_children(expr) + ")";
    case AstExprKind::kDatetimeDifference:
      return "(-" + print_children(expr) + ") " + expr.cast_type.to_string().substr(9);
    case AstExprKind::kSubquery:
      return "(SUBQUERY [" + print(*expr.subquery) + "])";
    case AstExprKind::kExists:
      return "(EXISTS [" + print(*expr.subquery) + "])";
    case AstExprKind::kInSubquery:
      return "(" + not_prefix + "IN" + print_children(expr) + " [" + print(*expr.subquery) + "])";
    case AstExprKind::kQuantified:
      return std::string("(") + operator_symbol(expr.op) + (expr.all ? " ALL" : " ANY") + print_children(expr) + " [" +
             print(*expr.subquery) + "])";
  }
  return "?";
}

inline std::string print(const Query& query);

inline std::string print_names(const std::vector<std::string>& names) {
  if (names.empty()) return "";
  std::string out = "(";
  for (size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : ", ") + names[i];
  return out + ")";
}

inline std::string print(const TableRef& table) {
  switch (table.kind) {
    case TableRef::Kind::kTable:
      return table.name + (table.alias.empty() ? "" : " AS " + table.alias) + print_names(table.column_aliases);
    case TableRef::Kind::kSubquery:
      return "[" + print(*table.subquery) + "]" + (table.alias.empty() ? "" : " AS " + table.alias) +
             print_names(table.column_aliases);
    case TableRef::Kind::kJoin: {
      const char* name = table.join_type == JoinType::kInner  ? "JOIN"
                         : table.join_type == JoinType::kLeft ? "LEFT"
                                                              : "CROSS";
      std::string out = std::string("(") + name + " " + print(*table.left) + ", " + print(*table.right);
      if (table.condition) out += " ON " + print(*table.condition);
      return out + ")";
    }
    case TableRef::Kind::kTimeWindow: {
      const TimeWindowCall& call = *table.time_window;
      std::string out = call.function == TimeWindowCall::Function::kTumble ? "(TUMBLE " : "(HOP ";
      out += print(*call.data) + ", " + call.time_column;
      if (call.slide) out += ", " + print(*call.slide);
      out += ", " + print(*call.size);
      if (call.offset) out += ", " + print(*call.offset);
      return out + ")" + (table.alias.empty() ? "" : " AS " + table.alias);
    }
  }
  return "?";
}

//! A GROUP BY item: `x`, `(a, b)`, `ROLLUP(a, (b, c))`, `GROUPING SETS (...)`.
inline std::string print_group_item(const GroupItem& item) {
  if (item.kind == GroupItem::Kind::kExpression) return print(*item.expressions[0]);
  std::string out;
  if (item.kind == GroupItem::Kind::kGroupingSets) {
    for (const GroupItem& inner : item.items) out += (out.empty() ? "" : ", ") + print_group_item(inner);
    return "GROUPING SETS (" + out + ")";
  }
  if (item.kind == GroupItem::Kind::kList) {
    for (const AstExprPtr& expr : item.expressions) out += (out.empty() ? "" : ", ") + print(*expr);
    return "(" + out + ")";
  }
  size_t next = 0;
  for (size_t size : item.element_sizes) {
    std::string element;
    for (size_t i = 0; i < size; ++i) element += (i == 0 ? "" : ", ") + print(*item.expressions[next++]);
    out += (out.empty() ? "" : ", ") + (size == 1 ? element : "(" + element + ")");
  }
  return std::string(item.kind == GroupItem::Kind::kRollup ? "ROLLUP(" : "CUBE(") + out + ")";
}

inline std::string print(const Select& select) {
  std::string out = select.distinct ? "SELECT DISTINCT" : "SELECT";
  for (size_t i = 0; i < select.items.size(); ++i) {
    const SelectItem& item = select.items[i];
    out += i == 0 ? " " : ", ";
    if (item.star) {
      out += item.star_table.empty() ? "*" : item.star_table + ".*";
    } else {
      out += print(*item.expr);
    }
    if (!item.alias.empty()) out += " AS " + item.alias;
  }
  if (select.from) out += " FROM " + print(*select.from);
  if (select.where) out += " WHERE " + print(*select.where);
  for (size_t i = 0; i < select.group_by.size(); ++i)
    out += (i == 0 ? " GROUP BY " : ", ") + print(*select.group_by[i]);
  if (select.group_by_all) out += " GROUP BY ALL";
  for (size_t i = 0; i < select.grouping.size(); ++i) {
    out += (i == 0 ? (select.group_by_distinct ? " GROUP BY DISTINCT " : " GROUP BY ") : ", ") +
           print_group_item(select.grouping[i]);
  }
  if (select.having) out += " HAVING " + print(*select.having);
  if (select.qualify) out += " QUALIFY " + print(*select.qualify);
  return out;
}

inline std::string print(const Query& query) {
  std::string out;
  for (size_t i = 0; i < query.with.size(); ++i) {
    const CommonTableExpression& item = query.with[i];
    out += (i == 0 ? "WITH " : ", ") + item.name + print_names(item.column_names) + " AS (" + print(*item.query) + ")";
    if (i + 1 == query.with.size()) out += " ";
  }
  if (query.select) {
    out += print(*query.select);
  } else if (!query.values.empty()) {
    out += "VALUES ";
    for (size_t r = 0; r < query.values.size(); ++r) {
      out += r == 0 ? "(" : ", (";
      for (size_t c = 0; c < query.values[r].size(); ++c) out += (c == 0 ? "" : ", ") + print(*query.values[r][c]);
      out += ")";
    }
  } else {
    static const char* const kNames[] = {"UNION", "UNION ALL", "EXCEPT", "EXCEPT ALL", "INTERSECT", "INTERSECT ALL"};
    const char* name = kNames[static_cast<size_t>(query.set_operator)];
    out += std::string("{") + print(*query.left) + " " + name + " " + print(*query.right) + "}";
  }
  for (size_t i = 0; i < query.order_by.size(); ++i) {
    const OrderItem& item = query.order_by[i];
    out += (i == 0 ? " ORDER BY " : ", ") + print(*item.expr) + (item.descending ? " DESC" : "");
    if (item.nulls_first) out += *item.nulls_first ? " NULLS FIRST" : " NULLS LAST";
  }
  if (query.limit) out += " LIMIT " + std::to_string(*query.limit);
  if (query.offset) out += " OFFSET " + std::to_string(*query.offset);
  return out;
}

}  // namespace freshet::sql::testing
