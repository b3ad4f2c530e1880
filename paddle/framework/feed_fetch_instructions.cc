// feed and fetch: the ops a saved inference program uses to take its inputs from the `feed`
// list variable and put its results into the `fetch` list, each at its `col` attribute.
#include "paddle/common/errors.h"
#include "paddle/framework/instruction.h"
#include "paddle/framework/proto_attribute.h"
#include "paddle/memory/memcpy.h"

namespace paddle::framework {

namespace {

int ColumnOf(const OpDesc& op, const std::string& where) {
  const ProtoAttr* col = op.FindAttr("col");
  PD_CHECK(col != nullptr, errors::InvalidArgument(where, ": attribute 'col' is missing"));
  int value = std::get<int32_t>(FromProtoAttr(*col, AttributeIndex<int32_t>(), where));
  PD_CHECK(value >= 0, errors::InvalidArgument(where, ": attribute 'col' is ", value,
                                               "; expected a non-negative index"));
  return value;
}

class FeedInstruction : public Instruction {
 public:
  FeedInstruction(const OpDesc& op, const PrepareContext& ctx)
      : Instruction(op, DescribeOp(op, ctx)),
        col_(ColumnOf(op, where_)),
        list_name_(SingleName(op.Input("X"), "X", where_)),
        out_name_(SingleName(op.Output("Out"), "Out", where_)) {}

  void Bind(Scope* scope) override {
    list_ = LookUp(scope, "X", list_name_)->tensor_list();
    out_ = scope->Var(out_name_)->tensor();
  }

  void Run() override {
    PD_CHECK(static_cast<size_t>(col_) < list_->size() && (*list_)[col_].initialized(),
             errors::InvalidArgument(where_, ": no data was fed for '", out_name_, "' (column ",
                                     col_, ")"));
    *out_ = (*list_)[col_];
  }

 private:
  int col_;
  std::string list_name_, out_name_;
  std::vector<DenseTensor>* list_ = nullptr;
  DenseTensor* out_ = nullptr;
};

class FetchInstruction : public Instruction {
 public:
  FetchInstruction(const OpDesc& op, const PrepareContext& ctx)
      : Instruction(op, DescribeOp(op, ctx)),
        col_(ColumnOf(op, where_)),
        in_name_(SingleName(op.Input("X"), "X", where_)),
        list_name_(SingleName(op.Output("Out"), "Out", where_)) {}

  void Bind(Scope* scope) override {
    in_ = LookUp(scope, "X", in_name_)->tensor();
    list_ = scope->Var(list_name_)->tensor_list();
  }

  void Run() override {
    PD_CHECK(in_->initialized(), errors::PreconditionNotMet(where_, ": variable '", in_name_,
                                                            "' holds no data to fetch"));
    if (list_->size() <= static_cast<size_t>(col_)) list_->resize(col_ + 1);
    // A copy on the host: the variable's buffer is reused by the next run.
    DenseTensor& out = (*list_)[col_];
    out = DenseTensor(in_->meta());
    out.AllocateStorage(CPUPlace());
    memory::Copy(CPUPlace(), out.raw_data(), in_->place(), in_->raw_data(), in_->nbytes());
  }

 private:
  int col_;
  std::string in_name_, list_name_;
  const DenseTensor* in_ = nullptr;
  std::vector<DenseTensor>* list_ = nullptr;
};

const bool kFeedRegistered = RegisterInstruction(
    "feed", [](const OpDesc& op, const PrepareContext& ctx) -> std::unique_ptr<Instruction> {
      return std::make_unique<FeedInstruction>(op, ctx);
    });
const bool kFetchRegistered = RegisterInstruction(
    "fetch", [](const OpDesc& op, const PrepareContext& ctx) -> std::unique_ptr<Instruction> {
      return std::make_unique<FetchInstruction>(op, ctx);
    });
const bool kFetchV2Registered = RegisterInstruction(
    "fetch_v2", [](const OpDesc& op, const PrepareContext& ctx) -> std::unique_ptr<Instruction> {
      return std::make_unique<FetchInstruction>(op, ctx);
    });

}  // namespace

}  // namespace paddle::framework
