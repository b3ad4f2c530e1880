// paddle._C_ops: one Python function per op in the schema, built at import time. The argument
// parser is generic and schema-driven: inputs then attributes, positionally or by name, with the
// schema's defaults; every conversion error names the op and the argument.
#include <pybind11/stl.h>

#include <limits>
#include <new>

#include "paddle/framework/op_builder.h"
#include "paddle/imperative/autograd_meta.h"
#include "paddle/imperative/eager_dispatch.h"
#include "paddle/kernels/kernel_registry.h"
#include "paddle/pybind/bind.h"

namespace paddle::pybind {

namespace {

[[noreturn]] void ArgTypeError(const ops::OpSchema& op, const std::string& arg,
                               const char* expected, py::handle value) {
  PD_THROW(errors::InvalidType(op.name, "(): argument '", arg, "' must be ", expected, ", not ",
                               std::string(py::str(value.get_type().attr("__name__")))));
}

bool IsInteger(py::handle v) {
  if (PyLong_Check(v.ptr())) return !PyBool_Check(v.ptr());
  // Checked before the __index__ lookup, whose failure costs a Python exception.
  if (PyFloat_Check(v.ptr()) || py::isinstance<Tensor>(v)) return false;
  return py::hasattr(v, "__index__");
}

int64_t ToInt(const ops::OpSchema& op, const std::string& arg, py::handle v) {
  if (PyBool_Check(v.ptr())) return v.ptr() == Py_True ? 1 : 0;
  if (!IsInteger(v)) ArgTypeError(op, arg, "an int", v);
  py::int_ number(py::reinterpret_borrow<py::object>(v));
  int overflow = 0;
  long long value = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  PD_CHECK(overflow == 0,
           errors::InvalidArgument(op.name, "(): argument '", arg, "' must fit in int64, received ",
                                   std::string(py::str(number))));
  return value;
}

int32_t ToInt32(const ops::OpSchema& op, const std::string& arg, py::handle v) {
  int64_t value = ToInt(op, arg, v);
  PD_CHECK(
      value >= std::numeric_limits<int32_t>::min() && value <= std::numeric_limits<int32_t>::max(),
      errors::InvalidArgument(op.name, "(): argument '", arg, "' must fit in int32, received ",
                              value));
  return static_cast<int32_t>(value);
}

double ToFloat(const ops::OpSchema& op, const std::string& arg, py::handle v) {
  // Python floats, the common case, skip the generic conversion below.
  if (PyFloat_CheckExact(v.ptr())) return PyFloat_AS_DOUBLE(v.ptr());
  if (PyFloat_Check(v.ptr()) || IsInteger(v) || PyBool_Check(v.ptr()) ||
      py::hasattr(v, "__float__")) {
    if (py::isinstance<Tensor>(v)) ArgTypeError(op, arg, "a number", v);
    return py::float_(py::reinterpret_borrow<py::object>(v)).cast<double>();
  }
  ArgTypeError(op, arg, "a number", v);
}

template <typename T, typename Convert>
std::vector<T> ToList(const ops::OpSchema& op, const std::string& arg, py::handle v,
                      Convert convert) {
  std::vector<T> out;
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    for (py::handle item : v) out.push_back(static_cast<T>(convert(op, arg, item)));
  } else {
    out.push_back(static_cast<T>(convert(op, arg, v)));  // a single value is a list of one
  }
  return out;
}

Attribute ToAttribute(const ops::OpSchema& op, const ops::OpAttr& attr, py::handle v) {
  const std::string& name = attr.name;
  switch (attr.type_index) {
    case 0:
      if (!PyBool_Check(v.ptr()) && !IsInteger(v)) ArgTypeError(op, name, "a bool", v);
      return py::bool_(py::reinterpret_borrow<py::object>(v)).cast<bool>();
    case 1:
      return ToInt32(op, name, v);
    case 2:
      return ToInt(op, name, v);
    case 3:
      return static_cast<float>(ToFloat(op, name, v));
    case 4:
      return ToFloat(op, name, v);
    case 5:
      if (!py::isinstance<py::str>(v)) ArgTypeError(op, name, "a str", v);
      return v.cast<std::string>();
    case 6:
      return ToList<int32_t>(op, name, v, ToInt32);
    case 7:
      return ToList<int64_t>(op, name, v, ToInt);
    case 8:
      return ToList<float>(op, name, v, ToFloat);
    case 9:
      return ToList<double>(op, name, v, ToFloat);
    case 10:
      return ToList<std::string>(op, name, v,
                                 [](const ops::OpSchema& o, const std::string& a, py::handle item) {
                                   if (!py::isinstance<py::str>(item))
                                     ArgTypeError(o, a, "a list of str", item);
                                   return item.cast<std::string>();
                                 });
    case 11:
      if (PyBool_Check(v.ptr())) return Scalar(v.ptr() == Py_True);
      if (IsInteger(v)) return Scalar(ToInt(op, name, v));
      return Scalar(ToFloat(op, name, v));
    case 12:
      if (py::isinstance<DataType>(v)) return v.cast<DataType>();
      if (py::isinstance<py::str>(v)) return DataTypeFromName(v.cast<std::string>());
      ArgTypeError(op, name, "a paddle dtype or its name", v);
    case 13:
      return PlaceFromPy(v);
  }
  PD_THROW(errors::Unimplemented(op.name, "(): attribute type ", attr.type, " of '", name,
                                 "' cannot be passed from Python"));
}

std::vector<Tensor> ToInput(const ops::OpSchema& op, const ops::OpInput& input, py::handle v) {
  switch (input.kind) {
    case ops::InputKind::kTensor:
      if (!py::isinstance<Tensor>(v)) ArgTypeError(op, input.name, "a Tensor", v);
      return {v.cast<Tensor>()};
    case ops::InputKind::kOptional:
      if (v.is_none()) return {};
      if (!py::isinstance<Tensor>(v)) ArgTypeError(op, input.name, "a Tensor or None", v);
      return {v.cast<Tensor>()};
    case ops::InputKind::kList: {
      if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v)) {
        ArgTypeError(op, input.name, "a list of Tensors", v);
      }
      std::vector<Tensor> list;
      for (py::handle item : v) {
        if (!py::isinstance<Tensor>(item)) ArgTypeError(op, input.name, "a list of Tensors", item);
        list.push_back(item.cast<Tensor>());
      }
      return list;
    }
  }
  return {};
}

