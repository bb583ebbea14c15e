#include "referee/engine/engine_spec.h"

namespace kalah {

const char* to_string(Protocol p) { return p == Protocol::Kep ? "kep" : "mankalah"; }

std::optional<Protocol> parse_protocol(std::string_view text) {
  if (text == "kep") return Protocol::Kep;
  if (text == "mankalah") return Protocol::Mankalah;
  return std::nullopt;
}

const char* to_string(RestartPolicy r) { return r == RestartPolicy::OnCrash ? "on-crash" : "always"; }

std::optional<RestartPolicy> parse_restart_policy(std::string_view text) {
  if (text == "on-crash") return RestartPolicy::OnCrash;
  if (text == "always") return RestartPolicy::Always;
  return std::nullopt;
}

}  // namespace kalah
