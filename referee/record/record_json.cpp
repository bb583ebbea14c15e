#include "referee/record/record_json.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>

#include <boost/json/parse.hpp>

#include "referee/record/json_text.h"

namespace kalah {
namespace {

namespace json = boost::json;

// Thrown by the field readers below and caught in record_from_json: the parse
// is one straight sequence of reads and any of them can stop it.
struct BadField {
  std::string message;
};

std::string kind_name(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null: return "null";
    case json::kind::bool_: return "a boolean";
    case json::kind::int64:
    case json::kind::uint64:
    case json::kind::double_: return "a number";
    case json::kind::string: return "a string";
    case json::kind::array: return "an array";
    case json::kind::object: return "an object";
  }
  return "something else";
}

[[noreturn]] void fail(const std::string& where, const std::string& expected, const json::value& got) {
  throw BadField{"field '" + where + "': expected " + expected + ", got " + kind_name(got)};
}

// Reads the fields of one JSON object; `check_all_used` rejects unknown keys.
class Fields {
 public:
  Fields(const json::value& v, std::string where) : where_(std::move(where)) {
    if (!v.is_object())
      throw BadField{(where_.empty() ? std::string("the line") : "field '" + where_ + "'") +
                     " must be a JSON object, got " + kind_name(v)};
    object_ = &v.get_object();
  }

  const json::value& get(std::string_view key) {
    used_.insert(std::string(key));
    const json::value* v = object_->if_contains(key);
    if (v == nullptr) throw BadField{"missing field '" + name(key) + "'"};
    return *v;
  }
  bool has(std::string_view key) const { return object_->contains(key); }

  std::string string(std::string_view key) {
    const json::value& v = get(key);
    if (!v.is_string()) fail(name(key), "a string", v);
    return std::string(v.get_string());
  }
  long long integer(std::string_view key, long long lo, long long hi) {
    return read_integer(get(key), name(key), lo, hi);
  }
  double number(std::string_view key) { return read_number(get(key), name(key)); }
  bool boolean(std::string_view key) {
    const json::value& v = get(key);
    if (!v.is_bool()) fail(name(key), "true or false", v);
    return v.get_bool();
  }
  const json::array& array(std::string_view key) {
    const json::value& v = get(key);
    if (!v.is_array()) fail(name(key), "an array", v);
    return v.get_array();
  }

  void check_all_used() const {
    for (const auto& kv : *object_)
      if (!used_.count(std::string(kv.key())))
        throw BadField{"unknown field '" + name(std::string_view(kv.key())) + "'"};
  }

  std::string name(std::string_view key) const {
    return where_.empty() ? std::string(key) : where_ + "." + std::string(key);
  }

  static long long read_integer(const json::value& v, const std::string& where, long long lo, long long hi) {
    if (v.is_int64() && v.get_int64() >= lo && v.get_int64() <= hi) return v.get_int64();
    if (v.is_uint64() && hi >= 0 && v.get_uint64() <= static_cast<unsigned long long>(hi))
      return static_cast<long long>(v.get_uint64());
    if (v.is_int64() || v.is_uint64())
      throw BadField{"field '" + where + "': " + json_text(v) + " is out of range " + std::to_string(lo) + ".." +
                     std::to_string(hi)};
    fail(where, "a whole number", v);
  }

  static double read_number(const json::value& v, const std::string& where) {
    if (!v.is_number()) fail(where, "a number", v);
    const double x = v.to_number<double>();
    if (!std::isfinite(x) || x < 0) throw BadField{"field '" + where + "': must be a number >= 0"};
    return x;
  }

