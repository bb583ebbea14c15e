// SHA-256 digests as lowercase hex, from OpenSSL's EVP interface: of text, and of a file read in
// chunks (an engine binary or a journal is never held in memory whole).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "referee/rules/expected.h"

namespace kalah::integrity {

// A digest fed piece by piece.
class Sha256 {
 public:
  Sha256();
  Sha256(Sha256&&) noexcept;
  Sha256& operator=(Sha256&&) noexcept;
  ~Sha256();

  void update(std::string_view data);
  // The 64 hex digits of everything fed so far; the object is spent afterwards.
  std::string hex();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

std::string sha256_hex(std::string_view data);
// A regular file's digest, never through a link as its last component unless `follow_link` (an engine
// the organiser named may be one), never of a FIFO, device or /proc file, never past 4 GiB. Errors
// name the path.
inline constexpr std::uintmax_t kMaxDigestedFile = 4ull << 30;
Expected<std::string> sha256_file(const std::filesystem::path& file, bool follow_link = false);

}  // namespace kalah::integrity
