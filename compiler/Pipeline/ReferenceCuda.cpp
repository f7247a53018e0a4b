//===- ReferenceCuda.cpp - Plain CUDA C++ reference kernels ---------------===//
//
// The program half of the reference (ReferenceCuda.h): the buffers, one
// kernel a definition (its thread's element, the fold, the epilogue, the
// store), the host launchers and the comment that documents the launch
// order. The statements are ReferenceCudaBody's.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline/ReferenceCuda.h"
#include "compiler/Pipeline/ReferenceCudaBody.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/STLExtras.h"

#include <set>

using namespace mlir;
using namespace nautilus;

std::string nautilus::referenceBuffers(
    const ReferenceProgram &p, const SizeValues &sizes,
    const std::vector<rt::HostTensor> &inputs,
    std::vector<rt::HostTensor> &buffers) {
  buffers.assign(p.buffers.size(), rt::HostTensor());
  size_t next = 0;
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    std::vector<int64_t> shape;
    for (const Dim &d : p.buffers[b].dims)
      shape.push_back(rt::extentOf(d, sizes));
    if (p.buffers[b].role != ReferenceBuffer::Role::Input) {
      buffers[b] = rt::HostTensor::zeros(p.buffers[b].dtype, shape);
      continue;
    }
    if (next >= inputs.size() || inputs[next].dtype() != p.buffers[b].dtype ||
        int64_t(inputs[next].numElements()) != p.elements(b, sizes))
      return "the reference takes input '" + p.buffers[b].name + "' as " +
             rt::dtypeName(p.buffers[b].dtype) + rt::formatShape(shape);
    buffers[b] = inputs[next++];
  }
  return "";
}

std::vector<long long>
nautilus::referenceSizeValues(const ReferenceProgram &p,
                              const SizeValues &sizes) {
  std::vector<long long> values;
  for (const std::string &size : p.sizes)
    values.push_back(sizes.at(size));
  return values;
}

int64_t ReferenceProgram::elements(unsigned b, const SizeValues &sizes) const {
  int64_t n = 1;
  for (const Dim &d : buffers[b].dims)
    n *= rt::extentOf(d, sizes);
  return n;
}

int64_t ReferenceProgram::blocks(const ReferenceLaunch &launch,
                                 const SizeValues &sizes) const {
  int64_t n = elements(launch.buffers.back(), sizes);
  return (n + kBlockThreads - 1) / kBlockThreads;
}

std::string nautilus::referenceArchitecture(llvm::StringRef chip) {
  llvm::StringRef digits = chip.drop_front(chip.find_first_of("0123456789"));
  digits = digits.take_while([](char c) { return std::isdigit(c); });
  return "--gpu-architecture=compute_" + digits.str();
}

