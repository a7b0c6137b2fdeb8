// Internal to profiler/: host launchers of the profiler's own kernels (l2_flush.cu, ceilings.cu).
// Each launcher checks the launch and throws ApiError on failure.
#pragma once

#include <cuda_runtime_api.h>
#include <vector_types.h>

#include <cstddef>

namespace csrgat::profiler::detail {

// Reads `bytes` (a multiple of 16) of `buffer` on `stream`. Reading, not writing, leaves L2 full
// of clean lines of the buffer, so no write-back of flush data lands in the next timed kernel.
void launch_l2_flush(const void* buffer, size_t bytes, int sm_count, cudaStream_t stream);

// dst[i] = src[i] for i < n4, grid-stride.
void launch_copy_f4(const float4* src, float4* dst, size_t n4, int grid, int block,
                    cudaStream_t stream);

// Sums the n4 float4 of src, grid-stride, read_unroll loads in flight a thread: a read-only
// stream (a thread writes its block's slot of `sink` only if its sum is impossible, which keeps
// the loads alive and, on a zeroed source, writes nothing).
inline constexpr int read_unroll = 4;
void launch_read_f4(const float4* src, size_t n4, float* sink, int grid, int block,
                    cudaStream_t stream);

// `reps` copies a -> b, b -> a, ... of n4 float4 each with L1-bypassing loads and stores
// (ld/st.global.cg), so repeated passes hit L2, not L1.
void launch_copy_l2(float4* a, float4* b, size_t n4, int reps, int grid, int block,
                    cudaStream_t stream);

// Random row gathers from an L2-resident matrix, as the aggregation's gathers on a graph whose
// values fit in L2: `rows` holds rows of gather_row_f4 float4 (256 bytes); for each of `edges`
// entries of `idx` (row numbers), gather_row_f4 lanes read that row with L1-bypassing loads
// (ld.global.cg), gather_ilp rows in flight per group, and add it up; `reps` passes over idx.
// `sink` is written only if a result is impossible (keeps the loads alive).
inline constexpr int gather_row_f4 = 16;
inline constexpr int gather_ilp = 4;
void launch_gather_l2(const float4* rows, const int* idx, size_t edges, int reps, float* sink,
                      int grid, int block, cudaStream_t stream);

// Independent FMA chains: every thread runs fma_chains chains of `iters` FFMAs each, so a
// launch does 2 * fma_chains * iters * grid * block flops. `sink` is written only if a
// result is impossible (keeps the work alive).
inline constexpr int fma_chains = 8;
void launch_fma(float* sink, int iters, int grid, int block, cudaStream_t stream);

// A kernel that does nothing, <<<1, 1>>>.
void launch_empty(cudaStream_t stream);
// The floor of overlapped launches: a <<<1, 1>>> kernel launched as a programmatic dependent
// launch (sm_90 and later; plainly before) that lets the next kernel start at once and then
// waits for the previous one, as the csrgat kernels do; it does nothing else.
void launch_empty_overlapped(cudaStream_t stream);

}  // namespace csrgat::profiler::detail
