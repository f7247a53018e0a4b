//===- TuningDatabase.cpp - Measured schedules, kept in a JSON file -------===//
#include "autoscheduler/TuningDatabase.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <fcntl.h>
#include <sys/file.h>
#include <tuple>
#include <unistd.h>

using namespace nautilus::autosched;
namespace json = llvm::json;

namespace {

constexpr int64_t kFormatVersion = 1;

/// The keys of `o` not in `known`, as a JSON object's text ("" if none).
std::string otherKeysOf(const json::Object &o,
                        std::initializer_list<llvm::StringRef> known) {
  json::Object others;
  for (const auto &[key, value] : o)
    if (llvm::find(known, key.str()) == known.end())
      others[key] = value;
  if (others.empty())
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << json::Value(std::move(others));
  return text;
}

/// Adds the keys `text` holds (otherKeysOf's) to `o`, where `o` has none
/// of that name.
void addOtherKeys(json::Object &o, const std::string &text) {
  if (text.empty())
    return;
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return;
  }
  if (json::Object *others = parsed->getAsObject())
    for (auto &[key, value] : *others)
      o.try_emplace(key, std::move(value));
}

auto keyOf(const TuningRecord &r) {
  return std::tie(r.kernelHash, r.target, r.sizes, r.machine);
}

int64_t nanoseconds(double us) { return int64_t(std::llround(us * 1e3)); }

/// A sample as [measured_ns, [compute, memory, overhead, pack]_ns, ...].
json::Array toJSON(const CpuSample &sample) {
  json::Array out{nanoseconds(sample.measuredUs)};
  for (const CpuTerms &t : sample.programs)
    out.push_back(json::Array{nanoseconds(t.compute), nanoseconds(t.memory),
                              nanoseconds(t.overhead), nanoseconds(t.pack)});
  return out;
}

std::optional<CpuSample> sampleFromJSON(const json::Value &value) {
  const json::Array *a = value.getAsArray();
  if (!a || a->empty() || !(*a)[0].getAsInteger())
    return std::nullopt;
  CpuSample sample;
  sample.measuredUs = double(*(*a)[0].getAsInteger()) * 1e-3;
  for (size_t i = 1; i < a->size(); ++i) {
    const json::Array *terms = (*a)[i].getAsArray();
    if (!terms || terms->size() != 4)
      return std::nullopt;
    double us[4];
    for (size_t j = 0; j < 4; ++j) {
      std::optional<int64_t> ns = (*terms)[j].getAsInteger();
      if (!ns)
        return std::nullopt;
      us[j] = double(*ns) * 1e-3;
    }
    sample.programs.push_back({us[0], us[1], us[2], us[3]});
  }
  return sample;
}

/// A GPU sample as [measured_ns, PROGRAM, ...], each PROGRAM
/// [fixed_ns, [count, compute_ns, memory_ns, floor_ns, added_ns], ...]
/// (GpuTerms.h).
json::Array toJSON(const GpuSample &sample) {
  json::Array out{nanoseconds(sample.measuredUs)};
  for (const GpuTerms &t : sample.programs) {
    json::Array program{nanoseconds(t.fixedUs)};
    for (const GpuWaveTerms &w : t.waves)
      program.push_back(json::Array{
          w.count, nanoseconds(w.computeUs), nanoseconds(w.memoryUs),
          nanoseconds(w.floorUs), nanoseconds(w.addedUs)});
    out.push_back(std::move(program));
  }
  return out;
}

/// Microseconds from the integer nanoseconds, at least 0, `value` holds.
std::optional<double> microsecondsOf(const json::Value &value) {
  std::optional<int64_t> ns = value.getAsInteger();
  if (!ns || *ns < 0)
    return std::nullopt;
  return double(*ns) * 1e-3;
}

std::optional<GpuTerms> gpuTermsFromJSON(const json::Value &value) {
  const json::Array *a = value.getAsArray();
  std::optional<double> fixed =
      a && !a->empty() ? microsecondsOf((*a)[0]) : std::nullopt;
  if (!fixed)
    return std::nullopt;
  GpuTerms terms;
  terms.fixedUs = *fixed;
  for (size_t i = 1; i < a->size(); ++i) {
    const json::Array *wave = (*a)[i].getAsArray();
    if (!wave || wave->size() != 5 || (*wave)[0].getAsInteger().value_or(0) < 1)
      return std::nullopt;
    double us[4];
    for (size_t j = 0; j < 4; ++j) {
      std::optional<double> term = microsecondsOf((*wave)[j + 1]);
      if (!term)
        return std::nullopt;
      us[j] = *term;
    }
    terms.waves.push_back(
        {*(*wave)[0].getAsInteger(), us[0], us[1], us[2], us[3]});
  }
  return terms;
}

