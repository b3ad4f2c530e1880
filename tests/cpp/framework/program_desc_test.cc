// ProgramDesc/BlockDesc/OpDesc/VarDesc: structure, Paddle's serialisation order, parsing checks
// and attribute conversion.
#include <gtest/gtest.h>

#include "paddle/common/errors.h"
#include "paddle/framework/program_desc.h"
#include "paddle/framework/proto_attribute.h"

namespace paddle::framework {
namespace {

TEST(ProgramDescTest, BlocksVarsAndOpsRoundTrip) {
  ProgramDesc program;
  BlockDesc* main = program.MainBlock();
  VarDesc* x = main->Var("x");
  x->set_shape({-1, 4});
  x->set_dtype(DataType::FLOAT64);
  x->set_stop_gradient(true);
  VarDesc* w = main->Var("w");
  w->set_persistable(true);
  w->set_is_parameter(true);
  OpDesc* op = main->AppendOp();
  op->set_type("matmul_v2");
  op->SetInput("Y", {"w"});
  op->SetInput("X", {"x"});
  op->SetOutput("Out", {"out"});
  op->SetAttr(*ToProtoAttr("trans_y", Attribute(true)));
  op->SetAttr(*ToProtoAttr("trans_x", Attribute(false)));
  BlockDesc* sub = program.AppendBlock(*main);
  EXPECT_EQ(sub->idx(), 1);
  EXPECT_EQ(sub->parent(), main);
  EXPECT_EQ(sub->FindVarRecursive("w"), w);
  EXPECT_EQ(sub->FindVar("w"), nullptr);

  // Slots and attributes are written sorted by name, as PaddlePaddle writes them.
  EXPECT_EQ(op->InputSlots(), (std::vector<std::string>{"X", "Y"}));
  EXPECT_EQ(op->AttrNames(), (std::vector<std::string>{"trans_x", "trans_y"}));

  std::string bytes = program.Serialize();
  std::unique_ptr<ProgramDesc> parsed = ProgramDesc::Parse(bytes, "bytes");
  ASSERT_EQ(parsed->Size(), 2u);
  EXPECT_EQ(parsed->Serialize(), bytes);
  const VarDesc* px = parsed->MainBlock()->FindVar("x");
  ASSERT_NE(px, nullptr);
  EXPECT_EQ(px->shape(), (std::vector<int64_t>{-1, 4}));
  EXPECT_EQ(px->dtype(), DataType::FLOAT64);
  EXPECT_TRUE(parsed->MainBlock()->FindVar("w")->is_parameter());
  EXPECT_EQ(parsed->MainBlock()->Op(0)->Input("Y"), (std::vector<std::string>{"w"}));
  ProgramDesc copy(*parsed);
  EXPECT_EQ(copy.Serialize(), bytes);
}

// A renamed variable keeps its description and is renamed in the ops that see it: those of its
// block and of sub-blocks that do not have a variable of the old name of their own.
TEST(ProgramDescTest, RenameVarRenamesItInTheOpsThatSeeIt) {
  ProgramDesc program;
  BlockDesc* main = program.MainBlock();
  VarDesc* x = main->Var("x");
  main->Var("y");
  OpDesc* op = main->AppendOp();
  op->SetInput("X", {"x"});
  op->SetOutput("Out", {"y"});
  BlockDesc* sees = program.AppendBlock(*main);
  sees->AppendOp()->SetInput("X", {"x"});
  BlockDesc* shadows = program.AppendBlock(*main);
  shadows->Var("x");
  shadows->AppendOp()->SetInput("X", {"x"});

  main->RenameVar("x", "input");
  EXPECT_EQ(main->FindVar("input"), x);
  EXPECT_EQ(x->name(), "input");
  EXPECT_EQ(main->FindVar("x"), nullptr);
  EXPECT_EQ(op->Input("X"), (std::vector<std::string>{"input"}));
  EXPECT_EQ(sees->Op(0)->Input("X"), (std::vector<std::string>{"input"}));
  EXPECT_EQ(shadows->Op(0)->Input("X"), (std::vector<std::string>{"x"}));
  EXPECT_THROW(main->RenameVar("input", "y"), Error);
  EXPECT_THROW(main->RenameVar("missing", "z"), Error);
}

TEST(ProgramDescTest, RevisionCountsStructuralChanges) {
  ProgramDesc program;
  uint64_t start = program.revision();
  program.MainBlock()->Var("a");
  program.MainBlock()->AppendOp();
  EXPECT_EQ(program.revision(), start + 2);
  program.MainBlock()->Var("a");  // existing: no change
  EXPECT_EQ(program.revision(), start + 2);
}

TEST(ProgramDescTest, ParseRejectsBadBytesAndStructure) {
  EXPECT_THROW(ProgramDesc::Parse("\xff\xff\xff not a program", "m.pdmodel"), Error);
  proto::ProgramDesc empty;
  std::string bytes;
  empty.SerializeToString(&bytes);
  try {
    ProgramDesc::Parse(bytes, "m.pdmodel");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("m.pdmodel"), std::string::npos);
  }
  proto::ProgramDesc bad_parent;
  auto* b0 = bad_parent.add_blocks();
  b0->set_idx(0);
  b0->set_parent_idx(-1);
  auto* b1 = bad_parent.add_blocks();
  b1->set_idx(1);
  b1->set_parent_idx(5);
  bad_parent.SerializeToString(&bytes);
  EXPECT_THROW(ProgramDesc::Parse(bytes, "m.pdmodel"), Error);

