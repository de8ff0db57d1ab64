#include "args.hpp"

#include <iostream>

namespace collsim::cli {

bool parse_options(int argc, char** argv, const po::options_description& options, po::variables_map& vm,
                   const std::string& usage, const po::positional_options_description* positional) {
  po::options_description all(options);
  all.add_options()("help,h", "show this help");
  try {
    po::command_line_parser parser(argc, argv);  // skips argv[0]
    parser.options(all);
    // An empty description makes every stray word an error ("too many
    // positional options"); without one Boost drops them silently.
    const po::positional_options_description none;
    parser.positional(positional ? *positional : none);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n\n" << all << "\n";
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  return true;
}

void reject_given(const po::variables_map& vm, std::initializer_list<const char*> names, const std::string& why) {
  for (const char* name : names)
    if (vm.count(name) && !vm[name].defaulted()) throw UsageError(std::string("--") + name + " " + why);
}

int dispatch(const std::string& command, const Entry* entries, size_t count, int argc, char** argv) {
  const std::string name = argc >= 2 ? argv[1] : "";
  if (name.empty() || name == "--help" || name == "-h" || name == "help") {
    std::FILE* out = name.empty() ? stderr : stdout;
    std::fprintf(out, "usage: %s <name> [options]   (%s <name> --help for details)\n\n", command.c_str(),
                 command.c_str());
    for (size_t i = 0; i < count; ++i) std::fprintf(out, "  %-12s %s\n", entries[i].name, entries[i].summary);
    return name.empty() ? 2 : 0;
  }
  std::string known;
  for (size_t i = 0; i < count; ++i) {
    if (name == entries[i].name) return entries[i].run(argc - 1, argv + 1);
    known += (known.empty() ? "" : ", ") + std::string(entries[i].name);
  }
  throw UsageError("unknown name '" + name + "' for '" + command + "'; known: " + known);
}

}  // namespace collsim::cli
