#include "arena/season/pseudonyms.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

#include <fmt/core.h>

#include "arena/season/pipeline.h"
#include "arena/season/roster.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::season {
namespace fs = std::filesystem;

namespace {

// 64 of each: with the 90 numbers, 368,640 pseudonyms. No word is a person's name.
const std::vector<std::string_view> kAdjectives = {
    "amber",  "azure",  "bold",   "brave", "brisk",  "calm",   "clever", "coral",  "cosmic",  "crisp",  "dapper",
    "dusky",  "eager",  "fancy",  "fleet", "frosty", "gentle", "golden", "happy",  "hardy",   "humble", "icy",
    "jolly",  "keen",   "lively", "lucky", "mellow", "merry",  "misty",  "nimble", "noble",   "ochre",  "patient",
    "plucky", "polar",  "proud",  "quick", "quiet",  "rapid",  "rustic", "sandy",  "scarlet", "shy",    "silver",
    "sleek",  "smooth", "snowy",  "solar", "spry",   "steady", "stormy", "sunny",  "swift",   "tawny",  "tidy",
    "velvet", "vivid",  "warm",   "wild",  "windy",  "wise",   "witty",  "zesty",  "lunar"};
const std::vector<std::string_view> kNouns = {
    "otter",  "badger",  "beaver", "bison",   "crane",  "falcon", "ferret", "finch",   "fox",     "gecko",  "heron",
    "ibis",   "jackal",  "koala",  "lemur",   "lynx",   "magpie", "marten", "mink",    "moose",   "newt",   "ocelot",
    "osprey", "owl",     "panda",  "pelican", "puffin", "quail",  "raven",  "bittern", "salmon",  "seal",   "shrew",
    "stoat",  "swan",    "tapir",  "tern",    "toad",   "trout",  "turtle", "viper",   "walrus",  "weasel", "wombat",
    "wren",   "yak",     "zebra",  "bear",    "condor", "dingo",  "eagle",  "egret",   "gazelle", "hare",   "hornet",
    "impala", "kestrel", "llama",  "mole",    "orca",   "parrot", "plover", "sparrow", "starling"};

constexpr std::uint64_t kNumbers = 90;  // 10..99: two digits, so no pseudonym is the start of another's bot name
constexpr std::size_t kMaxPseudonymsBytes = 4u << 20;
constexpr std::size_t kMinHiddenNameLength = 3;

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Whether `candidate` may be a pseudonym beside `taken` (lowercase) and the roster's `authors`.
bool free_pseudonym(const std::string& candidate, const std::vector<std::string>& taken,
                    const std::vector<std::string>& authors) {
  const std::string low = lower(candidate);
  if (std::find(taken.begin(), taken.end(), low) != taken.end()) return false;
  return std::none_of(authors.begin(), authors.end(), [&](const std::string& author) {
    const std::string name = lower(author);
    return name == low || (name.size() >= kMinHiddenNameLength && low.find(name) != std::string::npos);
  });
}

}  // namespace

const std::vector<std::string_view>& pseudonym_adjectives() { return kAdjectives; }
const std::vector<std::string_view>& pseudonym_nouns() { return kNouns; }

std::string derive_pseudonym(const SeedSecret& key, std::string_view author, int attempt) {
  std::uint64_t n = key.number_for(fmt::format("season pseudonym\n{}\n{}", author, attempt));
  const std::string_view adjective = kAdjectives[n % kAdjectives.size()];
  n /= kAdjectives.size();
  const std::string_view noun = kNouns[n % kNouns.size()];
  n /= kNouns.size();
  return fmt::format("{}-{}-{}", adjective, noun, 10 + n % kNumbers);
}

