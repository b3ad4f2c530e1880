// conv2d forward and backward on the ResNet-50 layer shapes (batch 32 by default), through this
// framework's C++ op API (InferMeta, dispatch, the kernel with its reorders) against the bare
// oneDNN primitives on data already in the layouts they prefer, in the same process. Prints a
// table and writes JSON.
//
//   build/.../benchmarks/cpp/conv_bench [--batch N] [--repeats R] [--out file.json]
//
// The fraction of peak uses the 2-core fp32 peak of reference/build-probe.md (203 GFLOP/s).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include <dnnl.hpp>

#include "paddle/imperative/eager_dispatch.h"
#include "paddle/ops/generated/api/conv2d.h"
#include "paddle/ops/generated/api/conv2d_grad.h"
#include "paddle/ops/generated/api/uniform.h"

namespace {

constexpr double kPeakGflops = 203.0;

struct Shape {
  const char* name;
  int64_t c, hw, k, kernel, stride;
};

// The distinct convolutions of ResNet-50 v1.5 (input channels, size, output channels, kernel,
// stride), padding kernel / 2.
const Shape kShapes[] = {
    {"conv1", 3, 224, 64, 7, 2},      {"l1.1x1a", 64, 56, 64, 1, 1},
    {"l1.3x3", 64, 56, 64, 3, 1},     {"l1.1x1b", 64, 56, 256, 1, 1},
    {"l1.1x1c", 256, 56, 64, 1, 1},   {"l2.3x3s2", 128, 56, 128, 3, 2},
    {"l2.3x3", 128, 28, 128, 3, 1},   {"l2.1x1b", 128, 28, 512, 1, 1},
    {"l2.down", 256, 56, 512, 1, 2},  {"l3.3x3", 256, 14, 256, 3, 1},
    {"l3.1x1c", 1024, 14, 256, 1, 1}, {"l4.3x3", 512, 7, 512, 3, 1},
    {"l4.1x1b", 512, 7, 2048, 1, 1},
};

double Seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The best of `repeats` timings of fn, after one warm-up call.
double BestMs(const std::function<void()>& fn, int repeats) {
  fn();
  double best = 1e30;
  for (int i = 0; i < repeats; ++i) {
    double t0 = Seconds();
    fn();
    best = std::min(best, Seconds() - t0);
  }
  return best * 1e3;
}

struct Bare {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
};

// The bare primitives' forward and backward (data + weights) times, in their preferred layouts.
std::pair<double, double> BareMs(Bare& bare, const Shape& s, int64_t batch, int repeats) {
  using dnnl::memory;
  const int64_t out = (s.hw + 2 * (s.kernel / 2) - s.kernel) / s.stride + 1;
  memory::dims src{batch, s.c, s.hw, s.hw}, wei{s.k, s.c, s.kernel, s.kernel},
      dst{batch, s.k, out, out}, strides{s.stride, s.stride}, pad{s.kernel / 2, s.kernel / 2};
  auto any = [](const memory::dims& d) {
    return memory::desc(d, memory::data_type::f32, memory::format_tag::any);
  };
  dnnl::convolution_forward::primitive_desc fwd(
      {dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct, any(src), any(wei),
       any(dst), strides, pad, pad},
      bare.engine);
  dnnl::convolution_backward_data::primitive_desc bwd_data(
      {dnnl::algorithm::convolution_direct, any(src), any(wei), any(dst), strides, pad, pad},
      bare.engine, fwd);
  dnnl::convolution_backward_weights::primitive_desc bwd_weights(
      {dnnl::algorithm::convolution_direct, any(src), any(wei), any(dst), strides, pad, pad},
      bare.engine, fwd);
  auto fill = [&](const memory::desc& d) {
    memory m(d, bare.engine);
    std::fill_n(static_cast<float*>(m.get_data_handle()), d.get_size() / sizeof(float), 0.5f);
    return m;
  };
  memory x = fill(fwd.src_desc()), w = fill(fwd.weights_desc()), y = fill(fwd.dst_desc());
  memory dy = fill(bwd_data.diff_dst_desc()), dx = fill(bwd_data.diff_src_desc());
  memory w_bwd = fill(bwd_data.weights_desc()), x_bwd = fill(bwd_weights.src_desc());
  memory dy_w = fill(bwd_weights.diff_dst_desc()), dw = fill(bwd_weights.diff_weights_desc());
  dnnl::convolution_forward f(fwd);
  dnnl::convolution_backward_data bd(bwd_data);
  dnnl::convolution_backward_weights bw(bwd_weights);
  double forward = BestMs(
      [&] {
        f.execute(bare.stream, {{DNNL_ARG_SRC, x}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, y}});
        bare.stream.wait();
      },
      repeats);
  double backward = BestMs(
      [&] {
        bd.execute(bare.stream,
                   {{DNNL_ARG_DIFF_DST, dy}, {DNNL_ARG_WEIGHTS, w_bwd}, {DNNL_ARG_DIFF_SRC, dx}});
        bw.execute(bare.stream,
                   {{DNNL_ARG_SRC, x_bwd}, {DNNL_ARG_DIFF_DST, dy_w}, {DNNL_ARG_DIFF_WEIGHTS, dw}});
        bare.stream.wait();
      },
      repeats);
  return {forward, backward};
}

