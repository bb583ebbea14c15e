// list.json: what a rating list over several tournaments was written from (reports.h).
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "arena/report/reports.h"

namespace kalah::report {

namespace json = boost::json;

namespace {
constexpr std::int64_t kRatingListFormat = 1;
constexpr std::size_t kMaxSources = 10'000;
}  // namespace

std::string rating_list_to_text(const RatingListRecord& record) {
  json::object o;
  o["format"] = kRatingListFormat;
  json::array sources;
  for (const std::string& s : record.sources) sources.emplace_back(s);
  o["sources"] = std::move(sources);
  if (record.anchor) o["anchor"] = json::object{{"engine", record.anchor->engine}, {"elo", record.anchor->elo}};
  o["publish"] = record.publish;
  return json::serialize(o) + "\n";
}

Expected<RatingListRecord> rating_list_from_text(std::string_view text) {
  json::error_code ec;
  const json::value v = json::parse(text, ec);
  const json::object* o = ec ? nullptr : v.if_object();
  if (!o) return Error{"not a JSON object"};
  const json::value* format = o->if_contains("format");
  if (!format || !format->is_int64() || format->get_int64() != kRatingListFormat)
    return Error{"format is not 1, the only one this arena knows"};
  RatingListRecord r;
  const json::value* sources = o->if_contains("sources");
  if (!sources || !sources->is_array() || sources->get_array().size() < 2 || sources->get_array().size() > kMaxSources)
    return Error{"'sources' must be a list of 2 or more folders"};
  for (const json::value& s : sources->get_array()) {
    if (!s.is_string() || s.get_string().empty() || s.get_string().size() > 4096)
      return Error{"'sources' must be a list of folder names"};
    r.sources.emplace_back(s.get_string());
  }
  if (const json::value* anchor = o->if_contains("anchor")) {
    const json::object* a = anchor->if_object();
    const json::value* engine = a ? a->if_contains("engine") : nullptr;
    const json::value* elo = a ? a->if_contains("elo") : nullptr;
    if (!engine || !engine->is_string() || !elo || !elo->is_number())
      return Error{"'anchor' must be {\"engine\": NAME, \"elo\": NUMBER}"};
    r.anchor = rating::Anchor{std::string(engine->get_string()), elo->to_number<double>()};
  }
  if (const json::value* publish = o->if_contains("publish")) {
    if (!publish->is_bool()) return Error{"'publish' must be true or false"};
    r.publish = publish->get_bool();
  }
  return r;
}

ReportInput rating_list_input(const RatingListRecord& record, const std::string& event,
                              const std::vector<journal::StoredResults>& stored) {
  ReportInput input;
  input.event = event;
  input.publish = record.publish;
  // No settings: a list's "About" would mix tournaments.
  for (std::size_t t = 0; t < stored.size() && t < record.sources.size(); ++t)
    add_results(input, stored[t], record.sources[t] + ": ", record.sources[t]);
  input.anchor = record.anchor;
  return input;
}

}  // namespace kalah::report
