// What both launchers (sim/launch.cpp, sim/gpu/gpu_launch.cpp) need to run
// smpirun from a shell: a private temporary directory for the platform,
// host file and outputs, quoting for the command line, and reading the
// outputs back.
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

 private:
  std::filesystem::path path_;
};

// 'text' for sh (paths here come from mkdtemp and the build, never with a quote).
std::string shell_quote(const std::string& text);
// The whole file, or "" when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace collsim::sim