// Static-graph mode (paddle.enable_static): op calls append ops to the current block instead
// of running.
bool g_static_mode = false;

// The variables of an input, which must belong to `program` (the one being built).
std::vector<framework::VarDesc*> ToStaticInput(const ops::OpSchema& op, const ops::OpInput& input,
                                               py::handle v, py::handle program) {
  static py::handle variable_class =
      py::object(py::module_::import("paddle.static.program").attr("Variable")).release();
  auto as_var = [&](py::handle item, const char* expected) {
    if (!py::isinstance(item, variable_class)) ArgTypeError(op, input.name, expected, item);
    PD_CHECK(item.attr("block").attr("program").ptr() == program.ptr(),
             errors::InvalidArgument(
                 op.name, "(): argument '", input.name, "' is Variable '",
                 item.attr("name").cast<std::string>(),
                 "' of another program; an op can only use variables of the program it is "
                 "added to"));
    return item.attr("desc").cast<framework::VarDesc*>();
  };
  switch (input.kind) {
    case ops::InputKind::kTensor:
      return {as_var(v, "a static Variable")};
    case ops::InputKind::kOptional:
      if (v.is_none()) return {};
      return {as_var(v, "a static Variable or None")};
    case ops::InputKind::kList: {
      if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v)) {
        ArgTypeError(op, input.name, "a list of static Variables", v);
      }
      std::vector<framework::VarDesc*> list;
      for (py::handle item : v) list.push_back(as_var(item, "a list of static Variables"));
      return list;
    }
  }
  return {};
}

