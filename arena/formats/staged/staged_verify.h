// `arena verify` of a staged tournament's folder (one that holds staged.json): every stage's folder verified as a
// tournament's (integrity::verify), then staged.json and staged.md derived again from the stages' journals and
// compared with the recorded ones, so that who played each stage, who left after it and the final order are the
// rules' (docs/VERIFY.md, "A staged tournament").
#pragma once

#include <filesystem>

#include "arena/integrity/verify.h"

namespace kalah::staged {

// Whether `dir` is a staged tournament's folder (it holds staged.json).
bool is_staged_folder(const std::filesystem::path& dir);

integrity::Verification verify_staged(const std::filesystem::path& dir);

}  // namespace kalah::staged
