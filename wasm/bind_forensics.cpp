// Bindings for the forensic checks on a submission's measured evidence (grading/forensics.hpp):
// the submission object in, core's flags out as plain objects.
// Not for: grading (bind_grader.cpp) or comparing students (the page's class.js does).
#include "convert.hpp"
#include "perflab/grading/forensics.hpp"

namespace perflab::wasm {
namespace {

// [{code, exercise, reason}], one per finding, for regrade.js's flags.
val evidence_forensics_js(val submission) {
  return to_val(evidence_forensics_json(to_json(submission, "submission")));
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_forensics) { expose<&evidence_forensics_js>("evidenceForensics"); }

}  // namespace perflab::wasm
