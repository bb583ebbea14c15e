#include "arena/report/context.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <regex>

#include <fmt/core.h>

#include "arena/report/text_util.h"

namespace kalah::report {
namespace {

std::string setting(const std::map<std::string, std::string>& settings, const std::string& key) {
  const auto it = settings.find(key);
  return it == settings.end() ? std::string() : it->second;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// The arena's user: its name and home folder, from the password database (not $HOME alone, which sudo
// and CI runners change).
std::pair<std::string, std::string> local_user() {
  std::string name, home;
  if (const passwd* pw = ::getpwuid(::getuid())) {
    name = pw->pw_name ? pw->pw_name : "";
    home = pw->pw_dir ? pw->pw_dir : "";
  }
  if (const char* h = std::getenv("HOME"); home.empty() && h) home = h;
  return {name, home};
}

}  // namespace

std::string variant_in_words(const Variant& v) {
  return fmt::format(
      "Kalah({},{}): {} pits a side, {} seeds in each; {}; the game ends when {}; seeds left in pits {}; {}; {}",
      v.pits, v.seeds, v.pits, v.seeds,
      v.capture == Capture::Standard
          ? "standard capture (the last seed in an own empty pit takes the facing pit's seeds, if any)"
          : "empty capture (the last seed in an own empty pit is always captured, with the facing pit)",
      v.ending == Ending::SideEmpty ? "either side is empty" : "the player to move has no seeds",
      v.remainder == Remainder::Owner ? "go to their side's owner" : "are not scored",
      v.majority ? "it also ends when a store holds more than half of the seeds" : "no majority end",
      v.pie ? "pie rule (North may swap after South's first move)" : "no pie rule");
}

std::string redact_local(std::string text) {
  const auto [name, home] = local_user();
  if (home.size() > 1) text = replace_all(std::move(text), home, "~");
  text = std::regex_replace(text, std::regex("/home/[^/ \"']+"), "~");
  if (name.size() > 1 && name != "root") text = replace_all(std::move(text), name, "user");
  return text;
}

Context make_context(const std::map<std::string, std::string>& settings, const std::vector<std::string>& engines,
                     const std::string& first_day, const std::string& last_day, bool publish) {
  Context c;
  auto add = [&](const char* label, std::string text) {
    if (!text.empty()) c.about.emplace_back(label, std::move(text));
  };
  if (!first_day.empty())
    add("Played", first_day == last_day ? first_day + " (UTC)" : first_day + " to " + last_day + " (UTC)");
  const std::string variant = setting(settings, "variant");
  if (!variant.empty()) {
    Expected<Variant> v = parse_variant(variant);
    add("Variant", v ? variant_in_words(*v) + ". Keys: " + variant : variant);
  }
  add("Start position", setting(settings, "variant.start"));
  std::string odds;
  for (const std::string& name : engines)
    if (const std::string own = setting(settings, "engine." + name + ".time"); !own.empty())
      odds += (odds.empty() ? "; time odds: " : ", ") + name + " " + own;
  add("Time control", setting(settings, "time") + odds);
  add("Openings", setting(settings, "openings"));
  const std::string type = setting(settings, "type");
  const std::string rounds = setting(settings, "rounds");
  const std::string tiebreak = setting(settings, "tiebreak_pairs");
  if (type == "sprt")
    add("Tournament", "SPRT match: " + setting(settings, "sprt"));
  else if (type == "knockout" && !rounds.empty() && !tiebreak.empty())
    add("Tournament", fmt::format("knockout, matches of {} game pair{}, up to {} tie-break pair{}", rounds,
                                  rounds == "1" ? "" : "s", tiebreak, tiebreak == "1" ? "" : "s"));
  else if (!type.empty())
    add("Tournament", rounds.empty() ? type : fmt::format("{}, {} round{}", type, rounds, rounds == "1" ? "" : "s"));
  add("Concurrency", setting(settings, "run.concurrency"));
  add("Seed", setting(settings, "seed"));
  const std::string version = setting(settings, "run.arena_version");
  add("Arena", version.empty() ? "" : "kalah-arena " + version);
  add("Machine", setting(settings, "run.machine"));
  for (const std::string& name : engines) {
    const std::string key = "engine." + name + ".";
    EngineContext e{name, setting(settings, key + "command"), setting(settings, key + "options"),
                    setting(settings, "run." + key + "id"), setting(settings, "run." + key + "limits")};
    if (publish) e.command = redact_local(std::move(e.command));
    if (!e.command.empty() || !e.announced.empty()) c.engines.push_back(std::move(e));
  }
  return c;
}

std::string context_markdown(const Context& c) {
  if (c.empty()) return "";
  std::string out = "## About\n\n";
  for (const auto& [label, text] : c.about) out += "- **" + label + "**: " + markdown_escape(text) + "\n";
  if (!c.engines.empty()) {
    out += "\n| Engine | Command | Options | Announced | Limits |\n|:---|:---|:---|:---|:---|\n";
    for (const EngineContext& e : c.engines)
      out += fmt::format("| {} | {} | {} | {} | {} |\n", markdown_escape(e.name), markdown_escape(e.command),
                         markdown_escape(e.options), markdown_escape(e.announced), markdown_escape(e.limits));
  }
  return out + "\n";
}

std::string context_html(const Context& c) {
  if (c.empty()) return "";
  std::string out = "<section id=\"about\"><h2>About</h2>\n<dl class=\"about\">";
  for (const auto& [label, text] : c.about)
    out += "<dt>" + html_escape(label) + "</dt><dd>" + html_escape(text) + "</dd>";
  out += "</dl>\n";
  if (!c.engines.empty()) {
    out +=
        "<div class=\"scroll\"><table><thead><tr><th class=\"name\">Engine</th><th class=\"name\">Command</th>"
        "<th class=\"name\">Options</th><th class=\"name\">Announced</th><th class=\"name\">Limits</th></tr></thead>"
        "<tbody>\n";
    for (const EngineContext& e : c.engines)
      out += "<tr><td class=\"name\">" + html_escape(e.name) + "</td><td class=\"name\"><code>" +
             html_escape(e.command) + "</code></td><td class=\"name\">" + html_escape(e.options) +
             "</td><td class=\"name\">" + html_escape(e.announced) + "</td><td class=\"name\">" +
             html_escape(e.limits) + "</td></tr>\n";
    out += "</tbody></table></div>\n";
  }
  return out + "</section>\n";
}

}  // namespace kalah::report
