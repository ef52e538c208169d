// Test support: a program compiled with sharing on or off (plan_sharing.h),
// for the tests that compare the two ways.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "freshet/sql/compiler.h"

namespace freshet::testing {

//! `sql` compiled with sub-plans shared or not (and arrangements and maps
//! shared or not, when `share_arrangements` says); null, with a test
//! failure, when it does not compile.
inline std::unique_ptr<sql::CompiledProgram> compile_sharing(const std::string& sql, bool share,
                                                             bool share_arrangements = true) {
  sql::CompileOptions options;
  options.share_subplans = share;
  options.share_arrangements = share_arrangements;
  auto compiled = sql::compile_program(sql, options);
  EXPECT_TRUE(compiled.ok()) << compiled.status().to_string();
  return compiled.ok() ? std::move(*compiled) : nullptr;
}

}  // namespace freshet::testing
