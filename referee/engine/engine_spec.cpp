#include "referee/engine/engine_spec.h"

namespace kalah {

const char* to_string(Protocol p) { return p == Protocol::Kep ? "kep" : "mankalah"; }

std::optional<Protocol> parse_protocol(std::string_view text) {
  for (Protocol p : {Protocol::Kep, Protocol::Mankalah})
    if (text == to_string(p)) return p;
  return std::nullopt;
}

const char* to_string(RestartPolicy r) { return r == RestartPolicy::OnCrash ? "on-crash" : "always"; }

const char* to_string(SandboxMode m) { return m == SandboxMode::Bwrap ? "bwrap" : "none"; }

}  // namespace kalah
