// `referee kgp-client --server wss://...` end to end: a WebSocket over TLS to the project's KGP server
// (`referee kgp-server --websocket` behind tests/engines/kgp_tls_proxy.py, with a certificate made for the
// test by the openssl tool) on loopback. Two bundled bots play a whole game when the client trusts the
// certificate (--ca-file); a certificate for another host, or one the client has no reason to trust, is
// refused with the host and the reason, and no game is played.
#include <gtest/gtest.h>

#include "referee/system/temp_folder.h"
#include "tests/child_process.h"
#include "tests/e2e_util.h"

namespace kalah {
namespace {

using test_support::ChildProcess;

constexpr std::chrono::milliseconds kPatience{20000};
const e2e::fs::path kOpenssl = "/usr/bin/openssl";

// A self-signed certificate and its key, `NAME.pem` and `NAME.key` in `folder`, for `names`
// (a subjectAltName value such as "DNS:localhost,IP:127.0.0.1"); empty when openssl failed, with why.
std::string make_certificate(const e2e::fs::path& folder, const std::string& name, const std::string& names) {
  const e2e::RunResult r =
      e2e::run({kOpenssl.string(), "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes", "-days", "2", "-subj", "/CN=kalah-arena test", "-addext", "subjectAltName=" + names,
                "-keyout", (folder / (name + ".key")).string(), "-out", (folder / (name + ".pem")).string()},
               folder, kPatience);
  return r.status.code == 0 ? std::string() : "openssl req failed: " + r.summary();
}

class KgpWssE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!e2e::fs::exists(kOpenssl)) GTEST_SKIP() << "the openssl tool is not installed (apt-get install openssl)";
    ASSERT_EQ(make_certificate(scratch_.path(), "local", "DNS:localhost,IP:127.0.0.1"), "");
    ASSERT_EQ(make_certificate(scratch_.path(), "other", "DNS:kalah.example"), "");
  }

  // The TLS front with certificate `name` for the plain WebSocket server on `port`; its port, or none.
  std::optional<std::string> start_proxy(const std::string& name, const std::string& port) {
    proxy_.emplace(std::vector<std::string>{"/usr/bin/env", "python3",
                                            KALAH_SOURCE_DIR "/tests/engines/kgp_tls_proxy.py", pem(name),
                                            (scratch_.path() / (name + ".key")).string(), port});
    return proxy_->read_line(kPatience);
  }

  std::string pem(const std::string& name) const { return (scratch_.path() / (name + ".pem")).string(); }

  // kgp-client with kalah-random on `url` and `more` options, to its exit.
  e2e::RunResult client(const std::string& url, std::vector<std::string> more) {
    std::vector<std::string> args{e2e::kReferee.string(), "kgp-client", "--server", url};
    args.insert(args.end(), more.begin(), more.end());
    args.push_back("--engine");
    args.push_back("cmd=" + e2e::kRandom.string());
    return e2e::run(args, scratch_.path(), kPatience);
  }

  system::TempFolder scratch_{"kalah-wss"};
  std::optional<ChildProcess> proxy_;
};

// The port in kgp-server's first line, "kgp-server: listening on ws://127.0.0.1:PORT/, ...".
std::optional<std::string> listening_port(ChildProcess& server) {
  const std::optional<std::string> line = server.wait_for("kgp-server: listening on ", kPatience);
  if (!line) return std::nullopt;
  const std::size_t colon = line->find(':', line->find("127.0.0.1"));
  const std::size_t end = line->find('/', colon);
  if (colon == std::string::npos || end == std::string::npos) return std::nullopt;
  return line->substr(colon + 1, end - colon - 1);
}

// Everything a client printed, up to its exit.
std::vector<std::string> rest_of(ChildProcess& p) {
  std::vector<std::string> lines;
  const auto deadline = ChildProcess::Clock::now() + kPatience;
  while (std::optional<std::string> line = p.read_line(deadline)) lines.push_back(*line);
  return lines;
}

