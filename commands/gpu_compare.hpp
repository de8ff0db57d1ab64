// `collsim compare --collective gpu-allreduce`: native, multilane and pr on
// a GPU cluster preset for several node counts and sizes; results.csv, a
// plot like seed 001 Figs. 6-7, and a timeline of one size (GPU compute,
// copies and MPI phases per rank over time).
#pragma once

namespace collsim::sim::gpu {

// True when argv asks for --collective gpu-allreduce (the hook in
// commands/compare_cmd.cpp hands such calls to compare_command below).
bool wants_gpu_compare(int argc, char** argv);
int compare_command(int argc, char** argv);

}  // namespace collsim::sim::gpu
