#include "arena/analysis/analysis_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iterator>
#include <vector>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parser.hpp>
#include <boost/json/value.hpp>
#include <fmt/core.h>

#include "referee/record/json_text.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::analysis {
namespace json = boost::json;

namespace {

// No board holds more: 16 pits a side of up to 32 seeds (docs/RULES.md), doubled for a difference.
constexpr std::int64_t kMaxMagnitude = 2 * 16 * 32 * 2;

void append_entries(std::string& out, const std::vector<std::optional<int>>& entries) {
  out += '[';
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i) out += ',';
    out += entries[i] ? std::to_string(*entries[i]) : "null";
  }
  out += ']';
}

Expected<std::vector<std::optional<int>>> entries_of(const json::value& v, const char* key) {
  if (!v.is_array()) return Error{fmt::format("\"{}\" must be an array", key)};
  std::vector<std::optional<int>> out;
  out.reserve(v.as_array().size());
  for (std::size_t i = 0; i < v.as_array().size(); ++i) {
    const json::value& e = v.as_array()[i];
    if (e.is_null()) {
      out.emplace_back();
    } else if (e.is_int64() && std::llabs(e.as_int64()) <= kMaxMagnitude) {
      out.emplace_back(static_cast<int>(e.as_int64()));
    } else if (e.is_uint64() && e.as_uint64() <= static_cast<std::uint64_t>(kMaxMagnitude)) {
      out.emplace_back(static_cast<int>(e.as_uint64()));
    } else {
      return Error{fmt::format("\"{}\"[{}] must be an integer within ±{} or null", key, i, kMaxMagnitude)};
    }
  }
  return out;
}

}  // namespace

std::string to_line(const GameAnalysis& g) {
  std::string out = "{\"id\":";
  append_json_string(out, g.id);
  out += ",\"value\":";
  append_entries(out, g.value);
  out += ",\"loss\":";
  append_entries(out, g.loss);
  out += "}\n";
  return out;
}

Expected<GameAnalysis> from_line(std::string_view line) {
  std::error_code ec;
  // One parser and one block of memory per thread, reused line after line: a file of long lines would otherwise
  // map and unmap megabytes for each (most of the time reading a long analysis went there).
  thread_local json::parser parser;
  thread_local std::vector<unsigned char> block(1 << 16);
  // A parsed entry takes 16 bytes for the 2 of its text ("0,"): room for that, never more than 16 MiB (a
  // line is at most 1 MiB); what does not fit is allocated beside it.
  if (const std::size_t wanted = std::min<std::size_t>(8 * line.size() + 1024, 16u << 20); block.size() < wanted)
    block.resize(wanted);
  json::monotonic_resource memory(block.data(), block.size());
  parser.reset(&memory);
  parser.write(line, ec);
  const json::value v = ec ? json::value() : parser.release();
  parser.reset();  // the parser keeps no pointer to `memory`, which ends with this call
  if (ec) return Error{"not JSON: " + ec.message()};
  if (!v.is_object()) return Error{"not a JSON object"};
  const json::object& o = v.as_object();
  for (const auto& [key, _] : o)
    if (key != "id" && key != "value" && key != "loss")
      return Error{
          fmt::format("unknown key \"{}\" (expected id, value and loss)", std::string_view(key).substr(0, 40))};
  GameAnalysis g;
  const json::value* id = o.if_contains("id");
  if (!id || !id->is_string() || id->as_string().empty() || id->as_string().size() > 200)
    return Error{"\"id\" must be a game id (a string of 1 to 200 characters)"};
  g.id = std::string(id->as_string());
  const json::value* value = o.if_contains("value");
  const json::value* loss = o.if_contains("loss");
  if (!value || !loss) return Error{"a line needs \"id\", \"value\" and \"loss\""};
  Expected<std::vector<std::optional<int>>> values = entries_of(*value, "value");
  if (!values) return Error{values.error()};
  Expected<std::vector<std::optional<int>>> losses = entries_of(*loss, "loss");
  if (!losses) return Error{losses.error()};
  if (values->size() != losses->size())
    return Error{
        fmt::format("\"value\" has {} entries but \"loss\" {}: one each per ply", values->size(), losses->size())};
  for (std::size_t i = 0; i < losses->size(); ++i) {
    if ((*losses)[i] && *(*losses)[i] < 0) return Error{fmt::format("\"loss\"[{}] is negative", i)};
    if ((*losses)[i] && !(*values)[i])
      return Error{fmt::format("\"loss\"[{}] is known but \"value\"[{}] is null", i, i)};
  }
  g.value = std::move(values).value();
  g.loss = std::move(losses).value();
  return g;
}

