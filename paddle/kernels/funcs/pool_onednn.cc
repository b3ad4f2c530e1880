// float pooling on oneDNN, on the user's layout (nchw / nhwc and their 1-D and 3-D forms): oneDNN
// 2.6's JIT pooling reads those layouts directly, and reordering into a blocked layout and back
// costs more than the pooling itself (max 3x3 / 2 of 32x64x112x112 on one thread: 11 ms on nchw,
// 36-48 ms with the reorders to nChw16c and back). Paddle's ceil_mode becomes extra right
// padding: the output size oneDNN derives with floor division is then Paddle's, and both average
// modes agree with Paddle's divisors (the window's input elements, or the whole kernel).
// Max pooling's backward needs the forward's workspace (the argmax of each window). The op does
// not keep it (Paddle's pool2d has no output for it), so the backward recomputes it with a
// forward_training pass: about 11 of the 26-32 ms of that shape's backward, which is still 4-8x
// faster than the loops' search of each window for the element equal to the output.
// An adaptive pooling whose bins are all alike (each input size a multiple of the output size,
// as in the global average pooling closing most CNNs) is the strided pooling it equals; other
// adaptive bins and geometries with an empty dim run on the loops (pool_loops.cc).
#include <algorithm>
#include <string>

#include "paddle/common/place.h"
#include "paddle/kernels/funcs/onednn_context.h"
#include "paddle/kernels/funcs/pool_compute.h"
#include "paddle/memory/malloc.h"

