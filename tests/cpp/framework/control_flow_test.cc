// The control-flow ops on hand-built programs, without Python: a while loop and a
// conditional_block merged by select_input, step scopes, and conditions the ops cannot use.
#include <gtest/gtest.h>

#include "paddle/common/errors.h"
#include "paddle/framework/executor.h"
#include "paddle/framework/proto_attribute.h"
#include "paddle/imperative/eager_dispatch.h"

namespace paddle::framework {
namespace {

class ControlFlowTest : public ::testing::Test {
 protected:
  void SetUp() override { imperative::InitEager(); }

  VarDesc* Declare(BlockDesc* block, const std::string& name, std::vector<int64_t> shape,
                   DataType dtype = DataType::FLOAT32) {
    VarDesc* var = block->Var(name);
    var->set_shape(shape);
    var->set_dtype(dtype);
    return var;
  }

  OpDesc* Append(BlockDesc* block, const std::string& type,
                 const std::vector<std::pair<std::string, std::vector<std::string>>>& inputs,
                 const std::string& out) {
    OpDesc* op = block->AppendOp();
    op->set_type(type);
    for (const auto& [slot, names] : inputs) op->SetInput(slot, names);
    op->SetOutput("Out", {out});
    return op;
  }

  template <typename T>
  void Feed(const std::string& name, std::vector<T> values, DataType dtype) {
    DenseTensor* t = scope_.Var(name)->tensor();
    t->set_meta(TensorMeta{DDim({static_cast<int64_t>(values.size())}), dtype});
    T* data = static_cast<T*>(t->AllocateStorage(CPUPlace()));
    std::copy(values.begin(), values.end(), data);
  }

  std::vector<float> Read(const std::string& name) {
    const DenseTensor* t = scope_.FindVar(name)->tensor();
    return {t->data<float>(), t->data<float>() + t->numel()};
  }

  // Block 0 doubles x while the sum of its elements stays below `limit`.
  void BuildDoublingLoop() {
    BlockDesc* main = program_.MainBlock();
    Declare(main, "x", {3});
    Declare(main, "limit", {1});
    Declare(main, "s", {});
    Declare(main, "c", {1}, DataType::BOOL);
    main->Var("steps")->set_kind(proto::VarType::STEP_SCOPES);
    Append(main, "reduce_sum", {{"X", {"x"}}}, "s");
    Append(main, "less_than", {{"X", {"s"}}, {"Y", {"limit"}}}, "c");

    BlockDesc* body = program_.AppendBlock(*main);
    Declare(body, "t", {3});
    Declare(body, "t_sum", {});
    Declare(body, "t_c", {1}, DataType::BOOL);
    Append(body, "scale", {{"X", {"x"}}}, "t")->SetAttr(*ToProtoAttr("scale", Attribute(2.0f)));
    Append(body, "reduce_sum", {{"X", {"t"}}}, "t_sum");
    Append(body, "less_than", {{"X", {"t_sum"}}, {"Y", {"limit"}}}, "t_c");
    Append(body, "assign", {{"X", {"t"}}}, "x");
    Append(body, "assign", {{"X", {"t_c"}}}, "c");

    OpDesc* loop = main->AppendOp();
    loop->set_type("while");
    loop->SetInput("X", {"x", "limit"});
    loop->SetInput("Condition", {"c"});
    loop->SetOutput("Out", {"x", "c"});
    loop->SetOutput("StepScopes", {"steps"});
    loop->SetAttr(MakeBlockAttr("sub_block", body->idx()));
    loop->SetAttr(*ToProtoAttr("is_test", Attribute(false)));
  }

