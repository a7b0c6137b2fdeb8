// aggregate() launched overlapping the previous kernel (LaunchOptions::overlap_previous,
// programmatic dependent launch) must still see that kernel's writes. The previous kernel here
// lets its dependents start at once, then spins for a while before it writes the scores and
// values: a csrgat kernel that read them before waiting would read the zeros they held.
// A control kernel launched the same way that does not wait shows that the overlap happens on
// this device (else the check could not fail). All kernels are loaded before (lazy loading
// would serialise their first launches).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "csrgat/aggregate.h"
#include "graphs/generate.h"
#include "production_check.h"
#include "tuner/late_producer.h"
#include "variants/launch.h"
#include "variants/reference.h"

namespace csrgat {
namespace {

// Reads *p without waiting for the previous kernel.
__global__ void impatient_reader(const float* p, float* seen) { *seen = *p; }

cudaError_t launch_overlapped(void (*kernel)(const float*, float*), const float* p, float* seen,
                              cudaStream_t s) {
  const OverlapLaunchConfig c(dim3(1), dim3(1), 0, s, true);
  return cudaLaunchKernelEx(&c.config, kernel, p, seen);
}

// One graph: the producer, then aggregate() overlapped, through a Shape (use_shape: split
// plan and row order as tuned) or without one.
void check_overlapped(const graphs::Csr64& g, bool use_shape) {
  const std::string& spec = g.name;
  const int heads = 1, feat = 64;
  const auto in = graphs::make_inputs(g, heads, feat, 7);
  const auto ref = reference_aggregate(g, in);
  const std::vector<int32_t> rp32(g.row_ptr.begin(), g.row_ptr.end()), col32(g.col.begin(), g.col.end());
  int32_t* rp = to_device(rp32);
  int32_t* col = to_device(col32);
  float* s_src = to_device(in.scores);
  float* v_src = to_device(in.values);
  float* scores = to_device(std::vector<float>(in.scores.size(), 0.f));
  float* values = to_device(std::vector<float>(in.values.size(), 0.f));
  const size_t n_out = static_cast<size_t>(g.num_nodes) * heads * feat;
  float* out = nullptr;
  float* seen = to_device(std::vector<float>{-1.f});
  ASSERT_EQ(cudaMalloc(&out, n_out * 4), cudaSuccess);
  ASSERT_EQ(cudaMemset(out, 0xFF, n_out * 4), cudaSuccess);  // NaN poison
  Shape shape;
  if (use_shape)
    ASSERT_EQ(Shape::create(g.row_ptr.data(), g.num_nodes, heads, feat, Storage::f32, Index::i32, &shape),
              Status::ok);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  const GraphView gv{rp, col, g.num_nodes, g.num_edges(), Index::i32};
  const unsigned long long spin_ns = 200000;  // 0.2 ms: far longer than a launch

  // Every kernel launched once first: a kernel's first launch loads it (lazy loading, the
  // default since CUDA 12.2), which waits for the device to go idle and so would serialise
  // exactly the launches under test (seen on the H200: without this the control below read the
  // producer's value).
  // The producer is the tuner's own (verify_after_late_producer's): it copies both inputs and
  // writes NaN over out, a buffer the previous kernel of a real pipeline may use too, so a
  // csrgat kernel that wrote out before waiting would lose those elements to the NaNs.
  const tuner::LateCopy none[2] = {}, copies[2] = {{s_src, scores, in.scores.size() * 4},
                                                    {v_src, values, in.values.size() * 4}};
  tuner::launch_late_producer(none, out, 0, 0, s);
  impatient_reader<<<1, 1, 0, s>>>(values, seen);
  ASSERT_EQ(aggregate(gv, scores, values, Storage::f32, heads, feat, out, s, use_shape ? &shape : nullptr),
            Status::ok);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(out, 0xFF, n_out * 4, s), cudaSuccess);

  // The control: an overlapped kernel that does not wait reads a value before the producer
  // writes it (values[0] is 0 until then, and in.values[0] is not 0).
  tuner::launch_late_producer(copies, out, 0, spin_ns, s);
  ASSERT_EQ(launch_overlapped(impatient_reader, values, seen, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  float h_seen = -1.f;
  ASSERT_EQ(cudaMemcpy(&h_seen, seen, 4, cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_NE(in.values[0], 0.f);
  EXPECT_EQ(h_seen, 0.f) << "an overlapped kernel did not start before the producer ended: this "
                            "device does not overlap launches, so the check below cannot fail";

  // The check: the inputs zeroed again, the producer, then aggregate() overlapped.
  ASSERT_EQ(cudaMemsetAsync(scores, 0, in.scores.size() * 4, s), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(values, 0, in.values.size() * 4, s), cudaSuccess);
  tuner::launch_late_producer(copies, out, n_out, spin_ns, s);
  EXPECT_EQ(aggregate(gv, scores, values, Storage::f32, heads, feat, out, s, use_shape ? &shape : nullptr,
                      LaunchOptions{true}),
            Status::ok);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  std::vector<float> h(n_out);
  ASSERT_EQ(cudaMemcpy(h.data(), out, n_out * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  const auto c = compare_to_reference(h.data(), ref, 1e-5);
  EXPECT_TRUE(c.pass) << spec << " via "
                      << (use_shape ? shape.variant_id() : dispatch_variant(gv, Storage::f32, heads, feat))
                      << ", overlapped: " << c.summary;
  cudaStreamDestroy(s);
  for (void* p : {static_cast<void*>(rp), static_cast<void*>(col), static_cast<void*>(s_src),
                  static_cast<void*>(v_src), static_cast<void*>(scores), static_cast<void*>(values),
                  static_cast<void*>(out), static_cast<void*>(seen)})
    cudaFree(p);
}

}  // namespace

TEST(Production, OverlappedLaunchWaitsForThePreviousKernel) {
  if (!device_overlaps_launches()) GTEST_SKIP() << "programmatic dependent launch needs compute capability 9.0";
  const auto seed = graphs::make_graph("seed:n=384,deg=18,seed=1");
  check_overlapped(seed, true);
  check_overlapped(seed, false);
  // Long rows split into chunks (the chunk path reads its descriptor before the wait).
  check_overlapped(graphs::make_graph("powerlaw:n=50000,deg=16,alpha=2.1,maxdeg=40000,seed=3"), true);
  // Empty rows: tasks with no batch, which wait before they write their zeros.
  graphs::Csr64 g;
  g.name = "every third row empty";
  g.num_nodes = 3000;
  g.row_ptr.assign(3001, 0);
  for (int64_t r = 0; r < g.num_nodes; ++r) {
    const int64_t d = r % 3 == 0 ? 0 : 1 + (r * 7919) % 23;
    for (int64_t k = 0; k < d; ++k) g.col.push_back((r * 31 + k * 977) % g.num_nodes);
    g.row_ptr[r + 1] = static_cast<int64_t>(g.col.size());
  }
  check_overlapped(g, true);
}

}  // namespace csrgat
