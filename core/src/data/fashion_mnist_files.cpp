// Native only: reading a data set's files, gunzipped with zlib. The wasm build leaves this
// file out (core/CMakeLists.txt): Emscripten's zlib port would be downloaded, and the page
// decompresses with the browser's DecompressionStream before handing core raw IDX bytes.
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <algorithm>

#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"

namespace perflab {
namespace {

std::vector<std::uint8_t> gunzip(const std::vector<std::uint8_t>& in, const std::string& path) {
  z_stream s{};
  if (inflateInit2(&s, 15 + 16) != Z_OK)  // 15-bit window, gzip wrapper only
    throw ValueError(path + ": zlib could not start inflating (" +
                     std::string(s.msg ? s.msg : "no reason given") + ")");
  std::vector<std::uint8_t> out;
  // Fashion-MNIST's images inflate to about 1.8× their gzip size; start there and grow.
  out.resize(std::min<std::size_t>(kMaxIdxBytes, in.size() * 2 + 4096));
  s.next_in = const_cast<Bytef*>(in.data());
  s.avail_in = static_cast<uInt>(in.size());
  std::size_t produced = 0;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (produced == out.size()) {
      if (out.size() >= kMaxIdxBytes) {
        inflateEnd(&s);
        throw ValueError(path + ": inflates to more than " + std::to_string(kMaxIdxBytes) +
                         " bytes, the most a data file may hold here");
      }
      out.resize(std::min<std::size_t>(kMaxIdxBytes, out.size() * 2));
    }
    s.next_out = out.data() + produced;
    s.avail_out = static_cast<uInt>(out.size() - produced);
    rc = inflate(&s, Z_NO_FLUSH);
    produced = out.size() - s.avail_out;
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && s.avail_in == 0) {
      inflateEnd(&s);
      throw ValueError(path + ": the gzip stream is truncated after " + std::to_string(produced) +
                       " bytes of data; download or reinstall the file");
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      const std::string reason = s.msg ? s.msg : "error " + std::to_string(rc);
      inflateEnd(&s);
      throw ValueError(path + ": the gzip data is corrupt (" + reason +
                       "); download or reinstall the file");
    }
  }
  inflateEnd(&s);
  out.resize(produced);
  return out;
}

}  // namespace

std::vector<std::uint8_t> read_maybe_gzip_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) throw ValueError(path + ": cannot be opened for reading");
  const std::streamoff size = file.tellg();
  if (size < 0 || static_cast<std::uint64_t>(size) > kMaxIdxBytes)
    throw ValueError(path + ": its size cannot be read or is over " +
                     std::to_string(kMaxIdxBytes) + " bytes, the most a data file may hold here");
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  file.seekg(0);
  if (!file.read(reinterpret_cast<char*>(bytes.data()), size))
    throw ValueError(path + ": reading failed part way");
  if (bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b) return gunzip(bytes, path);
  return bytes;
}

LabeledImages load_fashion_mnist(const std::string& dir, const std::string& split) {
  const FashionMnistFiles files = fashion_mnist_files(split);
  const std::filesystem::path folder(dir);
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec))
    throw ValueError("Fashion-MNIST folder " + dir +
                     " does not exist; install Debian's dataset-fashion-mnist (it fills " +
                     kFashionMnistDir + ") or name the folder that holds " + files.images);
  const auto images = read_maybe_gzip_file((folder / files.images).string());
  const auto labels = read_maybe_gzip_file((folder / files.labels).string());
  return fashion_mnist_from_idx(images, labels, split);
}

}  // namespace perflab
