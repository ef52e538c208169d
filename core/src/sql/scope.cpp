#include "scope.h"

namespace freshet::sql {

Status sql_error(SourcePosition position, const std::string& message) {
  return Status(ErrorCode::kSqlError,
                "line " + std::to_string(position.line) + ", column " + std::to_string(position.column) + ": " + message);
}

Result<size_t> Scope::resolve(const std::vector<std::string>& names, SourcePosition position) const {
  const std::string& name = names.back();
  std::string qualified = names.size() == 2 ? names[0] + "." + name : name;
  if (names.size() > 2) return sql_error(position, "column name '" + qualified + "' has too many parts");
  if (names.size() == 2 && !has_table(names[0])) {
    return sql_error(position, "unknown table or alias '" + names[0] + "' in '" + qualified + "'");
  }
  size_t found = columns.size();
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name != name || (names.size() == 2 && columns[i].table != names[0])) continue;
    if (names.size() == 1 && columns[i].hidden) continue;
    if (found != columns.size()) {
      return sql_error(position, "column '" + qualified + "' is ambiguous: qualify it with its table");
    }
    found = i;
  }
  if (found == columns.size()) return sql_error(position, "unknown column '" + qualified + "'");
  return found;
}

bool Scope::has_table(const std::string& table) const {
  for (const ScopeColumn& column : columns) {
    if (column.table == table) return true;
  }
  return false;
}

ColumnNames Scope::column_names() const {
  ColumnNames names;
  for (const ScopeColumn& column : columns) {
    size_t same = 0;
    for (const ScopeColumn& other : columns) same += other.name == column.name ? 1 : 0;
    names.push_back(same > 1 && !column.table.empty() ? column.table + "." + column.name : column.name);
  }
  return names;
}

Result<std::vector<size_t>> star_columns(const Scope& scope, const SelectItem& item) {
  const std::string& table = item.star_table;
  if (!table.empty() && !scope.has_table(table)) {
    return sql_error(item.position, "unknown table or alias '" + table + "' in " + table + ".*");
  }
  std::vector<size_t> found;
  for (size_t c = 0; c < scope.columns.size(); ++c) {
    const ScopeColumn& column = scope.columns[c];
    if (column.internal || (table.empty() ? column.hidden : column.table != table)) continue;
    found.push_back(c);
  }
  return found;
}

std::string output_name(const SelectItem& item, size_t index) {
  if (!item.alias.empty()) return item.alias;
  if (item.expr && item.expr->kind == AstExprKind::kColumnRef) return item.expr->names.back();
  return "EXPR$" + std::to_string(index);
}

}  // namespace freshet::sql