  proto::ProgramDesc bad_sub_block;
  auto* only = bad_sub_block.add_blocks();
  only->set_idx(0);
  only->set_parent_idx(-1);
  auto* op = only->add_ops();
  op->set_type("conditional_block");
  auto* attr = op->add_attrs();
  attr->set_name("sub_block");
  attr->set_type(proto::BLOCK);
  attr->set_block_idx(3);
  bad_sub_block.SerializeToString(&bytes);
  EXPECT_THROW(ProgramDesc::Parse(bytes, "m.pdmodel"), Error);
}

TEST(ProtoAttributeTest, WritesPaddleTypesAndReadsAnyNumericEncoding) {
  EXPECT_EQ(ToProtoAttr("a", Attribute(int64_t{3}))->type(), proto::INT);
  EXPECT_EQ(ToProtoAttr("a", Attribute(int64_t{1} << 40))->type(), proto::LONG);
  EXPECT_EQ(ToProtoAttr("a", Attribute(2.5))->type(), proto::FLOAT);
  EXPECT_EQ(ToProtoAttr("a", Attribute(std::vector<int64_t>{1, -1}))->type(), proto::INTS);
  EXPECT_EQ(ToProtoAttr("a", Attribute(DataType::FLOAT32))->i(), proto::VarType::FP32);
  EXPECT_EQ(ToProtoAttr("a", Attribute(DataType::UNDEFINED))->i(), -1);
  EXPECT_FALSE(ToProtoAttr("place", Attribute(CPUPlace())).has_value());

  ProtoAttr ints = *ToProtoAttr("shape", Attribute(std::vector<int32_t>{2, 3}));
  EXPECT_EQ(std::get<std::vector<int64_t>>(FromProtoAttr(ints, 7, "op")),
            (std::vector<int64_t>{2, 3}));
  ProtoAttr f = *ToProtoAttr("scale", Attribute(0.5f));
  EXPECT_EQ(std::get<double>(FromProtoAttr(f, 4, "op")), 0.5);
  EXPECT_EQ(std::get<Scalar>(FromProtoAttr(f, 11, "op")).to<double>(), 0.5);
  ProtoAttr dtype = *ToProtoAttr("dtype", Attribute(DataType::INT64));
  EXPECT_EQ(std::get<DataType>(FromProtoAttr(dtype, 12, "op")), DataType::INT64);
  ProtoAttr s = *ToProtoAttr("name", Attribute(std::string("x")));
  try {
    FromProtoAttr(s, 1, "op 'relu'");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("op 'relu'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("'name'"), std::string::npos);
  }
}

}  // namespace
}  // namespace paddle::framework