namespace {

using Role = ReferenceBuffer::Role;

/// `name` as a C identifier.
std::string cName(llvm::StringRef name) {
  std::string s;
  for (char c : name)
    s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

std::string dimsText(const std::vector<Dim> &dims) {
  std::string s;
  for (const Dim &d : dims)
    s += (s.empty() ? "" : ", ") +
         (d.isLiteral() ? std::to_string(d.literal) : d.size);
  return "[" + s + "]";
}

class Generator {
public:
  Generator(alg::KernelOp kernel, ReferenceProgram &program)
      : kernel(kernel), program(program) {}
  std::string run();

private:
  std::string addBuffer(Value value, llvm::StringRef name, Type type,
                        ArrayAttr dims, Role role);
  std::string addBuffers();
  std::string emitDefinition(alg::DefineOp def, unsigned buffer);
  std::string emitStatements(alg::DefineOp def, ReferenceBodyEmitter &body,
                             const std::vector<std::string> &index,
                             std::string &value);
  std::vector<unsigned> buffersOf(alg::DefineOp def, unsigned written);
  std::string signature(const ReferenceLaunch &launch);
  void emitHostLauncher(const ReferenceLaunch &launch);
  std::string header();
  std::string param(unsigned b) { return tensors[values[b]].param; }

  alg::KernelOp kernel;
  ReferenceProgram &program;
  std::vector<Value> values; // each buffer's value
  llvm::DenseMap<Value, ReferenceTensor> tensors;
  std::string kernels, launchers;
};

std::string Generator::addBuffer(Value value, llvm::StringRef name, Type type,
                                 ArrayAttr dims, Role role) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  Type element = tensorType ? tensorType.getElementType() : type;
  std::optional<rt::DType> dtype = dtypeOf(element);
  if (!dtype) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "the reference kernel does not support '" << name << "' of type "
       << type;
    return text;
  }
  ReferenceBuffer buffer;
  buffer.name = name.str();
  buffer.role = role;
  buffer.dtype = *dtype;
  ReferenceTensor tensor;
  tensor.param = "b_" + cName(name);
  if (llvm::any_of(tensors, [&](auto &t) { return t.second.param == tensor.param; }))
    tensor.param += "_" + std::to_string(program.buffers.size());
  tensor.dtype = *dtype;
  for (Attribute d : dims) {
    Dim dim;
    if (auto size = dyn_cast<StringAttr>(d))
      dim.size = size.getValue().str();
    else
      dim.literal = cast<IntegerAttr>(d).getInt();
    buffer.dims.push_back(dim);
    tensor.extents.push_back(ReferenceBodyEmitter::extentOf(d));
  }
  program.buffers.push_back(std::move(buffer));
  values.push_back(value);
  tensors[value] = std::move(tensor);
  return "";
}

std::string Generator::addBuffers() {
  ValueRange outputs = kernel.getReturn().getOutputs();
  for (Operation &op : kernel.getBody().front()) {
    std::string error;
    if (auto input = dyn_cast<alg::InputOp>(op)) {
      error = addBuffer(input.getResult(), input.getName(), input.getType(),
                        input.getDims(), Role::Input);
    } else if (auto def = dyn_cast<alg::DefineOp>(op)) {
      bool isOutput = llvm::is_contained(outputs, def.getResult());
      error = addBuffer(def.getResult(), def.getName(), def.getType(),
                        def.getDims(),
                        isOutput ? Role::Output : Role::Intermediate);
    } else if (isa<alg::OnlineReduceOp>(op)) {
      // The fused form the alg rewrites make: the reference is generated
      // before them (what --emit alg prints), from the definitions alone.
      return "the reference kernel does not support 'alg.online_reduce' "
             "(generate it from the alg IR before the alg rewrites)";
    } else if (!isa<alg::RequireOp, alg::ReturnOp, alg::SizeOp>(op) &&
               op.getName().getDialectNamespace() != "arith") {
      // (arith at the kernel level: require conditions, hoisted constants)
      return "the reference kernel does not support '" +
             op.getName().getStringRef().str() + "' in a kernel";
    }
    if (!error.empty())
      return error;
  }
  for (Value out : outputs) {
    auto it = llvm::find(values, out);
    if (it == values.end())
      return "the reference kernel needs every output defined by alg.define";
    program.outputs.push_back(it - values.begin());
  }
  return "";
}

/// The buffers `def` reads (tensors it loads, scalar inputs it uses) in
/// order, then `written`.
std::vector<unsigned> Generator::buffersOf(alg::DefineOp def,
                                           unsigned written) {
  std::set<unsigned> read;
  auto note = [&](Value v) {
    auto it = llvm::find(values, v);
    if (it != values.end() && unsigned(it - values.begin()) != written)
      read.insert(it - values.begin());
  };
  def->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      note(operand);
  });
  std::vector<unsigned> buffers(read.begin(), read.end());
  buffers.push_back(written);
  return buffers;
}

