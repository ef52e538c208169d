#include "sqlite_differential_queries.h"

#include <map>

namespace freshet::testing {
namespace {

// A function-local static: registrations run during other files' static
// initialisation, in an order C++ leaves open.
std::map<std::string, std::vector<DifferentialQuery>>& groups() {
  static std::map<std::string, std::vector<DifferentialQuery>> by_name;
  return by_name;
}

}  // namespace

bool register_differential_queries(const std::string& group, std::vector<DifferentialQuery> queries) {
  std::vector<DifferentialQuery>& into = groups()[group];
  into.insert(into.end(), queries.begin(), queries.end());
  return true;
}

std::vector<DifferentialQuery> differential_queries() {
  std::vector<DifferentialQuery> all;
  for (const auto& [name, queries] : groups()) all.insert(all.end(), queries.begin(), queries.end());
  return all;
}

}  // namespace freshet::testing
