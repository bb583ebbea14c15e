#include "referee/system/temp_folder.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "referee/system/untrusted_files.h"

namespace kalah::system {

TempFolder::TempFolder(std::string_view prefix) : TempFolder(prefix, std::nothrow) {
  if (path_.empty()) throw std::runtime_error(error_);
}

TempFolder::TempFolder(std::string_view prefix, const std::nothrow_t&) {
  std::error_code ec;
  const std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  std::string pattern = ((ec ? std::filesystem::path("/tmp") : base) / (std::string(prefix) + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) != nullptr)
    path_ = pattern;
  else
    error_ = "cannot create a temporary folder " + pattern + ": " + std::strerror(errno);
}

TempFolder::TempFolder(TempFolder&& other) noexcept { *this = std::move(other); }

TempFolder& TempFolder::operator=(TempFolder&& other) noexcept {
  if (this == &other) return *this;
  if (!path_.empty()) remove_tree(path_);
  path_ = std::exchange(other.path_, {});
  error_ = std::exchange(other.error_, {});
  return *this;
}

TempFolder::~TempFolder() {
  if (!path_.empty()) remove_tree(path_);
}

}  // namespace kalah::system
