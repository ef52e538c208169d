#include "freshet/operators/anti_join.h"

#include "freshet/operators/distinct.h"
#include "freshet/operators/join.h"
#include "freshet/operators/map.h"
#include "freshet/operators/plus.h"

namespace freshet {

Stream anti_join(Stream left, Stream right) {
  // The set of keys present in `right`, each once.
  Stream right_keys = distinct(map(right, right.key_schema_ptr(), empty_schema(),
                                   [](const RowReader& key, const RowReader&, RowBuilder& out_key, RowBuilder&) {
                                     for (size_t c = 0; c < key.schema().size(); ++c) out_key.copy_field(c, key, c);
                                   }));
  Stream matched = join(left, right_keys, left.key_schema_ptr(), left.value_schema_ptr(),
                        [](const RowReader& key, const RowReader& left_value, const RowReader*, RowBuilder& out_key,
                           RowBuilder& out_value) {
                          for (size_t c = 0; c < key.schema().size(); ++c) out_key.copy_field(c, key, c);
                          for (size_t c = 0; c < left_value.schema().size(); ++c) {
                            out_value.copy_field(c, left_value, c);
                          }
                        });
  return minus(left, matched);
}

}  // namespace freshet
