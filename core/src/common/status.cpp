#include "freshet/common/status.h"

namespace freshet {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "OK";
    case ErrorCode::kInvalidArgument: return "INVALID_ARGUMENT";
    case ErrorCode::kSqlError: return "SQL_ERROR";
    case ErrorCode::kParseError: return "PARSE_ERROR";
    case ErrorCode::kTypeError: return "TYPE_ERROR";
    case ErrorCode::kUnknownTable: return "UNKNOWN_TABLE";
    case ErrorCode::kUnknownView: return "UNKNOWN_VIEW";
    case ErrorCode::kUnknownIndex: return "UNKNOWN_INDEX";
    case ErrorCode::kUnknownOutput: return "UNKNOWN_OUTPUT";
    case ErrorCode::kDuplicateOutput: return "DUPLICATE_OUTPUT";
    case ErrorCode::kUnknownToken: return "UNKNOWN_TOKEN";
    case ErrorCode::kNotMaterialized: return "NOT_MATERIALIZED";
    case ErrorCode::kNotResettable: return "NOT_RESETTABLE";
    case ErrorCode::kProgramMismatch: return "PROGRAM_MISMATCH";
    case ErrorCode::kCheckpointCorrupt: return "CHECKPOINT_CORRUPT";
    case ErrorCode::kStorageError: return "STORAGE_ERROR";
    case ErrorCode::kClosed: return "CLOSED";
    case ErrorCode::kOverflow: return "OVERFLOW";
    case ErrorCode::kInternal: return "INTERNAL";
    case ErrorCode::kResumeUnavailable: return "RESUME_UNAVAILABLE";
    case ErrorCode::kLimitExceeded: return "LIMIT_EXCEEDED";
    case ErrorCode::kOutOfMemory: return "OUT_OF_MEMORY";
    case ErrorCode::kCheckpointVersion: return "CHECKPOINT_VERSION";
  }
  return "INTERNAL";
}

std::string Status::to_string() const {
  if (ok()) return "OK";
  return std::string(error_code_name(code_)) + ": " + message_;
}

}  // namespace freshet
