#include "referee/suite/labels.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cinttypes>
#include <memory>
#include <set>
#include <system_error>

#include <fmt/core.h>

#include "referee/endgame/database.h"
#include "referee/rules/words.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::suite {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::string_view kMagic = "kalah-suite-labels";
constexpr int kVersion = 1;

std::string margin_text(int m) { return m > 0 ? fmt::format("+{}", m) : std::to_string(m); }

// A whole word as an integer ("+4", "-2", "17"), or nothing.
std::optional<long long> integer(std::string_view word) {
  if (!word.empty() && word.front() == '+') word.remove_prefix(1);
  if (word.empty() || word.front() == '+') return std::nullopt;
  long long value = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc() || end != word.data() + word.size()) return std::nullopt;
  return value;
}

std::string position_line(const LabelledPosition& p) {
  std::string line =
      fmt::format("{} {} {} |", to_string(p.candidate.phase), p.candidate.game, moves_text(p.candidate.moves));
  for (const solver::MoveValue& mv : p.values)
    line += fmt::format(" {}:{}", to_string(mv.move), margin_text(mv.margin));
  return line;
}

// One position line, replayed and checked against the rules.
Expected<LabelledPosition> parse_position(const Variant& v, std::string_view line) {
  const std::vector<std::string_view> words = split_words(line);
  const auto bar = std::find(words.begin(), words.end(), std::string_view("|"));
  if (words.size() < 4 || bar == words.end()) return Error{"not a position line (phase, game, moves, | labels)"};
  LabelledPosition out;
  const std::optional<Phase> phase = parse_phase(words[0]);
  if (!phase) return Error{"unknown phase '" + std::string(words[0].substr(0, 20)) + "'"};
  out.candidate.phase = *phase;
  const std::optional<long long> game = integer(words[1]);
  if (!game || *game < 0 || *game > 1'000'000'000) return Error{"the game number is not a count"};
  out.candidate.game = static_cast<int>(*game);
  if (words[2] != "startpos") return Error{"the moves must start with 'startpos'"};
  auto it = words.begin() + 3;
  if (it != bar) {
    if (*it != "moves") return Error{"'startpos' must be followed by 'moves' or '|'"};
    ++it;
  }
  Position p = start_position(v);
  for (; it != bar; ++it) {
    const Expected<Move> m = parse_move(*it);
    if (!m || !is_legal(v, p, *m))
      return Error{fmt::format("move {} ('{}') is not legal there", out.candidate.moves.size() + 1,
                               std::string(it->substr(0, 20)))};
    apply(v, p, *m);
    out.candidate.moves.push_back(*m);
  }
  if (p.over) return Error{"the game is over after its moves"};
  if (phase_of(v, p) != out.candidate.phase)
    return Error{fmt::format("the position is in the {} phase, not the {} one", to_string(phase_of(v, p)),
                             to_string(out.candidate.phase))};
  out.candidate.position = p;
  const MoveList legal = legal_moves(v, p);
  if (words.end() - (bar + 1) != legal.size) return Error{"the labels must name every legal move once, in order"};
  int i = 0;
  for (auto w = bar + 1; w != words.end(); ++w, ++i) {
    const std::size_t colon = w->find(':');
    const Expected<Move> m = parse_move(w->substr(0, colon == std::string_view::npos ? w->size() : colon));
    if (colon == std::string_view::npos || !m || !(*m == legal.moves[static_cast<std::size_t>(i)]))
      return Error{"the labels must name every legal move once, in order"};
    const std::optional<long long> margin = integer(w->substr(colon + 1));
    if (!margin || *margin < -v.total_seeds() || *margin > v.total_seeds())
      return Error{fmt::format("the margin of move {} is not a number within ±{}", to_string(*m), v.total_seeds())};
    out.values.push_back(solver::MoveValue{*m, static_cast<int>(*margin)});
  }
  const auto [low, high] = std::minmax_element(out.values.begin(), out.values.end(),
                                               [](const auto& a, const auto& b) { return a.margin < b.margin; });
  if (low->margin == high->margin) return Error{"every move has the same margin (such positions are left out)"};
  return out;
}

std::string file_key_name(const Variant& v) {
  // "pits=6 seeds=4 capture=standard ..." as "p6-s4-standard-side-empty-owner-majority-off-pie-off".
  std::string name = fmt::format("p{}-s{}", v.pits, v.seeds);
  const std::string keys = to_string(v);
  for (std::string_view word : split_words(keys)) {
    const std::size_t eq = word.find('=');
    const std::string_view key = word.substr(0, eq);
    const std::string_view value = word.substr(eq + 1);
    if (key == "pits" || key == "seeds") continue;
    name += '-';
    if (key == "majority" || key == "pie") name += std::string(key) + "-";
    name += std::string(value);
  }
  return name;
}

}  // namespace

