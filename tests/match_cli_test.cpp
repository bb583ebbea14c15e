// `arena match` (arena/config/match_line.h): cutechess-style flags become the TOML of an equivalent
// config, errors name the flag, and the real executable plays a match from flags alone.
#include <gtest/gtest.h>

#include <algorithm>

#include "arena/config/match_line.h"
#include "referee/engine/engine_names.h"
#include "tests/e2e_util.h"

namespace kalah::arena {
namespace {

namespace fs = std::filesystem;

MatchLine line(const std::vector<std::string>& args) {
  Expected<MatchLine> parsed = parse_match_line(args);
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  return parsed ? *parsed : MatchLine{};
}

std::string error_of(const std::vector<std::string>& args) {
  Expected<MatchLine> parsed = parse_match_line(args);
  if (!parsed) return parsed.error();
  Expected<Config> config = match_config(*parsed, fs::current_path());
  return config ? std::string("(no error)") : config.error();
}

TEST(MatchLine, FlagsGiveTheSameTournamentAsTheTomlTheyPrint) {
  const MatchLine m = line({"-engine",
                            "cmd=/bin/true",
                            "name=a",
                            "arg=--x",
                            "arg=y z",
                            "option.Hash=16",
                            "-engine",
                            "cmd=/bin/cat",
                            "name=b",
                            "tc=20/30+0.3",
                            "-each",
                            "tc=40/60+0.6",
                            "timemargin=20",
                            "-rounds",
                            "10",
                            "-games",
                            "2",
                            "-concurrency",
                            "3",
                            "-seed",
                            "7",
                            "-variant",
                            "pits=5",
                            "seeds=3",
                            "-openings",
                            "plies=2",
                            "-event",
                            "cup",
                            "-tournament",
                            "gauntlet",
                            "-recover",
                            "-pgnout",
                            "out/all.pgn"});
  EXPECT_EQ(
      m.toml,
      "[tournament]\nname = \"cup\"\ntype = \"gauntlet\"\npairs = 10\nconcurrency = 3\nseed = 7\n"
      "pgnout = \"out/all.pgn\"\nrestart = \"on-crash\"\n[variant]\npits = 5\nseeds = 3\n[time]\n"
      "margin_ms = 20\ntc = \"40/60+0.6\"\n[openings]\nrandom_plies = 2\n"
      "[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\nargs = [\"--x\", \"y z\"]\noptions = { \"Hash\" = \"16\" }\n"
      "[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\ntime = { margin_ms = 20, tc = \"20/30+0.3\" }\n");
  Expected<Config> from_flags = match_config(m, fs::current_path());
  ASSERT_TRUE(from_flags.ok()) << from_flags.error();
  Expected<Config> from_text = parse_config(m.toml, "x.toml", fs::current_path());
  ASSERT_TRUE(from_text.ok()) << from_text.error();
  EXPECT_EQ(fingerprint(*from_flags), fingerprint(*from_text));
  EXPECT_TRUE(from_flags->warnings.empty()) << "-rounds is written as the key of its kind: " << from_flags->warnings[0];
  const Config& c = *from_flags;
  EXPECT_EQ(c.tournament.rounds, 10);  // 10 rounds x 2 games = 10 colour-swapped pairs per pairing
  EXPECT_EQ(c.tournament.type, TournamentType::Gauntlet);
  EXPECT_EQ(c.tournament.seed_engines, std::vector<int>{0});
  EXPECT_EQ(c.time.describe(), "40/60+0.6");
  ASSERT_TRUE(c.engines[1].time.has_value());
  EXPECT_EQ(c.engines[1].time->describe(), "20/30+0.3");
  EXPECT_EQ(c.engines[0].args, (std::vector<std::string>{"--x", "y z"}));
  EXPECT_EQ(c.tournament.pgnout, fs::current_path() / "out/all.pgn");
}

TEST(MatchLine, RoundsTimesGamesAreTheGamesPerPairing) {
  EXPECT_NE(line({"-engine", "cmd=/bin/true", "-engine", "cmd=/bin/true", "-rounds", "6"}).toml.find("pairs = 3\n"),
            std::string::npos);
  // The key that says what it counts: a knockout's pairs per match, a Swiss's rounds.
  EXPECT_NE(line({"-engine", "cmd=/bin/true", "-engine", "cmd=/bin/true", "-tournament", "knockout", "-rounds", "4"})
                .toml.find("type = \"knockout\"\npairs = 2\n"),
            std::string::npos);
  EXPECT_NE(line({"-engine", "cmd=/bin/true", "-engine", "cmd=/bin/true", "-tournament", "swiss", "-rounds", "4"})
                .toml.find("type = \"swiss\"\nrounds = 2\n"),
            std::string::npos);
  // The second engine of one command is told apart as referee match does.
  EXPECT_NE(line({"-engine", "cmd=/bin/true", "-engine", "cmd=/bin/true", "-rounds", "2"})
                .toml.find("name = \"true\"\ncmd = \"/bin/true\"\n[[engine]]\nname = \"true-2\""),
            std::string::npos);
  EXPECT_NE(line({"-engine", "cmd=/bin/true", "-engine", "cmd=/bin/true", "-rounds", "5", "-games", "2", "-sprt",
                  "elo0=0", "elo1=5"})
                .toml.find("[sprt]\nelo0 = 0\nelo1 = 5\nmax_pairs = 5\n"),
            std::string::npos);
}

TEST(MatchLine, DrawResignAndAdjudicateFlagsFillTheAdjudicationTable) {
  const MatchLine m = line({"-engine", "cmd=/bin/true", "-engine", "cmd=/bin/true", "-rounds", "2", "-draw",
                            "movenumber=40", "movecount=4", "score=1", "-resign", "movecount=3", "score=20",
                            "twosided=true", "-adjudicate", "store_majority=true", "database_seeds=12"});
  EXPECT_NE(m.toml.find("adjudicate = { store_majority = true, database_seeds = 12, draw = { movenumber = 40, "
                        "movecount = 4, score = 1 }, resign = { movecount = 3, score = 20, twosided = true } }\n"),
            std::string::npos)
      << m.toml;
  Expected<Config> c = match_config(m, fs::current_path());
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_NE(fingerprint(*c).find("adjudicate="), std::string::npos) << fingerprint(*c);
}

TEST(MatchLine, CutechessRestartOnAndOffAreTheRestartPolicies) {
  const auto toml_of = [](const std::string& word) {
    return line({"-engine", "cmd=/bin/true", word, "-engine", "cmd=/bin/true", "-rounds", "2"}).toml;
  };
  EXPECT_NE(toml_of("restart=on").find("restart = \"always\""), std::string::npos) << toml_of("restart=on");
  EXPECT_NE(toml_of("restart=off").find("restart = \"on-crash\""), std::string::npos) << toml_of("restart=off");
  EXPECT_NE(toml_of("restart=always").find("restart = \"always\""), std::string::npos);
  EXPECT_EQ(error_of({"-engine", "cmd=/bin/true", "restart=sometimes", "-engine", "cmd=/bin/true", "-rounds", "2"})
                .find("-engine cmd=/bin/true restart=sometimes:"),
            0u);
}

TEST(MatchLine, MistakesNameTheFlag) {
  const std::vector<std::string> two = {"-engine", "cmd=/bin/true", "-engine", "cmd=/bin/true"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = two;
    args.insert(args.end(), more.begin(), more.end());
    return error_of(args);
  };
  EXPECT_EQ(with({"-bogus"}), "unknown option '-bogus' (see arena match --help)");
  // A habit from cutechess-cli or fastchess gets this arena's spelling.
  EXPECT_EQ(with({"-srand", "5"}), "unknown option '-srand'; use -seed N (see arena match --help)");
  EXPECT_EQ(with({"-maxmoves", "200"}),
            "unknown option '-maxmoves'; use -adjudicate, or max_plies in [tournament] (see arena match --help)");
  EXPECT_EQ(with({"-rounds"}), "-rounds takes one value, got 0");
  EXPECT_EQ(with({"-rounds", "x"}), "-rounds x: expected a whole number from 1 to 100000");
  EXPECT_EQ(with({"-rounds", "3"}),
            "-rounds 3 -games 1: 3 games per pairing; Kalah Arena plays colour-swapped pairs, so give an even number "
            "(-games 2, or an even -rounds)");
  EXPECT_EQ(with({"-games", "3"}), "-games 3: expected 1 or 2 (games per encounter)");
  EXPECT_EQ(with({"-each", "tc"}), "-each: 'tc' is not KEY=VALUE");
  EXPECT_EQ(with({"-each", "depth=deep"}), "-each: depth=deep: expected a whole number");
  EXPECT_EQ(with({"-variant", "holes=6"}),
            "-variant: unknown key 'holes' (known: pits, seeds, capture, ending, remainder, majority, pie, start)");
  EXPECT_EQ(with({"-each", "tc=0/60", "-rounds", "2"}),
            "-each tc=0/60: time.tc '0/60': the moves per time control must be 1 to 1000, not 0");
  EXPECT_EQ(with({"-each", "tc=60", "depth=5", "-rounds", "2"}),
            "-each tc=60 depth=5: time.tc and time.depth are two time controls; give exactly one of tc, base_ms "
            "(with inc_ms and moves), movetime_ms, depth or nodes");
  EXPECT_EQ(with({"-variant", "pits=4", "start=4,4,4/4,4,4 0-0 S", "-rounds", "2"}),
            "-variant pits=4 start=4,4,4/4,4,4 0-0 S: variant.start: bad start position '4,4,4/4,4,4 0-0 S': each "
            "side needs 4 pits (the variant's pits), not 3 and 3");
  EXPECT_EQ(error_of({"-engine", "cmd=/no/such/engine", "-engine", "cmd=/bin/true", "-rounds", "2"}),
            "-engine cmd=/no/such/engine: engine.cmd \"/no/such/engine\" not found (tried /no/such/engine)");
  EXPECT_EQ(error_of({"-engine", "name=x", "-engine", "cmd=/bin/true"}), "-engine name=x: cmd=COMMAND is missing");
  EXPECT_EQ(with({"-rounds", "2", "-resign", "movecount=3"}),
            "-resign movecount=3: missing key \"score\" in tournament.adjudicate.resign");
  EXPECT_EQ(with({"-resign", "moves=3"}), "-resign: unknown key 'moves' (known: movecount, score, twosided)");
  // A ManKalah agent cannot be told of opening moves it never chose.
  EXPECT_EQ(error_of({"-engine", "cmd=/bin/true", "name=jar", "proto=mankalah", "-engine", "cmd=/bin/true", "-openings",
                      "plies=2", "-rounds", "2"}),
            "-engine cmd=/bin/true name=jar proto=mankalah: engine \"jar\" speaks the ManKalah protocol, whose "
            "agents can only play a whole game from the standard start, but this config gives random openings "
            "(openings.random_plies): remove that, or play this engine in a tournament without openings");
  // A KGP agent has no swap move; kgp_no_move is a KGP agent's key.
  EXPECT_EQ(error_of({"-engine", "cmd=/bin/true", "name=a", "proto=kgp", "-engine", "cmd=/bin/true", "-variant",
                      "pie=on", "-rounds", "2"}),
            "-engine cmd=/bin/true name=a proto=kgp: engine \"a\" is a KGP agent, and KGP has no pie rule (no swap "
            "move): play it with pie = \"off\"");
  EXPECT_EQ(error_of({"-engine", "cmd=/bin/true", "name=a", "kgp_no_move=random", "-engine", "cmd=/bin/true", "-rounds",
                      "2"}),
            "-engine cmd=/bin/true name=a kgp_no_move=random: engine.kgp_no_move applies to protocol = \"kgp\" only");
  EXPECT_EQ(error_of({"-engine", "cmd=/bin/true", "name=a", "kgp_transport=websocket", "-engine", "cmd=/bin/true",
                      "-rounds", "2"}),
            "-engine cmd=/bin/true name=a kgp_transport=websocket: engine.kgp_transport applies to protocol = \"kgp\" "
            "only");
  EXPECT_EQ(error_of({"-engine", "cmd=/bin/true"}), "give at least two -engine flags");
  EXPECT_EQ(error_of({"stray"}), "'stray': expected a flag such as -engine (see arena match --help)");
}

TEST(MatchLine, TheExecutablePlaysAMatchFromFlagsAndWritesThePgnWhereAsked) {
  system::TempFolder dir{"kalah-e2e"};
  const e2e::RunResult r =
      e2e::run({e2e::kArena.string(), "match", "-engine", "cmd=" + e2e::kGreedy.string(), "name=greedy", "-engine",
                "cmd=" + e2e::kRandom.string(), "name=random", "-each", "tc=40/2+0.02", "-rounds", "4", "-concurrency",
                "2", "-out", (dir / "results").string(), "-pgnout", (dir / "copy.pgn").string()},
               dir.path());
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_EQ(e2e::read_lines(dir / "results" / "match" / "games.jsonl").size(), 4u);
  const std::string pgn = e2e::read_file(dir / "copy.pgn");
  EXPECT_EQ(pgn, e2e::read_file(dir / "results" / "match" / "games.pgn"));
  EXPECT_NE(pgn.find("[TimeControl \"40/2+0.02\"]"), std::string::npos);

  const e2e::RunResult printed = e2e::run({e2e::kArena.string(), "match", "-engine", "cmd=/bin/true", "-engine",
                                           "cmd=/bin/true", "-rounds", "2", "--print-config"},
                                          dir.path());
  ASSERT_EQ(printed.status.code, 0) << printed.summary();
  EXPECT_EQ(printed.out.rfind("[tournament]\nname = \"match\"\npairs = 1\n", 0), 0u) << printed.out;

  const e2e::RunResult bad = e2e::run(
      {e2e::kArena.string(), "match", "-engine", "cmd=/bin/true", "-engine", "cmd=/bin/true", "-concurency", "2"},
      dir.path());
  EXPECT_EQ(bad.status.code, 2) << bad.summary();
  EXPECT_NE(bad.err.find("unknown option '-concurency'"), std::string::npos) << bad.err;
}

TEST(MatchLine, AnEngineWithoutANameIsRenamedInTheTomlItsCommandNamedItIn) {
  MatchLine m = line({"-engine", "cmd=/bin/true", "-engine", "cmd=/bin/cat", "name=cat", "-engine", "cmd=/bin/true"});
  EXPECT_EQ(m.named, (std::vector<bool>{false, true, false}));
  set_engine_name(m, 2, "Deep Kalah 2");
  set_engine_name(m, 0, "Deep Kalah");
  Expected<Config> c = match_config(m, fs::current_path());
  ASSERT_TRUE(c.ok()) << c.error();
  ASSERT_EQ(c->engines.size(), 3u);
  EXPECT_EQ(c->engines[0].name, "Deep Kalah");
  EXPECT_EQ(c->engines[1].name, "cat");
  EXPECT_EQ(c->engines[2].name, "Deep Kalah 2");
  EXPECT_EQ(m.origins.size(), static_cast<size_t>(std::count(m.toml.begin(), m.toml.end(), '\n')));
}

// cutechess-cli and fastchess test the first -engine against the second (scripts put `-engine name=dev` first);
// a config's [sprt] tests its second [[engine]] against its first. With -sprt the tables come the other way
// round, and the printed TOML runs the same test.
TEST(MatchLine, SprtTestsTheFirstEngineAgainstTheSecondAsCutechessAndFastchessDo) {
  MatchLine m = line(
      {"-engine", "cmd=/bin/true", "name=dev", "-engine", "cmd=/bin/cat", "name=base", "-sprt", "elo0=0", "elo1=5"});
  EXPECT_EQ(m.config_index, (std::vector<std::size_t>{1, 0}));
  EXPECT_NE(m.toml.find("# test: the first -engine\n[[engine]]\nname = \"dev\"\ncmd = \"/bin/true\"\n"),
            std::string::npos)
      << m.toml;
  Expected<Config> from_flags = match_config(m, fs::current_path());
  ASSERT_TRUE(from_flags.ok()) << from_flags.error();
  ASSERT_EQ(from_flags->engines.size(), 2u);
  EXPECT_EQ(from_flags->engines[0].name, "base");  // the base
  EXPECT_EQ(from_flags->engines[1].name, "dev");   // the test
  Expected<Config> from_text = parse_config(m.toml, "x.toml", fs::current_path());
  ASSERT_TRUE(from_text.ok()) << from_text.error();
  EXPECT_EQ(fingerprint(*from_flags), fingerprint(*from_text));
  EXPECT_EQ(from_text->engines[1].name, "dev");
  EXPECT_EQ(m.origins.size(), static_cast<size_t>(std::count(m.toml.begin(), m.toml.end(), '\n')));

  // An engine named by its handshake is named in its own table.
  MatchLine unnamed = line({"-engine", "cmd=/bin/true", "-engine", "cmd=/bin/cat", "-sprt", "elo0=0", "elo1=5"});
  set_engine_name(unnamed, 0, "Deep Kalah");
  Expected<Config> c = match_config(unnamed, fs::current_path());
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->engines[1].name, "Deep Kalah");
  EXPECT_EQ(c->engines[1].cmd_as_written, "/bin/true");
  EXPECT_EQ(c->engines[0].name, "cat");

