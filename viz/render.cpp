#include <filesystem>
#include <stdexcept>

#include "output.hpp"
#include "process.hpp"
#include "scratch_dir.hpp"
#include "viz.hpp"

namespace collsim::viz {

namespace {

std::string extension(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(dot + 1);
}

}  // namespace

void render(const std::string& dot, const std::string& out_path) {
  const std::string ext = extension(out_path);
  if (ext == "dot") return sim::write_file(out_path, dot);
  if (ext != "svg" && ext != "png")
    throw std::runtime_error("--out '" + out_path + "': extension must be .dot, .svg or .png");
  // Graphviz reads the DOT from a file of ours and writes out_path, both
  // passed as arguments (no shell); -n2: positions are given in points.
  // Neither can be read as an option: out_path is glued to -o (a separate
  // word starting with '-', as "-x.svg", would be an option of its own), and
  // the input is an absolute path.
  const sim::ScratchDir dir("collsim-viz");
  const std::string input = std::filesystem::absolute(dir.path() / "picture.dot").string();
  sim::write_file(input, dot);
  const sim::Command cmd{{"neato", "-n2", "-T" + ext, "-o" + out_path, input}, "", "", dir.path() / "neato.log", {}};
  const sim::ExitStatus status = sim::run_process(cmd);
  if (!status.ok())
    throw sim::OutputError("Graphviz 'neato' failed writing '" + out_path + "' (" + status.describe() + "): " +
                           sim::read_text_file(dir.path() / "neato.log"));
}

}  // namespace collsim::viz
