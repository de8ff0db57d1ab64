// common/bounded_read.cpp at its limit (issue 36's mutation run): a file of
// exactly `limit` bytes is read whole and one byte more is refused, both as a
// regular file (refused by its size, before reading) and through a pipe
// (refused while reading). The hostile-input tests use files far over the
// limit, which an off-by-one in either check would still refuse.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <csignal>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include "bounded_read.hpp"
#include "errors.hpp"
#include "run_cli.hpp"

namespace collsim {
namespace {

constexpr int64_t kLimit = 100000;  // more than one 64 KiB read

std::string regular_file(const std::string& name, int64_t bytes) {
  const std::string path = test::fresh_path(name);
  std::ofstream(path) << std::string(static_cast<size_t>(bytes), 'x');
  return path;
}

// A pipe that a thread fills with `bytes` bytes, read by its /dev/fd name
// (as a shell's <(...) passes one): the write end is open before the read.
std::string read_through_pipe(int64_t bytes, int64_t limit) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  std::thread writer([&] {
    const std::string data(static_cast<size_t>(bytes), 'y');
    for (size_t at = 0; at < data.size();) {
      const ssize_t n = write(fds[1], data.data() + at, data.size() - at);
      if (n <= 0) break;  // the reader gave up (EPIPE: SIGPIPE is ignored below)
      at += static_cast<size_t>(n);
    }
    close(fds[1]);
  });
  struct Cleanup {
    std::thread& t;
    int fd;
    ~Cleanup() {
      close(fd);
      t.join();
    }
  } cleanup{writer, fds[0]};
  return read_bounded_file("/dev/fd/" + std::to_string(fds[0]), limit, "test file");
}

TEST(BoundedRead, RegularFileAtTheLimitIsReadAndOneByteMoreIsRefused) {
  EXPECT_EQ(read_bounded_file(regular_file("at-limit", kLimit), kLimit, "test file").size(), size_t{kLimit});
  try {
    read_bounded_file(regular_file("over-limit", kLimit + 1), kLimit, "test file");
    FAIL() << "a file one byte over the limit was read";
  } catch (const LimitError& e) {
    EXPECT_NE(std::string(e.what()).find("has 100001 bytes, over the limit"), std::string::npos) << e.what();
  }
}

TEST(BoundedRead, PipeAtTheLimitIsReadAndOneByteMoreIsRefused) {
  signal(SIGPIPE, SIG_IGN);
  EXPECT_EQ(read_through_pipe(kLimit, kLimit).size(), size_t{kLimit});
  try {
    read_through_pipe(kLimit + 1, kLimit);
    FAIL() << "a pipe one byte over the limit was read";
  } catch (const LimitError& e) {
    EXPECT_NE(std::string(e.what()).find("longer than the limit"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace collsim
