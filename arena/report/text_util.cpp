#include "arena/report/text_util.h"

#include <algorithm>

#include <cmath>

#include <fmt/format.h>

namespace kalah::report {

std::string fixed(double x, int decimals) {
  if (!std::isfinite(x)) x = 0;
  std::string s = fmt::format("{:.{}f}", x, decimals);
  // "-0.0" reads as a sign error in a table.
  if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);
  return s;
}

std::string signed_fixed(double x, int decimals) {
  std::string s = fixed(x, decimals);
  if (s[0] != '-' && s.find_first_not_of("0.") != std::string::npos) s.insert(0, "+");
  return s;
}

std::string percent(double fraction, int decimals) { return fixed(100.0 * fraction, decimals) + "%"; }

double rounded(double x, int decimals) {
  if (!std::isfinite(x)) return 0;
  const double scale = std::pow(10.0, decimals);
  const double r = std::round(x * scale) / scale;
  return r == 0 ? 0.0 : r;
}

std::string html_escape(std::string_view text) {
  static constexpr std::string_view kSpecial = "&<>\"'";
  static constexpr std::string_view kEntity[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const std::size_t k = kSpecial.find(c);
    if (k == std::string_view::npos)
      out += c;
    else
      out += kEntity[k];
  }
  return out;
}

std::string markdown_code(std::string_view text) {
  std::string body;
  std::size_t run = 0, longest = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    body += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string markdown_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    // Markdown's emphasis, code, links, tables and headings, and the HTML a renderer lets through.
    if (c == '<') {
      out += "&lt;";
      continue;
    }
    if (c == '>') {
      out += "&gt;";
      continue;
    }
    if (c == '&') {
      out += "&amp;";
      continue;
    }
    if (c == '|' || c == '\\' || c == '*' || c == '_' || c == '`' || c == '[' || c == ']' || c == '#' || c == '~')
      out += '\\';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
}

std::string csv_field(std::string_view text) {
  // A spreadsheet reads a cell that starts with = + - @ (or a tab or carriage return) as a formula:
  // a leading ' makes it text (the OWASP advice on CSV injection).
  std::string cell;
  if (!text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos) cell = "'";
  cell += text;
  text = cell;
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string normalisation_text(const rating::Standings& s) {
  if (!s.anchor) return "mean 0";
  return s.anchor->engine + " held at " + fmt::format("{:g}", s.anchor->elo) + " (± relative to it)";
}

std::string rank_text(const rating::EngineStanding& e) {
  if (e.rank == 0) return e.status != rating::EntryStatus::Active ? rating::to_string(e.status) : "–";
  return std::to_string(e.rank) + (e.rank_shared ? "=" : "");
}

std::string elo_text(const rating::EngineStanding& e, std::string_view none) {
  return e.games > 0 ? signed_fixed(e.elo, 1) : std::string(none);
}
std::string ci95_text(const rating::EngineStanding& e, std::string_view none) {
  return e.games > 0 ? fixed(e.ci95, 1) : std::string(none);
}

std::string cpu_time_use_text() {
  return "CPU time charged per move: the moves were played on the CPU clock ([time] clock = \"cpu\"), which "
         "charges a move the CPU time the engine's processes used between the request and the answer. Beside it, "
         "the wall time of the same moves (request sent to answer read): where it is longer, the engine waited (for "
         "a CPU, or on nothing) and was not charged for it. Over the moves each engine chose, and the mean depth it "
         "reported (where it did).";
}

std::string form_order_text(const rating::Standings& s) { return s.form ? s.form->rule + "." : ""; }

std::string elo_with_ci(double elo, double ci95) { return signed_fixed(elo, 1) + " ± " + fixed(ci95, 1); }

std::string cross_points(const rating::CrossCell& cell) {
  return cell.games > 0 ? fixed(cell.points, 1) + "/" + std::to_string(cell.games) : "";
}

}  // namespace kalah::report
