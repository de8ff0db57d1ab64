// What both launchers (driver/launch.cpp, driver/gpu_launch.cpp) need around
// smpirun: a private temporary directory for the platform, host file, plans
// and outputs, the smpirun command run in it, and reading the outputs back.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "process.hpp"

namespace collsim::sim {

// A fresh directory under $TMPDIR (else /tmp), named <prefix>-XXXXXX,
// removed with everything in it when done. Throws std::runtime_error naming
// TMPDIR when it is no directory or no folder can be made in it.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // Leave the directory in place (a failed run, for the user to rerun);
  // whoever calls this names the directory in its error.
  void keep() { kept_ = true; }

 private:
  std::filesystem::path path_;
  bool kept_ = false;
};

// The whole file, or "" when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

// smpirun (SimGrid 3.32) is a shell script that expands its arguments
// unquoted: each word is split at blanks and glob-expanded, and a --cfg= or
// --log= word anywhere, even after the program, is taken as SimGrid's. So no
// name a user gives goes through it: the scratch directory is its working
// directory and holds the platform, host file, plans and program under fixed
// names (TMPDIR too is "." there: the script splits $(mktemp -u)).
struct SmpirunCall {
  int64_t np = 1;
  std::string platform;               // a fixed name in the scratch directory
  std::vector<std::string> options;   // --cfg=... and --log=... settings
  std::string program;                // "./NAME.so", a link in the scratch directory
  std::vector<std::string> args;      // the program's: --key value pairs
  std::string outputs = "run";        // stdout to <outputs>.out, stderr to <outputs>.err
};
// The command, checked by check_smpirun_words; its host file is hosts.txt.
Command smpirun_command(const ScratchDir& dir, const SmpirunCall& call);

// Throws std::logic_error (our bug, not the user's) unless every word of
// `argv` (smpirun's command line) passes smpirun's shell unchanged: only
// [A-Za-z0-9_./:=,+-], no empty word, and a word starting with '-' only as
// one of the smpirun options we use (-no-privatize, -np, -platform,
// -hostfile), a --cfg=/--log= setting before the program, or a --key of the
// program's --key value pairs; values never start with '-'.
void check_smpirun_words(const std::vector<std::string>& argv);

}  // namespace collsim::sim
