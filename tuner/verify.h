// Checks one variant against the float64 reference on one problem (DeviceProblem::set_reference;
// compared on the GPU): poison the output, launch, synchronise, compare. A failed launch or a
// wrong answer is a result, not an exception.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tuner/device_problem.h"
#include "variants/params.h"

namespace csrgat::tuner {

enum class TrialStatus { ok, wrong, unsupported, compile_failed, launch_failed, crashed, timeout, pruned };
const char* to_string(TrialStatus s);
TrialStatus trial_status_from_string(const std::string& s);

struct VerifyResult {
  TrialStatus status = TrialStatus::ok;
  double rel_error = 0;
  std::string detail;  // the comparison's summary, or the error text
};

// Tolerance for a value type: 1e-5 for float32 storage, 1e-2 for 16-bit storage.
double default_tolerance(ValueType v);

// What the problem's out holds now against its reference: ok or wrong, with the comparison's
// summary (for a check after launches made elsewhere, e.g. timed ones).
VerifyResult check_output(const DeviceProblem& problem, double rel_tol);

// The check itself for any launch (a variant, or the production library's dispatch): poison,
// launch on the default stream, synchronise, compare. ok, wrong or launch_failed.
VerifyResult verify_launch(DeviceProblem& problem, const std::function<void(cudaStream_t)>& launch,
                           double rel_tol);

// The check of a launch that overlaps the previous kernel (programmatic dependent launch), with
// a previous kernel that needs waiting for: scores and values (stored as `value`) hold NaN until
// a producer kernel, which lets its dependents start at once and spins 0.2 ms first, writes the
// true inputs back and NaN over out; `overlapped_launch` enqueues the checked launch right after
// it. A kernel that read scores or values, or wrote out, before waiting for the producer gives
// NaN. A result other than ok says so at the start of its detail. Leaves the true inputs in
// place (also when it fails). Whether the launch really overlapped
// is not observed here (the library's GPU test has that control).
VerifyResult verify_after_late_producer(DeviceProblem& problem, ValueType value,
                                        const std::function<void(cudaStream_t)>& overlapped_launch,
                                        double rel_tol);

VerifyResult verify_variant(DeviceProblem& problem, const LoadedKernel& kernel,
                            const VariantParams& p, double rel_tol);

// After a launch_failed result: whether the error is sticky (an illegal address, a trap), which
// a second synchronisation still reports: the process's CUDA context is lost, and nothing more
// runs on the device in it.
bool context_lost();

// Compiles variants on `threads` threads, each distinct kernel once (variants that differ only
// in launch-time options share it); failures are kept with their log.
struct CompileOutcome {
  VariantParams params;
  bool ok = false;
  CompiledKernel kernel;
  std::string error;
};
std::vector<CompileOutcome> compile_all(const NvrtcCompiler& compiler,
                                        const std::vector<VariantParams>& variants, int threads);
// How many kernels compile_all compiles for these variants.
size_t distinct_kernels(const std::vector<VariantParams>& variants);

}  // namespace csrgat::tuner
