// The command layer's glue to Boost.Program_options, shared by every
// subcommand: option parsing with --help, and dispatch over a table of
// subcommands. The plain value helpers live in values.hpp.
#pragma once

#include <boost/program_options.hpp>

#include "values.hpp"

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace collsim::cli {

namespace po = boost::program_options;

// Parses argv[1..] (argv[0] names the subcommand) into `vm`. Prints
// `usage` and the options and returns false on --help.
bool parse_options(int argc, char** argv, const po::options_description& options, po::variables_map& vm,
                   const std::string& usage, const po::positional_options_description* positional = nullptr);

// Options the chosen mode would ignore are bad input: throws UsageError
// "--NAME " + `why` for the first of `names` given on the command line (a
// default value does not count).
void reject_given(const po::variables_map& vm, std::initializer_list<const char*> names, const std::string& why);

// A table row that selects what to run by name: subcommands, schedule kinds.
struct Entry {
  const char* name;
  int (*run)(int argc, char** argv);
  const char* summary;
};

// Runs the entry named argv[1] with (argc - 1, argv + 1). With no name or
// --help, lists the entries (exit 2 or 0); an unknown name is a UsageError
// that lists the known ones.
int dispatch(const std::string& command, const Entry* entries, size_t count, int argc, char** argv);
template <size_t N>
int dispatch(const std::string& command, const Entry (&entries)[N], int argc, char** argv) {
  return dispatch(command, entries, N, argc, argv);
}

}  // namespace collsim::cli
