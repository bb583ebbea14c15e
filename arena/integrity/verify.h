// `arena verify`: whether a results folder, or its archive, holds what a run of the rules writes
// (docs/VERIFY.md). Checks, in order, stopping at the first failure: the archive's SHA256SUMS (an
// archive only), the schema versions of tournament.json and of every games.jsonl line, every game
// replayed by the rules, the standings recomputed from the journal by the report code, and the
// engines' recorded SHA-256 digests where their files are present.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kalah::integrity {

struct Verification {
  enum class Verdict { Ok, Failed, Unreadable };
  Verdict verdict = Verdict::Unreadable;
  std::vector<std::string> details;  // what was checked, one line each, in order
  std::string line;                  // "arena verify: OK — ..." / "arena verify: FAILED — ..."
  int exit_code() const { return verdict == Verdict::Ok ? 0 : verdict == Verdict::Failed ? 1 : 2; }
};

// The reports are rebuilt by the code that wrote them (report::report_input, arena/report/report_service.h).
struct VerifyOptions {
  // For a rating list's folder (list.json, `arena report A B --out L`): its tournaments' folders, named by
  // the operator (verify opens no folder that the data checked names). Each is checked as a tournament's
  // folder, then the list is written again from their journals. Must be empty for any other folder.
  std::vector<std::filesystem::path> sources;
  // A folder of a kind the layers above know (a staged tournament's, arena/formats/staged), asked first about the
  // folder checked (an archive's once extracted and its SHA256SUMS matched): its verification, which is then the
  // verdict, or nullopt for a folder not of its kind, checked here.
  std::function<std::optional<Verification>(const std::filesystem::path&)> other_kind;
};

// `target` is a results folder or an archive of one (a regular file: a .tar.gz from write_archive),
// which is extracted into a private temporary folder, removed again before returning.
Verification verify(const std::filesystem::path& target, const VerifyOptions& options = {});

}  // namespace kalah::integrity
