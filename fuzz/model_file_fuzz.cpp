// libFuzzer target for the model file reader (read_model_file: what `perflab evaluate` and
// `perflab export` read, and the page will load): any bytes give a ModelFile or throw a
// perflab::Error. Each input is read twice: as given (the magic, version, size and checksum
// checks), and with its checksum rewritten to match, so mutations also reach the header's
// JSON, the architecture and the weights behind the checksum. The tracker is capped as in
// wasm (256 MiB here). Built by the asan preset (fuzz/CMakeLists.txt); docs/RELIABILITY.md.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/hash.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/tensor/memory.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  perflab::MemoryTracker::global().set_cap_bytes(std::size_t{256} << 20);
  return 0;
}

namespace {

void read(const std::vector<std::uint8_t>& bytes) {
  try {
    perflab::ModelFile f = perflab::read_model_file(bytes, "model file");
    // A file that reads must write back to a file that reads, its quantization included.
    (void)perflab::read_model_file(perflab::model_file_bytes(f), "model file");
  } catch (const perflab::Error&) {
    // The one allowed failure: a sentence saying what is wrong with the file.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  read(bytes);
  if (size >= 8) {
    const std::size_t end = size - 8;
    const std::uint64_t h =
        perflab::fnv1a64(std::string_view(reinterpret_cast<const char*>(data), end));
    for (std::size_t i = 0; i < 8; ++i) bytes[end + i] = static_cast<std::uint8_t>(h >> (8 * i));
    read(bytes);
  }
  return 0;
}
