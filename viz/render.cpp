#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "viz.hpp"

namespace collsim::viz {

namespace {

std::string extension(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(dot + 1);
}

// Single-quoted for /bin/sh: ' becomes '\''.
std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

void render(const std::string& dot, const std::string& out_path) {
  const std::string ext = extension(out_path);
  if (ext == "dot") {
    std::ofstream out(out_path);
    out << dot;
    if (!out.flush()) throw std::runtime_error("cannot write '" + out_path + "'");
    return;
  }
  if (ext != "svg" && ext != "png")
    throw std::runtime_error("--out '" + out_path + "': extension must be .dot, .svg or .png");
  // -n2: positions are given in points; Graphviz only draws.
  const std::string cmd = "neato -n2 -T" + ext + " -o " + shell_quote(out_path) + " 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "w");
  if (!pipe) throw std::runtime_error("cannot start Graphviz (neato)");
  std::fwrite(dot.data(), 1, dot.size(), pipe);
  const int status = pclose(pipe);
  if (status != 0)
    throw std::runtime_error("Graphviz 'neato' failed writing '" + out_path + "' (status " + std::to_string(status) +
                             "; is graphviz installed and the path writable?)");
}

}  // namespace collsim::viz
