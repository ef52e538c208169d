#include "freshet/operators/left_join.h"

#include "freshet/operators/anti_join.h"
#include "freshet/operators/join.h"
#include "freshet/operators/map.h"
#include "freshet/operators/plus.h"

namespace freshet {

Stream left_join(Stream left, Stream right, SchemaPtr key_schema, SchemaPtr value_schema, JoinMapper mapper) {
  Stream matched = join(left, right, key_schema, value_schema, mapper);
  Stream unmatched = left_unmatched(left, right, std::move(key_schema), std::move(value_schema), std::move(mapper),
                                    "unmatched rows, NULLs on the right");
  return plus(matched, unmatched);
}

Stream left_unmatched(Stream left, Stream right, SchemaPtr key_schema, SchemaPtr value_schema, JoinMapper mapper,
                      std::string description) {
  return map(
      anti_join(left, right), std::move(key_schema), std::move(value_schema),
      [mapper = std::move(mapper)](const RowReader& key, const RowReader& value, RowBuilder& out_key,
                                   RowBuilder& out_value) { mapper(key, value, nullptr, out_key, out_value); },
      std::move(description));
}

}  // namespace freshet
