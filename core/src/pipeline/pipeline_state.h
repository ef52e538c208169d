// Helpers of the pipeline's saved state (pipeline_state.cpp).
#pragma once

#include <cstdint>
#include <string_view>

namespace freshet {

//! A hash of the program's tokens: a program reformatted or commented
//! differently is the same program; any other change makes another one.
//! `sql` must tokenize (it compiled).
uint64_t program_hash_of(std::string_view sql);

}  // namespace freshet
