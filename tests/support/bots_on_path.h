// The build's bundled bots first on PATH while an object of this type lives: the arena finds "kalah-random" beside
// itself, and a test that reads a config naming one (it is not the arena) finds it the same way. The PATH it found
// is put back when the object goes.
#pragma once

#include <cstdlib>
#include <string>

namespace kalah::test {

class BundledBotsOnPath {
 public:
  explicit BundledBotsOnPath(const std::string& bots_dir) {
    const char* path = std::getenv("PATH");
    saved_ = path ? path : "";
    ::setenv("PATH", (bots_dir + ":" + saved_).c_str(), 1);
  }
  ~BundledBotsOnPath() { ::setenv("PATH", saved_.c_str(), 1); }
  BundledBotsOnPath(const BundledBotsOnPath&) = delete;
  BundledBotsOnPath& operator=(const BundledBotsOnPath&) = delete;

 private:
  std::string saved_;
};

}  // namespace kalah::test
