#include "referee/rules/certificate.h"

#include <cstdlib>

namespace kalah {
namespace {

constexpr std::string_view kHeader = "# certificate: kalah-solver solve --variant \"";
constexpr std::string_view kCertificate = "; certificate: solve --position \"";
constexpr std::string_view kGives = "\" gives ";

std::string signed_number(int v) { return (v > 0 ? "+" : "") + std::to_string(v); }

// "+2", "-2" or "0" at the start of `text`, up to a space, ';' or the end.
std::optional<int> margin_at(std::string_view text) {
  const std::string number(text.substr(0, text.find_first_of(" ;\r")));
  if (number.empty() || (number[0] != '+' && number[0] != '-' && number != "0")) return std::nullopt;
  char* end = nullptr;
  const long value = std::strtol(number.c_str(), &end, 10);
  if (*end != '\0' || value < -10000 || value > 10000) return std::nullopt;
  return static_cast<int>(value);
}

}  // namespace

std::string claim_comment(const Variant& v, const Position& reached, int south) {
  const int mover = reached.to_move == Side::South ? south : -south;
  return "# South " + signed_number(south) + std::string(kCertificate) + to_notation(v, reached) + std::string(kGives) +
         signed_number(mover);
}

std::optional<BookClaim> parse_claim(std::string_view comment) {
  const std::size_t at = comment.find("South ");
  if (at == std::string_view::npos) return std::nullopt;
  const std::optional<int> south = margin_at(comment.substr(at + 6));
  if (!south) return std::nullopt;
  BookClaim claim{*south, std::nullopt, std::nullopt};
  const std::size_t cert = comment.find(kCertificate, at);
  if (cert == std::string_view::npos) return claim;
  const std::size_t from = cert + kCertificate.size();
  const std::size_t to = comment.find(kGives, from);
  if (to == std::string_view::npos) return claim;
  claim.position = std::string(comment.substr(from, to - from));
  claim.mover = margin_at(comment.substr(to + kGives.size()));
  return claim;
}

bool certificate_names(const Variant& v, const Position& reached, const BookClaim& claim) {
  if (!claim.position || !claim.mover) return false;
  const int mover = reached.to_move == Side::South ? claim.south : -claim.south;
  return *claim.position == to_notation(v, reached) && *claim.mover == mover;
}

std::string certificate_header(const Variant& v) {
  return std::string(kHeader) + to_string(v) +
         "\" --position \"...\" prints the margin of the side to move; kalah-solver book --check FILE --variant ... "
         "re-checks every line";
}

std::optional<std::string> certificate_variant(std::string_view line) {
  if (line.substr(0, kHeader.size()) != kHeader) return std::nullopt;
  line.remove_prefix(kHeader.size());
  const std::size_t quote = line.find('"');
  if (quote == std::string_view::npos) return std::nullopt;
  return std::string(line.substr(0, quote));
}

}  // namespace kalah
