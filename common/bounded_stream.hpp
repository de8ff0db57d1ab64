// A file a user names, read whole within a limit (bounded_read.hpp) and then
// handed to a stream parser without a second copy: the readers that parse an
// std::istream (plans, GOAL, schedule CSVs, rules) keep their one parser and
// get the bound and the one-line errors of read_bounded_file.
#pragma once

#include <istream>
#include <streambuf>
#include <string>

#include "bounded_read.hpp"

namespace collsim {

class BoundedFileStream : public std::istream {
 public:
  BoundedFileStream(const std::string& path, int64_t limit, const std::string& what)
      : std::istream(nullptr), text_(read_bounded_file(path, limit, what)), view_(text_) {
    rdbuf(&view_);
  }
  // The bytes read, e.g. to hash them.
  const std::string& text() const { return text_; }

 private:
  // Reads text_ in place (std::istringstream would copy it).
  struct View : std::streambuf {
    explicit View(std::string& text) { setg(text.data(), text.data(), text.data() + text.size()); }
  };
  std::string text_;
  View view_;
};

}  // namespace collsim
