// Benchmarks of the pipeline (issue 4), on the orders table:
//   - memory of a materialized view with 0, 1 and 2 indexes (a view and its
//     first index share one trace: target <= 1.1x the view alone);
//   - a snapshot of a large view encoded to JSON through an egress stream
//     (rows/s), against encoding the same batch directly (the floor);
//   - ingest of JSON through the pipeline (records/s, MB/s), against parsing
//     alone (format::parse_json without buffering into the table).
//
//   usage: pipeline_bench [rows]     default: 200000 (use 1000000 for the 1M-row snapshot)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "freshet/format/json_output.h"
#include "freshet/pipeline/pipeline.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

const char* kTables = R"(
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT NOT NULL, amount DOUBLE);
CREATE MATERIALIZED VIEW big AS SELECT id, customer, amount FROM orders WHERE amount > 1;
)";

std::string orders_json(size_t rows) {
  std::string json = "[";
  for (size_t i = 0; i < rows; ++i) {
    if (i) json += ',';
    json += "{\"insert\":{\"id\":" + std::to_string(i) + ",\"customer\":" + std::to_string(i % 1000) +
            ",\"amount\":" + std::to_string(10 + i % 977) + ".25}}";
  }
  return json + "]";
}

std::unique_ptr<freshet::Pipeline> loaded(const std::string& indexes, const std::string& data) {
  auto pipeline = freshet::Pipeline::create(std::string(kTables) + indexes);
  if (!pipeline.ok()) {
    std::fprintf(stderr, "%s\n", pipeline.status().to_string().c_str());
    std::exit(1);
  }
  if (!(*pipeline)->ingest("orders", data).ok() || !(*pipeline)->step().ok()) std::exit(1);
  return std::move(*pipeline);
}

}  // namespace

int main(int argc, char** argv) {
  size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000;
  std::string data = orders_json(rows);
  std::printf("orders: %zu rows, %.1f MB of JSON\n\n", rows, data.size() / 1e6);

  // Memory of the view's traces (the table's own upsert state is the same in all three).
  auto none = loaded("", data);
  auto one = loaded("CREATE INDEX by_id ON big(id);", data);
  auto two = loaded("CREATE INDEX by_id ON big(id); CREATE INDEX by_customer ON big(customer);", data);
  double base = static_cast<double>(none->memory_bytes());
  std::printf("memory (whole pipeline)  no index %.1f MiB | one index %.1f MiB (%.3fx) | two indexes %.1f MiB (%.3fx)\n",
              base / (1 << 20), one->memory_bytes() / double(1 << 20), one->memory_bytes() / base,
              two->memory_bytes() / double(1 << 20), two->memory_bytes() / base);

  // Ingest: parse + buffer + step, against parsing alone.
  {
    auto start = Clock::now();
    auto pipeline = loaded("", data);
    double total = seconds_since(start);
    const freshet::sql::CompiledTable& table = *pipeline->program().find_table("orders");
    start = Clock::now();
    auto parsed = freshet::format::parse_json(data, {table.schema.get(), table.primary_key}, {});
    double parse = seconds_since(start);
    if (!parsed.ok()) return 1;
    std::printf("ingest + step            %.0f k records/s, %.0f MB/s | parse alone %.0f k records/s (%.2fx of total)\n",
                rows / total / 1e3, data.size() / total / 1e6, rows / parse / 1e3, parse / total);
  }

  // A snapshot to JSON through an egress stream, against encoding the batch directly.
  {
    auto start = Clock::now();
    uint64_t egress = *none->open_egress({"big", "", true});
    if (!none->step().ok()) return 1;
    size_t bytes = 0, records = 0;
    while (true) {
      auto chunk = none->next_chunk(egress);
      if (!chunk.ok() || !*chunk) break;
      bytes += none->egress(egress)->encode(**chunk).size();
      records += (*chunk)->records;
    }
    double through_pipeline = seconds_since(start);
    freshet::BatchPtr snapshot = *none->snapshot("big");
    start = Clock::now();
    std::string direct;
    freshet::format::append_insert_delete(*snapshot, *none->program().find_view("big")->schema, &direct);
    double floor = seconds_since(start);
    std::printf("snapshot to JSON         %.2f M rows/s, %.0f MB/s through an egress stream | direct encoding %.2f M rows/s "
                "(%.2fx)\n",
                records / through_pipeline / 1e6, bytes / through_pipeline / 1e6, records / floor / 1e6,
                through_pipeline / floor);
  }
  return 0;
}
