// JIT-compiles attention (examples/attention.tensor) for the sizes on the
// command line, runs it on the CPU (or on CUDA when asked and present),
// prints a checksum and compares the result with a plain reference.
//
//   jit_attention [B H N M D [cpu|cuda]]    (default: 1 2 64 80 32 cpu)
#include "Half.h"
#include <nautilus/nautilus.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Sizes {
  int64_t B = 1, H = 2, N = 64, M = 80, D = 32;
};

/// O = softmax(Q K^T / sqrt(D)) V, in double.
std::vector<double> reference(const Sizes &s, const std::vector<float> &q,
                              const std::vector<float> &k,
                              const std::vector<float> &v) {
  std::vector<double> out(s.B * s.H * s.N * s.D);
  std::vector<double> scores(s.M);
  for (int64_t bh = 0; bh < s.B * s.H; ++bh)
    for (int64_t n = 0; n < s.N; ++n) {
      const float *qRow = &q[(bh * s.N + n) * s.D];
      double top = -INFINITY, total = 0;
      for (int64_t m = 0; m < s.M; ++m) {
        double dot = 0;
        for (int64_t d = 0; d < s.D; ++d)
          dot += double(qRow[d]) * k[(bh * s.M + m) * s.D + d];
        scores[m] = dot / std::sqrt(double(s.D));
        top = std::max(top, scores[m]);
      }
      for (int64_t m = 0; m < s.M; ++m)
        total += scores[m] = std::exp(scores[m] - top);
      for (int64_t d = 0; d < s.D; ++d) {
        double acc = 0;
        for (int64_t m = 0; m < s.M; ++m)
          acc += scores[m] * v[(bh * s.M + m) * s.D + d];
        out[(bh * s.N + n) * s.D + d] = acc / total;
      }
    }
  return out;
}

/// Values in [-1, 1], exact in bf16, from a fixed seed.
std::vector<float> inputs(size_t count, unsigned seed) {
  std::vector<float> out(count);
  for (size_t i = 0; i < count; ++i) {
    seed = seed * 1103515245u + 12345u;
    out[i] = fromBF16(toBF16(float(int((seed >> 16) % 129) - 64) / 64.0f));
  }
  return out;
}

} // namespace

int main(int argc, char **argv) {
  Sizes s;
  std::string deviceKind = "cpu";
  if (argc >= 6) {
    s = {std::atoll(argv[1]), std::atoll(argv[2]), std::atoll(argv[3]),
         std::atoll(argv[4]), std::atoll(argv[5])};
    if (argc >= 7)
      deviceKind = argv[6];
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [B H N M D [cpu|cuda]]\n", argv[0]);
    return 2;
  }
  try {
    nautilus::CompileOptions options;
    options.path = ATTENTION_TENSOR;
    options.kernel = "attention";
    options.target = deviceKind == "cuda" ? "sm_80" : "cpu";
    nautilus::Program program = nautilus::Program::compile(options);
    nautilus::Device device = nautilus::Device::open(deviceKind);

    std::vector<float> q = inputs(s.B * s.H * s.N * s.D, 1),
                       k = inputs(s.B * s.H * s.M * s.D, 2),
                       v = inputs(s.B * s.H * s.M * s.D, 3);
    auto bf16 = [](const std::vector<float> &x) {
      std::vector<uint16_t> out(x.size());
      for (size_t i = 0; i < x.size(); ++i)
        out[i] = toBF16(x[i]);
      return out;
    };
    std::vector<uint16_t> qh = bf16(q), kh = bf16(k), vh = bf16(v),
                          oh(s.B * s.H * s.N * s.D);
    // Device memory for each tensor (plain host memory on the cpu).
    std::vector<void *> memory;
    auto onDevice = [&](std::vector<uint16_t> &host) {
      void *p = device.alloc(host.size() * 2);
      device.copyToDevice(p, host.data(), host.size() * 2);
      memory.push_back(p);
      return p;
    };
    void *qd = onDevice(qh), *kd = onDevice(kh), *vd = onDevice(vh),
         *od = onDevice(oh);
    program.launch(device, {{qd, NT_BF16, {s.B, s.H, s.N, s.D}},
                            {kd, NT_BF16, {s.B, s.H, s.M, s.D}},
                            {vd, NT_BF16, {s.B, s.H, s.M, s.D}},
                            {od, NT_BF16, {s.B, s.H, s.N, s.D}}});
    device.copyToHost(oh.data(), od, oh.size() * 2);
    for (void *p : memory)
      device.free(p);

    std::vector<double> want = reference(s, q, k, v);
    double checksum = 0, worst = 0;
    for (size_t i = 0; i < oh.size(); ++i) {
      double got = fromBF16(oh[i]);
      checksum += got;
      worst = std::max(worst, std::fabs(got - want[i]));
    }
    std::printf("attention B=%lld H=%lld N=%lld M=%lld D=%lld on %s: "
                "checksum %.6f, max |error| %.2e (%s)\n",
                (long long)s.B, (long long)s.H, (long long)s.N, (long long)s.M,
                (long long)s.D, device.describe().c_str(), checksum, worst,
                program.cacheHit() ? "from the cache" : "compiled");
    // bf16 output: 8 bits of mantissa on values below 1.
    return worst <= 1.0 / 128 ? 0 : 1;
  } catch (const nautilus::Error &e) {
    std::fprintf(stderr, "jit_attention: %s\n", e.what());
    return 1;
  }
}
