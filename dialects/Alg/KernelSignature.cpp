//===- KernelSignature.cpp ------------------------------------------------===//
#include "dialects/Alg/KernelSignature.h"
#include "dialects/Alg/AlgOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include "llvm/Support/MathExtras.h"

using namespace nautilus;

std::optional<rt::DType> nautilus::dtypeOf(mlir::Type type) {
  if (type.isF16()) return rt::DType::F16;
  if (type.isBF16()) return rt::DType::BF16;
  if (type.isF32()) return rt::DType::F32;
  if (type.isF64()) return rt::DType::F64;
  if (type.isInteger(1)) return rt::DType::Bool;
  if (type.isInteger(8)) return rt::DType::I8;
  if (type.isInteger(32)) return rt::DType::I32;
  if (type.isInteger(64)) return rt::DType::I64;
  return std::nullopt;
}

static std::vector<Dim> toDims(mlir::ArrayAttr attr) {
  std::vector<Dim> dims;
  for (mlir::Attribute a : attr) {
    Dim d;
    if (auto name = mlir::dyn_cast<mlir::StringAttr>(a))
      d.size = name.getValue().str();
    else
      d.literal = mlir::cast<mlir::IntegerAttr>(a).getInt();
    dims.push_back(d);
  }
  return dims;
}

static Param toParam(llvm::StringRef name, mlir::Type type,
                     mlir::ArrayAttr dims) {
  Param p;
  p.name = name.str();
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  p.isScalar = !tensor;
  p.dtype = *dtypeOf(tensor ? tensor.getElementType() : type);
  p.dims = toDims(dims);
  return p;
}

KernelSignature nautilus::getSignature(alg::KernelOp kernel) {
  KernelSignature sig;
  sig.name = kernel.getSymName().str();
  for (mlir::Attribute s : kernel.getSizes())
    sig.sizes.push_back(mlir::cast<mlir::StringAttr>(s).getValue().str());
  if (kernel.getBindings())
    for (mlir::NamedAttribute b : kernel.getBindingsAttr())
      sig.bindings[b.getName().str()] =
          mlir::cast<mlir::IntegerAttr>(b.getValue()).getInt();
  for (auto input : kernel.getBody().getOps<alg::InputOp>())
    sig.inputs.push_back(
        toParam(input.getName(), input.getResult().getType(), input.getDims()));
  for (mlir::Value out : kernel.getReturn().getOutputs()) {
    auto def = out.getDefiningOp<alg::DefineOp>();
    sig.outputs.push_back(
        toParam(def.getName(), out.getType(), def.getDims()));
  }
  // Indirect indices: which input feeds which gathered dimension.
  kernel.walk([&](alg::LoadOp load) {
    mlir::ArrayAttr gatheredDims;
    if (auto in = load.getTensor().getDefiningOp<alg::InputOp>())
      gatheredDims = in.getDims();
    else if (auto def = load.getTensor().getDefiningOp<alg::DefineOp>())
      gatheredDims = def.getDims();
    for (auto [value, position] :
         llvm::zip(load.getIndirect(), load.getIndirectPositions())) {
      // Follow casts back to the load of the index tensor.
      mlir::Value v = value;
      while (mlir::Operation *def = v.getDefiningOp()) {
        if (auto src = mlir::dyn_cast<alg::LoadOp>(def)) {
          if (auto in = src.getTensor().getDefiningOp<alg::InputOp>())
            sig.indexUses.push_back(
                {in.getName().str(), toDims(gatheredDims)[position]});
          break;
        }
        if (def->getNumOperands() != 1)
          break;
        v = def->getOperand(0);
      }
    }
  });
  return sig;
}

std::vector<int64_t> nautilus::shapeOf(const Param &param,
                                       const SizeValues &sizes) {
  std::vector<int64_t> shape;
  for (const Dim &d : param.dims)
    shape.push_back(d.isLiteral() ? d.literal : sizes.at(d.size));
  return shape;
}

