// GameRecord <-> one journal line (docs/FORMATS.md, "games.jsonl").
//
// The reader is strict: every field must be present with the right type, unknown fields are
// rejected, and the message names the field ("field 'moves'[4]: expected a pit number 1..6 or
// \"swap\""). It checks the format only; whether the moves are legal is the rules library's job.
#pragma once

#include <string>
#include <string_view>

#include <boost/json/object.hpp>

#include "referee/record/record.h"
#include "referee/rules/expected.h"

namespace kalah {

// The version of the journal line format written by this build. Version 1 had no `schema` key, so
// a line without one is read as version 1; a line of a newer version is refused with a message
// that says so (a newer arena wrote it), so that old builds never misread new results. Version 2
// added `adjudication`; version 3 added `wall_ms` (the wall times of a game played on a CPU clock);
// version 4 added a forfeit's `stderr` and `overrun_ms`. A line is written with the lowest version that
// holds it (4 with either, else 3 with `wall_ms`, else 2 with an `adjudication`, else 1), so journals of
// games without those read the same in older builds.
inline constexpr int kRecordSchema = 4;

boost::json::object to_json(const GameRecord& record);

// The journal line: one line of JSON, no trailing newline.
std::string to_json_line(const GameRecord& record);

Expected<GameRecord> record_from_json(std::string_view line);
Expected<GameRecord> record_from_json(const boost::json::value& value);

// The variant as a JSON object with every key: {"pits":6,"seeds":4,"capture":"standard",...}.
boost::json::object variant_to_json(const Variant& variant);
Expected<Variant> variant_from_json(const boost::json::value& value);

}  // namespace kalah
