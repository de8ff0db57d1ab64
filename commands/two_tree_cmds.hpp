// The two-tree rows of `collsim schedule` and `collsim bench` (tables in
// schedule_cmd.cpp and bench_cmd.cpp), each in its own file.
#pragma once

namespace collsim {

int schedule_two_tree(int argc, char** argv);  // two_tree_schedule.cpp
int bench_two_tree(int argc, char** argv);     // two_tree_bench.cpp

}  // namespace collsim
