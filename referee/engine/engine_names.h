// The names engines go by when the user gives none: the name each announces in its handshake (`id name`),
// made unique; `arena match` and `referee match` call such engines so (docs/CLI.md, docs/PROTOCOL.md).
#pragma once

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "referee/engine/engine_spec.h"

namespace kalah {

// Starts the engine once, reads its handshake within `startup` and stops it: the name it announces without
// its bidi and zero-width controls (system::without_hidden_controls), when that is a usable engine name
// (valid_engine_name). Nothing for an engine that does not start, announces
// no name or an unusable one, or speaks the ManKalah protocol, whose agents have no names.
std::optional<std::string> announced_name(const EngineSpec& spec, std::chrono::milliseconds startup);

// `wanted` when no engine in `taken` has it or a name that looks like it (system::confusable), else the
// first of `wanted`-2, `wanted`-3, ... that none has or looks like.
std::string unique_name(const std::string& wanted, const std::set<std::string>& taken);

// The names of `engines`: engine i keeps its name when `given[i]` (the user's); the others are called by
// the name they announce (announced_name), or by the name they have (the command's file name) when they
// announce none. Those are made unique in order (unique_name), never taking a name the user gave.
std::vector<std::string> names_from_handshakes(const std::vector<EngineSpec>& engines, const std::vector<bool>& given,
                                               std::chrono::milliseconds startup);

}  // namespace kalah