  // Without -sprt the order is the flags'.
  EXPECT_EQ(line({"-engine", "cmd=/bin/true", "-engine", "cmd=/bin/cat"}).config_index,
            (std::vector<std::size_t>{0, 1}));
}

TEST(MatchLine, TheExecutableSprtTestsTheFirstEngineAndSaysSoBeforeTheFirstGame) {
  system::TempFolder dir{"kalah-e2e"};
  std::vector<std::string> flags = {e2e::kArena.string(), "match", "-out", (dir / "results").string()};
  flags.insert(flags.end(), {"-engine", "cmd=" + e2e::kGreedy.string(), "name=greedy", "-engine",
                             "cmd=" + e2e::kRandom.string(), "name=random"});
  flags.insert(flags.end(), {"-each", "depth=1", "-openings", "plies=2", "-sprt", "elo0=0", "elo1=50", "-rounds", "400",
                             "-concurrency", "2"});
  const e2e::RunResult r = e2e::run(flags, dir.path(), std::chrono::milliseconds(300000));
  // greedy is much the stronger: H1, exit 0 (testing random would accept H0, exit 1).
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_EQ(r.out.find("match: SPRT 'greedy' (test) vs 'random' (base)"), 0u) << r.out;
  EXPECT_NE(r.out.find("H1 accepted"), std::string::npos) << r.out;

  std::vector<std::string> print = flags;
  print.push_back("--print-config");
  const e2e::RunResult printed = e2e::run(print, dir.path());
  ASSERT_EQ(printed.status.code, 0) << printed.summary();
  Expected<Config> c = parse_config(printed.out, "printed.toml", dir.path());
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->engines[1].name, "greedy");  // the test engine of a config's [sprt]
}

