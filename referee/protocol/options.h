// Engine options: whether an engine's `option` declaration is well formed, and whether a value the
// arena was told to send with `setoption` is one the engine declared it takes (docs/PROTOCOL.md,
// "Options").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "referee/protocol/protocol.h"

namespace kalah::kep {

// What is wrong with a declaration (a spin whose default is not an integer inside min..max, a check
// whose default is not true or false, an unknown type), or empty.
std::string declaration_problem(const OptionDecl& o);

// "Depth spin 4 [1, 6]": a declaration as people read it.
std::string describe(const OptionDecl& o);

// What is wrong with setting `name` to `value` on an engine that declared `declared`, or empty: a name
// it did not declare (with the nearest declared name when one is close), a spin value that is not an
// integer or lies outside min..max, a check value other than true or false. Names match exactly, as the
// engine compares them.
std::string setting_problem(const std::vector<OptionDecl>& declared, std::string_view name, std::string_view value);

}  // namespace kalah::kep