py::object StaticCall(const ops::OpSchema& op, bool inplace, std::vector<py::handle> values,
                      std::vector<Attribute> attrs) {
  static py::handle program_module = py::module_::import("paddle.static.program").release();
  py::object program = program_module.attr("default_main_program")();
  py::object block = program.attr("current_block")();
  framework::StaticOpCall call;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    call.inputs.push_back(values[i] ? ToStaticInput(op, op.inputs[i], values[i], program)
                                    : std::vector<framework::VarDesc*>{});
  }
  call.attrs = std::move(attrs);
  py::object make_name = program_module.attr("_unique_tmp_name");
  framework::AppendedOp appended = framework::AppendSchemaOp(
      block.attr("desc").cast<framework::BlockDesc*>(), op, std::move(call), inplace,
      [&](const std::string& key) { return make_name(key).cast<std::string>(); });
  py::list outputs = block.attr("_register_appended_op")(
      py::cast(appended.op, py::return_value_policy::reference),
      py::cast(appended.outputs, py::return_value_policy::reference));
  auto to_py = [&](size_t k) -> py::object {
    if (op.outputs[k].is_list) return outputs[k];
    return py::reinterpret_borrow<py::list>(outputs[k])[0];
  };
  if (outputs.size() == 1) return to_py(0);
  py::tuple out(outputs.size());
  for (size_t k = 0; k < outputs.size(); ++k) out[k] = to_py(k);
  return out;
}

py::object CallUnchecked(const ops::OpSchema& op, bool inplace, const py::args& args,
                         const py::kwargs& kwargs);

// Every op call from Python: a std::bad_alloc from a container (not the allocators, which raise
// ResourceExhausted themselves) becomes a MemoryError that names the op, not an empty one.
py::object Call(const ops::OpSchema& op, bool inplace, const py::args& args,
                const py::kwargs& kwargs) {
  try {
    return CallUnchecked(op, inplace, args, kwargs);
  } catch (const std::bad_alloc&) {
    PD_THROW(errors::ResourceExhausted(op.name, ": out of host memory"));
  }
}