Expected<PseudonymList> assign_pseudonyms(const SeedSecret& key, const std::vector<std::string>& authors,
                                          PseudonymList given) {
  std::vector<std::string> taken;
  for (const auto& entry : given) taken.push_back(lower(entry.second));
  for (const std::string& author : authors) {
    const bool has = std::any_of(given.begin(), given.end(), [&](const auto& e) { return e.first == author; });
    if (has) continue;
    int attempt = 0;
    std::string candidate = derive_pseudonym(key, author, attempt);
    while (!free_pseudonym(candidate, taken, authors)) {
      if (++attempt == kMaxPseudonymAttempts)
        return Error{fmt::format("no free pseudonym for {} in {} tries", author, kMaxPseudonymAttempts)};
      candidate = derive_pseudonym(key, author, attempt);
    }
    taken.push_back(lower(candidate));
    given.emplace_back(author, std::move(candidate));
  }
  return given;
}

std::optional<std::string> PseudonymTable::of(std::string_view author) const {
  for (const auto& [name, pseudonym] : names)
    if (name == author) return pseudonym;
  return std::nullopt;
}

std::string pseudonyms_text(const PseudonymTable& table) {
  std::string out =
      "# The season's pseudonyms (docs/SEASON.md, \"Pseudonyms\"): AUTHOR PSEUDONYM a line, for the organiser only.\n"
      "# The key derives them: never change it or a line once a revision is named (the server refuses to start).\n";
  out += "key " + table.key.hex() + "\n";
  for (const auto& [author, pseudonym] : table.names) out += author + " " + pseudonym + "\n";
  return out;
}

Expected<PseudonymTable> pseudonyms_from_text(std::string_view text, const std::string& where) {
  std::optional<SeedSecret> key;
  PseudonymTable table;
  std::vector<std::string> seen_authors, seen_names;
  std::string_view rest = text;
  for (std::size_t number = 1; !rest.empty(); ++number) {
    const std::size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (line.empty() || line.front() == '#') continue;
    const std::string at = where + ":" + std::to_string(number) + ": ";
    const std::size_t space = line.find(' ');
    const std::string_view first = line.substr(0, space);
    const std::string_view second = space == std::string_view::npos ? std::string_view{} : line.substr(space + 1);
    if (!key) {
      Expected<SeedSecret> secret = first == "key" ? SeedSecret::from_hex(second) : Error{"no `key HEX` line"};
      if (!secret)
        return Error{at + "not `key HEX` (64 lowercase hex digits) before the pseudonyms: " + secret.error()};
      key = *secret;
      continue;
    }
    if (!valid_author(first) || !valid_author(second))
      return Error{at + "not `AUTHOR PSEUDONYM` (each 1 to 64 letters, digits, '.', '_' or '-')"};
    if (std::find(seen_authors.begin(), seen_authors.end(), first) != seen_authors.end())
      return Error{at + "the author " + std::string(first) + " has a pseudonym already"};
    if (std::find(seen_names.begin(), seen_names.end(), lower(second)) != seen_names.end())
      return Error{at + "the pseudonym " + std::string(second) + " is another author's already (ignoring case)"};
    seen_authors.emplace_back(first);
    seen_names.push_back(lower(second));
    table.names.emplace_back(first, second);
  }
  if (!key) return Error{where + ": no `key HEX` line"};
  table.key = *key;
  return table;
}

Expected<std::optional<PseudonymTable>> read_pseudonyms(const fs::path& dir) {
  const fs::path file = dir / kPseudonymsFile;
  std::error_code ec;
  if (fs::symlink_status(file, ec).type() == fs::file_type::not_found) return std::optional<PseudonymTable>();
  Expected<std::string> text = system::read_regular_file(file, kMaxPseudonymsBytes);
  if (!text) return Error{text.error()};
  Expected<PseudonymTable> table = pseudonyms_from_text(*text, file.string());
  if (!table) return Error{table.error()};
  return std::optional<PseudonymTable>(std::move(table).value());
}

