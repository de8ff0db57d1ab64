// `collsim calibrate`: starts collsim-calibrate-mpi under Open MPI's mpirun
// (two ranks, on this machine over shared memory unless --host names two
// hosts), fits LogGP's parameters (calibrate.hpp) and writes a platform file
// that `--platform F.platform` reads (platforms/platform.hpp).
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "calibrate.hpp"
#include "commands.hpp"
#include "output.hpp"
#include "platform.hpp"
#include "process.hpp"
#include "scratch_dir.hpp"
#include "sim_options.hpp"

namespace collsim {

namespace {

using cli::po::value;

// --host's list, each a host name (letters, digits, '.', '-'; not starting
// with '-', which mpirun or ssh would read as an option), or a UsageError.
std::string host_list(const std::string& hosts) {
  for (const std::string& host : cli::parse_names(hosts, "--host")) {
    const bool name_chars = std::all_of(host.begin(), host.end(), [](char ch) {
      return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '-';
    });
    if (name_chars && host.front() != '-') continue;
    std::string shown = host;  // on one line: a control character as '?'
    std::replace_if(shown.begin(), shown.end(), [](char ch) { return ch >= 0 && ch < ' '; }, '?');
    throw cli::UsageError("--host: '" + shown +
                          "' is not a host name (letters, digits, '.' and '-', not starting with '-')");
  }
  return hosts;
}

// mpirun for collsim-calibrate-mpi: two ranks; on this machine over shared
// memory (btl self,vader without CMA, which containers deny), in a session
// directory of its own; as root where collsim runs as root.
sim::Command mpirun_command(const cli::po::variables_map& vm, const sim::ScratchDir& dir, int reps, int64_t max_bytes) {
  sim::Command cmd;
  cmd.dir = dir.path();
  cmd.stdout_to = dir.path() / "measurements.csv";
  cmd.stderr_to = dir.path() / "err.txt";
  cmd.argv = {"mpirun", "-np", "2"};
  if (vm.count("host")) {
    cmd.argv.push_back("--host");
    cmd.argv.push_back(host_list(vm["host"].as<std::string>()));
  } else {
    cmd.env = {
        {"OMPI_MCA_btl", "self,vader"}, {"OMPI_MCA_pml", "ob1"}, {"OMPI_MCA_btl_vader_single_copy_mechanism", "none"}};
  }
  cmd.env.emplace_back("TMPDIR", dir.path().string());
  if (geteuid() == 0) {
    cmd.env.emplace_back("OMPI_ALLOW_RUN_AS_ROOT", "1");
    cmd.env.emplace_back("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
  }
  cmd.argv.insert(cmd.argv.end(), {COLLSIM_CALIBRATE_MPI, std::to_string(reps), std::to_string(max_bytes)});
  return cmd;
}

// The last line of mpirun's error output that says something: the error
// stays one line, the rest is in the kept files.
std::string last_line(const std::string& text) {
  std::string last = "no error output", line;
  std::istringstream lines(text);
  while (std::getline(lines, line))
    if (line.find_first_not_of(" \t\r-") != std::string::npos) last = line;
  return last;
}

void print_fit(const sim::Calibration& c, const sim::LogGPFit& f) {
  std::printf("%10s %14s %14s %10s\n", "bytes", "measured_us", "fitted_us", "resid_%");
  for (size_t i = 0; i < c.pingpong.size(); ++i) {
    const double s = c.pingpong[i].second;
    std::printf("%10lld %14.3f %14.3f %+10.2f\n", static_cast<long long>(c.pingpong[i].first), s * 1e6,
                s * (1 - f.residuals[i]) * 1e6, 100 * f.residuals[i]);
  }
  const platforms::Machine& m = f.machine;
  std::printf("L = %.4g s, o = %.4g s (Isend %.4g, Recv %.4g), g = %.4g s, G = %.4g s/B, gamma = %.4g s/B\n", m.alpha,
              m.o, c.isend, c.recv, m.g, m.beta, m.gamma);
  std::printf("largest |residual| %.1f %%%s\n", 100 * f.worst(),
              f.latency_clamped ? "; L = 0: the overheads exceed the half round trip of an empty message" : "");
}

}  // namespace

int calibrate_command(int argc, char** argv) {
  cli::po::options_description opts("calibrate options");
  opts.add_options()("out", value<std::string>(),
                     "the platform file to write (required), for --platform FILE.platform")(
      "reps", value<std::string>()->default_value("50"), "repetitions per measurement (the minimum is kept)")(
      "max-size", value<std::string>()->default_value("1MiB"), "largest ping-pong message (sizes 1, 4, 16, .. bytes)")(
      "host", value<std::string>(),
      "two hosts for mpirun --host (A,B); default: both ranks on this machine over shared memory");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim calibrate --out FILE.platform [--reps N] [--max-size BYTES] [--host A,B]\n"
                          "Measures LogGP's L, o, g, G and gamma between two ranks with Open MPI (ping-pong, time "
                          "inside Isend and Recv, a burst's message rate, MPI_Reduce_local), fits them and writes a "
                          "platform file that run, compare and map read with --platform FILE.platform."))
    return 0;
  if (!vm.count("out")) throw cli::UsageError("--out FILE.platform is required");
  const std::string out = vm["out"].as<std::string>();
  if (out.size() <= 9 || out.compare(out.size() - 9, 9, ".platform") != 0)
    throw cli::UsageError("--out: the file name must end in .platform (the name --platform recognises)");
  const int reps = static_cast<int>(cli::parse_int(vm["reps"].as<std::string>(), "--reps", 1, 100000));
  const int64_t max_bytes = sim::parse_bytes(vm["max-size"].as<std::string>(), "--max-size");
  if (max_bytes < 1024) throw cli::UsageError("--max-size must be at least 1KiB (the fit needs sizes)");
  if (vm.count("host")) host_list(vm["host"].as<std::string>());
  sim::OutputClaim claim(out);  // an unwritable --out fails now, not after the measurement
  sim::ScratchDir dir("collsim-calibrate");
  const sim::Command cmd = mpirun_command(vm, dir, reps, max_bytes);
  std::fprintf(stderr, "collsim calibrate: %s\n", sim::display_command(cmd).c_str());
  const sim::ExitStatus status = sim::run_process(cmd);
  if (!status.ok()) {
    dir.keep();
    throw std::runtime_error("mpirun failed (" + status.describe() + "): " +
                             last_line(sim::read_text_file(cmd.stderr_to)) + "; its output kept in " +
                             dir.path().string());
  }
  const sim::Calibration c = sim::parse_calibration(sim::read_text_file(cmd.stdout_to));
  platforms::Platform pf = *platforms::find_preset("alphabeta");
  const sim::LogGPFit f = sim::fit_loggp(c, pf);
  print_fit(c, f);
  static_cast<platforms::Machine&>(pf) = f.machine;
  try {
    platforms::validate(pf);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("the fit gives no usable platform: ") + e.what());
  }
  std::ostringstream text;
  char summary[256];
  std::snprintf(summary, sizeof summary, "largest |residual| of the half round trips: %.1f %%%s", 100 * f.worst(),
                f.latency_clamped ? "; L = 0 (the overheads exceed an empty message's half round trip)" : "");
  platforms::write_platform_file(text, pf,
                                 "written by collsim calibrate: 2 ranks, " + std::to_string(reps) +
                                     " repetitions each, ping-pong up to " + std::to_string(max_bytes) + " bytes\n" +
                                     summary);
  sim::write_file(out, text.str());
  claim.keep();
  std::printf("wrote %s\n", out.c_str());
  return 0;
}

}  // namespace collsim
