// Every `collsim` subcommand: int NAME_command(argc, argv) with argv[0] the
// subcommand's own name. Each returns the process exit status and throws
// cli::UsageError for bad input. The table in main.cpp lists them.
#pragma once

namespace collsim {

int schedule_command(int argc, char** argv);
int plan_command(int argc, char** argv);
int verify_command(int argc, char** argv);
int bench_command(int argc, char** argv);
int run_command(int argc, char** argv);
int timeline_command(int argc, char** argv);
int calibrate_command(int argc, char** argv);
int compare_command(int argc, char** argv);
int map_command(int argc, char** argv);
int tune_command(int argc, char** argv);
int viz_command(int argc, char** argv);
int algorithms_command(int argc, char** argv);

}  // namespace collsim