std::pair<double, double> OursMs(const Shape& s, int64_t batch, int repeats) {
  using paddle::Tensor;
  const int64_t out = (s.hw + 2 * (s.kernel / 2) - s.kernel) / s.stride + 1;
  auto random = [](std::vector<int64_t> shape) {
    return paddle::ops::uniform(shape, paddle::DataType::FLOAT32, -1.0, 1.0, 0, paddle::CPUPlace());
  };
  Tensor x = random({batch, s.c, s.hw, s.hw}), w = random({s.k, s.c, s.kernel, s.kernel});
  Tensor dy = random({batch, s.k, out, out});
  const std::vector<int> strides{static_cast<int>(s.stride), static_cast<int>(s.stride)};
  const std::vector<int> pads{static_cast<int>(s.kernel / 2), static_cast<int>(s.kernel / 2)};
  const std::vector<int> dilations{1, 1};
  double forward = BestMs(
      [&] { paddle::ops::conv2d(x, w, strides, pads, "EXPLICIT", dilations, 1, "NCHW"); }, repeats);
  double backward = BestMs(
      [&] { paddle::ops::conv2d_grad(x, w, dy, strides, pads, "EXPLICIT", dilations, 1, "NCHW"); },
      repeats);
  return {forward, backward};
}

}  // namespace

int main(int argc, char** argv) {
  int64_t batch = 32;
  int repeats = 3;
  std::string out_path = "conv_bench.json";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--batch")) batch = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--repeats")) repeats = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--out")) out_path = argv[i + 1];
  }
  paddle::imperative::InitEager();
  Bare bare;
  std::printf("conv2d, batch %lld, best of %d; GFLOP/s and %% of the %.0f GFLOP/s peak\n",
              static_cast<long long>(batch), repeats, kPeakGflops);
  std::printf("%-10s %7s | %9s %9s %6s %6s | %9s %9s %6s %6s\n", "layer", "GFLOP", "fwd ms",
              "bare ms", "ours%", "peak%", "bwd ms", "bare ms", "ours%", "peak%");
  std::ofstream json(out_path);
  json << "{\"batch\": " << batch << ", \"peak_gflops\": " << kPeakGflops << ", \"layers\": [";
  double total_ours = 0, total_bare = 0;
  for (size_t i = 0; i < sizeof(kShapes) / sizeof(kShapes[0]); ++i) {
    const Shape& s = kShapes[i];
    const int64_t out = (s.hw + 2 * (s.kernel / 2) - s.kernel) / s.stride + 1;
    const double gflop = 2.0 * batch * s.k * out * out * s.c * s.kernel * s.kernel / 1e9;
    auto [bare_f, bare_b] = BareMs(bare, s, batch, repeats);
    auto [ours_f, ours_b] = OursMs(s, batch, repeats);
    total_ours += ours_f + ours_b;
    total_bare += bare_f + bare_b;
    auto peak = [&](double ms, double flop) { return 100.0 * flop / (ms / 1e3) / kPeakGflops; };
    std::printf("%-10s %7.2f | %9.2f %9.2f %5.0f%% %5.0f%% | %9.2f %9.2f %5.0f%% %5.0f%%\n", s.name,
                gflop, ours_f, bare_f, 100 * bare_f / ours_f, peak(ours_f, gflop), ours_b, bare_b,
                100 * bare_b / ours_b, peak(ours_b, 2 * gflop));
    json << (i ? ", " : "") << "{\"layer\": \"" << s.name << "\", \"gflop\": " << gflop
         << ", \"forward_ms\": " << ours_f << ", \"bare_forward_ms\": " << bare_f
         << ", \"backward_ms\": " << ours_b << ", \"bare_backward_ms\": " << bare_b << "}";
  }
  std::printf("total: ours %.1f ms, bare oneDNN %.1f ms: ours at %.0f%% of the bare speed\n",
              total_ours, total_bare, 100 * total_bare / total_ours);
  json << "], \"total_ms\": " << total_ours << ", \"bare_total_ms\": " << total_bare << "}\n";
  std::printf("wrote %s\n", out_path.c_str());
  return 0;
}
