// The Olympics leaderboard over check results: the best qualified entry of each student per
// event, ranked by the interval rule (latency) or by value (accuracy, bytes), the refused
// entries with their sentences, the Pareto frontier; CSV and Markdown from the board's JSON.
#include "perflab/olympics/leaderboard.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/json_fields.hpp"
#include "perflab/olympics/events.hpp"
#include "perflab/optimize/made_models.hpp"
#include "perflab/suite/model_bench.hpp"

namespace perflab {

namespace {

using nlohmann::json;

std::string text_at(const json& j, const std::string& where, const char* key) {
  std::string out;
  read_json_value(json_member(j, where, key), where + "." + key, out, JsonRange::any);
  return out;
}
double number_at(const json& j, const std::string& where, const char* key) {
  return json_number(json_member(j, where, key), where + "." + key);
}
bool bool_at(const json& j, const std::string& where, const char* key) {
  bool out = false;
  read_json_value(json_member(j, where, key), where + "." + key, out, JsonRange::any);
  return out;
}
// [lo, hi], two numbers with lo ≤ hi.
std::pair<double, double> pair_at(const json& j, const std::string& where, const char* key) {
  const json& v = json_member(j, where, key);
  const std::string field = where + "." + key;
  if (!v.is_array() || v.size() != 2) throw_json_field_type(v, field, "an array [low, high]");
  const double lo = json_number(v[0], field + "[0]"), hi = json_number(v[1], field + "[1]");
  if (!(lo <= hi)) {
    throw ValueError(field + " must be [low, high] with low ≤ high, got " + describe(v));
  }
  return {lo, hi};
}
// An entry's id as the check gives it: a string, or null when the entry had none.
json entry_id_at(const json& check, const std::string& where) {
  const json& id = json_member(check, where, "entry");
  if (!id.is_string() && !id.is_null()) throw_json_field_type(id, where + ".entry", "a string or null");
  return id;
}

struct EventResult {
  bool entered = false, qualified = false;
  std::vector<std::string> refusals;
  double score = 0, low = 0, high = 0;
};

// One valid check, as much of it as the board shows.
struct Entry {
  std::string student, entry, name, lineage_text;
  double accuracy = 0, parameter_bytes = 0, bytes_ratio = 0;
  double latency_ratio = 0, latency_low = 0, latency_high = 0;
  std::vector<std::string> flags;
  std::map<std::string, EventResult> events;
};

Entry read_entry(const std::string& student, const json& check, const std::string& where) {
  Entry e;
  e.student = student;
  e.entry = text_at(check, where, "entry");
  e.name = text_at(check, where, "name");
  e.lineage_text = text_at(check, where, "lineage_text");
  e.accuracy = number_at(check, where, "accuracy");
  e.parameter_bytes = number_at(check, where, "parameter_bytes");
  e.bytes_ratio = number_at(check, where, "bytes_ratio");
  const json& latency = json_member(check, where, "latency");
  const std::string lw = where + ".latency";
  e.latency_ratio = number_at(latency, lw, "ratio");
  std::tie(e.latency_low, e.latency_high) = pair_at(latency, lw, "interval");
  const json& flags = json_member(check, where, "flags");
  if (!flags.is_array()) throw_json_field_type(flags, where + ".flags", "an array");
  for (std::size_t i = 0; i < flags.size(); ++i) {
    e.flags.push_back(text_at(flags[i], where + ".flags[" + std::to_string(i) + "]", "code"));
  }
  const json& events = json_member(check, where, "events");
  if (!events.is_array()) throw_json_field_type(events, where + ".events", "an array");
  for (std::size_t i = 0; i < events.size(); ++i) {
    const std::string ew = where + ".events[" + std::to_string(i) + "]";
    const std::string id = text_at(events[i], ew, "event");
    olympics_event(id);  // an unknown event is refused, naming the events
    EventResult r;
    r.entered = bool_at(events[i], ew, "entered");
    r.qualified = bool_at(events[i], ew, "qualified");
    read_json_value(json_member(events[i], ew, "refusals"), ew + ".refusals", r.refusals,
                    JsonRange::any);
    r.score = number_at(events[i], ew, "score");
    std::tie(r.low, r.high) = pair_at(events[i], ew, "score_interval");
    e.events[id] = std::move(r);
  }
  return e;
}

bool latency_based(OlympicsMetric m) {
  return m == OlympicsMetric::latency_ratio || m == OlympicsMetric::all_around;
}

struct Candidate {
  const Entry* entry;
  const EventResult* result;
};

// a's score is better than b's in the event's direction.
bool better_value(const OlympicsEvent& e, double a, double b) {
  return e.higher_is_better ? a > b : a < b;
}
// a beats b: by value for a deterministic metric; for a latency-based one, only when a's
// interval lies wholly on the better side of b's.
bool beats(const OlympicsEvent& e, const EventResult& a, const EventResult& b) {
  if (!latency_based(e.metric)) return better_value(e, a.score, b.score);
  return e.higher_is_better ? a.low > b.high : a.high < b.low;
}
bool overlap(const EventResult& a, const EventResult& b) {
  return a.low <= b.high && b.low <= a.high;
}

json event_board(const OlympicsEvent& e, const std::vector<Entry>& entries) {
  // Each student's best qualified entry among those that entered (equal: smaller entry id).
  std::map<std::string, Candidate> best;
  for (const Entry& entry : entries) {
    const auto it = entry.events.find(e.id);
    if (it == entry.events.end() || !it->second.entered || !it->second.qualified) continue;
    const Candidate c{&entry, &it->second};
    const auto [at, inserted] = best.emplace(entry.student, c);
    if (inserted) continue;
    const Candidate& held = at->second;
    if (better_value(e, c.result->score, held.result->score) ||
        (c.result->score == held.result->score && c.entry->entry < held.entry->entry)) {
      at->second = c;
    }
  }
  std::vector<Candidate> rows;
  for (const auto& [student, c] : best) rows.push_back(c);
  std::vector<std::size_t> rank(rows.size(), 1);
  std::vector<bool> tied(rows.size(), false);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = 0; j < rows.size(); ++j) {
      if (i != j && beats(e, *rows[j].result, *rows[i].result)) ++rank[i];
    }
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = 0; j < rows.size() && !tied[i]; ++j) {
      if (i == j) continue;
      tied[i] = rank[i] == rank[j] ||
                (latency_based(e.metric) && overlap(*rows[i].result, *rows[j].result));
    }
  }
  std::vector<std::size_t> order(rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (rank[a] != rank[b]) return rank[a] < rank[b];
    if (rows[a].result->score != rows[b].result->score) {
      return better_value(e, rows[a].result->score, rows[b].result->score);
    }
    return rows[a].entry->student < rows[b].entry->student;
  });
  json out = json::array();
  for (std::size_t i : order) {
    const Entry& x = *rows[i].entry;
    const EventResult& r = *rows[i].result;
    out.push_back({{"rank", rank[i]},
                   {"tied", static_cast<bool>(tied[i])},
                   {"student", x.student},
                   {"entry", x.entry},
                   {"name", x.name},
                   {"lineage_text", x.lineage_text},
                   {"accuracy", x.accuracy},
                   {"parameter_bytes", x.parameter_bytes},
                   {"bytes_ratio", x.bytes_ratio},
                   {"latency_ratio", x.latency_ratio},
                   {"latency_interval", {x.latency_low, x.latency_high}},
                   {"score", r.score},
                   {"score_interval", {r.low, r.high}},
                   {"flags", x.flags}});
  }
  return {{"event", e.id},
          {"name", e.name},
          {"metric", olympics_metric_name(e.metric)},
          {"direction", e.higher_is_better ? "higher" : "lower"},
          {"rows", out}};
}

