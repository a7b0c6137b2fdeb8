// The tuner's check of overlapped launches (verify_after_late_producer) on the kernel forms the
// library's overlap test does not reach: the register-gather kernels that compute their first
// gathers' addresses before the wait (PRE) with 64-bit indices, 16-bit values and sub-warps, a
// split plan and a row order; the register kernels that wait inside their first batch with
// their columns widened after the scores (ilp 1 in one warp, and ilp > 1 without 16-byte
// vectors); the ilp-1 groups of several warps and the cp.async kernels, which wait at the
// task's start.
// The previous kernel writes scores and values 0.2 ms after letting them start. A launch on
// another stream, which does not wait for it, must fail the same check (else it could not fail).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdlib>
#include <string>

#include "graphs/generate.h"
#include "tuner/device_problem.h"
#include "tuner/nvrtc_compiler.h"
#include "tuner/verify.h"
#include "variants/reference.h"

using namespace csrgat;
using namespace csrgat::tuner;

namespace {

std::string cache_dir() {
  if (const char* d = std::getenv("CSRGAT_SOURCE_DIR")) return std::string(d) + "/.gpu/cache";
  return CSRGAT_SOURCE_DIR "/.gpu/cache";
}

TEST(OverlapVariants, EveryKernelFormWaitsForALateProducer) {
  const char* ids[] = {
      "csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.pf.i32.f32",       // PRE, the seed rule
      "csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split32.lpt.pf.i32.f32",  // PRE, chunks, row order
      "csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split32.i64.f32",         // PRE, 64-bit indices
      "csrgat.tpr16.fl8.rpb8.vec8.t1.g2.smem0.online.split0.i32.bf16",         // PRE, bf16, two slots
      "csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem0.online.split0.i32.f32",          // PRE, 8-lane groups
      "csrgat.tpr32.fl8.rpb4.vec4.t2.mb8.smem0.online.split64.lpt.pf.i32.f32", // ilp 1, in the batch
      "csrgat.tpr8.fl8.rpb16.vec4.t2.smem0.online.split0.i64.f32",             // ilp 1, 64-bit indices
      "csrgat.tpr16.fl16.rpb8.vec4.t1.g2.smem0.online.split0.i32.bf16",        // ilp 2, 8-byte vectors
      "csrgat.tpr128.fl8.rpb1.vec4.t2.smem0.online.split0.i32.f32",            // ilp 1, four warps
      "csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem3.online.split256.i32.f32",        // cp.async
      // Feature slices: every slice after the first overlaps the one before (launch.h), on
      // split rows whose partials and counters each slice reuses; with the prefetch.
      "csrgat.tpr8.fl8.rpb16.vec4.t1.g4.mb8.smem3.online.split0.fs2.i32.f32",
      "csrgat.tpr32.fl8.rpb4.vec4.t1.g4.smem0.online.split32.lpt.pf.bm.fs2.i32.f32",
      "csrgat.tpr16.fl8.rpb8.vec4.t1.smem0.online.split16.fs4.i32.f32",
  };
  const NvrtcCompiler compiler("sm_90", cache_dir());
  for (const char* spec : {"seed:n=384,deg=18,seed=1", "powerlaw:n=20000,deg=8,alpha=2.1,maxdeg=4000,seed=3"}) {
    const auto g = graphs::make_graph(spec);
    const auto in = graphs::make_inputs(g, 1, 64, 11);
    DeviceProblem dp(g, in);
    dp.set_reference(reference_aggregate(g, in));
    for (const char* id : ids) {
      SCOPED_TRACE(std::string(spec) + " " + id);
      const VariantParams p = VariantParams::parse(id);
      ASSERT_EQ(p.invalid_reason(), "");
      ASSERT_EQ(dp.unsupported_reason(p), "");
      const LoadedKernel k(compiler.compile(p));
      const double tol = default_tolerance(p.value);
      // Plain first: it also loads the kernel (a first launch would wait for an idle device).
      const VerifyResult plain = verify_variant(dp, k, p, tol);
      ASSERT_EQ(plain.status, TrialStatus::ok) << plain.detail;
      const VerifyResult o = verify_after_late_producer(
          dp, p.value, [&](cudaStream_t s) { dp.launch(p, k, s, true); }, tol);
      EXPECT_EQ(o.status, TrialStatus::ok) << o.detail;
    }
    // The control: the same variant on another stream does not wait for the producer.
    const VariantParams p = VariantParams::parse(ids[0]);
    const LoadedKernel k(compiler.compile(p));
    cudaStream_t other = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), cudaSuccess);
    const VerifyResult bad = verify_after_late_producer(
        dp, p.value, [&](cudaStream_t) { dp.launch(p, k, other); }, default_tolerance(p.value));
    cudaStreamDestroy(other);
    EXPECT_EQ(bad.status, TrialStatus::wrong) << bad.detail;
    // And the inputs are the true ones again.
    const VerifyResult again = verify_variant(dp, k, p, default_tolerance(p.value));
    EXPECT_EQ(again.status, TrialStatus::ok) << again.detail;
  }
}

}  // namespace
