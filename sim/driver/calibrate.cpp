// `collsim calibrate`'s reading and fit of the measurements (calibrate.hpp);
// the command line that takes them is commands/calibrate_cmd.cpp.
#include "calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace collsim::sim {

double LogGPFit::worst() const {
  double w = 0;
  for (double r : residuals) w = std::max(w, std::abs(r));
  return w;
}

Calibration parse_calibration(const std::string& csv) {
  Calibration c;
  bool isend = false, recv = false, rate = false, reduce = false;
  std::istringstream lines(csv);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    std::istringstream fields(line);
    std::string kind, bytes_text, seconds_text;
    std::getline(fields, kind, ',');
    std::getline(fields, bytes_text, ',');
    std::getline(fields, seconds_text);
    int64_t bytes = -1;
    double seconds = -1;
    try {
      bytes = std::stoll(bytes_text);
      seconds = std::stod(seconds_text);
    } catch (const std::exception&) {
    }
    if (bytes < 0 || !(seconds >= 0) || !std::isfinite(seconds))
      throw std::invalid_argument("measurement line " + std::to_string(number) + " is not kind,bytes,seconds: '" +
                                  line + "'");
    if (kind == "pingpong")
      c.pingpong.emplace_back(bytes, seconds);
    else if (kind == "isend")
      c.isend = seconds, isend = true;
    else if (kind == "recv")
      c.recv = seconds, recv = true;
    else if (kind == "rate")
      c.rate = seconds, rate = true;
    else if (kind == "reduce")
      c.reduce = seconds, c.reduce_bytes = bytes, reduce = true;
    else
      throw std::invalid_argument("measurement line " + std::to_string(number) + ": unknown kind '" + kind + "'");
  }
  if (!isend || !recv || !rate || !reduce || c.reduce_bytes == 0)
    throw std::invalid_argument("the measurements lack isend, recv, rate or reduce");
  return c;
}

LogGPFit fit_loggp(const Calibration& c, const platforms::Machine& base) {
  const size_t n = c.pingpong.size();
  if (n < 2) throw std::invalid_argument("a fit needs two ping-pong sizes or more");
  // Relative least squares (weights 1/t²): 1 byte and 1 MiB count alike.
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [bytes, s] : c.pingpong) {
    if (!(s > 0)) throw std::invalid_argument("a ping-pong time of 0 s cannot be fitted");
    const double x = static_cast<double>(bytes), w = 1 / (s * s);
    sw += w, sx += w * x, sy += w * s, sxx += w * x * x, sxy += w * x * s;
  }
  const double det = sw * sxx - sx * sx;
  if (n < 2 || !(det > 0)) throw std::invalid_argument("the ping-pong sizes must differ");
  LogGPFit f;
  platforms::Machine& m = f.machine;
  m = base;
  m.beta = (sw * sxy - sx * sy) / det;
  f.intercept = (sy - m.beta * sx) / sw;
  m.o = (c.isend + c.recv) / 2;
  m.g = c.rate;
  m.alpha = 0;
  m.alpha = f.intercept - m.per_message();  // the intercept less the overheads
  f.latency_clamped = m.alpha < 0;
  if (f.latency_clamped) m.alpha = 0;
  m.gamma = c.reduce / static_cast<double>(c.reduce_bytes);
  for (const auto& [bytes, s] : c.pingpong) {
    const double fitted = m.per_message() + static_cast<double>(bytes) * m.beta;
    f.residuals.push_back((s - fitted) / s);
  }
  return f;
}

}  // namespace collsim::sim
