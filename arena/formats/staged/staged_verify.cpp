#include "arena/formats/staged/staged_verify.h"

#include <fmt/core.h>

#include "arena/formats/staged/staged_record.h"
#include "referee/system/untrusted_files.h"

namespace kalah::staged {

namespace fs = std::filesystem;
using integrity::Verification;

bool is_staged_folder(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir, ec) && fs::exists(fs::symlink_status(dir / kRecordFile, ec));
}

namespace {

constexpr std::uintmax_t kMaxRecordBytes = 16u << 20;

Verification verdict(Verification out, Verification::Verdict v, const std::string& what) {
  out.verdict = v;
  out.line = std::string("arena verify: ") + (v == Verification::Verdict::Ok ? "OK" : "FAILED") + " — " + what;
  return out;
}

// The recorded file against the text derived from the journals.
std::optional<std::string> compare_file(const fs::path& file, const std::string& derived) {
  Expected<std::string> recorded = system::read_regular_file(file, kMaxRecordBytes);
  if (!recorded) return recorded.error();
  if (*recorded != derived)
    return file.string() + " is not what the stages' journals give (the stages, the drops or the final order differ)";
  return std::nullopt;
}

}  // namespace

Verification verify_staged(const fs::path& dir) {
  Verification out;
  const fs::path file = dir / kRecordFile;
  Expected<std::string> text = system::read_regular_file(file, kMaxRecordBytes);
  if (!text) return verdict(out, Verification::Verdict::Unreadable, text.error());
  Expected<Declaration> d = declaration_from_text(*text, file.string());
  if (!d) return verdict(out, Verification::Verdict::Failed, d.error());
  Expected<StagedRecord> record = derive_record(*d, dir);
  if (!record) return verdict(out, Verification::Verdict::Failed, record.error());
  std::int64_t games = 0;
  for (const StageRecord& stage : record->stages) {
    const fs::path folder = dir / stage_folder(stage.stage);
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(folder / "games.jsonl", ec))) continue;  // reached, nothing played yet
    const Verification checked = integrity::verify(folder);
    for (const std::string& line : checked.details) out.details.push_back(stage_folder(stage.stage) + ": " + line);
    if (checked.verdict != Verification::Verdict::Ok)
      return verdict(out, Verification::Verdict::Failed, stage_folder(stage.stage) + ": " + checked.line);
    games += stage.played;
  }
  for (const auto& [name, derived] :
       {std::pair{kRecordFile, record_to_text(*record)}, std::pair{kReportFile, record_to_markdown(*record)}})
    if (std::optional<std::string> problem = compare_file(dir / name, derived))
      return verdict(out, Verification::Verdict::Failed, *problem);
  out.details.push_back(
      fmt::format("staged: {} and {} derived again from the stages' journals: the same", kRecordFile, kReportFile));
  return verdict(out, Verification::Verdict::Ok,
                 fmt::format("staged, {} of {} stages played{}, {} games replayed, who left after each stage and the "
                             "final order derived again",
                             record->stages.size(), d->stages.size(), record->finished ? " (finished)" : "", games));
}

}  // namespace kalah::staged
