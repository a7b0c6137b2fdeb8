#include "tuner/verify.h"

#include <atomic>
#include <map>
#include <set>
#include <system_error>
#include <thread>

#include "profiler/check.h"
#include "tuner/late_producer.h"
#include "variants/reference.h"

namespace csrgat::tuner {

const char* to_string(TrialStatus s) {
  switch (s) {
    case TrialStatus::ok: return "ok";
    case TrialStatus::wrong: return "wrong";
    case TrialStatus::unsupported: return "unsupported";
    case TrialStatus::compile_failed: return "compile_failed";
    case TrialStatus::launch_failed: return "launch_failed";
    case TrialStatus::crashed: return "crashed";
    case TrialStatus::timeout: return "timeout";
    case TrialStatus::pruned: return "pruned";
  }
  return "?";
}

TrialStatus trial_status_from_string(const std::string& s) {
  for (auto t : {TrialStatus::ok, TrialStatus::wrong, TrialStatus::unsupported,
                 TrialStatus::compile_failed, TrialStatus::launch_failed, TrialStatus::crashed,
                 TrialStatus::timeout, TrialStatus::pruned})
    if (s == to_string(t)) return t;
  throw std::invalid_argument("unknown trial status '" + s + "'");
}

double default_tolerance(ValueType v) { return v == ValueType::f32 ? 1e-5 : 1e-2; }

VerifyResult verify_variant(DeviceProblem& problem, const LoadedKernel& kernel,
                            const VariantParams& p, double rel_tol) {
  VerifyResult r;
  const std::string why = problem.unsupported_reason(p);
  if (!why.empty()) {
    r.status = TrialStatus::unsupported;
    r.detail = why;
    return r;
  }
  return verify_launch(problem, [&](cudaStream_t s) { problem.launch(p, kernel, s); }, rel_tol);
}

VerifyResult check_output(const DeviceProblem& problem, double rel_tol) {
  VerifyResult r;
  const Comparison c = problem.compare_output(rel_tol);
  r.rel_error = c.rel_error;
  r.detail = c.summary;
  r.status = c.pass ? TrialStatus::ok : TrialStatus::wrong;
  return r;
}

VerifyResult verify_launch(DeviceProblem& problem, const std::function<void(cudaStream_t)>& launch,
                           double rel_tol) {
  VerifyResult r;
  try {
    problem.poison_output();
    launch(nullptr);
    CSRGAT_CUDA_CHECK(cudaDeviceSynchronize());
  } catch (const std::exception& e) {
    r.status = TrialStatus::launch_failed;
    r.detail = e.what();
    return r;
  }
  return check_output(problem, rel_tol);
}

VerifyResult verify_after_late_producer(DeviceProblem& problem, ValueType value,
                                        const std::function<void(cudaStream_t)>& overlapped_launch,
                                        double rel_tol) {
  static const std::string kLateProducerFailure =
      "launched overlapping a previous kernel that writes the inputs late: ";
  DeviceProblem::InputBuffers in;
  try {
    in = problem.input_buffers(value);  // with the true inputs' copies, made once per problem
  } catch (const std::exception& e) {
    return {TrialStatus::launch_failed, 0, kLateProducerFailure + std::string(e.what())};
  }
  cudaStream_t s = nullptr;
  auto restore_and_release = [&] {
    // Best effort on the error path too: the problem's inputs stay the true ones.
    cudaDeviceSynchronize();
    if (in.true_scores) cudaMemcpy(in.scores, in.true_scores, in.scores_bytes, cudaMemcpyDeviceToDevice);
    if (in.true_values) cudaMemcpy(in.values, in.true_values, in.values_bytes, cudaMemcpyDeviceToDevice);
    if (s) cudaStreamDestroy(s);
  };
  try {
    // A stream of its own (programmatic dependent launch wants a real stream, not the legacy
    // default one); NaN in the inputs (0xFF bytes: NaN in f32, bf16 and f16) until the producer.
    CSRGAT_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CSRGAT_CUDA_CHECK(cudaMemsetAsync(in.scores, 0xFF, in.scores_bytes, s));
    CSRGAT_CUDA_CHECK(cudaMemsetAsync(in.values, 0xFF, in.values_bytes, s));
    const LateCopy copies[2] = {{in.true_scores, in.scores, in.scores_bytes},
                                {in.true_values, in.values, in.values_bytes}};
    launch_late_producer(copies, problem.out(), problem.output_bytes() / sizeof(float), 200000, s);
    overlapped_launch(s);
    CSRGAT_CUDA_CHECK(cudaStreamSynchronize(s));
  } catch (const std::exception& e) {
    restore_and_release();
    return {TrialStatus::launch_failed, 0, kLateProducerFailure + std::string(e.what())};
  }
  restore_and_release();
  VerifyResult r = check_output(problem, rel_tol);
  if (r.status != TrialStatus::ok) r.detail = kLateProducerFailure + r.detail;
  return r;
}

namespace {
// What compile_all compiles a variant as: its kernel (twins that differ only in launch-time
// options share it), or, for an invalid variant, the variant itself (its error names it).
std::string compile_key(const VariantParams& v) {
  if (v.family == Family::colblock) return "colblock:" + v.id();  // no NVRTC kernel: its own entry
  return v.invalid_reason().empty() ? v.kernel_name() : "!" + v.id();
}
}  // namespace

size_t distinct_kernels(const std::vector<VariantParams>& variants) {
  std::set<std::string> keys;
  for (const auto& v : variants) keys.insert(compile_key(v));
  return keys.size();
}

std::vector<CompileOutcome> compile_all(const NvrtcCompiler& compiler,
                                        const std::vector<VariantParams>& variants, int threads) {
  // Variants that differ only in launch-time options (split, prefetch) are one kernel: compile
  // it once (a cold cache would otherwise compile it once per twin, in parallel) and give each
  // twin the result. An invalid variant is its own entry, so its error names it.
  std::vector<size_t> first(variants.size()), unique;
  {
    std::map<std::string, size_t> seen;
    for (size_t i = 0; i < variants.size(); ++i) {
      const auto [it, fresh] = seen.emplace(compile_key(variants[i]), i);
      first[i] = it->second;
      if (fresh) unique.push_back(i);
    }
  }
  std::vector<CompileOutcome> out(variants.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t u = next++; u < unique.size(); u = next++) {
      const size_t i = unique[u];
      out[i].params = variants[i];
      try {
        out[i].kernel = compiler.compile(variants[i]);
        out[i].ok = true;
      } catch (const CompileError& e) {
        out[i].error = std::string(e.what()) + (e.log().empty() ? "" : "\n" + e.log());
      } catch (const std::exception& e) {
        out[i].error = e.what();
      }
    }
  };
  // No more threads than kernels; a thread the system cannot start leaves the work to the others
  // (or to this one), never std::terminate.
  const size_t want = std::min(unique.size(), static_cast<size_t>(std::max(1, threads)));
  std::vector<std::thread> pool;
  try {
    while (pool.size() < want) pool.emplace_back(work);
  } catch (const std::system_error&) {
  }
  if (pool.empty()) work();
  for (auto& t : pool) t.join();
  for (size_t i = 0; i < variants.size(); ++i) {
    if (first[i] == i) continue;
    out[i] = out[first[i]];
    out[i].params = variants[i];
    if (!out[i].ok) out[i].error = "the kernel of " + variants[first[i]].id() + ": " + out[i].error;
  }
  return out;
}

bool context_lost() {
  cudaDeviceSynchronize();
  cudaGetLastError();
  return cudaDeviceSynchronize() != cudaSuccess;
}

}  // namespace csrgat::tuner
