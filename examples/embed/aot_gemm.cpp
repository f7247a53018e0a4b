// Launches the GEMM of examples/gemm.tensor, compiled ahead of time into
// gemm_kernel.h (`nautc compile --emit header`), with Nautilus::runtime
// alone, and compares it with a plain reference.
//
//   aot_gemm [M N K]    (default: 64 48 40)
#include "Half.h"
#include "gemm_kernel.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int64_t M = 64, N = 48, K = 40;
  if (argc == 4) {
    M = std::atoll(argv[1]);
    N = std::atoll(argv[2]);
    K = std::atoll(argv[3]);
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [M N K]\n", argv[0]);
    return 2;
  }
  // Inputs: small multiples of 1/64, exact in f16.
  std::vector<float> a(M * K), b(K * N);
  std::vector<uint16_t> ah(M * K), bh(K * N);
  for (int64_t i = 0; i < M * K; ++i)
    ah[i] = toF16(a[i] = float((i * 7) % 33 - 16) / 64.0f);
  for (int64_t i = 0; i < K * N; ++i)
    bh[i] = toF16(b[i] = float((i * 5) % 29 - 14) / 64.0f);
  std::vector<float> c(M * N);
  try {
    nautilus::Device device = nautilus::Device::open("cpu");
    nautilus_kernels::gemm gemm;
    gemm(device, {ah.data(), NT_F16, {M, K}}, {bh.data(), NT_F16, {K, N}},
         {c.data(), NT_F32, {M, N}});
  } catch (const nautilus::Error &e) {
    std::fprintf(stderr, "aot_gemm: %s\n", e.what());
    return 1;
  }
  double checksum = 0, worst = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double want = 0;
      for (int64_t k = 0; k < K; ++k)
        want += double(a[i * K + k]) * b[k * N + j];
      checksum += c[i * N + j];
      worst = std::max(worst, std::fabs(c[i * N + j] - want));
    }
  std::printf("gemm M=%lld N=%lld K=%lld: checksum %.6f, max |error| %.2e\n",
              (long long)M, (long long)N, (long long)K, checksum, worst);
  return worst <= 1e-4 * K ? 0 : 1;
}
