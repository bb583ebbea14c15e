#include "arena/journal/meta.h"

#include <algorithm>
#include <chrono>
#include <ctime>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "arena/config/description.h"
#include "referee/record/json_text.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::journal {
namespace {

namespace json = boost::json;
using arena::kContestSetting;
using arena::kRankingSettingPrefix;

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

}  // namespace

namespace {

// A user's string in a message: at most `limit` characters.
std::string clip(std::string_view text, std::size_t limit = 80) {
  return text.size() <= limit ? std::string(text) : std::string(text.substr(0, limit)) + "...";
}

// The fingerprint is "key=value" lines (arena's fingerprint()): the keys whose lines differ, at most
// three, each value clipped. An opaque fingerprint is named by its first characters only.
std::vector<std::string> fingerprint_differences(const std::string& stored, const std::string& wanted) {
  auto lines = [](const std::string& text) {
    std::map<std::string, std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = std::min(text.find('\n', start), text.size());
      const std::string line = text.substr(start, end - start);
      const std::size_t eq = line.find('=');
      if (eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
      start = end + 1;
    }
    return out;
  };
  const std::map<std::string, std::string> a = lines(stored), b = lines(wanted);
  std::vector<std::string> out;
  std::size_t differing = 0;
  std::map<std::string, std::pair<std::string, std::string>> merged;
  for (const auto& [k, v] : a) merged[k].first = v;
  for (const auto& [k, v] : b) merged[k].second = v;
  for (const auto& [key, values] : merged) {
    if (values.first == values.second) continue;
    if (++differing <= 3) out.push_back(clip(key, 40) + ": " + clip(values.first) + " -> " + clip(values.second));
  }
  if (differing > 3) out.push_back("and " + std::to_string(differing - 3) + " more");
  if (out.empty())
    out.push_back("the configuration fingerprint differs (" + clip(stored, 16) + " -> " + clip(wanted, 16) + ")");
  return out;
}

}  // namespace

std::string meta_to_text(const TournamentMeta& meta) {
  json::object o;
  o["format"] = kMetaFormat;
  o["fingerprint"] = meta.fingerprint;
  json::array engines;
  for (const std::string& name : meta.engines) engines.emplace_back(name);
  o["engines"] = std::move(engines);
  json::object settings;
  for (const auto& [key, value] : meta.settings) settings[key] = value;
  o["settings"] = std::move(settings);
  o["created_at"] = meta.created_at;
  if (meta.shard)
    o["shard"] = json::object{{"index", meta.shard->index}, {"count", meta.shard->count}, {"games", meta.shard->games}};
  return json_text(o, {.indent = 2}) + "\n";
}

