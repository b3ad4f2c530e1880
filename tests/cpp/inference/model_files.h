// Writes a small MLP as an inference model (.pdmodel + .pdiparams, as save_inference_model
// lays them out) for the inference tests: out = relu(x @ w + b), x float32 [-1, 4], w [4, 3].
#pragma once

#include <algorithm>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "paddle/framework/program_desc.h"
#include "paddle/framework/proto_attribute.h"
#include "paddle/framework/tensor_io.h"

namespace paddle::inference_test {

struct MlpFiles {
  std::string program, params;
  std::vector<float> w, b;  // row-major [4, 3], [3]
};

inline DenseTensor FloatTensor(const std::vector<int64_t>& dims, const std::vector<float>& values) {
  DenseTensor t(TensorMeta{DDim(dims), DataType::FLOAT32});
  float* data = static_cast<float*>(t.AllocateStorage(CPUPlace()));
  std::copy(values.begin(), values.end(), data);
  return t;
}

// `w_shape_in_file`: the shape written for w, to make a params file that does not match.
inline MlpFiles WriteMlp(const std::string& dir, std::vector<int64_t> w_shape_in_file = {4, 3}) {
  using framework::OpDesc;
  using framework::VarDesc;
  framework::ProgramDesc program;
  framework::BlockDesc* block = program.MainBlock();
  auto declare = [&](const std::string& name, std::vector<int64_t> shape, bool persistable) {
    VarDesc* var = block->Var(name);
    var->set_shape(shape);
    var->set_persistable(persistable);
    return var;
  };
  block->Var("feed")->set_kind(framework::proto::VarType::FEED_MINIBATCH);
  block->Var("fetch")->set_kind(framework::proto::VarType::FETCH_LIST);
  declare("x", {-1, 4}, false);
  declare("w", {4, 3}, true);
  declare("b", {3}, true);
  declare("xw", {-1, 3}, false);
  declare("xwb", {-1, 3}, false);
  declare("out", {-1, 3}, false);
  auto op = [&](const std::string& type, std::vector<std::pair<std::string, std::string>> ins,
                std::vector<std::pair<std::string, std::string>> outs) {
    OpDesc* desc = block->AppendOp();
    desc->set_type(type);
    for (auto& [slot, name] : ins) desc->SetInput(slot, {name});
    for (auto& [slot, name] : outs) desc->SetOutput(slot, {name});
    return desc;
  };
  op("feed", {{"X", "feed"}}, {{"Out", "x"}})
      ->SetAttr(*framework::ToProtoAttr("col", Attribute(int32_t{0})));
  op("matmul_v2", {{"X", "x"}, {"Y", "w"}}, {{"Out", "xw"}});
  op("elementwise_add", {{"X", "xw"}, {"Y", "b"}}, {{"Out", "xwb"}})
      ->SetAttr(*framework::ToProtoAttr("axis", Attribute(int32_t{-1})));
  op("relu", {{"X", "xwb"}}, {{"Out", "out"}});
  op("fetch", {{"X", "out"}}, {{"Out", "fetch"}})
      ->SetAttr(*framework::ToProtoAttr("col", Attribute(int32_t{0})));

  MlpFiles files{dir + "/mlp.pdmodel", dir + "/mlp.pdiparams", {}, {}};
  for (int i = 0; i < 12; ++i) files.w.push_back(0.25f * static_cast<float>(i % 5) - 0.4f);
  files.b = {0.1f, -0.2f, 0.3f};
  std::ofstream(files.program, std::ios::binary) << program.Serialize();
  DenseTensor w = FloatTensor(w_shape_in_file, files.w), b = FloatTensor({3}, files.b);
  framework::SaveCombine(files.params, {{"b", &b}, {"w", &w}});  // sorted by name
  return files;
}

// relu(x @ w + b) for x of `rows` x 4.
inline std::vector<float> MlpReference(const MlpFiles& files, const std::vector<float>& x) {
  size_t rows = x.size() / 4;
  std::vector<float> out(rows * 3);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < 3; ++c) {
      float acc = files.b[c];
      for (size_t k = 0; k < 4; ++k) acc += x[r * 4 + k] * files.w[k * 3 + c];
      out[r * 3 + c] = acc > 0 ? acc : 0;
    }
  }
  return out;
}

}  // namespace paddle::inference_test