std::optional<GpuSample> gpuSampleFromJSON(const json::Value &value) {
  const json::Array *a = value.getAsArray();
  std::optional<double> measured =
      a && !a->empty() ? microsecondsOf((*a)[0]) : std::nullopt;
  if (!measured)
    return std::nullopt;
  GpuSample sample{*measured, {}};
  for (size_t i = 1; i < a->size(); ++i) {
    std::optional<GpuTerms> terms = gpuTermsFromJSON((*a)[i]);
    if (!terms)
      return std::nullopt;
    sample.programs.push_back(std::move(*terms));
  }
  return sample;
}

json::Object toJSON(const TuningRecord &r) {
  json::Object sizes;
  for (const auto &[name, value] : r.sizes)
    sizes[name] = value;
  json::Value schedule = json::Object();
  if (llvm::Expected<json::Value> parsed = json::parse(r.schedule))
    schedule = std::move(*parsed);
  else
    llvm::consumeError(parsed.takeError());
  json::Object out{
      {"kernel_hash", r.kernelHash}, {"kernel", r.kernel},
      {"target", r.target},          {"machine", r.machine},
      {"sizes", std::move(sizes)},   {"schedule", std::move(schedule)},
      {"measured_ns", r.measuredNs}, {"baseline_ns", r.baselineNs},
      {"candidates", r.candidates}};
  if (!r.samples.empty()) {
    json::Array samples;
    for (const CpuSample &sample : r.samples)
      samples.push_back(toJSON(sample));
    out["cpu_model"] = json::Object{{"version", r.modelVersion},
                                    {"samples", std::move(samples)}};
  }
  if (!r.gpuSamples.empty()) {
    json::Array samples;
    for (const GpuSample &sample : r.gpuSamples)
      samples.push_back(toJSON(sample));
    out["gpu_model"] = json::Object{{"version", r.gpuModelVersion},
                                    {"samples", std::move(samples)}};
  }
  addOtherKeys(out, r.otherKeys);
  return out;
}

/// The record `value` holds, or "" and an error naming what is missing.
std::string fromJSON(const json::Value &value, size_t index, TuningRecord &r) {
  std::string where = "record " + std::to_string(index) + ": ";
  const json::Object *o = value.getAsObject();
  if (!o)
    return where + "not an object";
  auto string = [&](llvm::StringRef key, std::string &out) {
    std::optional<llvm::StringRef> s = o->getString(key);
    if (s)
      out = s->str();
    return s.has_value();
  };
  if (!string("kernel_hash", r.kernelHash) || !string("target", r.target))
    return where + "needs \"kernel_hash\" and \"target\" strings";
  string("kernel", r.kernel);
  string("machine", r.machine);
  const json::Object *sizes = o->getObject("sizes");
  const json::Object *schedule = o->getObject("schedule");
  if (!sizes || !schedule)
    return where + "needs \"sizes\" and \"schedule\" objects";
  for (const auto &[name, size] : *sizes) {
    std::optional<int64_t> n = size.getAsInteger();
    if (!n)
      return where + "size '" + name.str() + "' is not an integer";
    r.sizes[name.str()] = *n;
  }
  llvm::raw_string_ostream os(r.schedule);
  os << json::Value(json::Object(*schedule));
  r.otherKeys =
      otherKeysOf(*o, {"kernel_hash", "kernel", "target", "machine", "sizes",
                       "schedule", "measured_ns", "baseline_ns", "candidates",
                       "cpu_model", "gpu_model"});
  r.measuredNs = o->getInteger("measured_ns").value_or(0);
  r.baselineNs = o->getInteger("baseline_ns").value_or(0);
  r.candidates = o->getInteger("candidates").value_or(0);
  if (const json::Object *model = o->getObject("cpu_model")) {
    r.modelVersion = model->getInteger("version").value_or(0);
    const json::Array *samples = model->getArray("samples");
    if (!samples)
      return where + "\"cpu_model\" needs a \"samples\" array";
    for (const json::Value &value : *samples) {
      std::optional<CpuSample> sample = sampleFromJSON(value);
      if (!sample)
        return where + "a \"cpu_model\" sample is not [measured_ns, "
                       "[compute_ns, memory_ns, overhead_ns, pack_ns], ...]";
      r.samples.push_back(std::move(*sample));
    }
  }
  if (const json::Object *model = o->getObject("gpu_model")) {
    r.gpuModelVersion = model->getInteger("version").value_or(0);
    const json::Array *samples = model->getArray("samples");
    if (!samples)
      return where + "\"gpu_model\" needs a \"samples\" array";
    for (const json::Value &value : *samples) {
      std::optional<GpuSample> sample = gpuSampleFromJSON(value);
      if (!sample)
        return where +
               "a \"gpu_model\" sample is not [measured_ns, [fixed_ns, "
               "[count, compute_ns, memory_ns, floor_ns, added_ns], ...], "
               "...]";
      r.gpuSamples.push_back(std::move(*sample));
    }
  }
  return "";
}