int LabelledPosition::best() const {
  int best = values.front().margin;
  for (const solver::MoveValue& mv : values) best = std::max(best, mv.margin);
  return best;
}

std::optional<int> LabelledPosition::margin_of(Move m) const {
  for (const solver::MoveValue& mv : values)
    if (mv.move == m) return mv.margin;
  return std::nullopt;
}

Expected<LabelSet> label(const SuiteKey& key, solver::ExactSolver& solver, const LabelSettings& settings,
                         LabelStats& stats) {
  const auto started = SteadyClock::now();
  const Variant& v = key.variant;
  std::array<std::vector<LabelledPosition>, kPhases> taken;
  auto missing = [&] {
    int n = 0;
    for (int i = 0; i < kPhases; ++i)
      n += std::max(0, phase_quota(key.positions, static_cast<Phase>(i)) - static_cast<int>(taken[i].size()));
    return n;
  };
  std::set<std::string> seen;  // the notation of every position given to the solver
  CandidateStream stream(v, key.seed);
  const int max_games = 1000 + 200 * key.positions;
  int accepted = 0;
  while (missing() > 0 && stream.games() < max_games) {
    for (Candidate& c : stream.next_game()) {
      std::vector<LabelledPosition>& list = taken[static_cast<std::size_t>(c.phase)];
      if (static_cast<int>(list.size()) >= phase_quota(key.positions, c.phase)) continue;
      if (!seen.insert(to_notation(v, c.position)).second) {
        ++stats.duplicates;
        continue;
      }
      ++stats.tried;
      solver::SolveLimits limits;
      limits.deadline = SteadyClock::now() + settings.budget;
      std::optional<std::vector<solver::MoveValue>> values = solver.move_values(c.position, limits);
      if (!values) {
        ++stats.unproved;
      } else {
        LabelledPosition p{std::move(c), std::move(*values)};
        const bool all_equal = std::all_of(p.values.begin(), p.values.end(), [&](const solver::MoveValue& mv) {
          return mv.margin == p.values[0].margin;
        });
        if (all_equal) {
          ++stats.uninformative;
        } else {
          list.push_back(std::move(p));
          ++accepted;
        }
      }
      if (settings.progress) settings.progress(accepted, stats.tried);
    }
  }
  stats.games = stream.games();
  stats.seconds = std::chrono::duration<double>(SteadyClock::now() - started).count();
  if (missing() > 0)
    return Error{fmt::format("only {} of {} positions found in {} games ({} not proved within {} ms)", accepted,
                             key.positions, stream.games(), stats.unproved, settings.budget.count())};
  LabelSet set{key, {}};
  for (std::vector<LabelledPosition>& list : taken)
    for (LabelledPosition& p : list) set.positions.push_back(std::move(p));
  return set;
}

std::filesystem::path labels_file(const std::filesystem::path& dir, const SuiteKey& key) {
  return dir / fmt::format("kalah-suite-{}-seed{}-n{}.labels", file_key_name(key.variant), key.seed, key.positions);
}

std::string to_text(const LabelSet& set) {
  std::string text = fmt::format("{} {}\nvariant {}\nseed {}\npositions {}\n", kMagic, kVersion,
                                 to_string(set.key.variant), set.key.seed, set.key.positions);
  for (const LabelledPosition& p : set.positions) text += position_line(p) + "\n";
  text += fmt::format("checksum {:016x}\n", endgame::checksum(text.data(), text.size()));
  return text;
}