// ---- the board's JSON read back for its CSV and Markdown

std::string csv_number(double v) { return format_number(v, kRoundTripDigits); }

std::string percent_text(double fraction) { return format_fixed(100 * fraction, 2) + "%"; }
std::string ratio_text(double v) { return format_fixed(v, 2) + "×"; }
std::string two(double v) { return format_fixed(v, 2); }
// A Markdown table cell: a pipe escaped, line breaks as spaces.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

struct BoardRow {
  std::size_t rank = 0;
  bool tied = false;
  std::string student, entry, name, lineage_text;
  double accuracy = 0, parameter_bytes = 0, bytes_ratio = 0, latency_ratio = 0;
  std::pair<double, double> latency, score_interval;
  double score = 0;
  std::vector<std::string> flags;
};

BoardRow read_board_row(const json& r, const std::string& w) {
  BoardRow b;
  read_json_value(json_member(r, w, "rank"), w + ".rank", b.rank, JsonRange::any);
  b.tied = bool_at(r, w, "tied");
  b.student = text_at(r, w, "student");
  b.entry = text_at(r, w, "entry");
  b.name = text_at(r, w, "name");
  b.lineage_text = text_at(r, w, "lineage_text");
  b.accuracy = number_at(r, w, "accuracy");
  b.parameter_bytes = number_at(r, w, "parameter_bytes");
  b.bytes_ratio = number_at(r, w, "bytes_ratio");
  b.latency_ratio = number_at(r, w, "latency_ratio");
  b.latency = pair_at(r, w, "latency_interval");
  b.score = number_at(r, w, "score");
  b.score_interval = pair_at(r, w, "score_interval");
  read_json_value(json_member(r, w, "flags"), w + ".flags", b.flags, JsonRange::any);
  return b;
}

