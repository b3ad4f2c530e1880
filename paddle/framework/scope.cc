#include "paddle/framework/scope.h"

#include <algorithm>
#include <atomic>

namespace paddle::framework {

Scope::Scope() {
  static std::atomic<uint64_t> next_id{1};
  id_ = next_id++;
}

uint64_t Scope::BindingVersion() const {
  uint64_t version = 0;
  for (const Scope* s = this; s != nullptr; s = s->parent_) version += s->erase_count_;
  return version;
}

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
  ++erase_count_;
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
  ForgetStepScopes(kid);
  kids_.remove_if([kid](const std::unique_ptr<Scope>& s) { return s.get() == kid; });
}

void Scope::DropKids() {
  ForgetStepScopes(nullptr);
  kids_.clear();
}

void Scope::ForgetStepScopes(const Scope* kid) {
  for (auto& [name, var] : vars_) {
    std::vector<Scope*>* kept = var->step_scopes();
    kept->erase(std::remove_if(kept->begin(), kept->end(),
                               [kid](Scope* s) { return kid == nullptr || s == kid; }),
                kept->end());
  }
}

}  // namespace paddle::framework
