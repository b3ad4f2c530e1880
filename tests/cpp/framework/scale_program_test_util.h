// The fixture the ParallelExecutor tests (CPU places, and GPU places with NCCL) share: programs
// of `scale` ops with op roles written by hand, and tensors fed and read on any place.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "paddle/framework/program_desc.h"
#include "paddle/framework/proto_attribute.h"
#include "paddle/framework/scope.h"
#include "paddle/imperative/eager_dispatch.h"
#include "paddle/memory/memcpy.h"

namespace paddle::framework::testing {

class ScaleProgramTest : public ::testing::Test {
 protected:
  void SetUp() override { imperative::InitEager(); }

  void Declare(const std::string& name, bool persistable = false) {
    VarDesc* var = program_.MainBlock()->Var(name);
    var->set_shape({3});
    var->set_persistable(persistable);
  }

  // out = x * scale, with the given op_role.
  OpDesc* Scale(const std::string& in, const std::string& out, float scale, OpRole role) {
    OpDesc* op = program_.MainBlock()->AppendOp();
    op->set_type("scale");
    op->SetInput("X", {in});
    op->SetOutput("Out", {out});
    op->SetAttr(*ToProtoAttr("scale", Attribute(scale)));
    op->SetAttr(*ToProtoAttr("bias", Attribute(0.0f)));
    op->SetAttr(MakeIntAttr(kOpRoleAttr, static_cast<int>(role)));
    return op;
  }

  // `values` copied into `name` of `scope` on `place`.
  static void Feed(Scope* scope, const std::string& name, const std::vector<float>& values,
                   const Place& place = CPUPlace()) {
    DenseTensor* t = scope->Var(name)->tensor();
    t->set_meta(TensorMeta{DDim({static_cast<int64_t>(values.size())}), DataType::FLOAT32});
    void* data = t->AllocateStorage(place);
    memory::Copy(place, data, CPUPlace(), values.data(), values.size() * sizeof(float));
  }

  // t's values, copied to the host from wherever it is.
  static std::vector<float> Values(const DenseTensor& t) {
    std::vector<float> values(t.numel());
    memory::Copy(CPUPlace(), values.data(), t.place(), t.raw_data(), t.nbytes());
    return values;
  }

  // x -> (backward) w@GRAD, v@GRAD -> (optimize) w_out, v_out.
  void BuildGradientProgram() {
    for (const char* name : {"x", "w@GRAD", "v@GRAD", "w_out", "v_out"}) Declare(name);
    Scale("x", "w@GRAD", 2.0f, OpRole::kBackward);
    Scale("x", "v@GRAD", 3.0f, OpRole::kBackward);
    Scale("w@GRAD", "w_out", 1.0f, OpRole::kOptimize);
    Scale("v@GRAD", "v_out", 1.0f, OpRole::kOptimize);
  }

  ProgramDesc program_;
  Scope scope_;
};

}  // namespace paddle::framework::testing
