#include "scratch_dir.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace collsim::sim {

namespace fs = std::filesystem;

namespace {

// $TMPDIR as mktemp reads it (unset or empty: /tmp).
fs::path temporary_parent() {
  const char* env = std::getenv("TMPDIR");
  const fs::path parent = env != nullptr && *env != '\0' ? env : "/tmp";
  std::error_code ec;
  if (!fs::is_directory(parent, ec))
    throw std::runtime_error("the temporary directory '" + parent.string() +
                             "' (TMPDIR) is no directory: set TMPDIR to a writable folder for the scratch folders");
  return parent;
}

bool starts_with(const std::string& word, const char* prefix) { return word.rfind(prefix, 0) == 0; }

}  // namespace

ScratchDir::ScratchDir(const std::string& prefix) {
  const fs::path parent = temporary_parent();
  std::string tmpl = (parent / (prefix + "-XXXXXX")).string();
  if (!mkdtemp(tmpl.data()))
    throw std::runtime_error("cannot create a scratch folder in the temporary directory '" + parent.string() +
                             "' (TMPDIR): " + std::strerror(errno));
  path_ = tmpl;
}

ScratchDir::~ScratchDir() {
  if (kept_) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string read_text_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void check_smpirun_words(const std::vector<std::string>& argv) {
  auto refuse = [&](size_t i, const std::string& why) {
    throw std::logic_error("smpirun's word " + std::to_string(i) + " '" + argv[i] + "' " + why +
                           " (its shell would split, expand or take it as an option)");
  };
  for (size_t i = 0; i < argv.size(); ++i)
    if (argv[i].empty() ||
        argv[i].find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,+-") !=
            std::string::npos)
      refuse(i, "is empty or holds a character outside [A-Za-z0-9_./:=,+-]");
  auto value = [&](size_t i) {
    if (i >= argv.size()) throw std::logic_error("smpirun's option '" + argv[i - 1] + "' has no value");
    if (argv[i][0] == '-') refuse(i, "is a value starting with '-'");
  };
  size_t i = 1;
  for (; i < argv.size(); ++i) {  // smpirun's own options
    const std::string& w = argv[i];
    if (w == "-np" || w == "-platform" || w == "-hostfile")
      value(++i);
    else if (w != "-no-privatize" && !starts_with(w, "--cfg=") && !starts_with(w, "--log="))
      break;
  }
  if (i >= argv.size()) throw std::logic_error("smpirun's command names no program");
  if (argv[i][0] == '-') refuse(i, "is the program but starts with '-'");
  for (i += 1; i < argv.size(); i += 2) {  // the program's --key value pairs
    const std::string& key = argv[i];
    if (!starts_with(key, "--") || key.size() < 3 ||
        key.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-", 2) != std::string::npos)
      refuse(i, "is no --key of the program's");
    value(i + 1);
  }
}

Command smpirun_command(const ScratchDir& dir, const SmpirunCall& call) {
  Command cmd;
  cmd.dir = dir.path();
  cmd.stdout_to = dir.path() / (call.outputs + ".out");
  cmd.stderr_to = dir.path() / (call.outputs + ".err");
  cmd.env = {{"TMPDIR", "."}};
  cmd.argv = {"smpirun", "-no-privatize", "-np", std::to_string(call.np), "-platform", call.platform,
              "-hostfile", "hosts.txt"};
  cmd.argv.insert(cmd.argv.end(), call.options.begin(), call.options.end());
  cmd.argv.push_back(call.program);
  cmd.argv.insert(cmd.argv.end(), call.args.begin(), call.args.end());
  check_smpirun_words(cmd.argv);
  return cmd;
}

}  // namespace collsim::sim
