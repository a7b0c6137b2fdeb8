// A production user of csrgat: the seed problem (384 nodes, average degree 18, F = 64) through
// csrgat::aggregate, checked against a plain float64 computation on the host.
#include <csrgat/aggregate.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#define CHECK_CUDA(x)                                                      \
  do {                                                                     \
    cudaError_t e_ = (x);                                                  \
    if (e_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e_)); \
      return 1;                                                            \
    }                                                                      \
  } while (0)

int main() {
  const int64_t n = 384;
  const int feat = 64, heads = 1;
  std::mt19937_64 rng(42);
  std::normal_distribution<float> normal;
  std::vector<int64_t> row_ptr(n + 1, 0);
  std::vector<int32_t> col;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t deg = std::max<int64_t>(1, 18 + (i % 7) - 3);
    for (int64_t k = 0; k < deg; ++k) col.push_back(static_cast<int32_t>(rng() % n));
    row_ptr[i + 1] = static_cast<int64_t>(col.size());
  }
  const int64_t e = static_cast<int64_t>(col.size());
  std::vector<float> scores(e * heads), values(n * heads * feat);
  for (auto& s : scores) s = normal(rng);
  for (auto& v : values) v = normal(rng);

  std::printf("csrgat: code for %s, rules from %s\n", csrgat::compiled_archs(),
              csrgat::tuned_source());
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: the example needs a GPU to run\n");
    return 0;
  }
  std::vector<int32_t> rp32(row_ptr.begin(), row_ptr.end());
  int32_t *d_rp, *d_col;
  float *d_scores, *d_values, *d_out;
  CHECK_CUDA(cudaMalloc(&d_rp, rp32.size() * 4));
  CHECK_CUDA(cudaMalloc(&d_col, col.size() * 4));
  CHECK_CUDA(cudaMalloc(&d_scores, scores.size() * 4));
  CHECK_CUDA(cudaMalloc(&d_values, values.size() * 4));
  CHECK_CUDA(cudaMalloc(&d_out, n * heads * feat * 4));
  CHECK_CUDA(cudaMemcpy(d_rp, rp32.data(), rp32.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_col, col.data(), col.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_scores, scores.data(), scores.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_values, values.data(), values.size() * 4, cudaMemcpyHostToDevice));

  csrgat::GraphView g{d_rp, d_col, n, e, csrgat::Index::i32};
  csrgat::Shape shape;
  csrgat::Status st = csrgat::Shape::create(row_ptr.data(), n, heads, feat, csrgat::Storage::f32,
                                            csrgat::Index::i32, &shape);
  if (st != csrgat::Status::ok) {
    std::fprintf(stderr, "%s: %s\n", csrgat::status_string(st), csrgat::last_error_message());
    return 1;
  }
  st = csrgat::aggregate(g, d_scores, d_values, csrgat::Storage::f32, heads, feat, d_out, nullptr,
                         &shape);
  if (st != csrgat::Status::ok) {
    std::fprintf(stderr, "%s: %s\n", csrgat::status_string(st), csrgat::last_error_message());
    return 1;
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> out(n * heads * feat);
  CHECK_CUDA(cudaMemcpy(out.data(), d_out, out.size() * 4, cudaMemcpyDeviceToHost));

  double err = 0, norm = 0;
  for (int64_t d = 0; d < n; ++d) {
    double m = -INFINITY, l = 0;
    for (int64_t k = row_ptr[d]; k < row_ptr[d + 1]; ++k) m = std::max(m, double(scores[k]));
    for (int64_t k = row_ptr[d]; k < row_ptr[d + 1]; ++k) l += std::exp(scores[k] - m);
    for (int f = 0; f < feat; ++f) {
      double acc = 0;
      for (int64_t k = row_ptr[d]; k < row_ptr[d + 1]; ++k)
        acc += std::exp(scores[k] - m) / l * values[col[k] * feat + f];
      err += (out[d * feat + f] - acc) * (out[d * feat + f] - acc);
      norm += acc * acc;
    }
  }
  const double rel = std::sqrt(err / norm);
  std::printf("seed problem: %lld nodes, %lld edges, F=%d via %s: relative error %.2e -> %s\n",
              static_cast<long long>(n), static_cast<long long>(e), feat, shape.variant_id(), rel,
              rel < 1e-5 ? "ok" : "WRONG");
  cudaFree(d_rp);
  cudaFree(d_col);
  cudaFree(d_scores);
  cudaFree(d_values);
  cudaFree(d_out);
  return rel < 1e-5 ? 0 : 1;
}
