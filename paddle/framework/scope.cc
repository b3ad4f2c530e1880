#include "paddle/framework/scope.h"

#include <algorithm>

namespace paddle::framework {

Variable* Scope::Var(const std::string& name) {
  std::unique_ptr<Variable>& slot = vars_[name];
  if (!slot) slot = std::make_unique<Variable>();
  return slot.get();
}

Variable* Scope::FindVar(const std::string& name) const {
  for (const Scope* s = this; s != nullptr; s = s->parent_) {
    if (Variable* v = s->FindLocalVar(name)) return v;
  }
  return nullptr;
}

Variable* Scope::FindLocalVar(const std::string& name) const {
  auto it = vars_.find(name);
  return it == vars_.end() ? nullptr : it->second.get();
}

void Scope::EraseVars(const std::vector<std::string>& names) {
  for (const std::string& name : names) vars_.erase(name);
}

std::vector<std::string> Scope::LocalVarNames() const {
  std::vector<std::string> names;
  names.reserve(vars_.size());
  for (const auto& [name, var] : vars_) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

Scope& Scope::NewScope() {
  kids_.push_back(std::make_unique<Scope>());
  kids_.back()->parent_ = this;
  return *kids_.back();
}

void Scope::DeleteScope(Scope* kid) {
  kids_.remove_if([kid](const std::unique_ptr<Scope>& s) { return s.get() == kid; });
}

void Scope::DropKids() { kids_.clear(); }

}  // namespace paddle::framework