Expected<TournamentMeta> meta_from_text(std::string_view text) {
  boost::system::error_code ec;
  const json::value v = json::parse(text, ec);
  if (ec) return Error{"not valid JSON (" + ec.message() + ")"};
  if (!v.is_object()) return Error{"expected a JSON object"};
  const json::object& o = v.get_object();
  for (const auto& kv : o) {
    const std::string_view key = kv.key();
    if (key != "format" && key != "fingerprint" && key != "engines" && key != "settings" && key != "created_at" &&
        key != "shard")
      return Error{"unknown field '" + std::string(key) + "'"};
  }
  const json::value* format = o.if_contains("format");
  if (format == nullptr || !format->is_int64() || format->get_int64() != kMetaFormat)
    return Error{"field 'format' must be " + std::to_string(kMetaFormat)};

  TournamentMeta meta;
  const json::value* fingerprint = o.if_contains("fingerprint");
  if (fingerprint == nullptr || !fingerprint->is_string()) return Error{"field 'fingerprint' must be a string"};
  meta.fingerprint = std::string(fingerprint->get_string());

  const json::value* engines = o.if_contains("engines");
  if (engines == nullptr || !engines->is_array()) return Error{"field 'engines' must be an array of names"};
  for (const json::value& name : engines->get_array()) {
    if (!name.is_string()) return Error{"field 'engines' must be an array of names"};
    meta.engines.emplace_back(name.get_string());
  }
  if (const json::value* settings = o.if_contains("settings")) {
    if (!settings->is_object()) return Error{"field 'settings' must be an object of strings"};
    for (const auto& kv : settings->get_object()) {
      if (!kv.value().is_string()) return Error{"field 'settings' must be an object of strings"};
      meta.settings[std::string(kv.key())] = std::string(kv.value().get_string());
    }
  }
  if (const json::value* created = o.if_contains("created_at")) {
    if (!created->is_string()) return Error{"field 'created_at' must be a string"};
    meta.created_at = std::string(created->get_string());
  }
  if (const json::value* shard = o.if_contains("shard")) {
    const json::object* so = shard->if_object();
    auto number = [&](const char* key) -> std::optional<int> {
      const json::value* v = so ? so->if_contains(key) : nullptr;
      if (v == nullptr || !v->is_int64() || v->get_int64() < 0 || v->get_int64() > 1'000'000'000) return std::nullopt;
      return static_cast<int>(v->get_int64());
    };
    const std::optional<int> index = number("index"), count = number("count"), games = number("games");
    if (!index || !count || !games || *index < 1 || *index > *count)
      return Error{"field 'shard' must be {\"index\": I, \"count\": N, \"games\": G} with 1 <= I <= N"};
    meta.shard = ShardMeta{*index, *count, *games};
  }
  return meta;
}

Expected<TournamentMeta> read_meta(const std::filesystem::path& file) {
  // Untrusted when a published folder is read: never through a link, never a FIFO or device, bounded.
  Expected<std::string> content = system::read_regular_file(file, kMaxMetaBytes);
  if (!content) return Error{content.error()};
  Expected<TournamentMeta> meta = meta_from_text(*content);
  if (!meta) return Error{file.string() + ": " + meta.error()};
  return meta;
}

bool grows_contest(const TournamentMeta& stored, const TournamentMeta& wanted) {
  return stored.settings.count(kContestSetting) != 0 && wanted.settings.count(kContestSetting) != 0 &&
         stored.engines.size() <= wanted.engines.size() &&
         std::equal(stored.engines.begin(), stored.engines.end(), wanted.engines.begin());
}

bool same_tournament(const TournamentMeta& stored, const TournamentMeta& wanted) {
  return stored.fingerprint == wanted.fingerprint &&
         (stored.engines == wanted.engines || grows_contest(stored, wanted)) && stored.shard == wanted.shard;
}

std::string describe_difference(const TournamentMeta& stored, const TournamentMeta& wanted) {
  std::vector<std::string> parts;
  if (stored.engines != wanted.engines) {
    std::vector<std::string> removed, added;
    for (const std::string& n : stored.engines)
      if (std::find(wanted.engines.begin(), wanted.engines.end(), n) == wanted.engines.end()) removed.push_back(n);
    for (const std::string& n : wanted.engines)
      if (std::find(stored.engines.begin(), stored.engines.end(), n) == stored.engines.end()) added.push_back(n);
    std::string text = "engines:";
    if (!removed.empty()) text += " removed " + quoted_list(removed);
    if (!added.empty()) text += std::string(removed.empty() ? "" : ",") + " added " + quoted_list(added);
    if (removed.empty() && added.empty()) text += " same names in a different order";
    parts.push_back(text);
  }
  // Settings present on either side; a key only one side has counts as a difference.
  std::map<std::string, std::pair<std::string, std::string>> merged;
  for (const auto& [k, v] : stored.settings) merged[k].first = v;
  for (const auto& [k, v] : wanted.settings) merged[k].second = v;
  auto differs = [&](const std::string& key) {
    const auto found = merged.find(key);
    return found != merged.end() &&
           (stored.settings.count(key) != wanted.settings.count(key) || found->second.first != found->second.second);
  };
  for (const auto& [key, values] : merged) {
    if (arena::recorded_by_run(key)) continue;               // about a run (digests, build times), not the tournament
    if (key.rfind(kRankingSettingPrefix, 0) == 0) continue;  // about the standings, not the games
    if (!differs(key)) continue;
    // A setting that restates others in other words is not another difference: "sprt" (the test in words)
    // beside its "sprt.*" keys, "time.pgn" beside "time".
    if (key == "sprt" && std::any_of(merged.begin(), merged.end(), [&](const auto& kv) {
          return kv.first.starts_with("sprt.") && differs(kv.first);
        }))
      continue;
    if (key.ends_with(".pgn") && differs(key.substr(0, key.size() - 4))) continue;
    const bool in_stored = stored.settings.count(key) != 0;
    const bool in_wanted = wanted.settings.count(key) != 0;
    parts.push_back(key + ": " + (in_stored ? values.first : "(not set)") + " -> " +
                    (in_wanted ? values.second : "(not set)"));
  }
  if (parts.empty()) {
    if (stored.fingerprint == wanted.fingerprint) return "nothing differs";
    parts = fingerprint_differences(stored.fingerprint, wanted.fingerprint);
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

}  // namespace kalah::journal