TEST_F(KgpWssE2E, TwoBundledBotsPlayAWholeGameOverTls) {
  ChildProcess server(
      {e2e::kReferee.string(), "kgp-server", "--websocket", "--port", "0", "--movetime", "5000", "--wait-ms", "20000"});
  ASSERT_TRUE(server.started());
  const std::optional<std::string> port = listening_port(server);
  ASSERT_TRUE(port.has_value());
  const std::optional<std::string> front = start_proxy("local", *port);
  ASSERT_TRUE(front.has_value());
  // By name (SNI and the certificate's DNS name) and by address (its IP name).
  const std::string by_name = "wss://localhost:" + *front + "/kgp";
  const std::string by_address = "wss://127.0.0.1:" + *front + "/kgp";
  ChildProcess greedy({e2e::kReferee.string(), "kgp-client", "--server", by_name, "--ca-file", pem("local"),
                       "--margin-ms", "4000", "--engine", "cmd=" + e2e::kGreedy.string()});
  ChildProcess random({e2e::kReferee.string(), "kgp-client", "--server", by_address, "--ca-file", pem("local"),
                       "--margin-ms", "4000", "--engine", "cmd=" + e2e::kRandom.string()});
  ASSERT_TRUE(greedy.started() && random.started());
  const std::optional<std::string> game = server.wait_for("game kgp-1: ", kPatience);
  ASSERT_TRUE(game.has_value());
  EXPECT_NE(game->find("kalah-greedy"), std::string::npos) << *game;
  EXPECT_NE(game->find("kalah-random"), std::string::npos) << *game;
  EXPECT_EQ(game->find("forfeits"), std::string::npos) << *game;
  EXPECT_EQ(server.wait_exit(), 0);
  for (ChildProcess* c : {&greedy, &random}) {
    const std::vector<std::string> lines = rest_of(*c);
    ASSERT_GE(lines.size(), 3u);
    const std::string url = c == &greedy ? by_name : by_address;
    EXPECT_NE(lines.front().find(") on " + url + " as "), std::string::npos) << lines.front();
    EXPECT_EQ(lines[1], "server: kgp 1 0 0");
    EXPECT_NE(lines.back().find("0 without a move; the connection ended: goodbye"), std::string::npos) << lines.back();
    EXPECT_EQ(c->wait_exit(), 0);
  }
}

// Nothing listens behind the front in the refusals: a client that got past the handshake would fail later,
// with another message.
TEST_F(KgpWssE2E, ACertificateForAnotherHostIsRefused) {
  const std::optional<std::string> front = start_proxy("other", "1");
  ASSERT_TRUE(front.has_value());
  const e2e::RunResult by_name = client("wss://localhost:" + *front + "/", {"--ca-file", pem("other")});
  EXPECT_EQ(by_name.status.code, 1) << by_name.summary();
  EXPECT_NE(by_name.err.find("the certificate of localhost does not verify: hostname mismatch (trusting " +
                             pem("other") + ")"),
            std::string::npos)
      << by_name.summary();
  EXPECT_EQ(by_name.out, "") << by_name.summary();  // not even the greeting: no game
  const e2e::RunResult by_address = client("wss://127.0.0.1:" + *front + "/", {"--ca-file", pem("other")});
  EXPECT_EQ(by_address.status.code, 1) << by_address.summary();
  EXPECT_NE(by_address.err.find("the certificate of 127.0.0.1 does not verify: IP address mismatch"), std::string::npos)
      << by_address.summary();
  EXPECT_EQ(by_address.out, "") << by_address.summary();
}

TEST_F(KgpWssE2E, ASelfSignedCertificateIsRefusedWithoutCaFile) {
  const std::optional<std::string> front = start_proxy("local", "1");
  ASSERT_TRUE(front.has_value());
  const e2e::RunResult r = client("wss://localhost:" + *front + "/", {});
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_NE(r.err.find("the certificate of localhost does not verify: self-signed certificate (trusting the "
                       "system's trust store)"),
            std::string::npos)
      << r.summary();
  EXPECT_EQ(r.out, "") << r.summary();
  // The front saw the client end the handshake.
  const std::optional<std::string> refused = proxy_->read_line(kPatience);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->rfind("refused: ", 0), 0u) << *refused;
}

// The bounds of ws:// hold over TLS: tests/engines/kgp_ws_server.py behind the TLS front.
TEST_F(KgpWssE2E, AMessageOverTheLineLimitOrABinaryOneEndsTheClientOverTls) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"oversized", "the connection ended: the server sent a line over 16384 characters"},
      {"binary", "the connection ended: the server sent a binary WebSocket message"}};
  for (const auto& [mode, ending] : cases) {
    ChildProcess server({"/usr/bin/env", "python3", KALAH_SOURCE_DIR "/tests/engines/kgp_ws_server.py", mode});
    const std::optional<std::string> port = server.read_line(kPatience);
    ASSERT_TRUE(port.has_value()) << mode;
    const std::optional<std::string> front = start_proxy("local", *port);
    ASSERT_TRUE(front.has_value()) << mode;
    const e2e::RunResult r =
        client("wss://localhost:" + *front + "/", {"--ca-file", pem("local"), "--startup-ms", "1000"});
    EXPECT_EQ(r.status.code, 1) << r.summary();
    EXPECT_FALSE(r.status.timed_out) << r.summary();
    EXPECT_NE(r.out.find("server: kgp 1 0 0"), std::string::npos) << r.summary();
    EXPECT_NE(r.out.find(ending), std::string::npos) << r.summary();
    // Ended before the next server starts, which would hold the end of this front's stdin that it waits for.
    proxy_.reset();
  }
}

TEST_F(KgpWssE2E, ACaFileIsOnlyForWss) {
  for (const std::string server : {"ws://127.0.0.1:1/", "127.0.0.1:1"}) {
    const e2e::RunResult r = client(server, {"--ca-file", pem("local")});
    EXPECT_EQ(r.status.code, 2) << r.summary();
    EXPECT_NE(r.err.find("--ca-file: only a wss:// server has a certificate to verify"), std::string::npos)
        << r.summary();
  }
}

}  // namespace
}  // namespace kalah