TEST(MatchLine, PgnoutTakesTheFastchessFileKeyAndRefusesWhatItCannotDo) {
  const std::vector<std::string> two = {"-engine", "cmd=/bin/true", "-engine", "cmd=/bin/true", "-rounds", "2"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = two;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  const std::vector<std::vector<std::string>> forms = {
      {"out.pgn"}, {"file=out.pgn"}, {"file=out.pgn", "append=false", "nodes=false"}};
  for (const std::vector<std::string>& pgnout : forms) {
    std::vector<std::string> args = with({"-pgnout"});
    args.insert(args.end(), pgnout.begin(), pgnout.end());
    const MatchLine m = line(args);
    EXPECT_NE(m.toml.find("pgnout = \"out.pgn\"\n"), std::string::npos) << m.toml;
    Expected<Config> c = match_config(m, fs::current_path());
    ASSERT_TRUE(c.ok()) << c.error();
    EXPECT_EQ(c->tournament.pgnout, fs::current_path() / "out.pgn");
  }
  EXPECT_EQ(error_of(with({"-pgnout", "file=out.pgn", "append=true"})),
            "-pgnout file=out.pgn append=true: append=true is not taken: the file is written whole once the run "
            "ends, every game of the results folder (a resumed run's too), replacing what it held; leave append "
            "out or give append=false");
  EXPECT_EQ(error_of(with({"-pgnout", "file=out.pgn", "notation=san"})),
            "-pgnout file=out.pgn notation=san: notation= is not taken: a Kalah ply is a pit number, written one "
            "way ({plies: S3 N1 ...})");
  EXPECT_EQ(error_of(with({"-pgnout", "file=out.pgn", "nodes=true"}))
                .find("-pgnout file=out.pgn nodes=true: "
                      "nodes=true is not taken: the PGN has no "
                      "comment per move"),
            0u);
  EXPECT_EQ(error_of(with({"-pgnout", "out.pgn", "min"})),
            "-pgnout out.pgn min: 'min' is not taken: the PGN is written whole, with every tag, once the run ends "
            "(docs/CLI.md)");
  EXPECT_EQ(error_of(with({"-pgnout", "file=a.pgn", "b.pgn"})), "-pgnout file=a.pgn b.pgn: give one file");
  EXPECT_EQ(error_of(with({"-pgnout", "append=false"})),
            "-pgnout append=false: give the file: -pgnout FILE or -pgnout file=FILE");
  EXPECT_EQ(error_of(with({"-pgnout", "fil=out.pgn"})).find("-pgnout fil=out.pgn: unknown key 'fil'"), 0u);
}

// --print-config prints only what `arena run` takes: the same parse_config checks it first.
TEST(MatchLine, PrintConfigRefusesWhatARunWouldRefuse) {
  system::TempFolder dir{"kalah-e2e"};
  e2e::write_file(dir / "book.epd", "3 1\n");
  const std::vector<std::vector<std::string>> refused = {
      {"-engine", "cmd=/bin/true", "name=a", "proto=uci", "-engine", "cmd=/bin/true", "name=b"},
      {"-engine", "cmd=/bin/true", "name=a", "-engine", "cmd=/bin/true", "name=b", "-openings", "file=book.epd",
       "format=epd"}};
  for (const std::vector<std::string>& flags : refused) {
    std::vector<std::string> argv = {e2e::kArena.string(), "match"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back("--print-config");
    const e2e::RunResult r = e2e::run(argv, dir.path());
    EXPECT_EQ(r.status.code, 2) << r.summary();
    EXPECT_EQ(r.out, "") << r.summary();
    const std::string what = flags.size() == 7 ? "-engine cmd=/bin/true name=a proto=uci: " : "-openings file=book.epd";
    EXPECT_EQ(r.err.find("arena: " + what), 0u) << r.err;
  }
}

TEST(EngineNames, AnnouncedNamesAreMadeUniqueAroundTheGivenOnesAndAnEngineThatDoesNotStartKeepsItsOwn) {
  EXPECT_EQ(unique_name("bot", {}), "bot");
  EXPECT_EQ(unique_name("bot", {"bot", "bot-2"}), "bot-3");
  // /bin/true ends before its handshake: it announces nothing, and the name it has is kept (made unique).
  EngineSpec t;
  t.cmd = "/bin/true";
  t.cmd_as_written = "true";
  t.name = "true";
  EXPECT_EQ(announced_name(t, std::chrono::milliseconds(5000)), std::nullopt);
  EngineSpec given = t;
  given.name = "true";
  EXPECT_EQ(names_from_handshakes({t, given, t}, {false, true, false}, std::chrono::milliseconds(5000)),
            (std::vector<std::string>{"true-2", "true", "true-3"}));
}

}  // namespace
}  // namespace kalah::arena
