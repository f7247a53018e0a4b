//===- nautc.cpp - The Nautilus compiler driver ---------------------------===//
//
//   nautc compile FILE.tensor [-k KERNEL] --target T [--shape N=4096,...]
//                 [--emit KIND] [-o OUT]
//   nautc run     FILE.tensor [-k KERNEL] --shape ...
//                 [--device cpu|emu|cuda|hip|reference-host]
//                 [--input NAME=PATH.npy ...] [--seed N] [--save DIR]
//                 [--check] [--time] [--profile] [--fibre-order ORDER]
//                 [--kernel-ir PATH.ll]
//   nautc verify  FILE.tensor [-k KERNEL] --target T [--shape ...]
//                 [--mutate NAME|list]
//   nautc tune    FILE.tensor [-k KERNEL] --shape ... [--db PATH.json
//                 [--refit]] [--target T] [--device cpu|emu|cuda|hip]
//                 [--budget SECONDS] [--candidates N] [--per-program N]
//                 [--check] [--plan PATH.json | --measured PATH.json]
//
// Exit status: 0 success, 1 an error in the user's input, 2 bad usage,
// 3 an internal error, 4 results that --check finds wrong, 5 an invariant
// nautc verify refutes or cannot decide.
//
//===----------------------------------------------------------------------===//
#include "compiler/Schedule/AutoSchedules.h"
#include "compiler/Target/Target.h"
#include "runtime/emulator/SimtEmulator.h"
#include "tools/nautc/Commands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace nautilus;

static const char *const kUsage =
    R"(usage: nautc <command> FILE.tensor [options]

commands:
  compile   compile a kernel and write an artefact (--emit)
  run       run a kernel on a device, optionally checking it (--check)
  verify    prove the kernel's tile programs for the target: each
            invariant (layouts, shared memory, operand data flow,
            coverage, synchronisation) with its result and time, then
            lowers the programs on as compile does (a schedule the
            lowering refuses is an error); exits 5
            when one is refuted (compile and run verify too, and stop
            on a refuted invariant, unless --no-verify; a refuted
            --schedule auto choice gives way, with a warning, to the
            model's next candidate (the heuristics after three rounds),
            a refuted --db record to the schedules it wraps)
  tune      measure the kernel's structures and the model's best
            schedules of each program on --device (cpu for --target
            cpu; cuda, an NVIDIA GPU, for sm_80 and sm_90, or emu, the
            emulator, whose times are its own: a test of the tuner;
            hip, an AMD GPU, for gfx90a and gfx942), each checked
            against the heuristics' result first; write the fastest as
            a --db record (or print its schedule file)

