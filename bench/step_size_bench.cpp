// Big steps against small ones, and the steps after a big load (issue 21):
//   - "big steps as fast as small ones": N orders loaded into the keyed
//     orders program (PRIMARY KEY tables, as the npm package's users write
//     it) in one push + one step, and in steps of 10,000 rows, in turns in
//     one run (the order alternates each round); the ratio of the medians;
//   - the user-shaped run natively: one load step, then single-row inserts
//     and upserts, each stepped: p50 / p99 / max per change and how many took
//     over 4 ms (a merge of a whole trace in one step shows up there), and
//     the p50 of the inserts and of the upserts apart.
//
//   usage: step_size_bench [orders=200000] [rounds=5] [changes=100000] [one|steps]
//   (FRESHET_SQL_FILE=program.sql: that program instead, over the same tables)
//   (rounds 0: the second part only; changes 0: the first part only; a 4th
//   argument loads only one way, for a profiler)
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "freshet/sql/compiler.h"
#include "orders_circuit.h"
#include "orders_workload.h"

namespace {

using namespace freshet::bench;
using freshet::RowRef;

const char* kKeyedProgram = R"(
CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, region VARCHAR);
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, amount DOUBLE);
CREATE VIEW by_region AS
  SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS total
  FROM orders o JOIN customers c ON o.customer = c.id
  GROUP BY c.region;
)";

struct Program {
  std::unique_ptr<freshet::sql::CompiledProgram> program;
  Program() {
    std::string sql = kKeyedProgram;
    if (const char* file = std::getenv("FRESHET_SQL_FILE")) {
      // Another program over the same two tables (the 20-view dashboard's:
      // bench/js/dashboard20_program.mjs's PROGRAM_SQL written to a file).
      FILE* f = std::fopen(file, "r");
      if (!f) {
        std::fprintf(stderr, "cannot read %s\n", file);
        std::exit(1);
      }
      sql.clear();
      char buffer[4096];
      size_t n;
      while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) sql.append(buffer, n);
      std::fclose(f);
    }
    auto compiled = freshet::sql::compile_program(sql);
    if (!compiled.ok()) {
      std::fprintf(stderr, "%s\n", compiled.status().to_string().c_str());
      std::exit(1);
    }
    program = std::move(*compiled);
  }
  void upsert(const char* table, const std::string& row) {
    program->find_table(table)->upsert_input->push_upsert(RowRef(row));
  }
  void reserve(const char* table, size_t rows) { program->find_table(table)->upsert_input->reserve_pending(rows); }
  void step() {
    if (!program->circuit->step().ok()) std::abort();
  }
};

// This thread's CPU time in ns (CLOCK_THREAD_CPUTIME_ID: what the scheduler
// ran it for, not the wall clock).
double thread_cpu_nanos() {
  timespec t{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return -1;  // not everywhere (Emscripten)
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

double ms_since(Clock::time_point begin) {
  return std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
}

// A fresh program with the customers in; the orders' rows encoded up front
// (encoding is not the engine's work).
struct Loaded {
  Program p;
  explicit Loaded(freshet::examples::OrdersCircuit& rows) {
    for (int c = 0; c < kCustomers; ++c)
      p.upsert("customers", rows.customer_row(c, "region-" + std::to_string(c % kRegions)));
    p.step();
  }
};

// This process's CPU time and page faults so far: on a machine shared with
// other work, wall time counts the waits for a core too, and a fault on
// fresh memory is a large part of a big step's cost in a VM.
struct Usage {
  double cpu_ms = 0, faults = 0;
  static Usage now() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto ms = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3; };
    return {ms(u.ru_utime) + ms(u.ru_stime), static_cast<double>(u.ru_minflt + u.ru_majflt)};
  }
  Usage operator-(const Usage& o) const { return {cpu_ms - o.cpu_ms, faults - o.faults}; }
};

struct LoadTime {
  double wall_ms;
  Usage usage;
};

LoadTime timed_load(const std::vector<std::string>& orders, size_t step_rows, freshet::examples::OrdersCircuit& rows) {
  Loaded l(rows);
  const Usage before = Usage::now();
  auto begin = Clock::now();
  for (size_t i = 0; i < orders.size(); ++i) {
    // As Pipeline::ingest does: room for the step's operations up front.
    if (i % step_rows == 0) l.p.reserve("orders", std::min(step_rows, orders.size() - i));
    l.p.upsert("orders", orders[i]);
    if ((i + 1) % step_rows == 0 || i + 1 == orders.size()) l.p.step();
  }
  const double wall = ms_since(begin);
  return {wall, Usage::now() - before};
}

