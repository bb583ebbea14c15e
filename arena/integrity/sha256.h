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
// Errors name the path ("cannot read: ...").
Expected<std::string> sha256_file(const std::filesystem::path& file);

}  // namespace kalah::integrity
