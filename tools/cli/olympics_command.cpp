// `perflab olympics SUBCOMMAND`: the Olympics from the command line. `events [--json]`
// prints core's events (olympics/events.hpp) with their constraints; `check` checks entries
// (olympics_check_command.cpp). This file parses arguments, calls core and prints; the
// events and their numbers are core's.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "perflab/olympics/events.hpp"

namespace perflab::cli {

namespace {

using nlohmann::json;

int events_command(const std::vector<std::string>& args) {
  bool as_json = false;
  for (const std::string& a : args) {
    if (a == "--json") {
      as_json = true;
    } else {
      return usage("unknown argument '" + a + "' for olympics events; the option is --json");
    }
  }
  const json events = olympics_events_json();
  if (as_json) {
    std::cout << events.dump(2) << "\n";
    return 0;
  }
  std::printf("%-18s %-16s %-9s %s\n", "event", "metric", "better", "constraints");
  for (const json& e : events["events"]) {
    std::string constraints;
    for (const json& c : e["constraints"]) {
      constraints += (constraints.empty() ? "" : "; ") + c["sentence"].get<std::string>();
    }
    std::printf("%-18s %-16s %-9s %s\n", e["id"].get<std::string>().c_str(),
                e["metric"].get<std::string>().c_str(), e["direction"].get<std::string>().c_str(),
                constraints.c_str());
  }
  std::printf("\nlatency: timed at batch %d in one interleaved run of at least %d rounds "
              "against the baseline, as a ratio entry / baseline\n%s\n",
              events["batch"].get<int>(), events["min_rounds"].get<int>(),
              events["all_around_formula"].get<std::string>().c_str());
  return 0;
}

}  // namespace

int olympics_command(const std::vector<std::string>& args) {
  const std::string sub = args.empty() ? "" : args[0];
  const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  if (sub == "events") return events_command(rest);
  if (sub == "check") return olympics_check_command(rest);
  return usage(sub.empty() ? "olympics needs a subcommand: events or check"
                           : "unknown olympics subcommand '" + sub +
                                 "'; the subcommands are events and check");
}

}  // namespace perflab::cli
