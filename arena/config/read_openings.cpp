// [openings] (docs/CONFIG.md, "Openings"): random openings of some plies, or a book file read and checked.
#include "arena/config/readers.h"

#include <random>

#include "arena/config/openings.h"
#include "arena/config/paths.h"

namespace kalah::arena::detail {
namespace fs = std::filesystem;

namespace {

void read_book(const Reader& r, const Table& t, const std::string& file, Config& c) {
  // Books belong with the config: relative to its directory, not to the working directory.
  const fs::path path = absolute_from(r.config_dir(), file);
  std::error_code ec;
  if (!fs::exists(path, ec))
    t.fail_at("file", "openings.file " + in_quotes(file) + " not found (tried " + path.string() + ")");
  auto text = read_file(path);
  if (!text) t.fail_at("file", "openings.file " + in_quotes(file) + " (" + path.string() + ") " + text.error());
  auto book = parse_book(*text, path.string(), c.variant, c.start_or_standard(), c.openings.format);
  if (!book) throw ConfigFailure{book.error()};
  if (book->empty()) t.fail_at("file", "openings.file " + in_quotes(file) + " (" + path.string() + ") has no openings");
  c.openings.file = path;
  c.openings.book = std::move(book).value();
}

}  // namespace

void read_openings(const Reader& r, const toml::table& table, Config& c) {
  Table t(r.loc(), table, "openings", "[openings]", {"random_plies", "file", "order", "format"});
  OpeningsConfig& out = c.openings;
  if (t.has("random_plies") && t.has("file")) {
    const bool file_later = detail::before(t.key_source("random_plies"), t.key_source("file"));
    r.loc().fail(t.key_source(file_later ? "file" : "random_plies"),
                 "openings.random_plies and openings.file exclude each other; give one");
  }
  out.random_plies = static_cast<int>(t.integer("random_plies", 0, 100).value_or(out.random_plies));
  if (t.has("order") && !t.has("file"))
    r.loc().fail(t.key_source("order"), "openings.order only applies to openings.file");
  out.order =
      t.choice<OpeningOrder>("order", {{"sequential", OpeningOrder::Sequential}, {"random", OpeningOrder::Random}})
          .value_or(out.order);
  if (t.has("format") && !t.has("file"))
    r.loc().fail(t.key_source("format"), "openings.format only applies to openings.file");
  out.format =
      t.choice<BookFormat>(
           "format", {{"auto", BookFormat::Auto}, {"moves", BookFormat::Moves}, {"positions", BookFormat::Positions}})
          .value_or(out.format);
  if (out.random_plies > 0) {
    // The schedule falls back to exactly this search (seed 0), so passing here guarantees
    // that every game pair gets an opening.
    std::mt19937_64 rng(0);
    if (!random_opening(c.variant, c.start_or_standard(), out.random_plies, rng))
      t.fail_at("random_plies", "openings.random_plies: found no " + std::to_string(out.random_plies) +
                                    "-ply opening that leaves the game running in this variant");
  }
  if (auto file = t.string("file")) read_book(r, t, *file, c);
}

}  // namespace kalah::arena::detail
