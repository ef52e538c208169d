// Benchmarks of the SQL front end (issue 3):
//   - per-change latency of the orders view written in SQL, against the same
//     view wired by hand from the core's operators (examples/orders_circuit),
//     measured in the same run on the same workload (orders_workload.h);
//   - compile time of a program of 20 views.
//
//   usage: sql_bench [orders]      default: 200000
#include <cstdio>
#include <cstdlib>
#include <string>

#include "freshet/sql/compiler.h"
#include "freshet/zset/cursor.h"
#include "orders_circuit.h"
#include "orders_workload.h"

namespace {

using namespace freshet::bench;
using freshet::RowRef;

// The orders view in SQL. `orders` has no PRIMARY KEY here, so an update is
// the same delete + insert the hand-built circuit gets; the keyed variant
// below adds the upsert table's own state.
const char* kProgram = R"(
CREATE TABLE customers (id BIGINT NOT NULL, region VARCHAR);
CREATE TABLE orders (id BIGINT NOT NULL, customer BIGINT, amount DOUBLE);
CREATE VIEW by_region AS
  SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS total
  FROM orders o JOIN customers c ON o.customer = c.id
  GROUP BY c.region;
)";

const char* kKeyedProgram = R"(
CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, region VARCHAR);
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, amount DOUBLE);
CREATE VIEW by_region AS
  SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS total
  FROM orders o JOIN customers c ON o.customer = c.id
  GROUP BY c.region;
)";

// A compiled SQL program as an Engine of orders_workload.h.
struct SqlEngine {
  std::unique_ptr<freshet::sql::CompiledProgram> program;
  const freshet::sql::CompiledTable* customers;
  const freshet::sql::CompiledTable* orders;
  const freshet::sql::CompiledView* view;

  explicit SqlEngine(const char* text) {
    auto compiled = freshet::sql::compile_program(text);
    if (!compiled.ok()) {
      std::fprintf(stderr, "%s\n", compiled.status().to_string().c_str());
      std::exit(1);
    }
    program = std::move(*compiled);
    customers = program->find_table("customers");
    orders = program->find_table("orders");
    view = program->find_view("by_region");
  }
  // An upsert or a delete by row for a PRIMARY KEY table, a Z-set update otherwise.
  static void push(const freshet::sql::CompiledTable& table, const std::string& row, freshet::Weight weight) {
    if (!table.upsert_input) {
      table.input->push_row(RowRef(row), weight);
    } else if (weight > 0) {
      table.upsert_input->push_upsert(RowRef(row));
    } else {
      table.upsert_input->push_delete_row(RowRef(row));
    }
  }
  void push_customer(const std::string& row) { push(*customers, row, 1); }
  void push_order(const std::string& row, freshet::Weight weight) { push(*orders, row, weight); }
  void step() {
    if (!program->circuit->step().ok()) std::abort();
  }
  const freshet::Batch& delta() const { return *view->stream.current(); }
  size_t state_bytes() const { return program->circuit->state_bytes(); }
};

// The workload on a compiled program; `keyed` sends updates as upserts.
EngineResult run_sql(const char* program_text, const Workload& work, bool keyed) {
  SqlEngine engine(program_text);
  return run_workload(engine, work, keyed);
}

// A program of 20 views over three tables: filters, projections, joins,
// aggregates, DISTINCT, UNION, EXCEPT, top-k and views on views.
std::string twenty_views() {
  std::string sql = R"(
CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR, region VARCHAR, since DATE);
CREATE TABLE products (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR, price DECIMAL(10, 2), category VARCHAR);
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, product BIGINT, quantity INT, placed TIMESTAMP);
)";
  const char* views[] = {
      "SELECT * FROM orders WHERE quantity > 10",
      "SELECT id, UPPER(name) AS name, region FROM customers WHERE region IS NOT NULL",
      "SELECT o.id, c.name, o.quantity FROM orders o JOIN customers c ON o.customer = c.id",
      "SELECT c.region, COUNT(*) AS n, SUM(o.quantity) AS q FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region",
      "SELECT p.category, SUM(p.price * o.quantity) AS revenue FROM orders o JOIN products p ON o.product = p.id GROUP BY p.category",
      "SELECT category, MIN(price) AS low, MAX(price) AS high, AVG(price) AS mean FROM products GROUP BY category",
      "SELECT DISTINCT region FROM customers",
      "SELECT customer, COUNT(DISTINCT product) AS products FROM orders GROUP BY customer",
      "SELECT c.id, c.name, o.id AS order_id FROM customers c LEFT JOIN orders o ON o.customer = c.id",
      "SELECT id FROM customers EXCEPT SELECT customer FROM orders",
      "SELECT name FROM customers UNION SELECT name FROM products",
      "SELECT id, quantity FROM orders ORDER BY quantity DESC LIMIT 10",
      "SELECT EXTRACT(YEAR FROM placed) AS y, COUNT(*) AS n FROM orders GROUP BY EXTRACT(YEAR FROM placed)",
      "SELECT id, CASE WHEN quantity > 100 THEN 'bulk' WHEN quantity > 10 THEN 'large' ELSE 'small' END AS size FROM orders",
      "SELECT region, n FROM v3 WHERE n > 5",
      "SELECT category, revenue FROM v4 WHERE revenue > 1000.00",
      "SELECT o.id, p.name FROM orders o JOIN products p ON o.product = p.id AND o.quantity > 2 WHERE p.price BETWEEN 1 AND 100",
      "SELECT name, CHAR_LENGTH(name) AS len FROM products WHERE name LIKE 'a%'",
      "SELECT customer, SUM(quantity) AS total FROM orders GROUP BY customer HAVING SUM(quantity) > 50",
      "SELECT COALESCE(region, 'none') AS region, COUNT(*) AS n FROM customers GROUP BY COALESCE(region, 'none')",
  };
  for (int i = 0; i < 20; ++i) sql += "CREATE VIEW v" + std::to_string(i) + " AS " + views[i] + ";\n";
  return sql;
}

}  // namespace

int main(int argc, char** argv) {
  size_t orders = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000;
  Workload work(orders);
  EngineResult hand = run_hand_built(work);
  EngineResult sql = run_sql(kProgram, work, false);
  EngineResult keyed = run_sql(kKeyedProgram, work, true);
  std::printf("orders view, %zu orders, %d single-row changes (alternating insert / update)\n\n", orders, kChanges);
  std::printf("%-34s | %8s %8s | %9s | %s\n", "", "p50 us", "p99 us", "state MiB", "p50 vs hand-built");
  auto line = [&](const char* name, const EngineResult& r) {
    std::printf("%-34s | %8.2f %8.2f | %9.1f | %.2fx\n", name, r.latency.p50_us, r.latency.p99_us,
                static_cast<double>(r.state_bytes) / (1 << 20), r.latency.p50_us / hand.latency.p50_us);
  };
  line("hand-built circuit (baseline)", hand);
  line("SQL, same tables", sql);
  line("SQL, PRIMARY KEY tables (upserts)", keyed);

  std::string program = twenty_views();
  constexpr int kRounds = 20;
  auto start = Clock::now();
  for (int i = 0; i < kRounds; ++i) {
    auto compiled = freshet::sql::compile_program(program);
    if (!compiled.ok()) {
      std::fprintf(stderr, "%s\n", compiled.status().to_string().c_str());
      return 1;
    }
  }
  double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count() / kRounds;
  std::printf("\ncompile a program of 3 tables and 20 views: %.2f ms (mean of %d)\n", ms, kRounds);
  return 0;
}