namespace paddle::funcs {

namespace {

using Tag = dnnl::memory::format_tag;

bool OnOnednn(const PoolGeometry& g) {
  if (g.batch == 0 || g.channels == 0) return false;
  for (int d = 0; d < g.spatial_rank(); ++d) {
    if (g.input[d] == 0 || g.output[d] == 0) return false;
    if (g.adaptive && g.input[d] % g.output[d] != 0) return false;
  }
  return true;
}

// The strided pooling an adaptive one with equal bins is: kernel = stride = in / out.
PoolGeometry Strided(const PoolGeometry& g) {
  if (!g.adaptive) return g;
  PoolGeometry s = g;
  s.adaptive = false;
  for (int d = 0; d < g.spatial_rank(); ++d) {
    s.kernel[d] = s.strides[d] = g.input[d] / g.output[d];
    s.pad_before[d] = s.pad_after[d] = 0;
  }
  return s;
}

dnnl::algorithm Algorithm(PoolMode mode) {
  switch (mode) {
    case PoolMode::kMax:
      return dnnl::algorithm::pooling_max;
    case PoolMode::kAvgExclusive:
      return dnnl::algorithm::pooling_avg_exclude_padding;
    case PoolMode::kAvgInclusive:
      return dnnl::algorithm::pooling_avg_include_padding;
  }
  return dnnl::algorithm::pooling_max;
}

dnnl::memory::desc DataDesc(const PoolGeometry& g, const std::vector<int64_t>& sizes) {
  static const Tag first[] = {Tag::ncw, Tag::nchw, Tag::ncdhw};
  static const Tag last[] = {Tag::nwc, Tag::nhwc, Tag::ndhwc};
  dnnl::memory::dims d{g.batch, g.channels};
  d.insert(d.end(), sizes.begin(), sizes.end());
  return dnnl::memory::desc(d, dnnl::memory::data_type::f32,
                            (g.channels_last ? last : first)[g.spatial_rank() - 1]);
}

struct Window {
  dnnl::memory::dims strides, kernel, pad_l, pad_r;
  explicit Window(const PoolGeometry& g) {
    for (int d = 0; d < g.spatial_rank(); ++d) {
      strides.push_back(g.strides[d]);
      kernel.push_back(g.kernel[d]);
      pad_l.push_back(g.pad_before[d]);
      // The right padding that makes oneDNN's floor((in + pads - k) / stride) + 1 the output
      // size: ceil_mode's last window reaches past the declared padding.
      pad_r.push_back(std::max<int64_t>(
          0, (g.output[d] - 1) * g.strides[d] + g.kernel[d] - g.input[d] - g.pad_before[d]));
    }
  }
};

std::string Key(const char* kind, const PoolGeometry& g, PoolMode mode) {
  std::string key = kind;
  auto add = [&key](int64_t v) { key += ',' + std::to_string(v); };
  add(static_cast<int>(mode));
  add(g.channels_last);
  add(g.batch);
  add(g.channels);
  for (const auto* v : {&g.input, &g.output, &g.kernel, &g.strides, &g.pad_before}) {
    key += ';';
    for (int64_t x : *v) add(x);
  }
  return key;
}

dnnl::pooling_forward::primitive_desc ForwardDesc(const PoolGeometry& g, PoolMode mode,
                                                  dnnl::prop_kind kind) {
  Window w(g);
  dnnl::pooling_forward::desc desc(kind, Algorithm(mode), DataDesc(g, g.input),
                                   DataDesc(g, g.output), w.strides, w.kernel, w.pad_l, w.pad_r);
  return {desc, onednn::WithUserScratchpad(), onednn::CpuEngine()};
}

struct ForwardEntry {
  dnnl::pooling_forward::primitive_desc desc;
  dnnl::pooling_forward primitive;
};

std::shared_ptr<ForwardEntry> Forward(const PoolGeometry& g, PoolMode mode, dnnl::prop_kind kind) {
  const char* name = kind == dnnl::prop_kind::forward_training ? "pool_fwd_train" : "pool_fwd";
  return onednn::Cached<ForwardEntry>(Key(name, g, mode), [&] {
    auto pd = ForwardDesc(g, mode, kind);
    return std::make_shared<ForwardEntry>(ForwardEntry{pd, dnnl::pooling_forward(pd)});
  });
}

struct BackwardEntry {
  dnnl::pooling_backward::primitive_desc desc;
  dnnl::pooling_backward primitive;
};

dnnl::memory User(const dnnl::memory::desc& desc, const float* data) {
  return dnnl::memory(desc, onednn::CpuEngine(), const_cast<float*>(data));
}

}  // namespace

template <>
void PoolForward<float>(const PoolGeometry& geometry, PoolMode mode, const float* x, float* out) {
  if (!OnOnednn(geometry)) return LoopPoolForward(geometry, mode, x, out);
  const PoolGeometry g = Strided(geometry);
  auto entry = Forward(g, mode, dnnl::prop_kind::forward_inference);
  onednn::Execute(entry->primitive, entry->desc.scratchpad_desc(),
                  {{DNNL_ARG_SRC, User(DataDesc(g, g.input), x)},
                   {DNNL_ARG_DST, User(DataDesc(g, g.output), out)}});
  onednn::ThreadStream().wait();
}

template <>
void PoolBackward<float>(const PoolGeometry& geometry, PoolMode mode, const float* x,
                         const float* out, const float* out_grad, float* x_grad) {
  if (!OnOnednn(geometry)) return LoopPoolBackward(geometry, mode, x, out, out_grad, x_grad);
  const PoolGeometry g = Strided(geometry);
  auto forward = Forward(g, mode, dnnl::prop_kind::forward_training);
  auto entry = onednn::Cached<BackwardEntry>(Key("pool_bwd", g, mode), [&] {
    Window w(g);
    dnnl::pooling_backward::desc desc(Algorithm(mode), DataDesc(g, g.input), DataDesc(g, g.output),
                                      w.strides, w.kernel, w.pad_l, w.pad_r);
    dnnl::pooling_backward::primitive_desc pd(desc, onednn::WithUserScratchpad(),
                                              onednn::CpuEngine(), forward->desc);
    return std::make_shared<BackwardEntry>(BackwardEntry{pd, dnnl::pooling_backward(pd)});
  });
  dnnl::stream& stream = onednn::ThreadStream();
  dnnl::memory diff_dst = User(DataDesc(g, g.output), out_grad);
  dnnl::memory diff_src = User(DataDesc(g, g.input), x_grad);
  if (mode != PoolMode::kMax) {
    onednn::Execute(entry->primitive, entry->desc.scratchpad_desc(),
                    {{DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_DIFF_SRC, diff_src}});
    stream.wait();
    return;
  }
  // Recompute the forward for its workspace; its output goes to scratch, as `out` is const.
  memory::AllocationPtr workspace_buffer =
      memory::AllocUnique(CPUPlace(), forward->desc.workspace_desc().get_size());
  memory::AllocationPtr dst_buffer =
      memory::AllocUnique(CPUPlace(), forward->desc.dst_desc().get_size());
  dnnl::memory workspace(forward->desc.workspace_desc(), onednn::CpuEngine(),
                         workspace_buffer->ptr());
  dnnl::memory dst(forward->desc.dst_desc(), onednn::CpuEngine(), dst_buffer->ptr());
  onednn::Execute(forward->primitive, forward->desc.scratchpad_desc(),
                  {{DNNL_ARG_SRC, User(DataDesc(g, g.input), x)},
                   {DNNL_ARG_DST, dst},
                   {DNNL_ARG_WORKSPACE, workspace}});
  onednn::Execute(entry->primitive, entry->desc.scratchpad_desc(),
                  {{DNNL_ARG_DIFF_DST, diff_dst},
                   {DNNL_ARG_WORKSPACE, workspace},
                   {DNNL_ARG_DIFF_SRC, diff_src}});
  stream.wait();
}

}  // namespace paddle::funcs