Expected<AnalysisLines> read_analysis_lines(const std::filesystem::path& file, const AnalysisLineVisitor& visit) {
  AnalysisLines out;
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return out;
  Expected<std::pair<int, std::uintmax_t>> opened = system::open_regular_file(file, /*follow_link=*/false);
  if (!opened) return Error{opened.error()};
  system::FileHandle fd(opened->first);
  const std::string name = file.filename().string();
  std::string pending;  // the line being read
  std::uintmax_t offset = 0;
  std::uintmax_t line_start = 0;
  int line_number = 0;
  std::optional<std::string> error;
  // A bad line is an error unless it turns out to be the last one (a write that a kill cut short).
  std::optional<std::pair<int, std::string>> bad;
  auto finish_line = [&](bool ended) {
    ++line_number;
    if (bad) {  // a bad line with more after it
      error = fmt::format("{}:{}: {}", name, bad->first, bad->second);
      return;
    }
    if (pending.find_first_not_of(" \t\r") == std::string::npos) {
      pending.clear();
      return;
    }
    Expected<GameAnalysis> g = from_line(pending);
    pending.clear();
    if (!g || !ended) {
      bad = std::pair{line_number, g ? std::string("the line does not end") : g.error()};
      out.torn_at = line_start;
      out.torn_reason = fmt::format("{}:{}: {}", name, line_number, bad->second);
      return;
    }
    ++out.lines;
    error = visit(std::move(g).value(), line_number);
  };
  std::string buffer(1 << 16, '\0');
  while (!error) {
    const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error{system::system_error_text(file, "cannot read")};
    if (n == 0) break;
    std::string_view chunk(buffer.data(), static_cast<std::size_t>(n));
    while (!chunk.empty() && !error) {
      const std::size_t nl = chunk.find('\n');
      const std::string_view piece = chunk.substr(0, nl);
      if (pending.size() + piece.size() > kMaxLineBytes)
        return Error{fmt::format("{}:{}: a line longer than {} bytes", name, line_number + 1, kMaxLineBytes)};
      pending.append(piece);
      if (nl == std::string_view::npos) {
        offset += piece.size();
        break;
      }
      offset += piece.size() + 1;
      finish_line(true);
      line_start = offset;
      chunk.remove_prefix(nl + 1);
    }
  }
  if (error) return Error{*error};
  if (!pending.empty()) finish_line(false);
  if (error) return Error{*error};
  return out;
}

Expected<AnalysisFile> read_analysis(const std::filesystem::path& file, const JournalPlies& journal) {
  AnalysisFile out;
  Expected<AnalysisLines> read = read_analysis_lines(file, [&](GameAnalysis&& g, int) -> std::optional<std::string> {
    const auto game = journal.find(g.id);
    if (game == journal.end()) {
      ++out.unknown;
      out.unknown_named.insert(std::move(g.id));
      if (out.unknown_named.size() > AnalysisFile::kNamedUnknown)
        out.unknown_named.erase(std::prev(out.unknown_named.end()));
      return std::nullopt;
    }
    if (out.games.contains(g.id) || out.misfits.contains(g.id)) {
      ++out.duplicates;
      return std::nullopt;
    }
    if (g.value.size() != game->second) {
      out.misfits.emplace(std::move(g.id), g.value.size());
    } else {
      std::string id = g.id;
      out.games.emplace(std::move(id), std::move(g));
    }
    return std::nullopt;
  });
  if (!read) return Error{read.error()};
  out.torn_at = read->torn_at;
  out.torn_reason = std::move(read->torn_reason);
  return out;
}

}  // namespace kalah::analysis
