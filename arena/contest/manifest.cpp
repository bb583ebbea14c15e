#include "arena/contest/manifest.h"

#include <cctype>

#include <toml++/toml.h>

#include "arena/config/toml_table.h"
#include "referee/system/confusables.h"
#include "referee/system/untrusted_files.h"

namespace kalah::arena {

bool valid_bot_name(std::string_view name) {
  if (name.empty() || name.size() > 64 || name == "." || name == "..") return false;
  for (char ch : name)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '-')) return false;
  return true;
}

Expected<Manifest> parse_manifest(std::string_view toml_text, std::string_view path_for_messages) {
  using detail::in_quotes;
  const std::string path(path_for_messages);
  try {
    const toml::table root = toml::parse(toml_text, std::string_view(path));
    const detail::Locator loc(path);
    const detail::Table t(loc, root, "bot", kManifestFile, {"name", "author", "language", "build", "run", "protocol"});
    Manifest m;
    auto name = t.string("name");
    if (!name) t.missing("name");
    if (!valid_bot_name(*name))
      t.fail_at("name", "name " + in_quotes(*name) +
                            " is not usable: 1 to 64 letters, digits, '.', '_' or '-' (it names the bot's folder)");
    m.name = *name;
    // Shown in the reports and on the terminal beside the name: without bidi and zero-width controls, which
    // would make them show as other text (docs/CONTEST.md, "Names").
    m.author = system::without_hidden_controls(t.string("author").value_or(""));
    m.language = system::without_hidden_controls(t.string("language").value_or(""));
    m.build = t.string("build");
    const toml::node* run = t.find("run");
    if (!run) t.missing("run");
    if (const toml::value<std::string>* text = run->as_string()) {
      std::string word;
      for (char ch : text->get()) {
        if (ch == ' ' || ch == '\t') {
          if (!word.empty()) m.run.push_back(std::move(word));
          word.clear();
        } else {
          word += ch;
        }
      }
      if (!word.empty()) m.run.push_back(std::move(word));
    } else if (const toml::array* words = run->as_array()) {
      for (const toml::node& w : *words) {
        if (!w.is_string()) loc.fail(w.source(), "run must hold strings only, not " + detail::describe(w.type()));
        m.run.push_back(w.as_string()->get());
      }
    } else {
      t.fail_at("run", "run must be a command (\"python3 bot.py\") or an array of words, not " +
                           detail::describe(run->type()));
    }
    if (m.run.empty() || m.run.front().empty()) t.fail_at("run", "run is empty: it names the program that plays");
    m.protocol = t.choice<Protocol>("protocol", {{to_string(Protocol::Kep), Protocol::Kep},
                                                 {to_string(Protocol::Mankalah), Protocol::Mankalah}})
                     .value_or(Protocol::Kep);
    return m;
  } catch (const toml::parse_error& e) {
    return Error{detail::Locator(path).at(e.source()) + std::string(e.description())};
  } catch (const detail::ConfigFailure& e) {
    return Error{e.message};
  }
}

Expected<Manifest> read_manifest(const std::filesystem::path& file) {
  // The submission's file: never through a link, never a FIFO, never more than 64 KiB.
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec)))
    return Error{file.string() + ": missing: every submission needs a " + kManifestFile +
                 " with at least name and run"};
  Expected<std::string> text = system::read_regular_file(file, 64 * 1024);
  if (!text) return Error{text.error()};
  return parse_manifest(*text, file.string());
}

}  // namespace kalah::arena