std::optional<std::string> write_pseudonyms(const fs::path& dir, const PseudonymTable& table) {
  // system::write_file_atomically makes its files 0644: the secret is written 0600 from its first byte instead,
  // into a temporary of its own that the season's lock keeps to one writer (a killed one's is removed here).
  const fs::path file = dir / kPseudonymsFile, temporary = dir / ".pseudonyms.txt.new";
  if (::unlink(temporary.c_str()) != 0 && errno != ENOENT) return system::system_error_text(temporary, "cannot remove");
  {
    system::FileHandle fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd.is_open()) return system::system_error_text(temporary, "cannot create");
    if (auto error = system::write_all(fd.get(), pseudonyms_text(table), temporary)) return error;
    if (::fsync(fd.get()) != 0) return system::system_error_text(temporary, "cannot sync");
  }
  if (::rename(temporary.c_str(), file.c_str()) != 0) return system::system_error_text(file, "cannot replace");
  return system::sync_directory(dir);
}

std::string naming_changed(const SeasonConfig& season, bool had_file, const std::string& author, int number,
                           const std::string& bot, const std::string& now) {
  const std::string revision = fmt::format("{}'s revision {} is {}", author, number, bot);
  if (season.pseudonyms && bot == revision_bot(author, number))
    return season.pseudonyms_at +
           fmt::format(
               "season.pseudonyms = true, but this season named its revisions by their authors before ({}): "
               "a season's engine names are fixed by the first revision it names; set pseudonyms = false "
               "again, or begin a new season (arena season init)",
               revision);
  if (!season.pseudonyms)
    return season.pseudonyms_at +
           fmt::format(
               "season.pseudonyms = false, but this season named its revisions by pseudonyms before ({}, "
               "not {}): a season's engine names are fixed by the first revision it names; set pseudonyms = "
               "true again, or begin a new season (arena season init)",
               revision, now);
  const fs::path file = season.dir / kPseudonymsFile;
  return fmt::format(
      "{}: {}, but the file {}: its key or its lines changed since the revision was named; put back "
      "the file the season was played with (a season's engine names never change)",
      file.string(), revision, had_file ? "now names it " + now : std::string("is missing"));
}

std::optional<std::string> check_frozen_names(const SeasonConfig& season, const FreezeRecord& frozen) {
  std::optional<PseudonymTable> table;
  if (season.pseudonyms) {
    Expected<std::optional<PseudonymTable>> read = read_pseudonyms(season.dir);
    if (!read) return read.error();
    table = std::move(read).value();
  }
  for (const FrozenAuthor* a : frozen.finalists()) {
    const std::optional<std::string> pseudonym = table ? table->of(a->author) : std::nullopt;
    const std::string now = revision_bot(pseudonym.value_or(a->author), a->revision);
    if (a->engine != now) return naming_changed(season, table.has_value(), a->author, a->revision, a->engine, now);
  }
  return std::nullopt;
}

Expected<std::map<std::string, std::string>> open_public_names(const SeasonConfig& season,
                                                               const std::vector<std::string>& authors,
                                                               const RevisionStore& store) {
  std::optional<PseudonymTable> table;
  bool had_file = false, changed = false;
  if (season.pseudonyms) {
    Expected<std::optional<PseudonymTable>> read = read_pseudonyms(season.dir);
    if (!read) return Error{read.error()};
    had_file = read->has_value();
    table = had_file ? std::move(**read) : PseudonymTable{SeedSecret::random(), {}};
    const std::size_t before = table->names.size();
    Expected<PseudonymList> names = assign_pseudonyms(table->key, authors, std::move(table->names));
    if (!names) return Error{names.error()};
    table->names = std::move(names).value();
    changed = !had_file || table->names.size() != before;
  }
  std::map<std::string, std::string> out;
  if (table)
    for (const auto& [author, pseudonym] : table->names) out[author] = pseudonym;
  for (const std::string& author : store.authors()) {
    Expected<std::vector<Revision>> revisions = store.list(author);
    if (!revisions) return Error{revisions.error()};
    const auto found = out.find(author);
    const std::string name = found == out.end() ? author : found->second;
    for (const Revision& r : *revisions) {
      const std::string now = revision_bot(name, r.number);
      if (!r.bot.empty() && r.bot != now) return Error{naming_changed(season, had_file, author, r.number, r.bot, now)};
    }
  }
  if (changed)
    if (auto error = write_pseudonyms(season.dir, *table)) return Error{*error};
  return out;
}

}  // namespace kalah::season