Expected<LabelSet> parse_labels(std::string_view text, const SuiteKey& key) {
  // The checksum line first: whatever else is wrong, a damaged file is named as such.
  if (text.empty() || text.back() != '\n') return Error{"the file does not end with a whole line"};
  const std::size_t last = text.rfind('\n', text.size() - 2);
  const std::size_t body_end = last == std::string_view::npos ? 0 : last + 1;
  const std::vector<std::string_view> sum = split_words(text.substr(body_end, text.size() - 1 - body_end));
  if (sum.size() != 2 || sum[0] != "checksum") return Error{"the last line is not its checksum"};
  if (sum[1] != fmt::format("{:016x}", endgame::checksum(text.data(), body_end)))
    return Error{"the checksum does not match (a damaged file)"};
  const std::string expected_header = fmt::format("{} {}\nvariant {}\nseed {}\npositions {}\n", kMagic, kVersion,
                                                  to_string(key.variant), key.seed, key.positions);
  if (body_end < expected_header.size() || text.substr(0, expected_header.size()) != expected_header)
    return Error{"its header is not that of these labels (another format, variant, seed or count)"};
  LabelSet set{key, {}};
  std::array<int, kPhases> counts{};
  int line_number = 4;
  std::string_view rest = text.substr(expected_header.size(), body_end - expected_header.size());
  while (!rest.empty()) {
    ++line_number;
    const std::size_t nl = rest.find('\n');
    Expected<LabelledPosition> p = parse_position(key.variant, rest.substr(0, nl));
    if (!p) return Error{fmt::format("line {}: {}", line_number, p.error())};
    const std::size_t phase = static_cast<std::size_t>(p->candidate.phase);
    // Phases in order, each no fuller than its quota.
    for (std::size_t later = phase + 1; later < kPhases; ++later)
      if (counts[later] > 0) return Error{fmt::format("line {}: the phases are out of order", line_number)};
    if (++counts[phase] > phase_quota(key.positions, p->candidate.phase))
      return Error{
          fmt::format("line {}: more {} positions than the suite has", line_number, to_string(p->candidate.phase))};
    set.positions.push_back(std::move(p).value());
    rest.remove_prefix(nl + 1);
  }
  if (static_cast<int>(set.positions.size()) != key.positions)
    return Error{fmt::format("{} positions instead of {}", set.positions.size(), key.positions)};
  return set;
}

Expected<Labelling> load_or_label(const SuiteKey& key, const LabelSettings& settings) {
  const Variant& v = key.variant;
  if (!solver::ExactSolver::supports(v))
    return Error{fmt::format("the exact solver cannot label {} (at most 255 seeds)", to_string(v))};
  Labelling out;
  if (!settings.cache_dir.empty()) {
    out.file = labels_file(settings.cache_dir, key);
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(out.file, ec))) {
      Expected<std::string> bytes = system::read_regular_file(out.file, kMaxLabelsBytes, /*follow_link=*/false);
      Expected<LabelSet> cached = bytes ? parse_labels(*bytes, key) : Expected<LabelSet>(Error{bytes.error()});
      if (cached) {
        out.set = std::move(cached).value();
        out.from_cache = true;
        return out;
      }
      out.note = fmt::format("{} is unusable ({}): labelled again", out.file.string(), cached.error());
    }
  }
  if (settings.labelling)
    settings.labelling(out.file.empty() ? "no cache folder" : out.note.empty() ? "no labels file yet" : out.note);
  std::shared_ptr<endgame::Database> db;
  const int levels =
      std::min(endgame::levels_for_memory(v.pits, std::uint64_t(settings.db_mb) << 20, endgame::Database::kMaxLevels),
               v.total_seeds());
  if (!v.majority && levels >= 0 && settings.db_mb > 0) {
    db = std::make_shared<endgame::Database>(endgame::DbKey::of(v), levels);
    db->load_or_build(settings.cache_dir, settings.threads);
    out.db_levels = db->ready();
  }
  solver::ExactSolver solver(v, settings.hash_mb, settings.threads);
  solver.set_database(db);
  Expected<LabelSet> set = label(key, solver, settings, out.stats);
  if (!set) return Error{set.error()};
  out.set = std::move(set).value();
  if (!out.file.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(settings.cache_dir, ec);
    const std::optional<std::string> failed =
        ec ? std::optional<std::string>(settings.cache_dir.string() + ": " + ec.message())
           : system::write_file_atomically(out.file, to_text(out.set), system::Durability::Rebuildable);
    if (failed) {
      const std::string saving = "the labels were not saved: " + *failed;
      out.note = out.note.empty() ? saving : out.note + "; " + saving;
    }
  }
  return out;
}

}  // namespace kalah::suite
