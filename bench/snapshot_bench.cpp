// Encoding a view's snapshot as Feldera insert records (json_output.h):
//
//   orders(id BIGINT, region VARCHAR, total DOUBLE, amount DECIMAL(12, 2), day DATE)
//   N rows (default 1,000,000) -> {"insert":{...}},{"insert":{...}},...
//
// Figures are printed next to two baselines measured in the same run:
//   - naive: the same records written with snprintf per row, with
//     decimal_to_string and format_date (one allocation each), %.17g doubles;
//   - memcpy: copying a buffer of the encoded output's size, the floor.
//
//   usage: snapshot_bench [rows]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "freshet/format/json_output.h"
#include "freshet/types/decimal.h"
#include "freshet/types/temporal.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace freshet;

constexpr int kRepeats = 5;
const char* const kRegions[] = {"north", "south", "east", "west", "central",
                                "north-east", "north-west", "south-east", "south-west", "islands"};

Schema orders_schema() {
  return Schema({{"id", SqlType::bigint(false)},
                 {"region", SqlType::varchar()},
                 {"total", SqlType::double_precision()},
                 {"amount", SqlType::decimal(12, 2)},
                 {"day", SqlType::date()}});
}

BatchPtr make_view(const Schema& schema, size_t rows) {
  std::mt19937_64 random(1);
  RowBuilder row(schema);
  BatchBuilder builder;
  int32_t first_day = *parse_date("2020-01-01");
  for (size_t i = 0; i < rows; ++i) {
    row.set_int(0, static_cast<int64_t>(i) * 7919);
    row.set_string(1, kRegions[random() % 10]);
    row.set_double(2, static_cast<double>(random() % 1000000) / 100);
    row.set_decimal(3, static_cast<int128>(random() % 100000000) - 50000000);
    row.set_int(4, first_day + static_cast<int32_t>(random() % 2000));
    builder.add_row(row.finish(), 1);
  }
  return builder.finish();
}

// The best of kRepeats runs, in seconds; `run` returns the bytes it wrote.
template <typename Run>
double best_seconds(Run&& run, size_t* bytes) {
  double best = 1e300;
  for (int i = 0; i < kRepeats; ++i) {
    auto start = Clock::now();
    *bytes = run();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

size_t encode_freshet(const Batch& batch, const Schema& schema, std::string* out) {
  out->clear();
  format::append_insert_delete(batch, schema, out);
  return out->size();
}

// What one would write first: a format string per row.
size_t encode_naive(const Batch& batch, const Schema& schema, std::string* out) {
  out->clear();
  char record[512];
  for (BatchCursor cursor(batch); cursor.valid(); cursor.next()) {
    RowReader row(schema, cursor.key());
    std::string region(row.get_string(1));
    int length = std::snprintf(record, sizeof record,
                               "%s{\"insert\":{\"id\":%lld,\"region\":\"%s\",\"total\":%.17g,\"amount\":%s,"
                               "\"day\":\"%s\"}}",
                               out->empty() ? "" : ",", static_cast<long long>(row.get_int(0)), region.c_str(),
                               row.get_double(2), decimal_to_string(row.get_decimal(3), 2).c_str(),
                               format_date(static_cast<int32_t>(row.get_int(4))).c_str());
    out->append(record, static_cast<size_t>(length));
  }
  return out->size();
}

void report(const char* name, size_t rows, size_t bytes, double seconds, double freshet_seconds) {
  std::printf("%-28s %8.1f ms %8.2f M rows/s %8.1f MB/s %8.2fx freshet's time\n", name, seconds * 1e3,
              static_cast<double>(rows) / seconds / 1e6, static_cast<double>(bytes) / seconds / 1e6,
              seconds / freshet_seconds);
}

}  // namespace

int main(int argc, char** argv) {
  size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
  Schema schema = orders_schema();
  BatchPtr view = make_view(schema, rows);

  std::string out;
  size_t freshet_bytes = 0, naive_bytes = 0, copy_bytes = 0;
  double freshet_s = best_seconds([&] { return encode_freshet(*view, schema, &out); }, &freshet_bytes);
  std::string sample = out.substr(0, std::min<size_t>(out.size(), 160));
  double naive_s = best_seconds([&] { return encode_naive(*view, schema, &out); }, &naive_bytes);
  std::string source(freshet_bytes, 'x'), copy;
  double copy_s = best_seconds(
      [&] {
        copy.assign(source);
        return copy.size();
      },
      &copy_bytes);

  std::printf("snapshot of %zu rows as insert records, best of %d runs (output %.1f MB, %.1f bytes/row)\n",
              rows, kRepeats, static_cast<double>(freshet_bytes) / 1e6,
              static_cast<double>(freshet_bytes) / static_cast<double>(rows));
  std::printf("sample: %s...\n\n", sample.c_str());
  report("freshet append_insert_delete", rows, freshet_bytes, freshet_s, freshet_s);
  report("baseline: snprintf per row", rows, naive_bytes, naive_s, freshet_s);
  report("floor: memcpy of the output", rows, copy_bytes, copy_s, freshet_s);
  return 0;
}
