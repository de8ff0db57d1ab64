// `collsim calibrate` (sim/driver/calibrate.hpp): the fit recovers known
// LogGP parameters from measurements made from them, says when it had to
// set L to 0, and refuses bad measurement lines; the platform file it
// writes reads back (and malformed ones fail by line); end to end, two
// Open MPI ranks on this machine give a file that `run --platform` takes.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "calibrate.hpp"
#include "platform.hpp"
#include "run_cli.hpp"

namespace collsim::sim {
namespace {

// Measurements as a LogGP platform on SMPI produces them: a half round
// trip of m bytes is max(o, g) + mG + L + o.
Calibration made_from(double L, double o, double g, double G) {
  Calibration c;
  for (int64_t m = 1; m <= (1 << 20); m *= 4)
    c.pingpong.emplace_back(m, std::max(o, g) + static_cast<double>(m) * G + L + o);
  c.isend = c.recv = o;
  c.rate = g;
  c.reduce_bytes = 1 << 20;
  c.reduce = 0.25e-9 * (1 << 20);
  return c;
}

TEST(Calibrate, FitRecoversTheParameters) {
  const LogGPFit f = fit_loggp(made_from(2.5e-6, 1.5e-6, 1e-6, 0.1e-9));
  EXPECT_NEAR(f.machine.alpha, 2.5e-6, 1e-15);
  EXPECT_NEAR(f.machine.o, 1.5e-6, 1e-15);
  EXPECT_NEAR(f.machine.g, 1e-6, 1e-15);
  EXPECT_NEAR(f.machine.beta, 0.1e-9, 1e-18);
  EXPECT_NEAR(f.machine.gamma, 0.25e-9, 1e-18);
  EXPECT_FALSE(f.latency_clamped);
  EXPECT_LT(f.worst(), 1e-9);
}

// Overheads larger than an empty message's half round trip (shared
// memory): L would be negative; it is 0, and the fit says so.
TEST(Calibrate, NegativeLatencyIsReported) {
  Calibration c = made_from(0, 1e-7, 1e-7, 1e-10);
  c.isend = c.recv = 3e-7;
  const LogGPFit f = fit_loggp(c);
  EXPECT_TRUE(f.latency_clamped);
  EXPECT_EQ(f.machine.alpha, 0);
  EXPECT_GT(f.worst(), 0.1);  // the line no longer fits the small messages
}

TEST(Calibrate, BadMeasurementsAreRefused) {
  const std::string good =
      "pingpong,1,1e-6\npingpong,4,1.1e-6\nisend,8,1e-7\nrecv,8,1e-7\nrate,8,2e-7\nreduce,1024,1e-7\n";
  EXPECT_EQ(parse_calibration(good).pingpong.size(), 2u);
  for (const std::string& bad :
       {std::string("pingpong,x,1\n"), std::string("ping,1,1\n"), std::string("pingpong,1,-1\n"),
        std::string("pingpong,1,1e-6\n"), std::string("pingpong,1,nan\n") + good})
    EXPECT_THROW(parse_calibration(bad), std::invalid_argument) << bad;
  Calibration one = parse_calibration(good);
  one.pingpong.resize(1);
  EXPECT_THROW(fit_loggp(one), std::invalid_argument);
}

TEST(Calibrate, PlatformFileRoundTripAndErrors) {
  platforms::Platform pf = *platforms::find_preset("loggp");
  std::stringstream text;
  platforms::write_platform_file(text, pf, "a comment\nof two lines");
  const platforms::Platform back = platforms::read_platform_file(text, "x.platform");
  EXPECT_EQ(back.alpha, pf.alpha);
  EXPECT_EQ(back.beta, pf.beta);
  EXPECT_EQ(back.gamma, pf.gamma);
  EXPECT_EQ(back.o, pf.o);
  EXPECT_EQ(back.g, pf.g);
  const std::string base = "collsim-platform 1\nalpha 1e-6\nbeta 1e-9\ngamma 1e-9\no 0\n";
  struct Bad {
    std::string text, starts;
  } bads[] = {{"", "empty file"},
              {"collsim-platform 2\n", "line 1:"},
              {base + "g 1e-6\nalpha 2e-6\n", "line 7: 'alpha' given twice"},
              {base + "g x\n", "line 6: 'x' is not a number"},
              {base + "g 1e-6 2\n", "line 6: expected"},
              {base + "h 1\n", "line 6: unknown key 'h'"},
              {base, "missing key 'g'"},
              {base + "g -1\n", "g must be"}};
  for (const Bad& b : bads) {
    std::istringstream in(b.text);
    try {
      platforms::read_platform_file(in, "x.platform");
      ADD_FAILURE() << "no error for: " << b.text;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(b.starts, 0), 0u) << e.what();
    }
  }
}

// End to end: Open MPI on this machine (shared memory), a few repetitions.
TEST(Calibrate, WritesAPlatformThatRunReads) {
  const std::string file = test::fresh_path("calibrated.platform");
  const auto cal = test::run_collsim_argv({"calibrate", "--out", file, "--reps", "3", "--max-size", "64KiB"});
  ASSERT_EQ(cal.status, 0) << cal.out;
  EXPECT_NE(cal.out.find("largest |residual|"), std::string::npos) << cal.out;
  std::ifstream in(file);
  const platforms::Platform pf = platforms::read_platform_file(in, file);
  EXPECT_GT(pf.beta, 0);
  EXPECT_GT(pf.o + pf.g, 0);
  const auto run = test::run_collsim_argv(
      {"run", "--algo", "binomial", "--platform", file, "--p", "8", "--size", "4KiB", "--format", "csv"});
  EXPECT_EQ(run.status, 0) << run.out;
  const auto bad = test::run_collsim_argv({"calibrate", "--out", file + ".txt"});
  EXPECT_EQ(bad.status, 2) << bad.out;
}

}  // namespace
}  // namespace collsim::sim