// Where a load's time goes: the pushes (outside step()) and each
// operator's evaluation, timed by the circuit (one clock read per operator
// and step, which a load of 20 steps does not feel).
struct Breakdown {
  double push_ms = 0, step_ms = 0;
  std::vector<std::pair<std::string, double>> operators;  // name, ms
};

Breakdown load_breakdown(const std::vector<std::string>& orders, size_t step_rows, freshet::examples::OrdersCircuit& rows) {
  Loaded l(rows);
  freshet::Circuit& circuit = *l.p.program->circuit;
  circuit.set_timing(true);
  Breakdown b;
  for (size_t i = 0; i < orders.size();) {
    const size_t end = std::min(orders.size(), i + step_rows);
    auto begin = Clock::now();
    l.p.reserve("orders", end - i);
    for (; i < end; ++i) l.p.upsert("orders", orders[i]);
    b.push_ms += ms_since(begin);
    begin = Clock::now();
    l.p.step();
    b.step_ms += ms_since(begin);
  }
  for (size_t k = 0; k < circuit.operator_count(); ++k) {
    b.operators.emplace_back(circuit.operator_at(k).name(), static_cast<double>(circuit.time_of(k).total_nanos) / 1e6);
  }
  return b;
}

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return x[x.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const size_t orders = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  const size_t changes = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 100000;
  const std::string only = argc > 4 ? argv[4] : "";
  freshet::examples::OrdersCircuit rows;
  Workload work(orders);
  std::vector<std::string> encoded;
  for (const Order& o : work.load) encoded.push_back(rows.order_row(o.id, o.customer, o.amount));

  std::vector<LoadTime> one, small;
  if (rounds > 0) {
    for (int round = 0; round < rounds; ++round) {
      for (int turn = 0; turn < 2; ++turn) {
        const bool big = (turn == 0) == (round % 2 == 0);
        if (!only.empty() && big != (only == "one")) continue;
        (big ? one : small).push_back(timed_load(encoded, big ? orders : kLoadChunk, rows));
      }
    }
    auto medians = [](const std::vector<LoadTime>& t) {
      std::vector<double> wall, cpu, faults;
      for (const LoadTime& x : t) {
        wall.push_back(x.wall_ms);
        cpu.push_back(x.usage.cpu_ms);
        faults.push_back(x.usage.faults);
      }
      return std::array<double, 3>{median(wall), median(cpu), median(faults)};
    };
    std::printf("load of %zu orders (keyed program), ms per round (wall / cpu, page faults):\n", orders);
    for (int big = 1; big >= 0; --big) {
      const std::vector<LoadTime>& t = big ? one : small;
      if (t.empty()) continue;
      std::printf(big ? "  one step       " : "  steps of %-5d ", kLoadChunk);
      for (const LoadTime& x : t) std::printf(" %.1f/%.1f,%.0f", x.wall_ms, x.usage.cpu_ms, x.usage.faults);
      const auto m = medians(t);
      std::printf("   median %.1f/%.1f,%.0f\n", m[0], m[1], m[2]);
    }
    if (!one.empty() && !small.empty()) {
      const auto a = medians(one), b = medians(small);
      std::printf("  median one / steps: wall %.2f, cpu %.2f  (target <= 1.00)\n", a[0] / b[0], a[1] / b[1]);
    }
    if (only.empty()) {
      const Breakdown a = load_breakdown(encoded, orders, rows), b = load_breakdown(encoded, kLoadChunk, rows);
      std::printf("where a load's time goes (ms, one step / steps of %d, one load each):\n", kLoadChunk);
      std::printf("  %-28s %8.1f %8.1f\n", "pushes (outside step)", a.push_ms, b.push_ms);
      std::printf("  %-28s %8.1f %8.1f\n", "steps", a.step_ms, b.step_ms);
      for (size_t k = 0; k < a.operators.size(); ++k) {
        if (a.operators[k].second + b.operators[k].second < 0.5) continue;
        std::printf("    #%-2zu %-23s %8.1f %8.1f\n", k, a.operators[k].first.c_str(), a.operators[k].second,
                    b.operators[k].second);
      }
    }
  }
  if (changes == 0) return 0;

  // The user-shaped run: one load step, then single-row inserts and upserts.
  Loaded l(rows);
  auto begin = Clock::now();
  l.p.reserve("orders", encoded.size());
  for (const std::string& row : encoded) l.p.upsert("orders", row);
  l.p.step();
  const double load_ms = ms_since(begin);
  const double loaded_mib = static_cast<double>(l.p.program->circuit->state_bytes()) / (1 << 20);
  std::mt19937_64 random(7);
  std::vector<double> nanos, cpu_nanos;
  for (size_t i = 0; i < changes; ++i) {
    const int64_t id = i % 2 == 0 ? static_cast<int64_t>(orders + i) : static_cast<int64_t>(random() % orders);
    std::string row = rows.order_row(id, static_cast<int64_t>(random() % kCustomers), amount_for(random));
    const double cpu_start = thread_cpu_nanos();
    auto start = Clock::now();
    l.p.upsert("orders", row);
    l.p.step();
    nanos.push_back(std::chrono::duration<double, std::nano>(Clock::now() - start).count());
    cpu_nanos.push_back(thread_cpu_nanos() - cpu_start);
  }
  // The slowest changes by index: a spike of the engine's recurs at the same
  // index run after run, a wait for a core does not (nor is it in CPU time).
  auto print_slowest = [](const char* label, const std::vector<double>& times) {
    std::vector<size_t> slowest(times.size());
    for (size_t i = 0; i < slowest.size(); ++i) slowest[i] = i;
    const size_t shown = std::min<size_t>(12, slowest.size());
    std::partial_sort(slowest.begin(), slowest.begin() + shown, slowest.end(),
                      [&](size_t a, size_t b) { return times[a] > times[b]; });
    std::sort(slowest.begin(), slowest.begin() + shown);
    std::printf("slowest%s (change: ms)", label);
    for (size_t i = 0; i < shown; ++i) std::printf(" #%zu %.2f", slowest[i], times[slowest[i]] / 1e6);
    std::printf("\n");
  };
  print_slowest("", nanos);
  print_slowest(" in thread CPU time", cpu_nanos);
  // Inserts (even changes) and upserts (odd) apart: half the changes are
  // each kind, so the p50 of all of them is where the slower inserts meet
  // the faster upserts (user_shaped.mjs --phases splits them so in wasm).
  auto p50_of_kind = [&](size_t parity) {
    std::vector<double> kind;
    for (size_t i = parity; i < nanos.size(); i += 2) kind.push_back(nanos[i]);
    return kind.empty() ? 0.0 : percentiles(std::move(kind)).p50_us;
  };
  std::printf("p50 by kind: inserts %.2f µs, upserts %.2f µs\n", p50_of_kind(0), p50_of_kind(1));
  std::sort(nanos.begin(), nanos.end());
  const size_t spikes =
      static_cast<size_t>(std::count_if(nanos.begin(), nanos.end(), [](double n) { return n > 4e6; }));
  double mean = 0;
  for (double n : nanos) mean += n / static_cast<double>(nanos.size());
  std::printf(
      "user-shaped, native: load %.1f ms in one step; %zu single-row inserts/upserts: p50 %.2f µs, mean %.2f µs, "
      "p99 %.2f µs, max %.2f ms, %zu over 4 ms\n",
      load_ms, changes, nanos[nanos.size() / 2] / 1000, mean / 1000, nanos[nanos.size() * 99 / 100] / 1000,
      nanos.back() / 1e6, spikes);
  // The same changes in this thread's CPU time: a wait for a core (another
  // process ran) is not in it, the engine's own work (a merge) is. On a
  // loaded machine this tells the engine's spikes from the scheduler's.
  std::sort(cpu_nanos.begin(), cpu_nanos.end());
  if (thread_cpu_nanos() >= 0) {
    const size_t cpu_spikes =
        static_cast<size_t>(std::count_if(cpu_nanos.begin(), cpu_nanos.end(), [](double n) { return n > 4e6; }));
    std::printf("  in thread CPU time (includes ~0.3 µs per clock read): p50 %.2f µs, p99 %.2f µs (%.1fx p50), max %.2f ms, %zu over 4 ms\n",
                cpu_nanos[cpu_nanos.size() / 2] / 1000, cpu_nanos[cpu_nanos.size() * 99 / 100] / 1000,
                cpu_nanos[cpu_nanos.size() * 99 / 100] / cpu_nanos[cpu_nanos.size() / 2], cpu_nanos.back() / 1e6,
                cpu_spikes);
  }
  std::printf("state: %.2f MiB after the load, %.2f MiB after the changes\n", loaded_mib,
              static_cast<double>(l.p.program->circuit->state_bytes()) / (1 << 20));
  return 0;
}
