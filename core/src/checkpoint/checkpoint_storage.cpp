#include "freshet/checkpoint/checkpoint_storage.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace freshet {
namespace {

Status bad_name(const std::string& name) {
  return Status(ErrorCode::kInvalidArgument, "blob name '" + name + "' must be non-empty without '/' or '\\\\'");
}

bool valid_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find_first_of("/\\") == std::string::npos;
}

}  // namespace

Status MemoryCheckpointStorage::put(const std::string& name, const std::string& bytes) {
  blobs_[name] = bytes;
  return Status::OK();
}

Result<std::string> MemoryCheckpointStorage::get(const std::string& name) {
  auto it = blobs_.find(name);
  if (it == blobs_.end()) return Status(ErrorCode::kStorageError, "no blob '" + name + "'");
  return it->second;
}

Result<std::vector<std::string>> MemoryCheckpointStorage::list(const std::string& prefix) {
  std::vector<std::string> names;
  for (auto it = blobs_.lower_bound(prefix); it != blobs_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    names.push_back(it->first);
  }
  return names;
}

Status MemoryCheckpointStorage::remove(const std::string& name) {
  blobs_.erase(name);
  return Status::OK();
}

Status FileCheckpointStorage::put(const std::string& name, const std::string& bytes) {
  if (!valid_name(name)) return bad_name(name);
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error) return Status(ErrorCode::kStorageError, "cannot create '" + directory_ + "': " + error.message());
  std::string temporary = path_of(name) + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) return Status(ErrorCode::kStorageError, "cannot write '" + temporary + "'");
  }
  std::filesystem::rename(temporary, path_of(name), error);
  if (error) return Status(ErrorCode::kStorageError, "cannot rename '" + temporary + "': " + error.message());
  return Status::OK();
}

Result<std::string> FileCheckpointStorage::get(const std::string& name) {
  if (!valid_name(name)) return bad_name(name);
  std::ifstream in(path_of(name), std::ios::binary);
  if (!in) return Status(ErrorCode::kStorageError, "cannot read '" + path_of(name) + "'");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return Status(ErrorCode::kStorageError, "error reading '" + path_of(name) + "'");
  return std::move(bytes).str();
}

Result<std::vector<std::string>> FileCheckpointStorage::list(const std::string& prefix) {
  std::vector<std::string> names;
  std::error_code error;
  if (!std::filesystem::exists(directory_, error)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(directory_, error)) {
    std::string name = entry.path().filename().string();
    bool temporary = name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0;
    if (!temporary && name.compare(0, prefix.size(), prefix) == 0) names.push_back(name);
  }
  if (error) return Status(ErrorCode::kStorageError, "cannot list '" + directory_ + "': " + error.message());
  std::sort(names.begin(), names.end());
  return names;
}

Status FileCheckpointStorage::remove(const std::string& name) {
  if (!valid_name(name)) return bad_name(name);
  std::error_code error;
  std::filesystem::remove(path_of(name), error);
  if (error) return Status(ErrorCode::kStorageError, "cannot remove '" + path_of(name) + "': " + error.message());
  return Status::OK();
}

}  // namespace freshet