py::object CallUnchecked(const ops::OpSchema& op, bool inplace, const py::args& args,
                         const py::kwargs& kwargs) {
  size_t n_inputs = op.inputs.size();
  size_t n_total = n_inputs + op.attrs.size();
  // The name the user called, for error messages only (built on failure, off the hot path).
  auto call_name = [&]() { return inplace ? op.name + "_" : op.name; };
  PD_CHECK(args.size() <= n_total, errors::InvalidType(call_name(), "() takes at most ", n_total,
                                                       " arguments (", args.size(), " given)"));
  std::vector<py::handle> values(n_total);
  for (size_t i = 0; i < args.size(); ++i) values[i] = args[i];
  for (auto item : kwargs) {
    std::string key = item.first.cast<std::string>();
    size_t index = n_total;
    for (size_t i = 0; i < n_inputs; ++i) {
      if (op.inputs[i].name == key) index = i;
    }
    for (size_t j = 0; j < op.attrs.size(); ++j) {
      if (op.attrs[j].name == key) index = n_inputs + j;
    }
    PD_CHECK(index < n_total,
             errors::InvalidType(call_name(), "() got an unexpected keyword argument '", key, "'"));
    PD_CHECK(!values[index],
             errors::InvalidType(call_name(), "() got multiple values for argument '", key, "'"));
    values[index] = item.second;
  }

  // The dispatcher records an in-place write on the autograd meta of the tensor written; the
  // tensor it holds is a copy of the Python object's, so a meta it created would be the copy's
  // alone. Creating it here, on the Python object, makes the two share it.
  if (inplace) {
    for (const auto& pair : op.inplace) {
      py::handle v = values[pair.first];
      if (v && py::isinstance<Tensor>(v)) imperative::EnsureAutogradMeta(&v.cast<Tensor&>());
    }
  }

  ops::OpCall call;
  for (size_t i = 0; i < n_inputs; ++i) {
    PD_CHECK(
        values[i] || op.inputs[i].kind == ops::InputKind::kOptional,
        errors::InvalidType(call_name(), "() missing required argument '", op.inputs[i].name, "'"));
  }
  if (!g_static_mode) {
    call.inputs.reserve(n_inputs);
    for (size_t i = 0; i < n_inputs; ++i) {
      call.inputs.push_back(values[i] ? ToInput(op, op.inputs[i], values[i])
                                      : std::vector<Tensor>{});
    }
  }
  call.attrs.reserve(op.attrs.size());
  for (size_t j = 0; j < op.attrs.size(); ++j) {
    const ops::OpAttr& attr = op.attrs[j];
    py::handle v = values[n_inputs + j];
    if (!v || (v.is_none() && attr.has_default)) {
      PD_CHECK(attr.has_default,
               errors::InvalidType(call_name(), "() missing required argument '", attr.name, "'"));
      call.attrs.push_back(attr.default_value);
    } else {
      call.attrs.push_back(ToAttribute(op, attr, v));
    }
  }

  if (g_static_mode) return StaticCall(op, inplace, std::move(values), std::move(call.attrs));

  ops::OpResult result =
      inplace ? imperative::EagerDispatchInplace(op, &call) : ops::Dispatch(op, &call);
  auto to_py = [&](size_t k) -> py::object {
    if (op.outputs[k].is_list) return py::cast(result[k]);
    // An absent optional output (its optional input was not given) is None.
    if (!result[k][0].defined()) return py::none();
    return py::cast(std::move(result[k][0]));
  };
  if (result.size() == 1) return to_py(0);
  py::tuple out(result.size());
  for (size_t k = 0; k < result.size(); ++k) out[k] = to_py(k);
  return out;
}

py::list OpRegistryInfo() {
  py::list rows;
  for (const ops::OpSchema& op : ops::AllOps()) {
    py::dict row;
    row["name"] = op.name;
    const KernelTable* kernels = KernelRegistry::Instance().Find(op.kernel_name);
    py::list cpu, gpu;
    if (kernels != nullptr) {
      for (DataType t : kernels->DataTypes(Backend::CPU)) cpu.append(DataTypeName(t));
      for (DataType t : kernels->DataTypes(Backend::GPU)) gpu.append(DataTypeName(t));
    }
    row["cpu"] = cpu;
    row["gpu"] = gpu;
    row["backward"] = op.backward != nullptr;
    row["python"] = op.python_visible;
    row["inplace"] = !op.inplace.empty();
    row["legacy_type"] = op.legacy.type;
    rows.append(row);
  }
  return rows;
}

}  // namespace

void BindOps(py::module_& m) {
  py::module_ c_ops = m.def_submodule("_C_ops", "One function per op of the schema");
  for (const ops::OpSchema& op : ops::AllOps()) {
    if (!op.python_visible) continue;
    const ops::OpSchema* schema = &op;
    c_ops.def(op.name.c_str(), [schema](const py::args& args, const py::kwargs& kwargs) {
      return Call(*schema, false, args, kwargs);
    });
    if (!op.inplace.empty()) {
      c_ops.def((op.name + "_").c_str(), [schema](const py::args& args, const py::kwargs& kwargs) {
        return Call(*schema, true, args, kwargs);
      });
    }
  }
  m.def("_op_registry_info", &OpRegistryInfo);
  m.def("_set_static_mode", [](bool on) { g_static_mode = on; });
  m.def("_in_static_mode", []() { return g_static_mode; });
}

}  // namespace paddle::pybind
