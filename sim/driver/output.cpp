#include "output.hpp"

#include "process.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace collsim::sim {

namespace fs = std::filesystem;

void write_file(const fs::path& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw OutputError("cannot write '" + path.string() + "': " + std::strerror(errno));
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
  const int error = errno;
  if (std::fclose(f) != 0 || !written)
    throw OutputError("cannot write '" + path.string() + "': " + std::strerror(written ? errno : error));
}

void make_directories(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw OutputError("cannot create directory '" + dir.string() + "': " +
                      (ec ? ec.message() : std::string("a file of that name is in the way")));
}

void finish_stdout() {
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    throw OutputError(std::string("cannot write to standard output: ") + std::strerror(errno));
}

void run_gnuplot(const fs::path& dir, const std::string& script) {
  Command cmd{{"gnuplot", script}, dir, "", dir / "gnuplot.log", {}};
  const ExitStatus status = run_process(cmd);
  if (!status.ok())
    throw OutputError("gnuplot failed on '" + (dir / script).string() + "' (" + status.describe() + "); see '" +
                      (dir / "gnuplot.log").string() + "'");
}

}  // namespace collsim::sim
