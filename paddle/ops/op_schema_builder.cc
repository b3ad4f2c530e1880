#include <utility>

#include "paddle/common/errors.h"
#include "paddle/ops/op_schema_table.h"

namespace paddle::ops {

namespace {

// A default of the YAML's integer spelling as the alternative `type_index` of Attribute.
Attribute IntegerAttribute(int type_index, int64_t value) {
  switch (type_index) {
    case AttributeIndex<int32_t>():
      return static_cast<int32_t>(value);
    case AttributeIndex<int64_t>():
      return value;
    case AttributeIndex<Scalar>():
      return Scalar(value);
  }
  PD_INTERNAL_ASSERT(false, "an integer default for attribute alternative ", type_index);
  return Attribute();
}

Attribute FloatingAttribute(int type_index, double value) {
  switch (type_index) {
    case AttributeIndex<float>():
      return static_cast<float>(value);
    case AttributeIndex<double>():
      return value;
    case AttributeIndex<Scalar>():
      return Scalar(value);
  }
  PD_INTERNAL_ASSERT(false, "a floating default for attribute alternative ", type_index);
  return Attribute();
}

}  // namespace

OpSchemaBuilder::OpSchemaBuilder(std::vector<OpSchema>* table, const char* name, const char* family,
                                 int yaml_line)
    : table_(table), index_(table->size()) {
  table->emplace_back();
  OpSchema& s = schema();
  s.name = name;
  s.family = family;
  s.yaml_line = yaml_line;
  s.kernel_name = name;
}

OpSchema& OpSchemaBuilder::schema() { return (*table_)[index_]; }

OpSchemaBuilder& OpSchemaBuilder::Input(const char* name, InputKind kind) {
  schema().inputs.push_back({name, kind});
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Output(const char* name, bool is_list) {
  schema().outputs.push_back({name, is_list});
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Attr(const char* name, const char* type, int type_index) {
  schema().attrs.push_back({name, type, type_index, false, Attribute()});
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Attr(const char* name, const char* type, int type_index,
                                       bool value) {
  schema().attrs.push_back({name, type, type_index, true, Attribute(value)});
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Attr(const char* name, const char* type, int type_index,
                                       int64_t value) {
  schema().attrs.push_back({name, type, type_index, true, IntegerAttribute(type_index, value)});
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Attr(const char* name, const char* type, int type_index,
                                       double value) {
  schema().attrs.push_back({name, type, type_index, true, FloatingAttribute(type_index, value)});
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Attr(const char* name, const char* type, int type_index,
                                       const char* value) {
  Attribute attr;
  if (type_index == AttributeIndex<Place>()) {
    attr = std::string(value) == "cpu" ? Place(CPUPlace()) : Place();
  } else {
    attr = std::string(value);
  }
  schema().attrs.push_back({name, type, type_index, true, std::move(attr)});
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Attr(const char* name, const char* type, int type_index,
                                       DataType value) {
  schema().attrs.push_back({name, type, type_index, true, Attribute(value)});
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Attr(const char* name, const char* type, int type_index,
                                       std::initializer_list<int64_t> value) {
  Attribute attr;
  if (type_index == AttributeIndex<std::vector<int32_t>>()) {
    attr = std::vector<int32_t>(value.begin(), value.end());
  } else {
    attr = std::vector<int64_t>(value);
  }
  schema().attrs.push_back({name, type, type_index, true, std::move(attr)});
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Attr(const char* name, const char* type, int type_index,
                                       std::initializer_list<double> value) {
  Attribute attr;
  if (type_index == AttributeIndex<std::vector<float>>()) {
    attr = std::vector<float>(value.begin(), value.end());
  } else {
    attr = std::vector<double>(value);
  }
  schema().attrs.push_back({name, type, type_index, true, std::move(attr)});
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Attr(const char* name, const char* type, int type_index,
                                       std::initializer_list<const char*> value) {
  schema().attrs.push_back(
      {name, type, type_index, true, std::vector<std::string>(value.begin(), value.end())});
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::InferMeta(InferMetaFn fn, const char* name) {
  schema().infer_meta = fn;
  schema().infer_meta_name = name;
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Kernel(const char* name) {
  schema().kernel_name = name;
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::DataTypeFromInput(int input) {
  schema().data_type_input = input;
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::DataTypeFromAttr(int attr) {
  schema().data_type_input = -1;
  schema().data_type_attr = attr;
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Promote(std::initializer_list<int> inputs) {
  schema().promote.assign(inputs);
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::Inplace(int input, int output) {
  schema().inplace.emplace_back(input, output);
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::View(int input, int output) {
  schema().view.emplace_back(input, output);
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::HiddenFromPython() {
  schema().python_visible = false;
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::LegacyType(const char* type) {
  schema().legacy.type = type;
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::LegacyInput(const char* name, const char* legacy_name) {
  schema().legacy.inputs[name] = legacy_name;
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::LegacyOutput(const char* name, const char* legacy_name) {
  schema().legacy.outputs[name] = legacy_name;
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::LegacyAttr(const char* name, const char* legacy_name) {
  schema().legacy.attrs[name] = legacy_name;
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::LegacyExtraAttr(const char* name, bool value) {
  schema().legacy.extra_attrs[name] = value;
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::LegacyExtraAttr(const char* name, int64_t value) {
  schema().legacy.extra_attrs[name] = static_cast<int32_t>(value);
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::LegacyExtraAttr(const char* name, double value) {
  schema().legacy.extra_attrs[name] = static_cast<float>(value);
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::LegacyExtraAttr(const char* name, const char* value) {
  schema().legacy.extra_attrs[name] = std::string(value);
  return *this;
}

OpSchemaBuilder& OpSchemaBuilder::LegacyExtraAttr(const char* name,
                                                  std::initializer_list<int64_t> value) {
  schema().legacy.extra_attrs[name] = std::vector<int32_t>(value.begin(), value.end());
  return *this;
}

OpCallBuilder::OpCallBuilder(const OpSchema& op) : op_(op) {
  call_.inputs.reserve(op.inputs.size());
  call_.attrs.reserve(op.attrs.size());
}

OpCallBuilder::~OpCallBuilder() = default;

OpCallBuilder& OpCallBuilder::Input(const Tensor& t) {
  call_.inputs.push_back({t});
  return *this;
}

OpCallBuilder& OpCallBuilder::OptionalInput(const Tensor& t) {
  call_.inputs.push_back(t.defined() ? std::vector<Tensor>{t} : std::vector<Tensor>{});
  return *this;
}

OpCallBuilder& OpCallBuilder::InputList(const std::vector<Tensor>& list) {
  call_.inputs.push_back(list);
  return *this;
}

#define PD_OP_CALL_ATTR(Type)                      \
  OpCallBuilder& OpCallBuilder::Attr(Type value) { \
    call_.attrs.emplace_back(value);               \
    return *this;                                  \
  }
PD_OP_CALL_ATTR(bool)
PD_OP_CALL_ATTR(int32_t)
PD_OP_CALL_ATTR(int64_t)
PD_OP_CALL_ATTR(float)
PD_OP_CALL_ATTR(double)
PD_OP_CALL_ATTR(const std::string&)
PD_OP_CALL_ATTR(const std::vector<int32_t>&)
PD_OP_CALL_ATTR(const std::vector<int64_t>&)
PD_OP_CALL_ATTR(const std::vector<float>&)
PD_OP_CALL_ATTR(const std::vector<double>&)
PD_OP_CALL_ATTR(const std::vector<std::string>&)
PD_OP_CALL_ATTR(const Scalar&)
PD_OP_CALL_ATTR(DataType)
PD_OP_CALL_ATTR(const Place&)
#undef PD_OP_CALL_ATTR

OpCallBuilder& OpCallBuilder::SkipOutput(int output) {
  call_.skipped_outputs.resize(op_.outputs.size(), false);
  call_.skipped_outputs[output] = true;
  return *this;
}

OpCallBuilder& OpCallBuilder::Run() {
  result_ = Dispatch(op_, &call_);
  return *this;
}

Tensor OpCallBuilder::Output(int output) { return std::move(result_[output][0]); }

std::vector<Tensor> OpCallBuilder::OutputList(int output) { return std::move(result_[output]); }

void AddBackwardSpec(std::vector<BackwardSpec>* specs, const char* name, const char* forward,
                     GradFn fn, std::initializer_list<bool> save_inputs,
                     std::initializer_list<bool> save_outputs,
                     std::initializer_list<bool> no_need_buffer,
                     std::initializer_list<bool> differentiable, int yaml_line) {
  specs->push_back({name,
                    forward,
                    fn,
                    save_inputs,
                    save_outputs,
                    no_need_buffer,
                    differentiable,
                    yaml_line,
                    {}});
}

void SetSelectedRowsGrad(std::vector<BackwardSpec>* specs, int input, int attr) {
  BackwardSpec& spec = specs->back();
  spec.selected_rows_attr.resize(spec.differentiable.size(), -1);
  spec.selected_rows_attr[input] = attr;
}

}  // namespace paddle::ops
