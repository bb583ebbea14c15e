// The KGP codec on arbitrary lines (docs/KGP.md): parsing never crashes, what parses formats back to a line
// that parses and formats to the same text again, and every board that parses is either played by our
// rules or refused with an error. The same bytes as a server's address (referee/kgp/address.h): a WebSocket
// URL and an agent's argument with placeholders are taken apart without a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "referee/kgp/address.h"
#include "referee/kgp/board.h"
#include "referee/kgp/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  if (kalah::Expected<kalah::kgp::WebSocketUrl> url = kalah::kgp::parse_websocket_url(line))
    if (url->host.empty() || url->target.empty() || url->target.front() != '/' || url->port == 0) std::abort();
  (void)kalah::kgp::address_placeholder_problem(line);
  (void)kalah::kgp::with_server_address({std::string(line)}, kalah::kgp::AgentServer{"127.0.0.1", 2671, true});
  kalah::Expected<kalah::kgp::Command> command = kalah::kgp::parse_line(line);
  if (!command) return 0;
  const std::string text = kalah::kgp::format(*command);
  kalah::Expected<kalah::kgp::Command> again = kalah::kgp::parse_line(text);
  if (!again || kalah::kgp::format(*again) != text) std::abort();
  for (const kalah::kgp::Arg& a : command->args)
    if (const auto* board = std::get_if<kalah::kgp::Board>(&a)) {
      kalah::Expected<kalah::kgp::BoardGame> game = kalah::kgp::game_of(*board, kalah::Variant{});
      if (game && kalah::kgp::board_for(game->variant, game->position, kalah::Side::South) != *board) std::abort();
    }
  return 0;
}