std::string Generator::signature(const ReferenceLaunch &launch) {
  std::string s;
  for (unsigned b : launch.buffers) {
    bool written = b == launch.buffers.back();
    s += std::string(s.empty() ? "" : ",\n    ") + (written ? "" : "const ") +
         referenceStorageType(program.buffers[b].dtype) + " *__restrict__ " +
         param(b);
  }
  for (const std::string &size : program.sizes)
    s += ",\n    long long " + ReferenceBodyEmitter::sizeParam(size);
  return s;
}

/// The value `def` stores at the thread's element (`index`): its body, or
/// its fold and epilogue.
std::string Generator::emitStatements(alg::DefineOp def,
                                      ReferenceBodyEmitter &body,
                                      const std::vector<std::string> &index,
                                      std::string &value) {
  std::vector<std::string> yielded;
  if (!def.isReduction()) {
    if (std::string e = body.emitBlock(def.getBody().front(), index, 2, yielded);
        !e.empty())
      return e;
    value = yielded.front();
    return "";
  }
  std::vector<std::string> extents;
  for (Attribute d : def.getReduceDimsAttr())
    extents.push_back(ReferenceBodyEmitter::extentOf(d));
  std::string folded;
  if (std::string e = body.emitFold(*def.getKind(), def.getBodyType(), extents,
                                    def.getBody().front(), index, 2, folded);
      !e.empty())
    return e;
  if (def.getEpilogue().empty()) {
    value = folded;
    return "";
  }
  std::vector<std::string> args = index;
  args.push_back(folded);
  if (std::string e = body.emitBlock(def.getEpilogue().front(), args, 2, yielded);
      !e.empty())
    return e;
  value = yielded.front();
  return "";
}

std::string Generator::emitDefinition(alg::DefineOp def, unsigned buffer) {
  ReferenceLaunch launch;
  launch.kernel = cName(program.name) + "_" +
                  std::to_string(program.launches.size()) + "_" +
                  cName(def.getName());
  launch.hostEntry = launch.kernel + "_host";
  launch.buffers = buffersOf(def, buffer);
  std::string text;
  ReferenceBodyEmitter body(text, tensors, program.sizes);
  text += "extern \"C\" __global__ void " + launch.kernel + "(\n    " +
          signature(launch) + ") {\n";
  // One thread an element of the definition, in row-major order.
  std::string total;
  for (const std::string &e : tensors[values[buffer]].extents)
    total += (total.empty() ? "" : " * ") + e;
  text += "  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  if (t >= " + (total.empty() ? "1LL" : total) + ") return;\n"
          "  long long rest = t;\n";
  unsigned rank = def.getRank();
  std::vector<std::string> index(rank);
  for (int d = int(rank) - 1; d >= 0; --d) {
    index[d] = "i" + std::to_string(d);
    const std::string &extent = tensors[values[buffer]].extents[d];
    text += "  long long " + index[d] + " = " +
            (d ? "rest % " + extent + "; rest /= " + extent : "rest") + ";\n";
  }
  for (unsigned b : launch.buffers)
    if (!isa<RankedTensorType>(values[b].getType())) { // a scalar input
      std::string local = "a" + param(b).substr(1);
      text += "  " + referenceValueType(values[b].getType()) + " " + local +
              " = " + referenceDecode(program.buffers[b].dtype, param(b) + "[0]") +
              ";\n";
      body.bind(values[b], local);
    }
  std::string value;
  if (std::string e = emitStatements(def, body, index, value); !e.empty())
    return "in '" + def.getName().str() + "': " + e;
  text += "  " + param(buffer) + "[t] = " +
          referenceEncode(program.buffers[buffer].dtype, value) + ";\n}\n\n";
  kernels += text;
  emitHostLauncher(launch);
  program.launches.push_back(std::move(launch));
  return "";
}

