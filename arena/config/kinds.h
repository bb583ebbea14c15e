// The registry of tournament kinds (docs/ARCHITECTURE.md, "How to add a format"): one row per kind, the
// only place outside arena/formats/ that names one (`TournamentType::...`).
//
// A row is plain data: what the layers below the formats (the config's readers, the schedule, the runner, the
// flow, the reports) need to know about a kind, asked as questions ("does it read seed_engines?", "is it
// paired from the results?") instead of comparing kinds. What a kind does (its game source, its start and
// end lines, its plan) lives in its folder, arena/formats/<kind>/, registered in arena/formats/registry.cpp.
#pragma once

#include <span>
#include <string_view>

namespace kalah::arena {

// A kind's identity, a row of the registry below. Compare rows' data, not identities, outside the registry.
enum class TournamentType { RoundRobin, Gauntlet, Swiss, Knockout, Adaptive };

// The table a kind ranks by, beside the standings (docs/RANKING.md): none (Elo, or points), or its own.
enum class KindForm { None, SwissTable, Bracket };

// What a kind's count of games counts, and so its key: tournament.pairs, or a Swiss's tournament.rounds (read_pairs).
enum class RoundsCount {
  PairsPerPairing,  // colour-swapped game pairs per pairing (round robin, gauntlet)
  SwissRounds,      // Swiss rounds, one game pair each
  PairsPerMatch,    // game pairs per knockout match, before the tie-breaks
  NotRead,          // the kind refuses the key (adaptive: its games are budget_games)
};

struct TournamentKind {
  TournamentType type;
  std::string_view name;     // tournament.type, tournament.json's "type", the fingerprint's and the reports' word
  std::string_view article;  // "a" or "an", before the name in a sentence
  std::string_view noun;     // what an error calls a tournament of the kind ("a Swiss tournament")
  bool every_pair;           // every engine meets every other, in Berger tables (round robin)
  bool from_results;         // each round paired from the results of the rounds before (docs/SCHEDULE.md)
  bool round_waits;          // ...and only once every game of the round before has finished
  KindForm form;             // its own table, which the standings follow
  RoundsCount rounds;
  bool seed_engines;           // reads tournament.seed_engines: the seeds meet every other engine (gauntlet)
  bool tiebreak_pairs;         // reads tournament.tiebreak_pairs (knockout)
  bool budget;                 // reads budget_games, target_width and boundaries (adaptive)
  bool contest;                // a contest's entrants ([submissions]) may play it
  std::string_view no_points;  // why ranking.by = "points" does not apply to it; empty: it does
  std::string_view repeats;    // without openings, why it repeats games however few rounds it plays; empty: none
};

// The kind of a [tournament] without `type`.
inline constexpr TournamentType kDefaultKind = TournamentType::RoundRobin;

// Every kind, in the order of TournamentType.
std::span<const TournamentKind> tournament_kinds();
const TournamentKind& kind_of(TournamentType t);
// The kind whose name is `name`, or null.
const TournamentKind* kind_named(std::string_view name);

}  // namespace kalah::arena
