// The registry of tournament formats: every format of arena/formats/, one line each in registry.cpp, and the one
// choice of the format that plays a config (`arena run`, `arena match`, `arena plan`, `arena season final`).
#pragma once

#include <cstdio>
#include <span>

#include "arena/config/config.h"
#include "arena/flow/flow.h"
#include "arena/formats/format.h"
#include "referee/rules/expected.h"

namespace kalah::formats {

// Every registered format, in the order they are asked whether they play a config.
std::span<const Format* const> registered();

// The format that plays `config` (a config that parse_config accepted is always played by one).
const Format& format_of(const arena::Config& config);

// Plays `config` by its format: an SPRT, a staged tournament, or a tournament of its kind.
Expected<int> play(const arena::Config& config, const arena::FlowOptions& options = {}, std::FILE* out = stdout);

}  // namespace kalah::formats
