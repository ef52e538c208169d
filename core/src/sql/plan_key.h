// Plan keys: a canonical text of a logical sub-plan, equal for two sub-plans
// exactly when they compute the same rows (the same node kinds over the same
// tables and views, the same expressions, keys, kept columns and types).
// Column names and aliases are left out: rows are positional, so
// `SELECT a AS x` and `SELECT a AS y` over the same input are one sub-plan.
// The planner plans each key once (plan_sharing.h).
#pragma once

#include <string>

#include "logical_plan.h"

namespace freshet::sql {

//! The key of `plan` and everything below it.
std::string plan_key(const LogicalPlan& plan);

//! The key of a bound expression: its structure with every node's type and
//! literals' exact values (Expr::to_string() drops types and rounds doubles).
std::string expression_key(const Expr& expr);

//! The key of a schema: its columns' types (nullability included), names aside.
std::string schema_key(const SchemaPtr& schema);

}  // namespace freshet::sql