const json& array_at(const json& j, const std::string& where, const char* key) {
  const json& v = json_member(j, where, key);
  if (!v.is_array()) throw_json_field_type(v, where + "." + key, "an array");
  return v;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

std::string score_text(OlympicsMetric m, double v) {
  switch (m) {
    case OlympicsMetric::latency_ratio: return ratio_text(v);
    case OlympicsMetric::parameter_bytes: return report_number(v);
    case OlympicsMetric::accuracy: return percent_text(v);
    case OlympicsMetric::all_around: return two(v);
  }
  return "";
}

}  // namespace

json olympics_leaderboard(const json& rows) {
  if (!rows.is_array()) throw_json_field_type(rows, "rows", "an array of {student, check}");
  if (rows.size() > kMaxOlympicsLeaderboardRows) {
    throw ValueError("rows holds " + std::to_string(rows.size()) + " entries; a leaderboard takes at most " +
                     std::to_string(kMaxOlympicsLeaderboardRows) +
                     " (kMaxOlympicsLeaderboardRows)");
  }
  std::vector<Entry> entries;
  json refused = json::array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string w = "rows[" + std::to_string(i) + "]";
    const std::string student = text_at(rows[i], w, "student");
    if (student.empty()) throw ValueError(w + ".student must name the student, got \"\"");
    const json& check = json_member(rows[i], w, "check");
    const std::string cw = w + ".check";
    if (!bool_at(check, cw, "valid")) {
      refused.push_back({{"student", student},
                         {"entry", entry_id_at(check, cw)},
                         {"event", nullptr},
                         {"reasons", {text_at(check, cw, "error")}}});
      continue;
    }
    entries.push_back(read_entry(student, check, cw));
    for (const OlympicsEvent& e : olympics_events()) {
      const auto it = entries.back().events.find(e.id);
      if (it == entries.back().events.end() || !it->second.entered || it->second.qualified) {
        continue;
      }
      refused.push_back({{"student", student},
                         {"entry", entries.back().entry},
                         {"event", e.id},
                         {"reasons", it->second.refusals}});
    }
  }
  json events = json::array();
  for (const OlympicsEvent& e : olympics_events()) events.push_back(event_board(e, entries));
  std::vector<ParetoPoint> points;
  for (const Entry& e : entries) points.push_back({e.latency_ratio, e.accuracy});
  const std::vector<bool> on = pareto_front(points);
  json pareto = json::array();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    pareto.push_back({{"student", entries[i].student},
                      {"entry", entries[i].entry},
                      {"latency_ratio", entries[i].latency_ratio},
                      {"parameter_bytes", entries[i].parameter_bytes},
                      {"accuracy", entries[i].accuracy},
                      {"on_front", static_cast<bool>(on[i])}});
  }
  return {{"events", events}, {"refused", refused}, {"pareto", pareto}};
}

std::string olympics_leaderboard_csv(const json& board) {
  std::ostringstream csv;
  csv << "event,rank,tied,student,entry,name,lineage,accuracy,parameter_bytes,bytes_ratio,"
         "latency_ratio,latency_low,latency_high,score,score_low,score_high,flags\n";
  const json& events = array_at(board, "board", "events");
  for (std::size_t i = 0; i < events.size(); ++i) {
    const std::string ew = "board.events[" + std::to_string(i) + "]";
    const std::string id = text_at(events[i], ew, "event");
    const json& rows = array_at(events[i], ew, "rows");
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const BoardRow r = read_board_row(rows[k], ew + ".rows[" + std::to_string(k) + "]");
      csv << csv_field(id) << "," << r.rank << "," << (r.tied ? "true" : "false") << ","
          << csv_field(r.student) << "," << csv_field(r.entry) << "," << csv_field(r.name) << ","
          << csv_field(r.lineage_text) << "," << csv_number(r.accuracy) << ","
          << csv_number(r.parameter_bytes) << "," << csv_number(r.bytes_ratio) << ","
          << csv_number(r.latency_ratio) << "," << csv_number(r.latency.first) << ","
          << csv_number(r.latency.second) << "," << csv_number(r.score) << ","
          << csv_number(r.score_interval.first) << "," << csv_number(r.score_interval.second)
          << "," << csv_field(join(r.flags, ";")) << "\n";
    }
  }
  return csv.str();
}