 private:
  std::string where_;
  const json::object* object_ = nullptr;
  std::set<std::string> used_;
};

constexpr long long kIntMax = std::numeric_limits<int>::max();

json::array moves_to_json(const std::vector<Move>& moves) {
  json::array a;
  a.reserve(moves.size());
  for (Move m : moves) {
    if (m.is_swap())
      a.emplace_back("swap");
    else
      a.emplace_back(static_cast<std::int64_t>(m.pit));
  }
  return a;
}

std::vector<Move> moves_from_json(Fields& f, std::string_view key, const Variant& variant) {
  const json::array& a = f.array(key);
  std::vector<Move> moves;
  moves.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const json::value& v = a[i];
    if (v.is_string() && v.get_string() == "swap") {
      moves.push_back(Move::swap());
    } else if ((v.is_int64() && v.get_int64() >= 1 && v.get_int64() <= variant.pits) ||
               (v.is_uint64() && v.get_uint64() >= 1 && v.get_uint64() <= static_cast<unsigned>(variant.pits))) {
      moves.push_back(Move::at(static_cast<int>(v.to_number<std::int64_t>())));
    } else {
      throw BadField{"field '" + f.name(key) + "'[" + std::to_string(i) + "]: expected a pit number 1.." +
                     std::to_string(variant.pits) + " or \"swap\", got " +
                     (v.is_string() ? "\"" + std::string(v.get_string()) + "\"" : json_text(v))};
    }
  }
  return moves;
}

Outcome parse_result(const std::string& text, const std::string& where) {
  if (text == "1-0") return Outcome::FirstWins;
  if (text == "0-1") return Outcome::SecondWins;
  if (text == "1/2-1/2") return Outcome::Draw;
  throw BadField{"field '" + where + "': expected \"1-0\", \"0-1\" or \"1/2-1/2\", got \"" + text + "\""};
}

Forfeit forfeit_from_json(const json::value& v) {
  Fields f(v, "forfeit");
  Forfeit out;
  out.engine = f.string("engine");
  const std::string text = f.string("reason");
  const std::optional<Termination> reason = parse_termination(text);
  if (!reason || !is_forfeit(*reason))
    throw BadField{"field 'forfeit.reason': expected one of time, crash, illegal, protocol, startup, got \"" + text +
                   "\""};
  out.reason = *reason;
  out.detail = f.string("detail");
  // Schema 4: the end of the engine's stderr, and a time forfeit's overrun.
  if (f.has("stderr")) out.stderr_tail = f.string("stderr");
  if (f.has("overrun_ms")) out.overrun_ms = f.number("overrun_ms");
  f.check_all_used();
  return out;
}

Adjudication adjudication_from_json(const json::value& v) {
  Fields f(v, "adjudication");
  Adjudication out;
  const std::string text = f.string("reason");
  const std::optional<AdjudicationReason> reason = parse_adjudication_reason(text);
  if (!reason)
    throw BadField{
        "field 'adjudication.reason': expected one of max-plies, store-majority, database, resign, draw, got \"" +
        text + "\""};
  out.reason = *reason;
  if (f.has("margin")) out.margin = static_cast<int>(f.integer("margin", -kIntMax, kIntMax));
  f.check_all_used();
  return out;
}

json::object info_to_json(const MoveInfo& info) {
  json::object o;
  if (info.depth) o["depth"] = *info.depth;
  if (info.score) o["score"] = *info.score;
  if (info.nodes) o["nodes"] = *info.nodes;
  return o;
}

MoveInfo info_from_json(const json::value& v, std::size_t index) {
  Fields f(v, "info[" + std::to_string(index) + "]");
  MoveInfo out;
  if (f.has("depth")) out.depth = static_cast<int>(f.integer("depth", 0, kIntMax));
  if (f.has("score")) out.score = static_cast<int>(f.integer("score", -kIntMax, kIntMax));
  if (f.has("nodes")) out.nodes = f.integer("nodes", 0, std::numeric_limits<long long>::max());
  f.check_all_used();
  return out;
}

Variant variant_from_fields(const json::value& value) {
  Fields f(value, "variant");
  // Rebuild the protocol text and let the rules library judge the values, so
  // the journal accepts exactly what the rules accept.
  std::string text = "pits=" + std::to_string(f.integer("pits", 1, Variant::kMaxPits)) +
                     " seeds=" + std::to_string(f.integer("seeds", 1, Variant::kMaxSeeds));
  for (const char* key : {"capture", "ending", "remainder", "majority", "pie"})
    text += std::string(" ") + key + "=" + f.string(key);
  f.check_all_used();
  Expected<Variant> variant = parse_variant(text);
  if (!variant) throw BadField{"field 'variant': " + variant.error()};
  return *variant;
}

