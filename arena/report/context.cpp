#include "arena/report/context.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <regex>

#include <fmt/core.h>

#include "arena/report/text_util.h"

namespace kalah::report {
namespace {

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

Context make_context(const arena::TournamentDescription& d, const std::vector<std::string>& engines,
                     const std::string& first_day, const std::string& last_day, bool publish) {
  Context c;
  auto add = [&](const char* label, std::string text) {
    if (!text.empty()) c.about.emplace_back(label, std::move(text));
  };
  if (!first_day.empty())
    add("Played", first_day == last_day ? first_day + " (UTC)" : first_day + " to " + last_day + " (UTC)");
  if (const std::string variant = d.variant.value_or(""); !variant.empty()) {
    Expected<Variant> v = parse_variant(variant);
    add("Variant", v ? variant_in_words(*v) + ". Keys: " + variant : variant);
  }
  add("Start position", d.start.value_or(""));
  std::string odds;
  for (const std::string& name : engines)
    if (const std::string own = d.engine(name).time.value_or(""); !own.empty())
      odds += (odds.empty() ? "; time odds: " : ", ") + name + " " + own;
  add("Time control", d.time.value_or("") + odds);
  add("Openings", d.openings.value_or(""));
  if (d.sprt_match)
    add("Tournament", "SPRT match: " + d.sprt_summary.value_or(""));
  else if (d.type && arena::kind_of(*d.type).form == arena::KindForm::Bracket && d.rounds && d.tiebreak_pairs)
    add("Tournament", fmt::format("knockout, matches of {} game pair{}, up to {} tie-break pair{}", *d.rounds,
                                  *d.rounds == 1 ? "" : "s", *d.tiebreak_pairs, *d.tiebreak_pairs == 1 ? "" : "s"));
  else if (d.type)
    add("Tournament", !d.rounds
                          ? std::string(to_string(*d.type))
                          : fmt::format("{}, {} round{}", to_string(*d.type), *d.rounds, *d.rounds == 1 ? "" : "s"));
  add("Concurrency", d.concurrency.value_or(""));
  add("Seed", d.seed ? std::to_string(*d.seed) : "");
  const std::string version = d.arena_version.value_or("");
  add("Arena", version.empty() ? "" : "kalah-arena " + version);
  add("Machine", d.machine.value_or(""));
  for (const std::string& name : engines) {
    const arena::EngineDescription& engine = d.engine(name);
    EngineContext e{name, engine.command.value_or(""), engine.options.value_or(""), engine.id.value_or(""),
                    engine.limits.value_or("")};
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
