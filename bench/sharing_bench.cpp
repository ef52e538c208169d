// Benchmark of sharing (issue 17, core/src/sql/plan_sharing.h): ten views
// over one join, orders ⋈ customers, each a different filter, aggregate or
// projection of it, compiled with sharing and without. Reports the state
// the circuit keeps (all of it, and the part in join traces), and the
// per-change latency of the orders workload (orders_workload.h) through
// all ten views. Target: the shared join's state counted once.
//
//   usage: sharing_bench [orders]      default: 200000
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "freshet/sql/compiler.h"
#include "freshet/zset/cursor.h"
#include "orders_workload.h"

namespace {

using namespace freshet::bench;
using freshet::RowRef;

const char* kProgram = R"(
CREATE TABLE customers (id BIGINT NOT NULL, region VARCHAR);
CREATE TABLE orders (id BIGINT NOT NULL, customer BIGINT, amount DOUBLE);
CREATE VIEW by_region AS SELECT c.region, COUNT(*) AS n, SUM(o.amount) AS total
  FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;
CREATE VIEW big AS SELECT o.id, c.region FROM orders o JOIN customers c ON o.customer = c.id WHERE o.amount > 990;
CREATE VIEW joined_count AS SELECT COUNT(*) AS n FROM orders o JOIN customers c ON o.customer = c.id;
CREATE VIEW region_max AS SELECT c.region, MAX(o.amount) AS top
  FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;
CREATE VIEW per_customer AS SELECT c.id, SUM(o.amount) AS total
  FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.id;
CREATE VIEW regions AS SELECT DISTINCT c.region FROM orders o JOIN customers c ON o.customer = c.id;
CREATE VIEW small AS SELECT o.id, o.amount FROM orders o JOIN customers c ON o.customer = c.id WHERE o.amount < 10;
CREATE VIEW region_avg AS SELECT c.region, AVG(o.amount) AS mean
  FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;
CREATE VIEW top AS SELECT o.id, o.amount FROM orders o JOIN customers c ON o.customer = c.id
  ORDER BY amount DESC LIMIT 10;
CREATE VIEW region_3 AS SELECT o.id, o.customer FROM orders o JOIN customers c ON o.customer = c.id
  WHERE c.region = 'region-3';
)";

// The ten-view program as an Engine of orders_workload.h; delta() is the
// first view's, and every view's delta is read after each step.
struct TenViews {
  std::unique_ptr<freshet::sql::CompiledProgram> program;
  const freshet::sql::CompiledTable* customers;
  const freshet::sql::CompiledTable* orders;
  int64_t rows_seen = 0;

  explicit TenViews(bool share) {
    freshet::sql::CompileOptions options;
    options.share_subplans = share;
    auto compiled = freshet::sql::compile_program(kProgram, options);
    if (!compiled.ok()) {
      std::fprintf(stderr, "%s\n", compiled.status().to_string().c_str());
      std::exit(1);
    }
    program = std::move(*compiled);
    customers = program->find_table("customers");
    orders = program->find_table("orders");
  }
  void push_customer(const std::string& row) { customers->input->push_row(RowRef(row), 1); }
  void push_order(const std::string& row, freshet::Weight weight) { orders->input->push_row(RowRef(row), weight); }
  void step() {
    if (!program->circuit->step().ok()) std::abort();
    for (const auto& view : program->views) rows_seen += static_cast<int64_t>(view.stream.current()->size());
  }
  const freshet::Batch& delta() const { return *program->views[0].stream.current(); }
  size_t state_bytes() const { return program->circuit->state_bytes(); }

  //! State bytes per operator name, and how many operators have each name.
  std::map<std::string, std::pair<size_t, size_t>> state_by_operator() const {
    std::map<std::string, std::pair<size_t, size_t>> out;
    for (size_t i = 0; i < program->circuit->operator_count(); ++i) {
      const freshet::Operator& op = program->circuit->operator_at(i);
      auto& [bytes, count] = out[op.name()];
      bytes += op.state_bytes();
      ++count;
    }
    return out;
  }
  //! Bytes of the operators that keep joins' traces: the arrangements of
  //! their sides (arrange.h), and joins fused with their aggregates.
  size_t join_bytes() const {
    auto by = state_by_operator();
    return by["join"].first + by["join_aggregate"].first + by["arrange"].first;
  }
};

double mib(size_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

//! Mean milliseconds to compile the program (sharing binds every view again
//! to find the columns shared sub-plans keep, and keys every sub-plan).
double compile_ms(bool share) {
  constexpr int kRounds = 200;
  auto start = Clock::now();
  for (int i = 0; i < kRounds; ++i) TenViews program(share);
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count() / kRounds;
}

}  // namespace

int main(int argc, char** argv) {
  size_t orders = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000;
  Workload work(orders);
  TenViews shared(true), unshared(false);
  EngineResult with = run_workload(shared, work);
  EngineResult without = run_workload(unshared, work);

  std::printf("sharing_bench: 10 views over orders ⋈ customers, %zu orders, %d customers\n", orders, kCustomers);
  std::printf("  operators: shared %zu, unshared %zu; sub-plans reused %zu\n",
              shared.program->circuit->operator_count(), unshared.program->circuit->operator_count(),
              shared.program->reused_subplans);
  for (const TenViews* engine : {&shared, &unshared}) {
    std::printf("  %s state by operator:", engine == &shared ? "shared  " : "unshared");
    for (const auto& [name, figures] : engine->state_by_operator()) {
      if (figures.first > 0) std::printf(" %s x%zu %.2f MiB;", name.c_str(), figures.second, mib(figures.first));
    }
    std::printf("\n");
  }
  std::printf("  state: shared %.2f MiB, unshared %.2f MiB (%.2fx less)\n", mib(with.state_bytes),
              mib(without.state_bytes), static_cast<double>(without.state_bytes) / with.state_bytes);
  // Shared: the one join (and the one-row anti-join of COUNT(*)'s empty
  // input). Unshared: every view's join, fused ones with their groups.
  std::printf("  join operators: shared %.2f MiB, unshared %.2f MiB (%.2fx)\n", mib(shared.join_bytes()),
              mib(unshared.join_bytes()), static_cast<double>(unshared.join_bytes()) / shared.join_bytes());
  std::printf("  per change p50 / p99: shared %.2f / %.2f us, unshared %.2f / %.2f us (%.2fx)\n", with.latency.p50_us,
              with.latency.p99_us, without.latency.p50_us, without.latency.p99_us,
              without.latency.p50_us / with.latency.p50_us);
  std::printf("  load: shared %.0f ms, unshared %.0f ms\n", with.load_ms, without.load_ms);
  std::printf("  compile: shared %.3f ms, unshared %.3f ms\n", compile_ms(true), compile_ms(false));
  if (shared.rows_seen != unshared.rows_seen) {
    std::fprintf(stderr, "the two programs' view deltas differ in size: %lld vs %lld\n",
                 static_cast<long long>(shared.rows_seen), static_cast<long long>(unshared.rows_seen));
    return 1;
  }
  return 0;
}