void Generator::emitHostLauncher(const ReferenceLaunch &launch) {
  std::string args;
  unsigned k = 0;
  for (unsigned b : launch.buffers) {
    args += std::string(k ? ",\n          " : "") + "(" +
            (b == launch.buffers.back() ? "" : "const ") +
            referenceStorageType(program.buffers[b].dtype) +
            " *)*(void **)params[" + std::to_string(k) + "]";
    ++k;
  }
  for (size_t s = 0; s < program.sizes.size(); ++s)
    args += ",\n          *(long long *)params[" + std::to_string(k++) + "]";
  launchers += "extern \"C\" void " + launch.hostEntry +
               "(void **params, unsigned grid, unsigned block) {\n"
               "  gridDim.x = grid; gridDim.y = gridDim.z = 1;\n"
               "  blockDim.x = block; blockDim.y = blockDim.z = 1;\n"
               "  for (unsigned b = 0; b < grid; ++b)\n"
               "    for (unsigned t = 0; t < block; ++t) {\n"
               "      blockIdx.x = b; threadIdx.x = t;\n"
               "      " + launch.kernel + "(" + args + ");\n"
               "    }\n}\n\n";
}

std::string Generator::header() {
  static const char *roles[] = {"input", "intermediate", "output"};
  std::string s =
      "// The reference kernels of '" + program.name +
      "' (nautc compile --emit reference-cuda), generated from\n"
      "// its alg IR: one kernel a definition, one thread an element of what "
      "it defines.\n//\n// Buffers (row-major; f16 and bf16 as their 16-bit "
      "encodings, bool as a byte):\n";
  for (size_t b = 0; b < program.buffers.size(); ++b) {
    const ReferenceBuffer &buffer = program.buffers[b];
    s += "//   " + std::to_string(b) + ". " + buffer.name + ": " +
         roles[int(buffer.role)] + ", " + rt::dtypeName(buffer.dtype) +
         (buffer.dims.empty() ? " scalar" : dimsText(buffer.dims)) + "\n";
  }
  s += "// Sizes (the int64 parameters after the buffers):";
  for (const std::string &size : program.sizes)
    s += " " + size;
  s += "\n//\n// Launch order: each launch after the previous one has "
       "finished, blocks of " +
       std::to_string(ReferenceProgram::kBlockThreads) +
       " threads,\n// ceil(elements / " +
       std::to_string(ReferenceProgram::kBlockThreads) +
       ") blocks, the elements of the last buffer it takes:\n";
  for (size_t l = 0; l < program.launches.size(); ++l) {
    const ReferenceLaunch &launch = program.launches[l];
    std::string args;
    for (unsigned b : launch.buffers)
      args += (args.empty() ? "" : ", ") + program.buffers[b].name;
    s += "//   " + std::to_string(l + 1) + ". " + launch.kernel + "(" + args +
         ", sizes...): " + dimsText(program.buffers[launch.buffers.back()].dims) +
         "\n";
  }
  s += "//\n// The same text compiles as host C++: there KERNEL_host(params, "
       "grid, block)\n// runs every block and thread of a launch in turn "
       "(params as cuLaunchKernel's\n// kernelParams: pointers to each "
       "argument).\n\n";
  return s;
}

std::string Generator::run() {
  program.name = kernel.getSymName().str();
  for (Attribute s : kernel.getSizes())
    program.sizes.push_back(cast<StringAttr>(s).getValue().str());
  if (std::string e = addBuffers(); !e.empty())
    return e;
  for (auto [b, value] : llvm::enumerate(values))
    if (auto def = value.getDefiningOp<alg::DefineOp>())
      if (std::string e = emitDefinition(def, b); !e.empty())
        return e;
  program.source = header() + referenceCudaPrelude() + "\n" + kernels +
                   "#if !defined(__CUDACC__)\n// Host launchers.\n" +
                   launchers + "#endif\n";
  return "";
}

} // namespace

std::string nautilus::generateReferenceCuda(alg::KernelOp kernel,
                                            ReferenceProgram &program) {
  program = ReferenceProgram();
  std::string error = Generator(kernel, program).run();
  if (!error.empty())
    program = ReferenceProgram();
  return error;
}
