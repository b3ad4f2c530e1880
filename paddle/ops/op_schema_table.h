// What the generated glue (one unit per op family, and op_families.cc) is written against: the
// builders of the schema tables and of op calls, and the table builders only op_schema.cc calls.
//
// Every builder method is out of line (op_schema_builder.cc). A generated unit then compiles to
// plain calls with literal arguments, and the attribute variant and the containers of OpSchema
// are instantiated once, not once per family (which cost about two seconds per unit).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "paddle/ops/op_schema.h"

namespace paddle::ops {

// Appends one OpSchema to a table and fills it, one call per YAML fact.
class OpSchemaBuilder {
 public:
  OpSchemaBuilder(std::vector<OpSchema>* table, const char* name, const char* family,
                  int yaml_line);

  OpSchemaBuilder& Input(const char* name, InputKind kind);
  OpSchemaBuilder& Output(const char* name, bool is_list);
  // An attribute without a default, or with one. `type_index` is the Attribute alternative it
  // holds; the default is converted to it (an int64_t for the integer and Scalar types, a double
  // for the floating ones, a string for str and for Place, "cpu" or "undefined").
  OpSchemaBuilder& Attr(const char* name, const char* type, int type_index);
  OpSchemaBuilder& Attr(const char* name, const char* type, int type_index, bool value);
  OpSchemaBuilder& Attr(const char* name, const char* type, int type_index, int64_t value);
  OpSchemaBuilder& Attr(const char* name, const char* type, int type_index, double value);
  OpSchemaBuilder& Attr(const char* name, const char* type, int type_index, const char* value);
  OpSchemaBuilder& Attr(const char* name, const char* type, int type_index, DataType value);
  OpSchemaBuilder& Attr(const char* name, const char* type, int type_index,
                        std::initializer_list<int64_t> value);
  OpSchemaBuilder& Attr(const char* name, const char* type, int type_index,
                        std::initializer_list<double> value);
  OpSchemaBuilder& Attr(const char* name, const char* type, int type_index,
                        std::initializer_list<const char*> value);
  OpSchemaBuilder& InferMeta(InferMetaFn fn, const char* name);
  OpSchemaBuilder& Kernel(const char* name);
  OpSchemaBuilder& DataTypeFromInput(int input);
  OpSchemaBuilder& DataTypeFromAttr(int attr);
  OpSchemaBuilder& Promote(std::initializer_list<int> inputs);
  OpSchemaBuilder& Inplace(int input, int output);
  OpSchemaBuilder& View(int input, int output);
  OpSchemaBuilder& HiddenFromPython();
  OpSchemaBuilder& LegacyType(const char* type);
  OpSchemaBuilder& LegacyInput(const char* name, const char* legacy_name);
  OpSchemaBuilder& LegacyOutput(const char* name, const char* legacy_name);
  OpSchemaBuilder& LegacyAttr(const char* name, const char* legacy_name);
  // A fixed attribute Paddle's op type carries: bools, int32 (from int64_t), float (from double),
  // str and int32 lists, as framework.proto stores them.
  OpSchemaBuilder& LegacyExtraAttr(const char* name, bool value);
  OpSchemaBuilder& LegacyExtraAttr(const char* name, int64_t value);
  OpSchemaBuilder& LegacyExtraAttr(const char* name, double value);
  OpSchemaBuilder& LegacyExtraAttr(const char* name, const char* value);
  OpSchemaBuilder& LegacyExtraAttr(const char* name, std::initializer_list<int64_t> value);

 private:
  OpSchema& schema();

  std::vector<OpSchema>* table_;
  size_t index_;
};

// One call of an op through the dispatcher, for the generated C++ op API: inputs and attributes
// in schema order, then Run() and the outputs.
class OpCallBuilder {
 public:
  explicit OpCallBuilder(const OpSchema& op);
  ~OpCallBuilder();
  OpCallBuilder(const OpCallBuilder&) = delete;
  OpCallBuilder& operator=(const OpCallBuilder&) = delete;

  OpCallBuilder& Input(const Tensor& t);
  OpCallBuilder& OptionalInput(const Tensor& t);  // an undefined tensor is an absent input
  OpCallBuilder& InputList(const std::vector<Tensor>& list);
  OpCallBuilder& Attr(bool value);
  OpCallBuilder& Attr(int32_t value);
  OpCallBuilder& Attr(int64_t value);
  OpCallBuilder& Attr(float value);
  OpCallBuilder& Attr(double value);
  OpCallBuilder& Attr(const std::string& value);
  OpCallBuilder& Attr(const std::vector<int32_t>& value);
  OpCallBuilder& Attr(const std::vector<int64_t>& value);
  OpCallBuilder& Attr(const std::vector<float>& value);
  OpCallBuilder& Attr(const std::vector<double>& value);
  OpCallBuilder& Attr(const std::vector<std::string>& value);
  OpCallBuilder& Attr(const Scalar& value);
  OpCallBuilder& Attr(DataType value);
  OpCallBuilder& Attr(const Place& value);
  // Leaves output `output` uncomputed (OpCall::skipped_outputs).
  OpCallBuilder& SkipOutput(int output);
  OpCallBuilder& Run();
  Tensor Output(int output);
  std::vector<Tensor> OutputList(int output);

 private:
  const OpSchema& op_;
  OpCall call_;
  OpResult result_;
};

struct BackwardSpec {
  std::string name;
  std::string forward;
  GradFn fn;
  std::vector<bool> save_inputs;
  std::vector<bool> save_outputs;
  std::vector<bool> no_need_buffer;
  std::vector<bool> differentiable;
  int yaml_line;
  std::vector<int> selected_rows_attr;  // empty: no gradient is ever a SelectedRows
};

void AddBackwardSpec(std::vector<BackwardSpec>* specs, const char* name, const char* forward,
                     GradFn fn, std::initializer_list<bool> save_inputs,
                     std::initializer_list<bool> save_outputs,
                     std::initializer_list<bool> no_need_buffer,
                     std::initializer_list<bool> differentiable, int yaml_line);
// Declares, for the backward just added, that the gradient of forward input `input` is a
// SelectedRows when the forward's bool attribute `attr` is true.
void SetSelectedRowsGrad(std::vector<BackwardSpec>* specs, int input, int attr);

// The tables over every family (generated, op_families.cc); only op_schema.cc calls them.
std::vector<OpSchema> BuildOpSchemas();
std::vector<BackwardSpec> BuildBackwardSpecs();

}  // namespace paddle::ops
