#include "arena/season/tokens.h"

#include <openssl/rand.h>

#include <array>

#include "arena/integrity/sha256.h"
#include "arena/season/roster.h"
#include "arena/serve/access.h"
#include "referee/system/untrusted_files.h"

namespace kalah::season {

Expected<std::string> new_token() {
  std::array<unsigned char, kTokenBytes> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1)
    return Error{"the random source (OpenSSL RAND_bytes) failed: no token made"};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::string token_hash(std::string_view token) { return integrity::sha256_hex(token); }

Expected<TokenTable> TokenTable::read(const std::filesystem::path& file) {
  Expected<std::string> text = system::read_regular_file(file, 4u << 20);
  if (!text) return Error{text.error()};
  std::vector<std::pair<std::string, std::string>> hashes;
  std::string_view rest = *text;
  for (std::size_t number = 1; !rest.empty(); ++number) {
    const std::size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t space = line.find(' ');
    const std::string_view author = line.substr(0, space);
    const std::string_view hash = space == std::string_view::npos ? std::string_view{} : line.substr(space + 1);
    if (!valid_author(author) || hash.size() != 64 || hash.find_first_not_of("0123456789abcdef") != std::string::npos)
      return Error{file.string() + ":" + std::to_string(number) + ": not `AUTHOR SHA256` (64 lowercase hex digits)"};
    hashes.emplace_back(author, hash);
  }
  if (hashes.empty()) return Error{file.string() + ": no authors"};
  return TokenTable(std::move(hashes));
}

std::string TokenTable::text(const std::vector<std::pair<std::string, std::string>>& hashes) {
  std::string out = "# AUTHOR SHA256-of-token: written by `arena season init`; the tokens themselves are not kept\n";
  for (const auto& [author, hash] : hashes) out += author + " " + hash + "\n";
  return out;
}

std::optional<std::string> TokenTable::author_of(std::string_view token) const {
  const std::string digest = token_hash(token);
  // Every author's digest is compared, whichever matches: the time tells nothing of who it was.
  std::optional<std::string> found;
  for (const auto& [author, hash] : hashes_)
    if (serve::same_token(digest, hash) && !found) found = author;
  return found;
}

bool TokenTable::has_author(std::string_view author) const {
  for (const auto& entry : hashes_)
    if (entry.first == author) return true;
  return false;
}

std::vector<std::string> TokenTable::authors() const {
  std::vector<std::string> out;
  for (const auto& entry : hashes_) out.push_back(entry.first);
  return out;
}

}  // namespace kalah::season