/// How far `sizes` are from `other`'s, in powers of two; std::nullopt when
/// they name different sizes or fall in different buckets.
std::optional<double> bucketDistance(const std::map<std::string, int64_t> &a,
                                     const std::map<std::string, int64_t> &b) {
  if (a.size() != b.size())
    return std::nullopt;
  double distance = 0;
  for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
    if (ia->first != ib->first ||
        sizeBucket(ia->second) != sizeBucket(ib->second))
      return std::nullopt;
    distance += std::fabs(std::log2(double(std::max<int64_t>(ia->second, 1))) -
                          std::log2(double(std::max<int64_t>(ib->second, 1))));
  }
  return distance;
}

} // namespace

int64_t nautilus::autosched::sizeBucket(int64_t size) {
  return size <= 1 ? 1 : int64_t(llvm::PowerOf2Ceil(uint64_t(size)));
}

std::string TuningDatabase::parse(const std::string &text) {
  all.clear();
  otherKeys.clear();
  llvm::Expected<json::Value> value = json::parse(text);
  if (!value)
    return "not JSON: " + llvm::toString(value.takeError());
  const json::Object *top = value->getAsObject();
  const json::Array *records = top ? top->getArray("records") : nullptr;
  if (!records)
    return "expected {\"version\": 1, \"records\": [...]} (a tuning database "
           "as `nautc tune --db` writes it)";
  if (top->getInteger("version").value_or(0) != kFormatVersion)
    return "unknown version (this nautc reads version " +
           std::to_string(kFormatVersion) + ")";
  for (auto [i, value] : llvm::enumerate(*records)) {
    TuningRecord record;
    if (std::string e = fromJSON(value, i, record); !e.empty())
      return e;
    insert(std::move(record));
  }
  otherKeys = otherKeysOf(*top, {"version", "records"});
  return "";
}

std::string TuningDatabase::load(const std::string &path) {
  all.clear();
  if (!llvm::sys::fs::exists(path))
    return "";
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "cannot read '" + path + "': " + buffer.getError().message();
  if (std::string e = parse((*buffer)->getBuffer().str()); !e.empty())
    return "'" + path + "': " + e;
  return "";
}

std::string TuningDatabase::text() const {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "{\n  \"version\": " << kFormatVersion << ",\n";
  // Keys a newer nautc or a person added, each on a line of its own.
  json::Object others;
  addOtherKeys(others, otherKeys);
  std::vector<llvm::StringRef> names;
  for (const auto &[key, value] : others)
    names.push_back(key);
  llvm::sort(names);
  for (llvm::StringRef name : names)
    os << "  " << json::Value(name) << ": " << *others.get(name) << ",\n";
  os << "  \"records\": [";
  for (auto [i, record] : llvm::enumerate(all))
    os << (i ? ",\n    " : "\n    ") << json::Value(toJSON(record));
  os << (all.empty() ? "]\n}\n" : "\n  ]\n}\n");
  return out;
}

std::string TuningDatabase::save(const std::string &path) const {
  // A new file renamed over the old: a reader, or a full disk, never
  // meets half a database.
  std::string contents = text();
  if (llvm::Error e = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
        os << contents;
        return llvm::Error::success();
      }))
    return "cannot write '" + path + "': " + llvm::toString(std::move(e));
  return "";
}

