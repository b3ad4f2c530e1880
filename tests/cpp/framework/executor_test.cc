// The Executor on hand-built programs: schema ops by their legacy names, last-use garbage
// collection, in-place pairs, and errors for programs it cannot run.
#include <gtest/gtest.h>

#include <cmath>

#include "paddle/common/errors.h"
#include "paddle/framework/executor.h"
#include "paddle/framework/proto_attribute.h"
#include "paddle/imperative/eager_dispatch.h"

namespace paddle::framework {
namespace {

class ExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override { imperative::InitEager(); }

  VarDesc* Declare(const std::string& name, std::vector<int64_t> shape = {3}) {
    VarDesc* var = program_.MainBlock()->Var(name);
    var->set_shape(shape);
    return var;
  }

  OpDesc* Append(const std::string& type, const std::string& in, const std::string& out) {
    OpDesc* op = program_.MainBlock()->AppendOp();
    op->set_type(type);
    op->SetInput("X", {in});
    op->SetOutput("Out", {out});
    return op;
  }

  void Feed(const std::string& name, std::vector<float> values) {
    DenseTensor* t = scope_.Var(name)->tensor();
    t->set_meta(TensorMeta{DDim({static_cast<int64_t>(values.size())}), DataType::FLOAT32});
    float* data = static_cast<float*>(t->AllocateStorage(CPUPlace()));
    std::copy(values.begin(), values.end(), data);
  }

  std::vector<float> Read(const std::string& name) {
    const DenseTensor* t = scope_.FindVar(name)->tensor();
    return {t->data<float>(), t->data<float>() + t->numel()};
  }

  ProgramDesc program_;
  Scope scope_;
  Executor executor_{CPUPlace()};
};

TEST_F(ExecutorTest, RunsSchemaOpsByLegacyName) {
  Declare("x");
  Declare("a");
  Declare("b");
  Append("exp", "x", "a");
  OpDesc* scale = Append("scale", "a", "b");
  scale->SetAttr(*ToProtoAttr("scale", Attribute(2.0f)));
  scale->SetAttr(*ToProtoAttr("bias", Attribute(1.0f)));
  Declare("c");
  Append("relu", "b", "c");
  PrepareOptions options;
  options.skip_vars = {"x", "c"};  // fed and fetched
  auto prepared = executor_.Prepare(program_, 0, options);
  Feed("x", {0.0f, 1.0f, 2.0f});
  executor_.Run(prepared.get(), &scope_);
  std::vector<float> c = Read("c");
  EXPECT_FLOAT_EQ(c[0], 3.0f);
  EXPECT_FLOAT_EQ(c[1], 2.0f * std::exp(1.0f) + 1.0f);
  // a dies at scale (its only reader), and scale may write in place into it; relu may not
  // write into b because its output is fetched.
  EXPECT_EQ(prepared->DeadAfter(1), (std::vector<std::string>{"a"}));
  EXPECT_EQ(prepared->DeadAfter(2), (std::vector<std::string>{"b"}));
  EXPECT_EQ(prepared->InplacePairs(),
            (std::vector<std::pair<std::string, std::string>>{{"a", "b"}}));
  EXPECT_FALSE(scope_.FindVar("a")->tensor()->has_allocation());
  EXPECT_TRUE(scope_.FindVar("x")->tensor()->has_allocation());  // skipped: fed
}

TEST_F(ExecutorTest, ChangedProgramMustBePreparedAgain) {
  Declare("x");
  Declare("y");
  Append("relu", "x", "y");
  auto prepared = executor_.Prepare(program_, 0, {});
  Declare("z");
  Feed("x", {1.0f, 1.0f, 1.0f});
  EXPECT_THROW(executor_.Run(prepared.get(), &scope_), Error);
}

TEST_F(ExecutorTest, UnknownOpTypeIsUnimplemented) {
  Declare("x");
  Declare("y");
  Append("definitely_not_an_op", "x", "y");
  try {
    executor_.Prepare(program_, 0, {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnimplemented);
    EXPECT_NE(std::string(e.what()).find("definitely_not_an_op"), std::string::npos);
  }
}

TEST_F(ExecutorTest, ReadingAVariableWrittenLaterIsAnError) {
  Declare("c");
  Declare("d");
  Append("relu", "d", "c");
  Append("relu", "c", "d");
  auto prepared = executor_.Prepare(program_, 0, {});
  try {
    executor_.Run(prepared.get(), &scope_);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kPreconditionNotMet);
    EXPECT_NE(std::string(e.what()).find("'d'"), std::string::npos);
  }
}

TEST_F(ExecutorTest, UndefinedVariableIsNotFound) {
  Declare("y");
  Append("relu", "ghost", "y");
  try {
    auto prepared = executor_.Prepare(program_, 0, {});
    executor_.Run(prepared.get(), &scope_);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    EXPECT_NE(std::string(e.what()).find("ghost"), std::string::npos);
  }
}

}  // namespace
}  // namespace paddle::framework
