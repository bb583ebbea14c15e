#include "referee/protocol/protocol.h"

#include <limits>

#include <charconv>

#include "referee/rules/words.h"

namespace kalah {

const char* to_string(ClockKind k) { return k == ClockKind::Cpu ? "cpu" : "wall"; }

std::optional<ClockKind> parse_clock_kind(std::string_view text) {
  if (text == "wall") return ClockKind::Wall;
  if (text == "cpu") return ClockKind::Cpu;
  return std::nullopt;
}

const char* to_string(DelayKind k) { return k == DelayKind::Bronstein ? "bronstein" : "simple"; }

std::optional<DelayKind> parse_delay_kind(std::string_view text) {
  if (text == "simple") return DelayKind::Simple;
  if (text == "bronstein") return DelayKind::Bronstein;
  return std::nullopt;
}

}  // namespace kalah

namespace kalah::kep {
namespace {

// The words of a line (split_words), indexable past the end, with the rest of the line from a word.
class Words {
 public:
  explicit Words(std::string_view line) : words_(split_words(line)) {}
  size_t size() const { return words_.size(); }
  std::string_view operator[](size_t i) const { return i < words_.size() ? words_[i] : std::string_view{}; }
  // Everything from word i to the end of the line, as written.
  std::string_view rest(size_t i, std::string_view line) const {
    if (i >= words_.size()) return {};
    return line.substr(static_cast<size_t>(words_[i].data() - line.data()));
  }