std::string nautilus::resolveSizes(
    const KernelSignature &sig, const std::map<std::string, int64_t> &requested,
    const std::vector<const rt::HostTensor *> &inputs, SizeValues &sizes) {
  sizes.clear();
  for (const auto &[name, value] : requested) {
    if (!llvm::is_contained(sig.sizes, name))
      return "--shape names '" + name + "', which is not a size of kernel '" +
             sig.name + "' (" +
             (sig.sizes.empty() ? std::string("it has no sizes")
                                : "its sizes: " + llvm::join(sig.sizes, ", ")) +
             ")";
    sizes[name] = value;
  }
  for (const auto &[name, value] : sig.bindings) {
    auto it = sizes.find(name);
    if (it != sizes.end() && it->second != value)
      return "size " + name + " is bound to " + std::to_string(value) +
             " at compile time but " + std::to_string(it->second) +
             " was requested";
    sizes[name] = value;
  }
  for (size_t i = 0; i < sig.inputs.size() && i < inputs.size(); ++i) {
    const rt::HostTensor *t = inputs[i];
    const Param &p = sig.inputs[i];
    if (!t)
      continue;
    if (t->rank() != p.dims.size())
      return "input '" + p.name + "' must have rank " +
             std::to_string(p.dims.size()) + ", but its shape is " +
             rt::formatShape(t->shape());
    for (size_t d = 0; d < p.dims.size(); ++d) {
      int64_t extent = t->shape()[d];
      const Dim &dim = p.dims[d];
      if (dim.isLiteral()) {
        if (extent != dim.literal)
          return "input '" + p.name + "' dimension " + std::to_string(d) +
                 " must be " + std::to_string(dim.literal) + ", but is " +
                 std::to_string(extent);
        continue;
      }
      auto [it, inserted] = sizes.emplace(dim.size, extent);
      if (!inserted && it->second != extent)
        return "size " + dim.size + " is " + std::to_string(it->second) +
               " but input '" + p.name + "' has " + std::to_string(extent) +
               " in dimension " + std::to_string(d);
    }
  }
  for (const std::string &s : sig.sizes) {
    auto it = sizes.find(s);
    if (it == sizes.end())
      return "size " + s + " of kernel '" + sig.name +
             "' has no value: give it with --shape " + s + "=...";
    if (it->second <= 0)
      return "size " + s + " must be positive, but is " +
             std::to_string(it->second);
  }
  for (const Param &p : llvm::concat<const Param>(sig.inputs, sig.outputs)) {
    if (!rt::shapeNumElements(shapeOf(p, sizes), rt::dtypeSize(p.dtype)))
      return "integer overflow in sizes: tensor '" + p.name + "' of shape " +
             rt::formatShape(shapeOf(p, sizes)) + " has more bytes than fit "
             "in 64 bits";
  }
  return "";
}

std::string nautilus::parseShapeList(const std::string &text,
                                     std::map<std::string, int64_t> &shape) {
  llvm::SmallVector<llvm::StringRef> items;
  llvm::StringRef(text).split(items, ',', -1, /*KeepEmpty=*/false);
  if (items.empty())
    return "--shape needs NAME=VALUE pairs, e.g. --shape M=128,N=64";
  for (llvm::StringRef item : items) {
    auto [name, value] = item.split('=');
    name = name.trim();
    value = value.trim();
    if (name.empty() || value.empty())
      return "--shape: expected NAME=VALUE, found '" + item.str() + "'";
    unsigned long long v = 0;
    if (value.getAsInteger(10, v))
      return "--shape: the value of " + name.str() + " must be a positive "
             "integer, found '" + value.str() + "'";
    if (v == 0 || v > static_cast<unsigned long long>(INT64_MAX))
      return "--shape: " + name.str() + "=" + value.str() +
             " is out of range (integer overflow in sizes: a size must be "
             "between 1 and 2^63-1)";
    shape[name.str()] = static_cast<int64_t>(v);
  }
  return "";
}

std::string
nautilus::formatShapeList(const std::map<std::string, int64_t> &shape) {
  std::string text;
  for (const auto &[name, value] : shape)
    text += (text.empty() ? "" : ",") + name + "=" + std::to_string(value);
  return text;
}
