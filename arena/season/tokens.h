// The authors' upload tokens (docs/SEASON.md): made from the operating system's random source, handed out once in
// DIR/tokens.txt, kept by the season only as SHA-256 digests in DIR/tokens.sha256, and looked up in a time that
// does not depend on which author's token was given, or where a wrong one differs.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "referee/rules/expected.h"

namespace kalah::season {

inline constexpr const char* kTokensFile = "tokens.txt";          // AUTHOR TOKEN a line: the organiser's, to hand out
inline constexpr const char* kTokenHashesFile = "tokens.sha256";  // AUTHOR SHA256 a line: what the season keeps
inline constexpr std::size_t kTokenBytes = 32;                    // 256 random bits, 64 hex digits

// A new token: kTokenBytes from OpenSSL's RAND_bytes as lowercase hex. An error when the random source fails.
Expected<std::string> new_token();
// The digest the season keeps of `token`: SHA-256 as 64 lowercase hex digits.
std::string token_hash(std::string_view token);

class TokenTable {
 public:
  // Reads DIR/tokens.sha256 (a regular file, never a link, bounded): each line `AUTHOR HASH`. Errors name
  // file:line.
  static Expected<TokenTable> read(const std::filesystem::path& file);
  static std::string text(const std::vector<std::pair<std::string, std::string>>& hashes);
  explicit TokenTable(std::vector<std::pair<std::string, std::string>> hashes) : hashes_(std::move(hashes)) {}

  // The author whose token `token` is, comparing its digest with every author's in constant time each.
  std::optional<std::string> author_of(std::string_view token) const;
  bool has_author(std::string_view author) const;
  std::vector<std::string> authors() const;  // in the file's order (the roster's)
  std::size_t size() const { return hashes_.size(); }

 private:
  std::vector<std::pair<std::string, std::string>> hashes_;  // author, hash
};

}  // namespace kalah::season