std::string olympics_leaderboard_markdown(const json& board) {
  std::ostringstream md;
  md << "# Olympics leaderboard\n\nLatency is the entry's forward time as a ratio to the "
        "baseline's, timed in one interleaved run on the student's machine (self-reported); "
        "two entries whose 95% intervals overlap tie. Accuracy and parameter bytes are the "
        "grader's, recomputed from each entry's pipeline.\n";
  const json& events = array_at(board, "board", "events");
  for (std::size_t i = 0; i < events.size(); ++i) {
    const std::string ew = "board.events[" + std::to_string(i) + "]";
    const OlympicsEvent& e = olympics_event(text_at(events[i], ew, "event"));
    md << "\n## " << e.name << " (" << e.id << ")\n\n"
       << (e.higher_is_better ? "Higher" : "Lower") << " is better.\n\n";
    const json& rows = array_at(events[i], ew, "rows");
    if (rows.empty()) {
      md << "No entry qualified.\n";
      continue;
    }
    md << "| rank | student | entry | lineage | accuracy | parameter bytes | latency (95% CI) "
          "| score (95% CI) | flags |\n|---|---|---|---|---|---|---|---|---|\n";
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const BoardRow r = read_board_row(rows[k], ew + ".rows[" + std::to_string(k) + "]");
      const bool interval = r.score_interval.first != r.score_interval.second;
      md << "| " << r.rank << (r.tied ? "=" : "") << " | " << cell(r.student) << " | "
         << cell(r.entry) << (r.name.empty() ? "" : " (" + cell(r.name) + ")") << " | "
         << cell(r.lineage_text) << " | " << percent_text(r.accuracy) << " | "
         << report_number(r.parameter_bytes) << " (" << ratio_text(r.bytes_ratio) << ") | "
         << ratio_text(r.latency_ratio) << " (" << two(r.latency.first) << "-"
         << ratio_text(r.latency.second) << ") | " << score_text(e.metric, r.score)
         << (interval ? " (" + score_text(e.metric, r.score_interval.first) + "-" +
                            score_text(e.metric, r.score_interval.second) + ")"
                      : "")
         << " | " << cell(join(r.flags, ", ")) << " |\n";
    }
  }
  const json& refused = array_at(board, "board", "refused");
  md << "\n## Refused entries\n\n";
  if (refused.empty()) md << "None.\n";
  for (std::size_t i = 0; i < refused.size(); ++i) {
    const std::string rw = "board.refused[" + std::to_string(i) + "]";
    const json& id = entry_id_at(refused[i], rw);
    const json& event = json_member(refused[i], rw, "event");
    std::vector<std::string> reasons;
    read_json_value(json_member(refused[i], rw, "reasons"), rw + ".reasons", reasons,
                    JsonRange::any);
    md << "- " << cell(text_at(refused[i], rw, "student")) << ", "
       << (id.is_string() ? cell(id.get<std::string>()) : std::string("(an entry without an id)"))
       << ", " << (event.is_string() ? event.get<std::string>() : std::string("every event"))
       << ": " << cell(join(reasons, "; ")) << "\n";
  }
  const json& pareto = array_at(board, "board", "pareto");
  md << "\n## Pareto frontier (latency ratio against accuracy)\n\n";
  std::vector<std::pair<double, std::string>> front;
  for (std::size_t i = 0; i < pareto.size(); ++i) {
    const std::string pw = "board.pareto[" + std::to_string(i) + "]";
    if (!bool_at(pareto[i], pw, "on_front")) continue;
    const double ratio = number_at(pareto[i], pw, "latency_ratio");
    front.emplace_back(ratio, "| " + cell(text_at(pareto[i], pw, "student")) + " | " +
                                  cell(text_at(pareto[i], pw, "entry")) + " | " +
                                  ratio_text(ratio) + " | " +
                                  percent_text(number_at(pareto[i], pw, "accuracy")) + " | " +
                                  report_number(number_at(pareto[i], pw, "parameter_bytes")) +
                                  " |\n");
  }
  if (front.empty()) {
    md << "No valid entry.\n";
  } else {
    std::stable_sort(front.begin(), front.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    md << "| student | entry | latency ratio | accuracy | parameter bytes |\n|---|---|---|---|---|\n";
    for (const auto& [ratio, line] : front) md << line;
  }
  return md.str();
}

}  // namespace perflab
