#include "referee/engine/engine_spec.h"

#include "referee/system/confusables.h"

namespace kalah {

const char* to_string(Protocol p) { return p == Protocol::Kep ? "kep" : "mankalah"; }

std::optional<Protocol> parse_protocol(std::string_view text) {
  for (Protocol p : {Protocol::Kep, Protocol::Mankalah})
    if (text == to_string(p)) return p;
  return std::nullopt;
}

const char* to_string(RestartPolicy r) { return r == RestartPolicy::OnCrash ? "on-crash" : "always"; }

const char* to_string(SandboxMode m) { return m == SandboxMode::Bwrap ? "bwrap" : "none"; }

bool valid_engine_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == '"' || c == '\\') return false;
  // A bidi or zero-width control would make the name show as another one (docs/CONFIG.md, "Engine names").
  return name.front() != ' ' && name.back() != ' ' && !system::has_hidden_controls(name);
}

}  // namespace kalah
