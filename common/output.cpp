#include "output.hpp"

#include "process.hpp"

#include <fcntl.h>
#include <unistd.h>

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

OutputClaim::OutputClaim(const fs::path& path) : path_(path) {
  // O_EXCL tells whether this created the file; O_NONBLOCK: a FIFO without a
  // reader fails here rather than blocking.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK | O_CLOEXEC, 0666);
  created_ = fd >= 0;
  if (fd < 0 && errno == EEXIST) fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw OutputError("cannot write '" + path.string() + "': " + std::strerror(errno));
  ::close(fd);
}

OutputClaim::~OutputClaim() {
  if (created_) ::unlink(path_.c_str());
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
  // "./": a script named by the user (tune's FILE stem) that starts with
  // '-' is a file to gnuplot, never an option.
  Command cmd{{"gnuplot", (fs::path(".") / script).string()}, dir, "", dir / "gnuplot.log", {}};
  const ExitStatus status = run_process(cmd);
  if (!status.ok())
    throw OutputError("gnuplot failed on '" + (dir / script).string() + "' (" + status.describe() + "); see '" +
                      (dir / "gnuplot.log").string() + "'");
}

std::string gnuplot_quote(const std::string& text) {
  // Pieces joined by gnuplot's `.`: runs of plain bytes single-quoted, runs
  // of the others as octal escapes in double quotes.
  std::string expr;
  bool open = false, escaped = false;  // a piece is open; of which kind
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    const bool escape = byte < 0x20 || byte == 0x7f || ch == '\'';
    if (!open || escape != escaped) {
      if (open) expr += escaped ? "\" . " : "' . ";
      expr += escape ? '"' : '\'';
      open = true, escaped = escape;
    }
    if (escape) {
      char octal[8];
      std::snprintf(octal, sizeof octal, "\\%03o", byte);
      expr += octal;
    } else {
      expr += ch;
    }
  }
  if (!open) return "''";
  return expr + (escaped ? '"' : '\'');
}

std::string gnuplot_array(const std::string& name, const std::vector<std::string>& items) {
  if (items.empty()) throw std::logic_error("gnuplot_array: gnuplot has no empty array");
  std::string text = "array " + name + "[" + std::to_string(items.size()) + "] = [";
  for (size_t i = 0; i < items.size(); ++i) text += (i ? ", " : "") + gnuplot_quote(items[i]);
  return text + "]\n";
}

}  // namespace collsim::sim