options:
  -k NAME                the kernel to use (needed when the file has several)
  --target T             @TARGETS@ (default: cpu)
  --shape N=4096,D=128   bind sizes (compile) or give their values (run)
  --emit KIND            compile: alg, tile, gpu, llvm, obj, ptx, amdgcn,
                         bundle (the launch plan and the code, for the
                         runtime; every target), header (the bundle in a
                         C++ header with a typed launcher),
                         reference-cuda (plain CUDA C++
                         reference kernels, a kernel a definition, to
                         check a GPU's results with), reference-ptx
                         (their PTX from NVRTC, loaded at run time;
                         sm_* targets)
                         (default: obj for cpu, ptx for sm_*, amdgcn for gfx*)
  -o PATH                compile: where to write the artefact (default: stdout)
  --schedule S           default: the target's (auto on cpu, heuristics
                         on GPUs); heuristics (the hand-written
                         rules); auto (contractions with
                         bound M and N take the cost model's best of
                         their space: tensor-core schedules on GPUs
                         (with M or N unbound, the best over sample
                         shapes, or a copy for each range of M or N,
                         chosen at launch), where element-wise
                         programs and reductions of rows or columns
                         (row streams too) take tiles, threads,
                         groups, runs and splits (over up to four
                         unbound sizes, the best over sample shapes,
                         or over up to three a copy for each range of
                         a size, chosen at launch),
                         and flash kernels warps, key blocks and
                         splits (over unbound sizes, the best over
                         sample shapes, or over up to three a copy
                         for each range of a size, a copy for few
                         heads and many keys splitting them);
                         on the CPU every program with bound extents:
                         tiles, their rhs packed or not (and its
                         reduction in blocks of K or not), a stream's
                         split (an attention stream's rows); over up
                         to four unbound sizes, the tile best over
                         sample shapes, or a copy of the program for
                         each range of one or two sizes, chosen at
                         launch),
                         or a schedule file
                         (JSON):
                         {"programs": {"NAME": "#tile.schedule<...>"}}
                         replaces the schedules of the programs it names
                         ("fuse_reductions": false beside it keeps
                         chains of reductions separate programs,
                         "recompute_in_streams": false stores what
                         streams read, "fuse_shared_operands": false
                         keeps contractions that share an operand
                         separate programs (true asks for them in one
                         wherever the target runs them),
                         "sweep_row_consumers":
                         false keeps a GPU's softmax or norm Y a
                         program apart from its rows' reduction (true
                         asks for it in that program, the rows
                         re-scheduled shared where they are split),
                         "recompute_operands": false stores an
                         element-wise definition a reduction reads
                         again (a contraction's computed operand)
                         rather than recompute it at each read; the
                         heuristics schedule the programs it does not
                         name); with auto, the model also chooses
                         between those structures
  --db PATH.json         compile, run, verify: take the schedules of the
                         tuning database's record for the kernel, the
                         target and the sizes (or sizes in the same
                         power-of-two bucket), where it has one; tune: add the
                         record, with its measurements, there (the file
                         is created when missing; --device cpu, cuda or
                         hip, or --measured: the emulator's times go in
                         no database)
  --refit                with --db (compile, run with the model's
                         schedules: auto, the CPU's default; tune):
                         rank with the model refit to the database's
                         measurements: on the CPU those of this host, on
                         a GPU target those of the GPU tune measures on
                         (tune --measured: the file's; compile, run and
                         tune --plan: the GPU measured most for the
                         target) (opt-in: bench/cpu_tune.py measures the
                         CPU's)
  --budget SECONDS       tune: stop measuring after this long (default 60;
                         the candidates' search stops early enough to
                         measure the fastest again, by medians)
  --candidates N         tune: stop after N candidates tried (measured or
                         not: one that fails counts; default: no limit)
  --per-program N        tune: the model's best N schedules of each
                         program are tried (default 8)
  --plan PATH.json       tune: measure nothing; list the schedule files
                         the search would measure if the model ranked
                         right (the heuristics', the model's choices,
                         each program's candidates), with their predicted
                         times, for a GPU nautc does not run on
                         (bench/gpu/tuning.py compiles them, run_gemms.py
                         times them there)
  --measured PATH.json   tune: search with the times of a file
                         ({"machine": ..., "measurements": [{"schedule":
                         {...}, "us": [...]}]}: bench/gpu/tuning.py
                         import writes it) in place of --device; an
                         assignment it lacks is not measured; --db gets
                         the record, its samples of that machine (GPU
                         targets: the host CPU measures itself)
  --explain-candidates N|all
                         compile, run with the auto-scheduler (auto; the
                         CPU's default) and --explain: the candidates each
                         search lists (default 5)
  --search S             compile, run with the auto-scheduler: how each
                         space is searched under the model: auto
                         (the default: every candidate up to 4096,
                         evolution beyond), exhaustive, or evolutionary,
                         any of ,seed=N (default 0), ,candidates=N (the
                         predictions allowed; default a quarter of the
                         space, 64 to 2048) and ,seconds=S appended; a
                         line on the terminal shows an evolution's
                         progress
  --explain              how the schedules were decided: with the
                         auto-scheduler (auto; the CPU's default), each
                         choice, its predicted time and terms,
                         and the runners-up (on GPUs each as the
                         #tile.schedule a schedule file takes); with
                         --db, the record used; and each algebraic
                         rewrite (factors out of reductions, scales
                         into readers, exp to exp2) and fusion of
                         reductions applied or refused, with its reason
  --multiprocessors N    the multiprocessors (SMs) the schedules
                         spread a small problem over (default: the
                         target's, 108 for sm_80, 132 for sm_90, the
                         host's threads for cpu); 1 keeps the largest
                         tiles whatever the problem's size (but a
                         reduction's, which fit a block)
  --device cpu|emu|cuda|hip|reference-host
                         run, tune (tune: cpu, or cuda or emu for sm_80
                         and sm_90, hip for gfx90a and gfx942;
                         reference-host is run's): where to
                         run: the host CPU, or the SIMT
                         emulator running the NVIDIA kernels (--target
                         sm_80, the default there, or sm_90), or an
                         NVIDIA GPU through the driver (cuda device 0;
                         --check compares with the reference kernels
                         run on the GPU, compiled by NVRTC), or an AMD
                         GPU through ROCm's HIP runtime (hip device 0;
                         --target gfx90a, the default there, or gfx942;
                         --check compares with the interpreter), or the
                         reference kernels (--emit reference-cuda)
                         compiled for the host by $CXX or c++ (with
                         --check: the reference checked itself)
  --input NAME=PATH.npy  run: an input (others are random, seeded)
  --seed N               run: the seed of random inputs (default 0)
  --save DIR             run: write every output as DIR/NAME.npy
  --check                run, tune: compare with the reference interpreter
                         (each element within a unit of the output and
                         the computation's error, the mean error within
                         what rounding explains); a mismatch exits 4
  --time                 run: print the median time of repeated runs (on
                         the CPU, of the launches alone: buffers
                         allocated and inputs copied once)
  --profile              run --device emu: print each kernel's memory
                         traffic: shared (warp requests, wavefronts, bank
                         conflicts, as a GPU's 32 banks serve them) and
                         global (requests, 32-byte sectors, bytes used)
  --fibre-order ORDER    run --device emu: the order the emulator runs a
                         block's threads and the grid's blocks in:
                         ascending (the default), descending, random or
                         random:SEED (NAUTILUS_EMU_FIBRE_ORDER sets it
                         too); the race checks find the same races in
                         every order
  --kernel-ir PATH.ll    run --device emu: run these kernels (NVVM-level
                         LLVM IR, as --emit llvm prints it for sm_80 or
                         sm_90, perhaps edited by hand) in place of the
                         compiled ones, with the compiled program's
                         launches (grid, shared memory, workspaces,
                         tensor maps); each kernel launched must be
                         defined there with its compiled signature, and
                         a fault the emulator finds in them (a race) is
                         an error in the input
  --no-verify            compile, run, tune: skip the verifier's proofs
  --mutate NAME          verify: break the kernel's model on purpose first
                         (a test of the verifier; --mutate list names
                         them)
  -h, --help             this help

An option given to a command it is not listed for above is a usage error.

exit status:
  0  success (with --check: every output PASS)
  1  an error in the input (a diagnostic says which)
  2  bad usage
  3  an internal error: a bug in nautc (among them generated code that
     faults, on the emulator a race, an async hazard, a deadlock or an
     access out of bounds)
  4  run or tune --check: an output differs from the reference (FAIL)
  5  verify: an invariant refuted (or undecided); compile and run stop
     on a refuted one with status 3
)";

static int usageError(const std::string &message) {
  llvm::errs() << "nautc: " << message << "\n"
               << "Run 'nautc --help' for usage.\n";
  return kExitUsage;
}

/// The usage text, with the targets from the one list of them.
static void printUsage() {
  llvm::StringRef usage(kUsage);
  auto [before, after] = usage.split("@TARGETS@");
  llvm::outs() << before << targetNameList() << after;
}

/// The commands each option belongs to (an option given to another is a
/// usage error, not ignored); an option not listed is every command's.
static const char *commandsOf(llvm::StringRef option) {
  return llvm::StringSwitch<const char *>(option)
      .Cases({"--emit", "-o"}, "compile")
      .Case("--schedule", "compile, run, verify")
      .Cases({"--explain", "--explain-candidates", "--search"},
             "compile, run, verify")
      .Cases(
          {"--budget", "--candidates", "--per-program", "--plan", "--measured"},
          "tune")
      .Cases({"--device", "--input", "--seed", "--check"}, "run, tune")
      .Cases({"--save", "--time", "--profile", "--fibre-order", "--kernel-ir"},
             "run")
      .Case("--no-verify", "compile, run, tune")
      .Case("--mutate", "verify")
      .Default(nullptr);
}

/// "" when `option` is `command`'s, else the usage error.
static std::string optionError(const std::string &option,
                               const std::string &command) {
  const char *commands = commandsOf(option);
  if (!commands)
    return "";
  llvm::SmallVector<llvm::StringRef> owners;
  llvm::StringRef(commands).split(owners, ", ");
  if (llvm::is_contained(owners, command))
    return "";
  std::string list = owners.front().str();
  for (size_t i = 1; i < owners.size(); ++i)
    list += (i + 1 == owners.size() ? " and " : ", ") + owners[i].str();
  return option + " is an option of nautc " + list + ", not of " + command;
}

static int parseArgs(int argc, char **argv, Options &opts) {
  if (argc < 2)
    return usageError("missing command (compile, run, verify or tune)");
  std::string cmd = argv[1];
  if (cmd == "-h" || cmd == "--help") {
    printUsage();
    return -1;
  }
  if (cmd != "compile" && cmd != "run" && cmd != "verify" && cmd != "tune")
    return usageError("unknown command '" + cmd +
                      "' (expected compile, run, verify or tune)");
  opts.command = cmd;
  bool emitGiven = false;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string &out) -> bool {
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    std::string v;
    if (a == "-h" || a == "--help") {
      printUsage();
      return -1;
    }
    if (std::string e = optionError(a, cmd); !e.empty())
      return usageError(e);
    if (a == "--check") { opts.check = true; continue; }
    if (a == "--time") { opts.time = true; continue; }
    if (a == "--profile") { opts.profile = true; continue; }
    if (a == "--explain") { opts.explain = true; continue; }
    if (a == "--no-verify") { opts.noVerify = true; continue; }
    if (a == "--refit") { opts.refit = true; continue; }
    bool takesValue =
        a == "-k" || a == "--target" || a == "--shape" || a == "--emit" ||
        a == "-o" || a == "--device" || a == "--input" || a == "--seed" ||
        a == "--save" || a == "--schedule" || a == "--multiprocessors" ||
        a == "--fibre-order" || a == "--kernel-ir" || a == "--mutate" ||
        a == "--db" || a == "--budget" || a == "--candidates" ||
        a == "--per-program" || a == "--explain-candidates" ||
        a == "--search" || a == "--plan" || a == "--measured";
    if (takesValue) {
      if (!value(v))
        return usageError("option " + a + " needs a value");
      if (a == "-k") opts.kernel = v;
      else if (a == "--target") opts.target = v;
      else if (a == "--emit") { opts.emit = v; emitGiven = true; }
      else if (a == "-o") opts.output = v;
      else if (a == "--device") opts.device = v;
      else if (a == "--save") opts.saveDir = v;
      else if (a == "--schedule") opts.schedule = v;
      else if (a == "--kernel-ir") opts.kernelIR = v;
      else if (a == "--mutate") opts.mutation = v;
      else if (a == "--db") opts.db = v;
      else if (a == "--plan")
        opts.plan = v;
      else if (a == "--measured")
        opts.measured = v;
      else if (a == "--budget") {
        char *end = nullptr;
        double seconds = std::strtod(v.c_str(), &end);
        if (v.empty() || *end || !(seconds > 0))
          return usageError("--budget takes a positive number of seconds, "
                            "found '" + v + "'");
        opts.budgetSeconds = seconds;
      } else if (a == "--candidates" || a == "--per-program") {
        char *end = nullptr;
        long long n = std::strtoll(v.c_str(), &end, 10);
        if (v.empty() || *end || n < 1 || n > 1000000)
          return usageError(a + " takes a positive integer, found '" + v +
                            "'");
        (a == "--candidates" ? opts.budgetCandidates : opts.perProgram) =
            size_t(n);
      }
      else if (a == "--explain-candidates") {
        char *end = nullptr;
        long long n = std::strtoll(v.c_str(), &end, 10);
        if (v == "all")
          opts.explainCandidates = AutoSchedules::kAllCandidates;
        else if (v.empty() || *end || n < 1 || n > 1000000)
          return usageError("--explain-candidates takes a positive integer "
                            "or 'all', found '" + v + "'");
        else
          opts.explainCandidates = size_t(n);
      } else if (a == "--search") {
        std::string e;
        opts.search = autosched::SearchOptions::parse(v, e);
        if (!e.empty())
          return usageError("--search: " + e);
      } else if (a == "--fibre-order") {
        emu::FibreOrder order;
        if (std::string e = emu::parseFibreOrder(v, order); !e.empty())
          return usageError("--fibre-order: " + e);
        opts.fibreOrder = v;
      } else if (a == "--shape") {
        if (std::string e = parseShapeList(v, opts.shape); !e.empty())
          return usageError(e);
      } else if (a == "--input") {
        auto eq = v.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
          return usageError("--input takes NAME=PATH.npy, found '" + v + "'");
        opts.inputs[v.substr(0, eq)] = v.substr(eq + 1);
      } else if (a == "--multiprocessors") {
        char *end = nullptr;
        long long n = std::strtoll(v.c_str(), &end, 10);
        if (v.empty() || *end || n < 1 || n > 100000)
          return usageError("--multiprocessors takes a positive integer, "
                            "found '" + v + "'");
        opts.multiprocessors = n;
      } else if (a == "--seed") {
        char *end = nullptr;
        opts.seed = std::strtoull(v.c_str(), &end, 10);
        if (v.empty() || *end || v[0] == '-') // (strtoull takes -1)
          return usageError("--seed takes a non-negative integer");
      }
      continue;
    }
    if (!a.empty() && a[0] == '-' && a != "-")
      return usageError("unknown option '" + a + "'");
    if (!opts.file.empty())
      return usageError("more than one input file ('" + opts.file + "' and '" +
                        a + "')");
    opts.file = a;
  }
  if (opts.file.empty())
    return usageError("missing the .tensor file");
  if (opts.refit && opts.db.empty())
    return usageError("--refit ranks with a tuning database's "
                      "measurements: give it --db PATH.json");
  std::optional<TargetInfo> target = getTarget(opts.target);
  if (!target)
    return usageError("unknown target '" + opts.target + "' (expected " +
                      targetNameList() + ")");
  if (!emitGiven)
    opts.emit = target->isCPU()      ? "obj"
                : target->isNVIDIA() ? "ptx"
                                     : "amdgcn";
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options opts;
  if (int rc = parseArgs(argc, argv, opts))
    return rc < 0 ? kExitSuccess : rc;
  if (opts.command == "compile")
    return runCompile(opts);
  if (opts.command == "verify")
    return runVerify(opts);
  if (opts.command == "tune")
    return runTune(opts);
  return runRun(opts);
}