GameRecord record_from_fields(const json::value& value) {
  Fields f(value, "");
  GameRecord r;
  if (f.has("schema")) {
    const long long schema = f.integer("schema", 1, kIntMax);
    if (schema > kRecordSchema)
      throw BadField{"field 'schema': the line is schema " + std::to_string(schema) +
                     ", written by a newer version of the arena; this one reads up to schema " +
                     std::to_string(kRecordSchema)};
  }
  r.id = f.string("id");
  if (r.id.empty()) throw BadField{"field 'id': must not be empty"};
  if (!is_game_id(r.id)) {
    std::string shown = r.id.substr(0, 80);  // printable ASCII only: it reaches a terminal
    for (char& c : shown)
      if (c < ' ' || c > '~') c = '?';
    throw BadField{"field 'id': '" + shown +
                   "' is not a game id (an id is not a path: at most 128 letters, digits, '.', '_' and '-', not "
                   "starting with '.')"};
  }
  r.round = static_cast<int>(f.integer("round", 0, kIntMax));
  r.south = f.string("south");
  r.north = f.string("north");
  r.variant = variant_from_fields(f.get("variant"));
  if (f.has("start")) {
    Expected<Position> start = parse_start(r.variant, f.string("start"));
    if (!start) throw BadField{"field 'start': " + start.error()};
    r.start = *start;
  }
  r.opening = moves_from_json(f, "opening", r.variant);
  r.moves = moves_from_json(f, "moves", r.variant);
  r.result = parse_result(f.string("result"), "result");

  const json::array& stores = f.array("stores");
  if (stores.size() != 2) throw BadField{"field 'stores': expected [south, north], 2 numbers"};
  r.store_south = static_cast<int>(Fields::read_integer(stores[0], "stores[0]", 0, kIntMax));
  r.store_north = static_cast<int>(Fields::read_integer(stores[1], "stores[1]", 0, kIntMax));

  const std::string termination = f.string("termination");
  const std::optional<Termination> t = parse_termination(termination);
  if (!t)
    throw BadField{
        "field 'termination': expected one of normal, majority, adjudicated, time, crash, illegal, "
        "protocol, startup, got \"" +
        termination + "\""};
  r.termination = *t;

  const json::value& forfeit = f.get("forfeit");
  if (!forfeit.is_null()) r.forfeit = forfeit_from_json(forfeit);
  if (f.has("adjudication")) {
    if (r.termination != Termination::Adjudicated)
      throw BadField{"field 'adjudication': only an adjudicated game has one, this one is \"" + termination + "\""};
    r.adjudication = adjudication_from_json(f.get("adjudication"));
  }
  r.swapped = f.boolean("swapped");

  const json::array& times = f.array("times_ms");
  const json::array& info = f.array("info");
  if (times.size() != info.size())
    throw BadField{
        "fields 'times_ms' and 'info' must have the same length (one entry per move after the "
        "opening), got " +
        std::to_string(times.size()) + " and " + std::to_string(info.size())};
  // Schema 3: the wall times of a game played on a CPU clock, one per move as times_ms.
  const json::array* walls = f.has("wall_ms") ? &f.array("wall_ms") : nullptr;
  if (walls && walls->size() != times.size())
    throw BadField{"fields 'wall_ms' and 'times_ms' must have the same length, got " + std::to_string(walls->size()) +
                   " and " + std::to_string(times.size())};
  r.move_info.reserve(times.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    MoveInfo m = info_from_json(info[i], i);
    m.time_ms = Fields::read_number(times[i], "times_ms[" + std::to_string(i) + "]");
    if (walls) m.wall_ms = Fields::read_number((*walls)[i], "wall_ms[" + std::to_string(i) + "]");
    r.move_info.push_back(m);
  }
  r.started_at = f.string("started_at");
  r.duration_ms = f.number("duration_ms");
  f.check_all_used();
  return r;
}

}  // namespace

