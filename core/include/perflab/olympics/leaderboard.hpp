// A class's Olympics leaderboard from the checker's results (olympics/entry.hpp's
// OlympicsChecker::check): per event, each student's best qualified entry ranked with ties
// (a latency-based score beats another only when their 95% intervals do not overlap), the
// entries refused with their sentences, the class's Pareto frontier of latency against
// accuracy; and the board as CSV and Markdown.
// Pure: it reads check results and never rebuilds a model. Not for: checking an entry.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace perflab {

// The most rows one leaderboard takes (a class of 1,000 students with 20 entries each).
inline constexpr std::size_t kMaxOlympicsLeaderboardRows = 20000;

// rows: [{student, check}], check as OlympicsChecker::check returns it (a valid one, or
// {valid: false, error, entry} for one it refused). Returns
// {"events": [{event, name, metric, direction, rows: [{rank, tied, student, entry, name,
//   lineage_text, accuracy, parameter_bytes, bytes_ratio, latency_ratio, latency_interval:
//   [lo, hi], score, score_interval: [lo, hi], flags: [code, ...]}]}],
//  "refused": [{student, entry, event (null for an invalid entry), reasons: [sentence]}],
//  "pareto": [{student, entry, latency_ratio, parameter_bytes, accuracy, on_front}]}.
// Per event: one row per student, their best qualified entry among those that entered it
// (equal scores: the smaller entry id). rank = 1 + the rows that beat it: for a latency
// ratio or the all-around score, a row whose score interval lies wholly on the better side;
// for accuracy and bytes (the grader's recomputed, deterministic figures), a better value.
// tied: another row has the same rank or (latency-based) an overlapping interval. Rows sorted
// by rank, then score, then student. Refused: every event an entry entered and did not
// qualify for, and every invalid entry, in the rows' order. Pareto: every valid entry, cost =
// latency ratio (made_models.hpp's pareto_front). ValueError naming the path
// ("rows[3].check.accuracy is missing") for a row that is not of this shape, and for more
// than kMaxOlympicsLeaderboardRows rows.
nlohmann::json olympics_leaderboard(const nlohmann::json& rows);

// One line per event row: event, rank, tied, student, entry, name, lineage, accuracy,
// parameter_bytes, bytes_ratio, latency_ratio, latency_low, latency_high, score, score_low,
// score_high, flags (codes joined by ";"); fields quoted as RFC 4180 says when they hold a
// comma, a quote or a line break. ValueError naming the path for a board not of the shape
// olympics_leaderboard writes.
std::string olympics_leaderboard_csv(const nlohmann::json& board);
// A table per event (rank, "=" after a tied one), then the refused entries with their
// sentences, then the Pareto frontier. Same validation as the CSV.
std::string olympics_leaderboard_markdown(const nlohmann::json& board);

}  // namespace perflab