 private:
  std::vector<std::string_view> words_;
};

template <class T>
bool to_number(std::string_view s, T& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

std::string join_moves(const std::vector<Move>& moves) {
  std::string s;
  for (Move m : moves) {
    s += ' ';
    s += to_string(m);
  }
  return s;
}

// The text between two markers: "setoption name <n...> value <v...>".
std::string_view between(std::string_view line, std::string_view after, std::string_view before) {
  size_t a = line.find(after);
  if (a == std::string_view::npos) return {};
  a += after.size();
  size_t b = before.empty() ? std::string_view::npos : line.find(before, a);
  return trim(line.substr(a, b == std::string_view::npos ? std::string_view::npos : b - a));
}

Expected<Command> parse_go(const Words& w) {
  Go go;
  Go::Clock clock;
  bool has_clock = false;
  for (size_t i = 1; i < w.size(); i += 2) {
    std::string_view key = w[i];
    long long value = 0;
    if (i + 1 >= w.size() || !to_number(w[i + 1], value) || value < 0)
      return Error{"go: '" + std::string(key) + "' needs a non-negative number"};
    if (key == "stime")
      clock.stime = value, has_clock = true;
    else if (key == "ntime")
      clock.ntime = value, has_clock = true;
    else if (key == "sinc")
      clock.sinc = value, has_clock = true;
    else if (key == "ninc")
      clock.ninc = value, has_clock = true;
    else if (key == "delay" || key == "bronstein")
      go.delay = Go::Delay{value, key == "delay" ? DelayKind::Simple : DelayKind::Bronstein};
    else if (key == "movetime")
      go.movetime = value;
    else if (key == "depth" && value <= std::numeric_limits<int>::max())
      go.depth = static_cast<int>(value);
    else if (key == "depth")
      return Error{"go: depth " + std::string(w[i + 1]) + " is out of range"};
    else if (key == "nodes")
      go.nodes = value;
    else if (key == "movestogo" && value >= 1 && value <= std::numeric_limits<int>::max())
      go.movestogo = static_cast<int>(value);
    else if (key == "movestogo")
      return Error{"go: movestogo " + std::string(w[i + 1]) + " is out of range"};
    else
      return Error{"go: unknown limit '" + std::string(key) + "'"};
  }
  if (has_clock) go.clock = clock;
  return Command{go};
}

}  // namespace

std::string format(const Command& c) {
  struct Visitor {
    std::string operator()(const Hello&) const { return "kep"; }
    std::string operator()(const SetOption& o) const { return "setoption name " + o.name + " value " + o.value; }
    std::string operator()(const IsReady&) const { return "isready"; }
    std::string operator()(const NewGame& n) const {
      return "newgame " + to_string(n.variant) + (n.seed ? " seed=" + std::to_string(*n.seed) : "") +
             (n.clock ? std::string(" clock=") + to_string(*n.clock) : "");
    }
    std::string operator()(const PositionCmd& p) const {
      const std::string start = "position " + (p.start.empty() ? std::string("startpos") : p.start);
      return p.moves.empty() ? start : start + " moves" + join_moves(p.moves);
    }
    std::string operator()(const Go& g) const {
      std::string s = "go";
      if (g.clock)
        s += " stime " + std::to_string(g.clock->stime) + " ntime " + std::to_string(g.clock->ntime) + " sinc " +
             std::to_string(g.clock->sinc) + " ninc " + std::to_string(g.clock->ninc);
      if (g.delay)
        s += std::string(g.delay->kind == DelayKind::Simple ? " delay " : " bronstein ") + std::to_string(g.delay->ms);
      if (g.movestogo) s += " movestogo " + std::to_string(*g.movestogo);
      if (g.movetime) s += " movetime " + std::to_string(*g.movetime);
      if (g.depth) s += " depth " + std::to_string(*g.depth);
      if (g.nodes) s += " nodes " + std::to_string(*g.nodes);
      return s;
    }
    std::string operator()(const Stop&) const { return "stop"; }
    std::string operator()(const Quit&) const { return "quit"; }
    std::string operator()(const Bench&) const { return "bench"; }
  };
  return std::visit(Visitor{}, c);
}

Expected<Command> parse_command(std::string_view raw) {
  const std::string_view line = trim(raw);
  const Words w(line);
  const std::string_view verb = w[0];
  if (verb == "kep") return Command{Hello{}};
  if (verb == "isready") return Command{IsReady{}};
  if (verb == "stop") return Command{Stop{}};
  if (verb == "quit") return Command{Quit{}};
  if (verb == "bench" && w.size() == 1) return Command{Bench{}};
  if (verb == "go") return parse_go(w);
  if (verb == "setoption") {
    if (w[1] != "name" || line.find(" value ") == std::string_view::npos)
      return Error{"setoption: expected 'setoption name <name> value <value>'"};
    return Command{
        SetOption{std::string(between(line, "name ", " value ")), std::string(between(line, " value ", ""))}};
  }
  if (verb == "newgame") {
    // The rule keys, then the game's seed and the clock as last words when the engine asked for them.
    std::string_view rules = w.rest(1, line);
    std::optional<ClockKind> clock;
    if (const std::size_t at = rules.rfind("clock=");
        at != std::string_view::npos && (at == 0 || rules[at - 1] == ' ')) {
      const std::string_view word = rules.substr(at + 6);
      clock = parse_clock_kind(word);
      if (!clock) return Error{"newgame: clock=" + std::string(word) + " is not wall or cpu"};
      rules = rules.substr(0, at);
      while (!rules.empty() && rules.back() == ' ') rules.remove_suffix(1);
    }
    std::optional<std::uint32_t> seed;
    const std::size_t at = rules.rfind("seed=");
    if (at != std::string_view::npos && (at == 0 || rules[at - 1] == ' ')) {
      const std::string_view digits = rules.substr(at + 5);
      std::uint32_t n = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty() || n > 0x7fffffffu)
        return Error{"newgame: seed=" + std::string(digits) + " is not a number 0..2147483647"};
      seed = n;
      rules = rules.substr(0, at);
      while (!rules.empty() && rules.back() == ' ') rules.remove_suffix(1);
    }
    Expected<Variant> v = parse_variant(rules);
    if (!v) return Error{"newgame: " + v.error()};
    return Command{NewGame{*v, seed, clock}};
  }
  if (verb == "position") {
    // "startpos" or the three words of a start notation, then optionally "moves ...".
    const size_t words = w[1] == "startpos" ? 1 : 3;
    if (w.size() < 1 + words || (words == 3 && (w[1] == "moves" || w[2] == "moves" || w[3] == "moves")))
      return Error{"position: expected 'position startpos|<start> [moves ...]'"};
    PositionCmd p;
    if (words == 3) p.start = std::string(w[1]) + " " + std::string(w[2]) + " " + std::string(w[3]);
    if (w.size() > 1 + words) {
      if (w[1 + words] != "moves") return Error{"position: expected 'moves' after the start"};
      for (size_t i = 2 + words; i < w.size(); ++i) {
        Expected<Move> m = parse_move(w[i]);
        if (!m) return Error{"position: " + m.error()};
        p.moves.push_back(*m);
      }
    }
    return Command{std::move(p)};
  }
  return Error{"unknown command '" + shorten(verb, 40) + "'"};
}

std::string format(const EngineMessage& m) {
  struct Visitor {
    std::string operator()(const IdName& x) const { return "id name " + x.name; }
    std::string operator()(const IdAuthor& x) const { return "id author " + x.author; }
    std::string operator()(const OptionDecl& o) const {
      std::string s = "option name " + o.name + " type " + o.type + " default " + o.default_value;
      if (o.min) s += " min " + std::to_string(*o.min);
      if (o.max) s += " max " + std::to_string(*o.max);
      return s;
    }
    std::string operator()(const Feature& f) const { return "feature " + f.name; }
    std::string operator()(const KepOk&) const { return "kepok"; }
    std::string operator()(const ReadyOk&) const { return "readyok"; }
    std::string operator()(const Info& i) const {
      std::string s = "info";
      if (i.depth) s += " depth " + std::to_string(*i.depth);
      if (i.score) s += " score " + std::to_string(*i.score);
      if (i.nodes) s += " nodes " + std::to_string(*i.nodes);
      if (i.time) s += " time " + std::to_string(*i.time);
      if (!i.pv.empty()) s += " pv" + join_moves(i.pv);
      if (!i.text.empty()) s += " string " + i.text;
      return s;
    }
    std::string operator()(const BestMove& b) const { return "bestmove " + to_string(b.move); }
    std::string operator()(const BenchResult& b) const {
      return "bench nodes " + std::to_string(b.nodes) + (b.time ? " time " + std::to_string(*b.time) : "");
    }
    std::string operator()(const Unknown& u) const { return u.line; }
    std::string operator()(const Malformed& u) const { return u.line; }
  };
  return std::visit(Visitor{}, m);
}

EngineMessage parse_engine_line(std::string_view raw) {
  const std::string_view line = trim(raw);
  const Words w(line);
  const std::string_view verb = w[0];
  auto malformed = [&](std::string why) { return EngineMessage{Malformed{std::string(line), std::move(why)}}; };
  if (verb == "bestmove") {
    if (w.size() < 2) return malformed("bestmove without a move");
    Expected<Move> m = parse_move(w[1]);
    if (!m) return malformed(m.error());
    return BestMove{*m};  // anything after the move (e.g. "ponder") is ignored
  }
  if (verb == "info") {
    Info info;
    for (size_t i = 1; i < w.size(); ++i) {
      const std::string_view key = w[i];
      if (key == "string") {
        info.text = std::string(w.rest(i + 1, line));
        break;
      }
      if (key == "pv") {
        for (++i; i < w.size(); ++i) {
          Expected<Move> m = parse_move(w[i]);
          if (!m) break;
          info.pv.push_back(*m);
        }
        --i;
        continue;
      }
      long long value = 0;
      if (i + 1 < w.size() && to_number(w[i + 1], value)) {
        // An engine's figure that does not fit is dropped, never wrapped around into a wrong one.
        const bool fits = value >= std::numeric_limits<int>::min() && value <= std::numeric_limits<int>::max();
        if (key == "depth" || key == "score") {
          if (fits) (key == "depth" ? info.depth : info.score) = static_cast<int>(value);
        } else if (key == "nodes")
          info.nodes = value;
        else if (key == "time")
          info.time = value;
        ++i;  // unknown numeric fields are skipped with their value
      }
    }
    return info;
  }
  if (verb == "bench") {
    // bench nodes <n> [time <ms>] [<key> <value>]...: the count must be there, whole and not negative.
    BenchResult bench;
    bool has_nodes = false;
    for (size_t i = 1; i + 1 < w.size(); i += 2) {
      long long value = 0;
      if (!to_number(w[i + 1], value) || value < 0)
        return malformed("bench: '" + shorten(w[i], 40) + "' needs a non-negative whole number, got '" +
                         shorten(w[i + 1], 40) + "'");
      if (w[i] == "nodes") bench.nodes = value, has_nodes = true;
      if (w[i] == "time") bench.time = value;
    }
    if (w.size() % 2 == 0) return malformed("bench: a field without its value");
    if (!has_nodes) return malformed("bench without 'nodes <count>'");
    return bench;
  }
  if (verb == "kepok") return KepOk{};
  if (verb == "feature" && w.size() == 2) return Feature{std::string(w[1])};
  if (verb == "readyok") return ReadyOk{};
  if (verb == "id" && w[1] == "name") return IdName{std::string(w.rest(2, line))};
  if (verb == "id" && w[1] == "author") return IdAuthor{std::string(w.rest(2, line))};
  if (verb == "option" && w[1] == "name") {
    // option name <words> type <t> [default <words>] [min <n>] [max <n>]
    OptionDecl o;
    std::string* text = &o.name;
    for (size_t i = 2; i < w.size(); ++i) {
      const std::string_view word = w[i];
      long long n = 0;
      if (word == "type" && i + 1 < w.size()) {
        o.type = std::string(w[++i]);
        text = nullptr;
      } else if (word == "default" && text != &o.name) {
        text = &o.default_value;
      } else if ((word == "min" || word == "max") && text != &o.name && to_number(w[i + 1], n)) {
        (word == "min" ? o.min : o.max) = n;
        text = nullptr;
        ++i;
      } else if (text) {
        if (!text->empty()) *text += ' ';
        *text += word;
      }
    }
    if (o.name.empty() || o.type.empty()) return malformed("option needs 'name <n> type <t>'");
    return o;
  }
  return Unknown{std::string(line)};
}

std::string shorten(std::string_view line, size_t limit) {
  if (line.size() <= limit) return std::string(line);
  return std::string(line.substr(0, limit)) + "...";
}

}  // namespace kalah::kep