  ProgramDesc program_;
  Scope scope_;
  Executor executor_{CPUPlace()};
};

TEST_F(ControlFlowTest, WhileRunsItsBlockUntilTheConditionFails) {
  BuildDoublingLoop();
  auto prepared = executor_.Prepare(program_, 0, PrepareOptions{{"x", "limit"}});
  for (int run = 0; run < 2; ++run) {
    Feed<float>("x", {1, 2, 3}, DataType::FLOAT32);
    Feed<float>("limit", {100}, DataType::FLOAT32);
    executor_.Run(prepared.get(), &scope_);
    EXPECT_EQ(Read("x"), (std::vector<float>{32, 64, 96}));
    // Without a while_grad op in the program, no step scope is kept.
    EXPECT_TRUE(scope_.FindVar("steps")->step_scopes()->empty());
  }
}

TEST_F(ControlFlowTest, ConditionalBlockAndSelectInputPickTheBranch) {
  BlockDesc* main = program_.MainBlock();
  Declare(main, "x", {2});
  Declare(main, "pred", {1}, DataType::BOOL);
  Declare(main, "mask", {1}, DataType::INT32);
  Declare(main, "from_true", {2});
  Declare(main, "out", {2});
  main->Var("scope")->set_kind(proto::VarType::STEP_SCOPES);
  BlockDesc* branch = program_.AppendBlock(*main);
  Declare(branch, "tripled", {2});
  Append(branch, "scale", {{"X", {"x"}}}, "tripled")
      ->SetAttr(*ToProtoAttr("scale", Attribute(3.0f)));
  Append(branch, "assign", {{"X", {"tripled"}}}, "from_true");
  OpDesc* op = main->AppendOp();
  op->set_type("conditional_block");
  op->SetInput("Cond", {"pred"});
  op->SetInput("Input", {"x"});
  op->SetOutput("Out", {"from_true"});
  op->SetOutput("Scope", {"scope"});
  op->SetAttr(MakeBlockAttr("sub_block", branch->idx()));
  op->SetAttr(*ToProtoAttr("is_scalar_condition", Attribute(true)));
  Append(main, "cast", {{"X", {"pred"}}}, "mask")
      ->SetAttr(*ToProtoAttr("out_dtype", Attribute(2)));  // int32
  Append(main, "select_input", {{"X", {"x", "from_true"}}, {"Mask", {"mask"}}}, "out");
  auto prepared = executor_.Prepare(program_, 0, PrepareOptions{{"x", "out"}});

  Feed<float>("x", {1, 2}, DataType::FLOAT32);
  Feed<bool>("pred", {true}, DataType::BOOL);
  executor_.Run(prepared.get(), &scope_);
  EXPECT_EQ(Read("out"), (std::vector<float>{3, 6}));
  Feed<bool>("pred", {false}, DataType::BOOL);
  executor_.Run(prepared.get(), &scope_);
  EXPECT_EQ(Read("out"), (std::vector<float>{1, 2}));
}

TEST_F(ControlFlowTest, ConditionMustBeOneBool) {
  BuildDoublingLoop();
  program_.MainBlock()->RemoveOps(0, 2);  // c is fed instead
  auto prepared = executor_.Prepare(program_, 0, PrepareOptions{});
  Feed<float>("x", {1, 2, 3}, DataType::FLOAT32);
  Feed<float>("limit", {100}, DataType::FLOAT32);
  Feed<float>("c", {1}, DataType::FLOAT32);
  try {
    executor_.Run(prepared.get(), &scope_);
    FAIL() << "a float condition was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidType);
    EXPECT_NE(std::string(e.what()).find("op 'while' (block 0, op 0)"), std::string::npos);
  }
  Feed<bool>("c", {true, true}, DataType::BOOL);
  try {
    executor_.Run(prepared.get(), &scope_);
    FAIL() << "a condition of two elements was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
  }
}

TEST(ScopeTest, DeleteScopeDestroysOneKid) {
  Scope root;
  Scope& a = root.NewScope();
  Scope& b = root.NewScope();
  b.Var("v");
  root.DeleteScope(&a);
  EXPECT_NE(b.FindVar("v"), nullptr);
  Scope other;
  other.DeleteScope(&b);  // not its kid: nothing happens
  EXPECT_NE(b.FindVar("v"), nullptr);
}

}  // namespace
}  // namespace paddle::framework
