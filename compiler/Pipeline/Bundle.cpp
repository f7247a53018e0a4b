//===- Bundle.cpp - A compiled kernel program as one file -----------------===//
#include "compiler/Pipeline/Bundle.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace nautilus;

static llvm::json::Array dimsJson(const std::vector<rt::Dim> &dims) {
  llvm::json::Array out;
  for (const rt::Dim &d : dims) {
    if (d.isLiteral())
      out.push_back(d.literal);
    else
      out.push_back(d.size);
  }
  return out;
}

std::string nautilus::writeBundle(const rt::LaunchPlan &plan,
                                  const std::string &target,
                                  const std::string &chip,
                                  const std::string &ptx) {
  static const char *const roles[] = {"input", "output", "workspace", "scalar"};
  llvm::json::Object bindings;
  for (const auto &[name, value] : plan.bindings)
    bindings[name] = value;
  llvm::json::Array sizes, buffers, programs, derived;
  for (const std::string &s : plan.sizes)
    sizes.push_back(s);
  for (const rt::DerivedSize &d : plan.derivedSizes) {
    llvm::json::Array terms;
    for (const rt::DerivedSize::Term &t : d.terms) {
      llvm::json::Array factors;
      for (const std::string &f : t.factors)
        factors.push_back(f);
      terms.push_back(llvm::json::Object{{"coefficient", t.coefficient},
                                         {"factors", std::move(factors)}});
    }
    derived.push_back(
        llvm::json::Object{{"name", d.name}, {"terms", std::move(terms)}});
  }
  for (const rt::BufferDesc &b : plan.buffers)
    buffers.push_back(llvm::json::Object{
        {"name", b.name},
        {"role", roles[static_cast<int>(b.role)]},
        {"dtype", rt::dtypeName(b.dtype)},
        {"dims", dimsJson(b.dims)}});
  for (const rt::ProgramDesc &p : plan.programs) {
    llvm::json::Array maps, tile;
    for (const rt::TensorMapDesc &m : p.tensorMaps) {
      llvm::json::Array box;
      for (int64_t b : m.box)
        box.push_back(b);
      maps.push_back(llvm::json::Object{{"buffer", m.buffer},
                                        {"box", std::move(box)},
                                        {"swizzle_bytes", m.swizzleBytes}});
    }
    for (int64_t t : p.tile)
      tile.push_back(t);
    programs.push_back(llvm::json::Object{
        {"name", p.name},
        {"output_dims", dimsJson(p.outputDims)},
        {"tile", std::move(tile)},
        {"threads", p.threads},
        {"dynamic_shared_bytes", p.dynamicSharedBytes},
        {"persistent", p.persistent},
        {"tensor_maps", std::move(maps)}});
  }
  llvm::json::Object bundle{{"format", "nautilus-bundle-1"},
                            {"kernel", plan.kernel},
                            {"target", target},
                            {"chip", chip},
                            {"sizes", std::move(sizes)},
                            {"bindings", std::move(bindings)},
                            {"derived_sizes", std::move(derived)},
                            {"buffers", std::move(buffers)},
                            {"programs", std::move(programs)},
                            {"ptx", ptx}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(bundle))) << "\n";
  return text;
}
