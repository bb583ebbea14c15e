// What a reader who opens a report cold needs to know about the tournament: when and under which rules
// it was played, by which engines, with which arena on which machine. It comes from the tournament's
// description (arena/config/description.h, tournament.json's settings; docs/FORMATS.md lists the keys) and the
// dates of the games, and is shown at the top of report.html and standings.md.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arena/config/description.h"
#include "referee/rules/variant.h"

namespace kalah::report {

struct EngineContext {
  std::string name;
  std::string command;    // as written in the config, with its arguments
  std::string options;    // "Depth=12 Seed=3"
  std::string announced;  // what it said in the handshake: "AlphaBeta 2 by J. Doe"
  std::string limits;     // "sandbox=bwrap memory_mb=512"; empty when none
};

// A contest's submission as report.html lists it (submission_pages.h).
struct SubmissionLink {
  std::string folder;
  std::string name;    // empty when its manifest could not be read
  std::string status;  // "entered (entrant 1)", "not entered: <reason>", "withdrawn: <reason>", ...
  std::string page;    // its page, relative to the report: "submissions/<folder>.html"
  bool plays = false;  // it entered (it has a bot page)
};

struct Context {
  std::vector<std::pair<std::string, std::string>> about;  // label, text; in display order
  std::vector<EngineContext> engines;
  std::vector<SubmissionLink> submissions;  // a contest's, when its results folder has them
  bool empty() const { return about.empty() && engines.empty(); }
};

// From the tournament's description (tournament.json's settings, read back): its variant, start position,
// time, openings, type, rounds, seed, each engine's command and options, and what the last run recorded (the
// concurrency, the arena's version, the machine, each engine's announced id and limits). `engines`: the names in
// order; `first_day`, `last_day`: "YYYY-MM-DD" of the first and last game (empty without games). With `publish`, what
// would show the organiser's machine in engine commands (the home folder, the user name) is replaced:
// "/home/alice/bots/x" -> "~/bots/x".
Context make_context(const arena::TournamentDescription& description, const std::vector<std::string>& engines,
                     const std::string& first_day, const std::string& last_day, bool publish);

// "Kalah(6,4): 6 pits a side, 4 seeds in each; standard capture (...); the game ends when either side is
// empty; seeds left in pits go to their side's owner; no majority end; no pie rule".
std::string variant_in_words(const Variant& v);

// Local details out of a text that is about to be published: the home folder of the arena's user (and any
// /home/<name>) becomes "~", the user's name "user".
std::string redact_local(std::string text);

std::string context_markdown(const Context& context);  // a "## About" section; empty for an empty context
std::string context_html(const Context& context);      // a <section id="about">; empty for an empty context

}  // namespace kalah::report