std::string TuningDatabase::unwritable(const std::string &path) {
  llvm::SmallString<256> folder(path);
  llvm::sys::path::remove_filename(folder);
  if (folder.empty())
    folder = ".";
  if (!llvm::sys::fs::is_directory(folder))
    return "cannot write '" + path + "': its folder '" + folder.str().str() +
           "' does not exist";
  if (llvm::sys::fs::access(folder, llvm::sys::fs::AccessMode::Write))
    return "cannot write '" + path + "': its folder is not writable";
  if (llvm::sys::fs::exists(path) &&
      llvm::sys::fs::access(path, llvm::sys::fs::AccessMode::Write))
    return "cannot write '" + path + "': the file is not writable";
  return "";
}

namespace {

/// An exclusive lock on the folder of a file, held while it lives (flock:
/// released when the process ends, however it ends).
class FolderLock {
public:
  explicit FolderLock(const std::string &path) {
    llvm::SmallString<256> folder(path);
    llvm::sys::path::remove_filename(folder);
    if (folder.empty())
      folder = ".";
    fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0 && ::flock(fd, LOCK_EX) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ~FolderLock() {
    if (fd >= 0)
      ::close(fd); // (releases the lock)
  }
  FolderLock(const FolderLock &) = delete;
  FolderLock &operator=(const FolderLock &) = delete;
  bool held() const { return fd >= 0; }

private:
  int fd = -1;
};

} // namespace

std::string TuningDatabase::addToFile(const std::string &path,
                                      TuningRecord record) {
  FolderLock lock(path);
  if (!lock.held())
    return "cannot lock the folder of '" + path + "'";
  if (std::string e = load(path); !e.empty())
    return e;
  insert(std::move(record));
  return save(path);
}

void TuningDatabase::insert(TuningRecord record) {
  auto at = std::lower_bound(all.begin(), all.end(), record,
                             [](const TuningRecord &a, const TuningRecord &b) {
                               return keyOf(a) < keyOf(b);
                             });
  if (at != all.end() && keyOf(*at) == keyOf(record))
    *at = std::move(record);
  else
    all.insert(at, std::move(record));
}

std::vector<CpuSample>
TuningDatabase::cpuSamples(const std::string &machine) const {
  std::vector<CpuSample> samples;
  for (const TuningRecord &r : all)
    if (r.machine == machine && r.modelVersion == kCpuModelVersion)
      samples.insert(samples.end(), r.samples.begin(), r.samples.end());
  return samples;
}

std::vector<GpuSample>
TuningDatabase::gpuSamples(const std::string &target,
                           const std::string &machine) const {
  std::vector<GpuSample> samples;
  for (const TuningRecord &r : all)
    if (r.target == target && r.machine == machine &&
        r.gpuModelVersion == kGpuModelVersion)
      samples.insert(samples.end(), r.gpuSamples.begin(), r.gpuSamples.end());
  return samples;
}

std::string TuningDatabase::mostMeasuredGpu(const std::string &target) const {
  std::map<std::string, size_t> counts;
  for (const TuningRecord &r : all)
    if (r.target == target && r.gpuModelVersion == kGpuModelVersion)
      counts[r.machine] += r.gpuSamples.size();
  std::string most;
  size_t mostCount = 0;
  for (const auto &[machine, count] : counts)
    if (count > mostCount) {
      most = machine;
      mostCount = count;
    }
  return most;
}

std::optional<std::pair<const TuningRecord *, RecordMatch>>
TuningDatabase::lookup(const std::string &kernelHash, const std::string &target,
                       const std::map<std::string, int64_t> &sizes,
                       const std::string &machine) const {
  const TuningRecord *exact = nullptr, *nearest = nullptr;
  double nearestDistance = 0;
  // (`machine`'s record first among equals; else the first in the file's
  // order.)
  auto better = [&](const TuningRecord &r, const TuningRecord *than) {
    return !than || (r.machine == machine && than->machine != machine);
  };
  for (const TuningRecord &r : all) {
    if (r.kernelHash != kernelHash || r.target != target)
      continue;
    if (r.sizes == sizes) {
      if (better(r, exact))
        exact = &r;
      continue;
    }
    std::optional<double> d = bucketDistance(sizes, r.sizes);
    if (d && (!nearest || *d < nearestDistance ||
              (*d == nearestDistance && better(r, nearest)))) {
      nearest = &r;
      nearestDistance = *d;
    }
  }
  if (exact)
    return std::make_pair(exact, RecordMatch::Exact);
  if (!nearest)
    return std::nullopt;
  return std::make_pair(nearest, RecordMatch::Bucket);
}
