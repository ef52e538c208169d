// INSERT ... VALUES of literals to JSON. A small scanner of its own: the
// statement is not SQL the compiler takes (Freshet has no INSERT), and the
// corpus inserts only literals.
#include "slt_insert.h"

#include <cctype>
#include <vector>

namespace freshet::slt {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

//! A cursor over the statement's text.
struct Scanner {
  std::string_view text;
  size_t at = 0;

  void skip_space() {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  }
  bool accept(char c) {
    skip_space();
    if (at < text.size() && text[at] == c) return ++at, true;
    return false;
  }
  std::string word() {
    skip_space();
    size_t start = at;
    while (at < text.size() && (std::isalnum(static_cast<unsigned char>(text[at])) || text[at] == '_')) ++at;
    return std::string(text.substr(start, at - start));
  }
  //! A literal as JSON, or "" when the text there is not one.
  std::string literal() {
    skip_space();
    if (at < text.size() && text[at] == '\'') {
      std::string json = "\"";
      for (++at; at < text.size(); ++at) {
        if (text[at] == '\'') {
          if (at + 1 < text.size() && text[at + 1] == '\'') {
            json += '\'', ++at;
            continue;
          }
          ++at;
          return json + "\"";
        }
        char c = text[at];
        if (c == '"' || c == '\\') json += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char kHex[] = "0123456789abcdef";
          json += "\\u00", json += kHex[c >> 4], json += kHex[c & 15];
          continue;
        }
        json += c;
      }
      return "";
    }
    size_t start = at;
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) ++at;
    while (at < text.size() && (std::isdigit(static_cast<unsigned char>(text[at])) || text[at] == '.')) ++at;
    if (at > start && std::isdigit(static_cast<unsigned char>(text[at - 1]))) {
      std::string number(text.substr(start, at - start));
      return number[0] == '+' ? number.substr(1) : number;
    }
    at = start;
    return lower(word()) == "null" ? "null" : "";
  }
};

Status bad(std::string_view sql, const std::string& why) {
  return Status(ErrorCode::kSqlError, "cannot translate INSERT (" + why + "): " + std::string(sql.substr(0, 80)));
}

}  // namespace

bool is_insert(std::string_view sql) {
  return Scanner{sql}.word().size() == 6 && lower(Scanner{sql}.word()) == "insert";
}

std::string insert_table(std::string_view sql) {
  Scanner scan{sql};
  if (lower(scan.word()) != "insert" || lower(scan.word()) != "into") return "";
  return lower(scan.word());
}

Result<InsertStatement> translate_insert(std::string_view sql, const Schema& schema) {
  Scanner scan{sql};
  InsertStatement insert;
  if (lower(scan.word()) != "insert" || lower(scan.word()) != "into") return bad(sql, "not INSERT INTO");
  insert.table = scan.word();
  std::vector<size_t> columns;
  if (scan.accept('(')) {
    do {
      std::string name = lower(scan.word());
      size_t c = 0;
      while (c < schema.size() && lower(schema.column(c).name) != name) ++c;
      if (c == schema.size()) return bad(sql, "unknown column '" + name + "'");
      columns.push_back(c);
    } while (scan.accept(','));
    if (!scan.accept(')')) return bad(sql, "expected ')'");
  } else {
    for (size_t c = 0; c < schema.size(); ++c) columns.push_back(c);
  }
  if (lower(scan.word()) != "values") return bad(sql, "only VALUES");
  insert.json = "[";
  do {
    if (!scan.accept('(')) return bad(sql, "expected '('");
    insert.json += insert.json.size() > 1 ? ",{\"insert\":{" : "{\"insert\":{";
    for (size_t k = 0; k < columns.size(); ++k) {
      if (k > 0 && !scan.accept(',')) return bad(sql, "fewer values than columns");
      std::string value = scan.literal();
      if (value.empty()) return bad(sql, "a value is not a literal");
      insert.json += (k > 0 ? ",\"" : "\"") + schema.column(columns[k]).name + "\":" + value;
    }
    if (!scan.accept(')')) return bad(sql, "more values than columns");
    insert.json += "}}";
  } while (scan.accept(','));
  insert.json += "]";
  scan.skip_space();
  if (scan.accept(';'), scan.at < sql.size()) return bad(sql, "text after the values");
  return insert;
}

}  // namespace freshet::slt
