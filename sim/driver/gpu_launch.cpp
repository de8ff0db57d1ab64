#include "gpu_launch.hpp"
#include "launch.hpp"
#include "output.hpp"
#include "process.hpp"
#include "scratch_dir.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>


namespace collsim::sim::gpu {

namespace fs = std::filesystem;

namespace {

// The α-β network of sim/launch.cpp (CM02 without TCP effects: exactly
// α + (m + 16)β per message; sends never detached; no benchmarking of host
// code), plus: SMPI's Open MPI decision rules for collectives (seed 001 ran
// Open MPI 3.0), and MPI_Test without injected time (SMPI adds 0.1 ms per
// test otherwise; only parrived tests).
const char* const kGpuFlags[] = {"--cfg=smpi/coll-selector:ompi", "--cfg=smpi/test:0"};

GpuRow parse_row(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  for (std::string field; std::getline(ss, field, ',');) f.push_back(field);
  if (f.size() != 9) throw std::runtime_error("malformed harness line: " + line);
  return {f[0],           std::stoll(f[1]), std::stoll(f[2]), std::stoll(f[3]), std::stoll(f[4]),
          std::stod(f[5]), std::stod(f[6]), std::stoi(f[7]), f[8]};
}

std::string error_lines(const std::string& err) {
  std::string why;
  std::stringstream lines(err);
  for (std::string l; std::getline(lines, l);)
    if (l.find("rror") != std::string::npos || l.find("CRITICAL") != std::string::npos) why += "\n  " + l;
  return why;
}

// Adds a run's trace (its own header line first) to `path`, which holds
// earlier runs' traces under one header.
void append_trace(const fs::path& path, const std::string& trace) {
  std::error_code ec;
  const bool fresh = !fs::exists(path, ec) || fs::file_size(path, ec) == 0;
  const size_t body = fresh ? 0 : std::min(trace.size(), trace.find('\n') + 1);
  std::ofstream out(path, std::ios::app);
  out << trace.substr(body);
  if (!out.flush()) throw OutputError("cannot write " + path.string());
}

std::string join(const std::vector<int64_t>& v) {
  std::string s;
  for (int64_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

}  // namespace

SmpiResult run_smpirun(const platforms::GpuPlatform& pf, const std::string& program,
                       const std::vector<std::string>& args) {
  // Fixed names only on smpirun's command line (scratch_dir.hpp).
  const ScratchDir dir("collsim-gpu");
  const fs::path params = dir.path() / "platform.txt";
  write_file(params, platforms::gpu_platform_text(pf));
  write_file(dir.path() / "hosts.txt", platforms::gpu_hostfile(pf));
  fs::create_symlink(COLLSIM_GPU_PLATFORM_LIB, dir.path() / "gpu-platform.so");
  fs::create_symlink(fs::absolute(program), dir.path() / "program.so");
  SmpirunCall call{pf.ranks(), "./gpu-platform.so", smpi_network_flags(), "./program.so", args};
  call.options.insert(call.options.end(), std::begin(kGpuFlags), std::end(kGpuFlags));
  Command cmd = smpirun_command(dir, call);
  cmd.env.emplace_back(platforms::kGpuPlatformEnv, params.string());  // an environment variable: never split
  const ExitStatus status = run_process(cmd);
  return {status.code, read_text_file(cmd.stdout_to), read_text_file(cmd.stderr_to),
          read_text_file(dir.path() / kGpuTraceName)};
}

std::string gpu_csv_line(const GpuRow& r) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s,%lld,%lld,%lld,%lld,%.17g,%.3f,%d,%s", r.algorithm.c_str(),
                (long long)r.nodes, (long long)r.procs_per_node, (long long)r.p, (long long)r.bytes,
                r.flops_per_element, r.time_us, r.reps, r.check.c_str());
  return buf;
}

std::vector<GpuRow> simulate_gpu(const GpuRequest& req, const std::function<void(size_t, size_t)>& on_batch) {
  std::vector<GpuRow> rows;
  for (size_t a = 0; a < req.algos.size(); ++a) {
    char flops[40];
    std::snprintf(flops, sizeof flops, "%.17g", req.flops_per_element);
    std::vector<std::string> args = {
        "--algos", req.algos[a]->name, "--sizes", join(req.sizes), "--flops-per-element", flops,
        "--reps", std::to_string(req.reps), "--warmup", std::to_string(req.warmup), "--sample-above",
        std::to_string(req.sample_above >= 0 ? req.sample_above : gpu_full_check_limit(req.platform.ranks()))};
    if (req.trace_bytes >= 0)
      args.insert(args.end(), {"--trace-bytes", std::to_string(req.trace_bytes), "--trace-file", kGpuTraceName});
    const SmpiResult r = run_smpirun(req.platform, COLLSIM_GPU_LIB, args);
    if (req.trace_bytes >= 0) append_trace(req.trace_file, r.trace);
    std::stringstream lines(r.out);
    std::string line;
    const bool header = static_cast<bool>(std::getline(lines, line)) && line == kGpuCsvHeader;
    std::vector<GpuRow> more;
    while (header && std::getline(lines, line))
      if (!line.empty()) more.push_back(parse_row(line));
    if (r.status != 0 || !header || more.size() != req.sizes.size())
      throw std::runtime_error(std::string("smpirun failed for ") + req.algos[a]->name + " on " +
                               std::to_string(req.platform.nodes) + " nodes (status " + std::to_string(r.status) +
                               ")" + error_lines(r.err));
    rows.insert(rows.end(), more.begin(), more.end());
    if (on_batch) on_batch((a + 1) * req.sizes.size(), req.algos.size() * req.sizes.size());
  }
  return rows;
}

}  // namespace collsim::sim::gpu
