#include "referee/engine/engine_names.h"

#include <algorithm>
#include <cassert>

#include "referee/engine/engine_player.h"
#include "referee/system/confusables.h"

namespace kalah {

std::optional<std::string> announced_name(const EngineSpec& spec, std::chrono::milliseconds startup) {
  if (spec.protocol != Protocol::Kep) return std::nullopt;
  EnginePlayer player(spec);
  const std::optional<Fault> fault = player.start(startup);
  player.stop();
  // The engine's own text: its bidi and zero-width controls are dropped, never shown or obeyed.
  const std::string name = system::without_hidden_controls(player.engine_id_name());
  if (fault || !valid_engine_name(name)) return std::nullopt;
  return name;
}

std::string unique_name(const std::string& wanted, const std::set<std::string>& taken) {
  auto looks_taken = [&](const std::string& name) {
    return std::any_of(taken.begin(), taken.end(), [&](const std::string& t) { return system::confusable(name, t); });
  };
  std::string name = wanted;
  for (int k = 2; looks_taken(name); ++k) name = wanted + "-" + std::to_string(k);
  return name;
}

std::vector<std::string> names_from_handshakes(const std::vector<EngineSpec>& engines, const std::vector<bool>& given,
                                               std::chrono::milliseconds startup) {
  assert(engines.size() == given.size());
  std::set<std::string> taken;
  for (std::size_t i = 0; i < engines.size(); ++i)
    if (given[i]) taken.insert(engines[i].name);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < engines.size(); ++i) {
    if (given[i]) {
      names.push_back(engines[i].name);
      continue;
    }
    names.push_back(unique_name(announced_name(engines[i], startup).value_or(engines[i].name), taken));
    taken.insert(names.back());
  }
  return names;
}

}  // namespace kalah
