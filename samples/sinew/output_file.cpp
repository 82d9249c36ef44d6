#include "output_file.h"

#include <cerrno>
#include <cstring>

namespace sinew::tool {

bool CloseOutputFile(std::FILE* file, const std::string& path) {
  bool ok = std::ferror(file) == 0;
  const int write_error = errno;
  ok = std::fclose(file) == 0 && ok;
  if (!ok) {
    const int error = errno != 0 ? errno : write_error;
    std::remove(path.c_str());
    errno = error;
  }
  return ok;
}

bool WriteOutputFile(const std::string& path, std::string_view bytes) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return false;
  (void)std::fwrite(bytes.data(), 1, bytes.size(), file);
  return CloseOutputFile(file, path);
}

std::string WhyWritingFailed() {
  return errno != 0 ? std::string(": ") + std::strerror(errno) : std::string();
}

}  // namespace sinew::tool
