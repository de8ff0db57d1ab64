// One `collsim verify KIND` implementation per schedule kind, each in its
// own KIND_cmd.cpp. Exit status: 0 all checks hold, 1 a counterexample, 2 bad
// input (usage errors are thrown as cli::UsageError).
#pragma once

namespace collsim {

int verify_circulant(int argc, char** argv);
int verify_exscan(int argc, char** argv);
int verify_plan(int argc, char** argv);
int verify_scan(int argc, char** argv);
int verify_two_tree(int argc, char** argv);

}  // namespace collsim
