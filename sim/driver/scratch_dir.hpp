// What both launchers (driver/launch.cpp, driver/gpu_launch.cpp) need around
// smpirun: a private temporary directory for the platform, host file and
// outputs, and reading the outputs back.
#pragma once

#include <filesystem>
#include <string>

namespace collsim::sim {

// A fresh directory under the system's temporary directory, named
// <prefix>-XXXXXX, removed with everything in it when done.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // Leave the directory in place (a failed run, for the user to rerun).
  void keep() { kept_ = true; }

 private:
  std::filesystem::path path_;
  bool kept_ = false;
};

// The whole file, or "" when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace collsim::sim
