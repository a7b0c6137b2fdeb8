// The tuner's check on the GPU (DeviceProblem::compare_output, tuner/device_compare.cu) against
// the host's compare_to_reference on the same output: the same verdict, bad and NaN counts and
// first bad element, and the same relative error up to the order of its additions. Outputs are
// written into the problem's out directly: exact, within tolerance, one element off, NaN and
// inf, bad elements in several blocks (the first must win), and an all-zero reference.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "graphs/generate.h"
#include "tuner/device_problem.h"
#include "variants/reference.h"

using namespace csrgat;
using csrgat::tuner::DeviceProblem;

namespace {

void expect_same(DeviceProblem& dp, const std::vector<float>& out, double tol, const char* what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(cudaMemcpy(dp.out(), out.data(), out.size() * sizeof(float), cudaMemcpyHostToDevice),
            cudaSuccess);
  const Comparison host = compare_to_reference(out.data(), dp.reference(), tol);
  const Comparison dev = dp.compare_output(tol);
  EXPECT_EQ(dev.pass, host.pass) << "device: " << dev.summary << "\nhost: " << host.summary;
  EXPECT_EQ(dev.bad_elements, host.bad_elements);
  EXPECT_EQ(dev.nan_count, host.nan_count);
  EXPECT_EQ(dev.first_bad, host.first_bad);
  EXPECT_NEAR(dev.rel_error, host.rel_error, 1e-12 * std::max(1.0, host.rel_error));
  if (host.first_bad >= 0) {
    const std::string at = "first bad [" + std::to_string(host.first_bad) + "]";
    EXPECT_NE(dev.summary.find(at), std::string::npos) << dev.summary;
  }
}

std::vector<float> as_float(const std::vector<double>& ref) { return {ref.begin(), ref.end()}; }

}  // namespace

TEST(DeviceCompare, AgreesWithTheHostCheck) {
  // 20000 x 2 x 64 = 2.56M outputs: more than the kernel's blocks x threads (135168), so each
  // thread walks several elements and the first bad one crosses blocks.
  const auto g = graphs::make_graph("uniform:n=20000,deg=8,seed=5");
  const auto in = graphs::make_inputs(g, 2, 64, 9);
  DeviceProblem dp(g, in);
  dp.set_reference(reference_aggregate(g, in));
  ASSERT_TRUE(dp.compares_on_device());  // 20 MB of reference: room on any GPU
  const auto& ref = dp.reference();
  const size_t n = ref.size();
  ASSERT_GT(n, 135168u * 4);

  std::vector<float> out = as_float(ref);
  expect_same(dp, out, 1e-5, "the reference rounded to float");
  EXPECT_TRUE(dp.compare_output(1e-5).pass);

  for (size_t i = 0; i < n; ++i) out[i] *= 1.f + 1e-6f * static_cast<float>((i * 7919) % 13) / 13.f;
  expect_same(dp, out, 1e-5, "within tolerance everywhere");
  EXPECT_TRUE(dp.compare_output(1e-5).pass);  // both agreeing on a fail would pass the line above

  out = as_float(ref);
  out[n / 3] += 0.5f * std::abs(out[n / 3]) + 1.f;
  expect_same(dp, out, 1e-5, "one element off");
  EXPECT_FALSE(dp.compare_output(1e-5).pass);

  out = as_float(ref);
  out[n - 1] = std::numeric_limits<float>::quiet_NaN();
  out[n / 2] = std::numeric_limits<float>::infinity();
  // The kernel's 528 blocks of 256 threads walk the elements grid-stride: 300 is block 1's first
  // pass, 135168 + 3 block 0's second. The lowest bad index is in the second block the host
  // adds, behind a bad element of the first: a merge that kept the first block's would fail.
  out[300] += 10.f;
  out[135168 + 3] -= 10.f;
  expect_same(dp, out, 1e-5, "NaN, inf and bad elements in several blocks");
  const Comparison c = dp.compare_output(1e-5);
  EXPECT_EQ(c.first_bad, 300);
  EXPECT_EQ(c.nan_count, 2);
  EXPECT_EQ(c.bad_elements, 4);

  // Poisoned (0xFF bytes: NaN everywhere), as before every checked launch.
  dp.poison_output();
  const Comparison poisoned = dp.compare_output(1e-5);
  EXPECT_FALSE(poisoned.pass);
  EXPECT_EQ(poisoned.nan_count, static_cast<int64_t>(n));
  EXPECT_EQ(poisoned.first_bad, 0);
}

TEST(DeviceCompare, AllZeroReferenceIsAbsolute) {
  const auto g = graphs::make_graph("seed:n=384,deg=18,seed=1");
  const auto in = graphs::make_inputs(g, 1, 64, 3);
  DeviceProblem dp(g, in);
  dp.set_reference(std::vector<double>(static_cast<size_t>(384) * 64, 0.0));
  std::vector<float> out(dp.reference().size(), 0.f);
  expect_same(dp, out, 1e-5, "zeros against zeros");
  out[100] = 1e-20f;
  expect_same(dp, out, 1e-5, "a tiny value against zeros");
  EXPECT_FALSE(dp.compare_output(1e-5).pass);
  EXPECT_THROW(dp.set_reference(std::vector<double>(5, 0.0)), std::invalid_argument);
}

TEST(DeviceCompare, AProblemWithoutAReferenceCannotBeChecked) {
  const auto g = graphs::make_graph("seed:n=384,deg=18,seed=1");
  DeviceProblem dp(g, graphs::make_inputs(g, 1, 64, 3));
  EXPECT_FALSE(dp.has_reference());
  EXPECT_THROW(dp.compare_output(1e-5), std::logic_error);
}