json::object variant_to_json(const Variant& v) {
  json::object o;
  o["pits"] = v.pits;
  o["seeds"] = v.seeds;
  o["capture"] = v.capture == Capture::Standard ? "standard" : "empty";
  o["ending"] = v.ending == Ending::SideEmpty ? "side-empty" : "no-move";
  o["remainder"] = v.remainder == Remainder::Owner ? "owner" : "none";
  o["majority"] = v.majority ? "on" : "off";
  o["pie"] = v.pie ? "on" : "off";
  return o;
}

Expected<Variant> variant_from_json(const json::value& value) {
  try {
    return variant_from_fields(value);
  } catch (const BadField& e) {
    return Error{e.message};
  }
}

json::object to_json(const GameRecord& r) {
  json::object o;
  // Wall times are kept only beside a CPU clock's times: a line has them for every move or for none.
  const bool walls = !r.move_info.empty() && std::all_of(r.move_info.begin(), r.move_info.end(),
                                                         [](const MoveInfo& m) { return m.wall_ms.has_value(); });
  const bool fault_data = r.forfeit && (!r.forfeit->stderr_tail.empty() || r.forfeit->overrun_ms);
  // The lowest version that holds the line (record_json.h).
  o["schema"] = fault_data ? 4 : walls ? 3 : r.adjudication ? 2 : 1;
  o["id"] = r.id;
  o["round"] = r.round;
  o["south"] = r.south;
  o["north"] = r.north;
  o["variant"] = variant_to_json(r.variant);
  if (r.start) o["start"] = to_start_notation(r.variant, *r.start);
  o["opening"] = moves_to_json(r.opening);
  o["moves"] = moves_to_json(r.moves);
  o["result"] = to_string(r.result);
  o["stores"] = json::array{r.store_south, r.store_north};
  o["termination"] = to_string(r.termination);
  if (r.forfeit) {
    json::object forfeit{
        {"engine", r.forfeit->engine}, {"reason", to_string(r.forfeit->reason)}, {"detail", r.forfeit->detail}};
    if (!r.forfeit->stderr_tail.empty()) forfeit["stderr"] = r.forfeit->stderr_tail;
    if (r.forfeit->overrun_ms) forfeit["overrun_ms"] = *r.forfeit->overrun_ms;
    o["forfeit"] = std::move(forfeit);
  } else {
    o["forfeit"] = nullptr;
  }
  if (r.adjudication) {
    json::object a{{"reason", to_string(r.adjudication->reason)}};
    if (r.adjudication->margin) a["margin"] = *r.adjudication->margin;
    o["adjudication"] = std::move(a);
  }
  o["swapped"] = r.swapped;
  json::array times, info;
  times.reserve(r.move_info.size());
  info.reserve(r.move_info.size());
  for (const MoveInfo& m : r.move_info) {
    times.emplace_back(m.time_ms);
    info.emplace_back(info_to_json(m));
  }
  o["times_ms"] = std::move(times);
  if (walls) {
    json::array wall;
    wall.reserve(r.move_info.size());
    for (const MoveInfo& m : r.move_info) wall.emplace_back(*m.wall_ms);
    o["wall_ms"] = std::move(wall);
  }
  o["info"] = std::move(info);
  o["started_at"] = r.started_at;
  o["duration_ms"] = r.duration_ms;
  return o;
}

std::string to_json_line(const GameRecord& record) { return json_text(to_json(record)); }

Expected<GameRecord> record_from_json(const json::value& value) {
  try {
    return record_from_fields(value);
  } catch (const BadField& e) {
    return Error{e.message};
  }
}

Expected<GameRecord> record_from_json(std::string_view line) {
  boost::system::error_code ec;
  const json::value value = json::parse(line, ec);
  if (ec) return Error{"not valid JSON (" + ec.message() + ")"};
  return record_from_json(value);
}

}  // namespace kalah
