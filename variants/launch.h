// Host side: one launch of a kernel of the csrgat family (one KernelArgs by value), shared by
// the tuner (NVRTC kernels through the runtime API) and the production library (nvcc kernels).
#pragma once

#include <atomic>

#include <cuda_runtime_api.h>

#include "variants/kernel_args.h"

namespace csrgat {

// Whether the current device can overlap a kernel with the previous one (programmatic
// dependent launch: compute capability 9.0 and later). Asked on every overlapped launch, so the
// answer is kept per device (the first kDevices ordinals; a device's capability never changes
// while the process runs): one cudaGetDevice per launch after the first.
inline bool device_overlaps_launches() {
  constexpr int kDevices = 64;
  static std::atomic<signed char> known[kDevices] = {};  // 0: not asked yet, 1: no, 2: yes
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  if (dev >= 0 && dev < kDevices)
    if (const signed char k = known[dev].load(std::memory_order_relaxed); k != 0) return k == 2;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
    cudaGetLastError();
    return false;  // not kept: a later call may succeed
  }
  if (dev >= 0 && dev < kDevices) known[dev].store(major >= 9 ? 2 : 1, std::memory_order_relaxed);
  return major >= 9;
}

// The configuration of a launch <<<grid, block, smem, stream>>> for cudaLaunchKernelEx(C): with
// overlap, as a programmatic dependent launch (the kernel may start while the previous kernel of
// the stream runs, and synchronises with it itself: griddepcontrol.wait, as pdl_wait in
// csrgat_fused.cuh does). In a stream capture it becomes a programmatic edge of the graph. Not
// copyable: config.attrs points into it.
struct OverlapLaunchConfig {
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute attr{};
  OverlapLaunchConfig(dim3 grid, dim3 block, size_t smem, cudaStream_t stream, bool overlap) {
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = overlap ? 1 : 0;
    config.attrs = &attr;
    config.numAttrs = 1;
  }
  OverlapLaunchConfig(const OverlapLaunchConfig&) = delete;
  OverlapLaunchConfig& operator=(const OverlapLaunchConfig&) = delete;
};

// Whether a fused kernel whose loads take vec values of value_bytes bytes each can read these
// values rows (feat elements each, from `values`): feat % vec == 0 and a base aligned to one
// load. Otherwise the host launches the kernel's scalar twin (csrgat_fused_scalar_twin), since
// the kernel traps on such rows (the same test, in kernel_body).
inline bool values_rows_aligned(const void* values, int feat, int vec, int value_bytes) {
  return vec <= 1 ||
         (feat % vec == 0 && reinterpret_cast<unsigned long long>(values) % (vec * value_bytes) == 0);
}
// The kernel to launch for args: the fused kernel vector_fn, or its scalar twin scalar_fn where
// the values rows are not aligned for vector_fn's loads; null when they are not and there is no
// twin (the caller's error to report: vector_fn would trap and take the context with it).
inline const void* family_kernel_for(const KernelArgs& args, const void* vector_fn, const void* scalar_fn,
                                     int vec, int value_bytes) {
  return values_rows_aligned(args.values, args.feat, vec, value_bytes) ? vector_fn : scalar_fn;
}

// Enqueues fn<<<grid, block, smem, stream>>>(args) for a kernel of the family; with
// overlap_previous on a device that supports it, overlapping the previous kernel (above).
// Sets args.overlapped to the launch it makes: the kernels order their loads by it.
inline cudaError_t launch_family_kernel(const void* fn, unsigned grid, unsigned block, size_t smem,
                                        cudaStream_t stream, KernelArgs& args, bool overlap_previous) {
  void* params[] = {&args};
  args.overlapped = 0;
  if (!overlap_previous || !device_overlaps_launches())
    return cudaLaunchKernel(fn, dim3(grid), dim3(block), params, smem, stream);
  args.overlapped = 1;
  const OverlapLaunchConfig c(dim3(grid), dim3(block), smem, stream, true);
  return cudaLaunchKernelExC(&c.config, fn, params);
}

// Whether `slices` launches of a kernel with vec-element loads suit F: F a multiple of the
// slices, and slices that keep the vector loads F itself allows (F = 60 in two slices of a vec-4
// kernel would run the scalar twin, F = 64 does not). The library's dispatch skips a `.fs<T>`
// rule for an F that fails this (csrgat/aggregate.cpp), and the tests' copies of it do.
inline bool slices_fit(int slices, int vec, int feat) {
  if (slices <= 1) return true;
  return feat % slices == 0 && !(feat % vec == 0 && (feat / slices) % vec != 0);
}

// A `.fs<T>` variant's arguments (slices = T > 1): the launch computes F / T features (feat) of
// rows F long (feat_ld); slice 0 first (launch_family_slices moves values and out to the others).
// Call it before family_kernel_for: the vector kernel needs F / T to be a multiple of its vec.
inline void slice_args(KernelArgs& args, int slices) {
  args.feat_ld = args.feat;
  if (slices > 1) args.feat /= slices;
}

// launch_family_kernel once per slice of slice_args' arguments (once for a variant without
// slices): slice s with values and out moved to feature s * feat (value_bytes and out_bytes a
// value and a result: out_bytes 2 for a `.o16` kernel's 16-bit out). Each slice after the first
// overlaps the previous one where the device can: its blocks take the slots the previous slice's
// last blocks leave and wait for it (pdl_wait) before they write, and they read nothing it writes.
inline cudaError_t launch_family_slices(const void* fn, unsigned grid, unsigned block, size_t smem,
                                        cudaStream_t stream, KernelArgs& args, int value_bytes,
                                        int out_bytes, int slices, bool overlap_previous) {
  const KernelArgs first = args;
  // slice_args' arguments: rows feat_ld long, slices x feat of them (a KernelArgs that skipped
  // it would have the kernel read every row at stride 0).
  if (first.feat_ld < first.feat || (slices > 1 && first.feat * slices != first.feat_ld))
    return cudaErrorInvalidValue;
  for (int s = 0; s < (slices > 1 ? slices : 1); ++s) {
    args = first;
    const long long offset = static_cast<long long>(s) * first.feat;
    args.values = static_cast<const char*>(first.values) + offset * value_bytes;
    args.out = static_cast<char*>(first.out) + offset * out_bytes;
    if (const cudaError_t e =
            launch_family_kernel(fn, grid, block, smem, stream, args, s > 0 || overlap_previous);
        e != cudaSuccess)
      return e;
  }
  return cudaSuccess;
}

}  // namespace csrgat
