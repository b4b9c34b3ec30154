# Run at build time (cmake -P): writes OUTPUT, a C++ file holding every DIR/*.json (the
# exercises' prose) as a raw string literal, so core reads no file at run time, natively or
# in wasm. Fails the build, naming the file, when one is not valid JSON or holds the
# literal's closing delimiter. Arguments: -DDIR=<core/exercises> -DROOT=<project root>
# -DOUTPUT=<file to write>.
file(GLOB files LIST_DIRECTORIES false "${DIR}/*.json")
list(SORT files)
set(delimiter "perflab_json")
set(entries "")
foreach(path IN LISTS files)
  file(RELATIVE_PATH name "${ROOT}" "${path}")
  file(READ "${path}" text)
  string(JSON ignored ERROR_VARIABLE error TYPE "${text}")
  if(error)
    message(FATAL_ERROR "${name} is not valid JSON: ${error}")
  endif()
  string(FIND "${text}" ")${delimiter}\"" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "${name} contains )${delimiter}\", which would end its string literal")
  endif()
  string(APPEND entries "      {\"${name}\", R\"${delimiter}(${text})${delimiter}\"},\n")
endforeach()
file(WRITE "${OUTPUT}" "\
// Written at build time by core/cmake/embed_exercises.cmake from core/exercises/*.json:
// edit those files, not this one.
#include \"perflab/detail/exercise_bank.hpp\"

namespace perflab::detail {

const std::vector<ExerciseFile>& exercise_files() {
  static const std::vector<ExerciseFile> files = {
${entries}  };
  return files;
}

}  // namespace perflab::detail
")
