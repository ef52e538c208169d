// Ingest throughput (the JSON/CSV input hot path): parse N orders rows
//   {"insert":{"id":..,"customer":..,"amount":..}}
// as one JSON array and as newline-delimited JSON, and the same rows as CSV,
// into encoded rows (parse_json / parse_csv). Baselines measured in the same
// run on the same text: simdjson's DOM parse (runtime-dispatched kernel) and
// an On-Demand pass that reads every value without building rows (the
// kernel parse_json itself uses). Figures are MB/s of input and records/s,
// best of several repetitions.
//
//   usage: ingest_bench [rows]      default: 200000
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "freshet/format/json_input.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace freshet;

constexpr int kRepetitions = 5;

std::string order_json(int i) {
  return "{\"insert\":{\"id\":" + std::to_string(i) + ",\"customer\":\"customer-" + std::to_string(i % 1000) +
         "\",\"amount\":" + std::to_string(i % 100000 / 100) + "." + std::to_string(10 + i % 90) + "}}";
}

//! Best time in seconds of `kRepetitions` runs; `work` returns a count that
//! must come out as `expected` records.
double best_seconds(const std::function<size_t()>& work, size_t expected, const char* name) {
  double best = 1e30;
  for (int i = 0; i < kRepetitions; ++i) {
    auto start = Clock::now();
    size_t records = work();
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (records != expected) {
      std::fprintf(stderr, "%s: %zu records, expected %zu\n", name, records, expected);
      std::exit(1);
    }
    best = std::min(best, seconds);
  }
  return best;
}

void report(const char* name, size_t bytes, size_t records, double seconds, double baseline) {
  std::printf("  %-36s %8.1f MB/s %10.0f records/s   %5.2fx the DOM baseline's time\n", name,
              static_cast<double>(bytes) / seconds / 1e6, static_cast<double>(records) / seconds, seconds / baseline);
}

size_t dom_count(simdjson::dom::parser& parser, const simdjson::padded_string& text) {
  simdjson::dom::array records;
  if (parser.parse(text).get_array().get(records)) return 0;
  return records.size();
}

// Reads every field of every record with On-Demand, building nothing.
size_t ondemand_walk(simdjson::ondemand::parser& parser, const simdjson::padded_string& text) {
  simdjson::ondemand::document document;
  if (parser.iterate(text).get(document)) return 0;
  simdjson::ondemand::array records;
  if (document.get_array().get(records)) return 0;
  size_t count = 0;
  for (auto record : records) {
    simdjson::ondemand::object row;
    if (record.find_field("insert").get_object().get(row)) return 0;
    int64_t id = 0;
    std::string_view customer;
    double amount = 0;
    if (row["id"].get_int64().get(id) || row["customer"].get_string().get(customer) ||
        row["amount"].get_double().get(amount)) {
      return 0;
    }
    count += id >= 0 && !customer.empty() && amount >= 0;
  }
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  int rows = argc > 1 ? std::atoi(argv[1]) : 200000;
  std::string array = "[", lines, csv;
  for (int i = 0; i < rows; ++i) {
    std::string record = order_json(i);
    array += (i == 0 ? "" : ",") + record;
    lines += record + "\n";
    csv += std::to_string(i) + ",customer-" + std::to_string(i % 1000) + "," + std::to_string(i % 100000 / 100) + "." +
           std::to_string(10 + i % 90) + "\n";
  }
  array += "]";
  size_t count = static_cast<size_t>(rows);

  Schema schema({{"id", SqlType::bigint(false)}, {"customer", SqlType::varchar()}, {"amount", SqlType::decimal(12, 2)}});
  format::TableShape table{&schema, {}};
  auto parsed = [&](std::string_view data, format::InputOptions options) -> size_t {
    auto result = format::parse_json(data, table, options);
    return result.ok() ? result->size() : 0;
  };

  simdjson::padded_string padded(array);
  simdjson::dom::parser dom_parser;
  simdjson::ondemand::parser ondemand_parser;
  double dom = best_seconds([&] { return dom_count(dom_parser, padded); }, count, "dom");
  double ondemand = best_seconds([&] { return ondemand_walk(ondemand_parser, padded); }, count, "ondemand");
  double json_array = best_seconds([&] { return parsed(array, {format::UpdateFormat::kInsertDelete, true}); }, count,
                                   "parse_json array");
  double json_lines = best_seconds([&] { return parsed(lines, {format::UpdateFormat::kInsertDelete, false}); }, count,
                                   "parse_json lines");
  double csv_time = best_seconds(
      [&] {
        auto result = format::parse_csv(csv, table);
        return result.ok() ? result->size() : size_t{0};
      },
      count, "parse_csv");

  std::printf("ingest_bench: %d orders rows (id BIGINT, customer VARCHAR, amount DECIMAL(12, 2)), best of %d\n", rows,
              kRepetitions);
  std::printf("  simdjson kernel: %s (On-Demand and parse_json: %s)\n",
              simdjson::get_active_implementation()->name().c_str(), simdjson::builtin_implementation()->name().c_str());
  report("baseline: simdjson DOM parse", array.size(), count, dom, dom);
  report("baseline: On-Demand walk, no rows", array.size(), count, ondemand, dom);
  report("parse_json, one array", array.size(), count, json_array, dom);
  report("parse_json, newline-delimited", lines.size(), count, json_lines, dom);
  report("parse_csv (same rows, CSV text)", csv.size(), count, csv_time, dom);
  return 0;
}
