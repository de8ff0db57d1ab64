#include "bounded_read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "errors.hpp"

namespace collsim {

namespace {

// Closes the descriptor on every path out of read_bounded_file.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

std::string quoted(const std::string& path) { return "'" + path + "'"; }

}  // namespace

std::string limit_text(int64_t bytes) {
  if (bytes >= (int64_t{1} << 30) && bytes % (int64_t{1} << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (int64_t{1} << 20) && bytes % (int64_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

std::string read_bounded_file(const std::string& path, int64_t limit, const std::string& what) {
  // O_NONBLOCK: opening a FIFO with no writer must not hang; cleared below.
  const Fd file{open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (file.fd < 0) throw std::invalid_argument("cannot open " + what + " " + quoted(path) + ": " + std::strerror(errno));
  struct stat info {};
  if (fstat(file.fd, &info) != 0)
    throw std::invalid_argument("cannot read " + what + " " + quoted(path) + ": " + std::strerror(errno));
  if (S_ISDIR(info.st_mode)) throw std::invalid_argument(what + " " + quoted(path) + " is a directory");
  if (!S_ISREG(info.st_mode) && !S_ISFIFO(info.st_mode))
    throw std::invalid_argument(what + " " + quoted(path) + " is not a regular file or a pipe");
  if (S_ISREG(info.st_mode) && info.st_size > limit)
    throw LimitError(what + " " + quoted(path) + " has " + std::to_string(info.st_size) + " bytes, over the limit of " +
                     limit_text(limit));
  fcntl(file.fd, F_SETFL, fcntl(file.fd, F_GETFL) & ~O_NONBLOCK);
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t got = read(file.fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw std::invalid_argument("cannot read " + what + " " + quoted(path) + ": " + std::strerror(errno));
    if (got == 0) return text;
    if (static_cast<int64_t>(text.size()) + got > limit)
      throw LimitError(what + " " + quoted(path) + " is longer than the limit of " + limit_text(limit));
    text.append(chunk, static_cast<size_t>(got));
  }
}

}  // namespace collsim
