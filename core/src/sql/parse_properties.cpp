// WITH ('key' = 'value', ...) on CREATE TABLE and CREATE VIEW: Feldera's
// keyValueList, both sides string literals. What the keys mean is the
// compiler's business (properties.cpp); the parser only reads the list.
#include "parser_internal.h"

namespace freshet::sql::detail {

namespace {

//! A string literal: the key or the value of a property.
Result<std::string> property_string(Parser& parser, std::string_view what) {
  if (!parser.at(TokenKind::kString)) return parser.expected(what);
  return parser.advance().text;
}

}  // namespace

Result<std::vector<Property>> Parser::properties() {
  std::vector<Property> properties;
  if (!accept_keyword("with")) return properties;
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'(' and properties 'key' = 'value'"));
  do {
    Property property;
    property.key_position = current().position;
    FRESHET_PARSE_ASSIGN(property.key, property_string(*this, "a property name as a string ('materialized')"));
    for (const Property& earlier : properties) {
      if (earlier.key == property.key) {
        return sql_error_at(property.key_position, "property '" + property.key + "' is given twice");
      }
    }
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kEqual, "'='"));
    property.value_position = current().position;
    FRESHET_PARSE_ASSIGN(property.value, property_string(*this, "the property's value as a string ('true')"));
    properties.push_back(std::move(property));
  } while (accept(TokenKind::kComma));
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "',' or ')'"));
  return properties;
}

}  // namespace freshet::sql::detail
