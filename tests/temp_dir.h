// Files in tests: a fresh directory for one test (removed with everything in it when the test is
// done) and the whole text of a file.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include "referee/system/temp_folder.h"

namespace kalah::test {

// The product's own temporary folder (referee/system/temp_folder.h), which a test cannot do without.
class TempDir : public system::TempFolder {
 public:
  explicit TempDir(const std::string& purpose = "kalah-test") : system::TempFolder(purpose) {
    if (path().empty()) throw std::runtime_error(error());
  }
};

// The whole content of `path` ("" if it cannot be read).
inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace kalah::test
