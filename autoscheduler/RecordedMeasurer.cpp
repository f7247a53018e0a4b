//===- RecordedMeasurer.cpp - Times measured elsewhere, read back ---------===//
#include "autoscheduler/RecordedMeasurer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace nautilus::autosched;

namespace {

/// The times of a measurement's "us": positive finite numbers, at least
/// one; std::nullopt where not.
std::optional<std::vector<double>> timesOf(const llvm::json::Value *value) {
  const llvm::json::Array *array = value ? value->getAsArray() : nullptr;
  if (!array || array->empty())
    return std::nullopt;
  std::vector<double> times;
  for (const llvm::json::Value &t : *array) {
    std::optional<double> us = t.getAsNumber();
    if (!us || !std::isfinite(*us) || *us <= 0)
      return std::nullopt;
    times.push_back(*us);
  }
  return times;
}

} // namespace

std::string RecordedMeasurer::parse(const std::string &text,
                                    const Normalize &normalize) {
  llvm::Expected<llvm::json::Value> file = llvm::json::parse(text);
  if (!file)
    return "not JSON: " + llvm::toString(file.takeError());
  const llvm::json::Object *top = file->getAsObject();
  std::optional<llvm::StringRef> machine =
      top ? top->getString("machine") : std::nullopt;
  const llvm::json::Array *measurements =
      top ? top->getArray("measurements") : nullptr;
  if (!machine || machine->empty() || !measurements)
    return "a measurements file is an object with a \"machine\" (the device "
           "measured on) and a \"measurements\" array";
  device = machine->str();
  kernel = top->getString("kernel").value_or("").str();
  target = top->getString("target").value_or("").str();
  sizes.reset();
  if (const llvm::json::Value *given = top->get("sizes")) {
    const llvm::json::Object *object = given->getAsObject();
    if (!object)
      return "\"sizes\" is an object of each size's value";
    sizes.emplace();
    for (const auto &[name, value] : *object) {
      std::optional<int64_t> n = value.getAsInteger();
      if (!n)
        return "\"sizes\": '" + name.str() + "' is not an integer";
      (*sizes)[name.str()] = *n;
    }
  }
  recorded.clear();
  for (size_t i = 0; i < measurements->size(); ++i) {
    std::string where = "measurement " + std::to_string(i) + ": ";
    const llvm::json::Object *m = (*measurements)[i].getAsObject();
    const llvm::json::Value *schedule = m ? m->get("schedule") : nullptr;
    std::optional<std::vector<double>> us = timesOf(m ? m->get("us") : nullptr);
    if (!schedule || !us)
      return where + "needs a \"schedule\" (a schedule file's object) and "
                     "\"us\" (its times, positive microseconds)";
    std::string why;
    std::optional<ScheduleAssignment> assignment =
        scheduleAssignmentOf(*schedule, why);
    if (!assignment)
      return where + why;
    if (normalize)
      for (auto &[program, text] : assignment->programs) {
        std::optional<std::string> normal = normalize(text, why);
        if (!normal)
          return where + "program '" + program + "': " + why;
        text = std::move(*normal);
      }
    auto same = llvm::find_if(recorded, [&](const Recorded &r) {
      return r.assignment == *assignment;
    });
    if (same == recorded.end())
      recorded.push_back({std::move(*assignment), std::move(*us)});
    else
      same->us.insert(same->us.end(), us->begin(), us->end());
  }
  return "";
}

std::string RecordedMeasurer::load(const std::string &path,
                                   const Normalize &normalize) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "cannot read '" + path + "': " + buffer.getError().message();
  if (std::string e = parse((*buffer)->getBuffer().str(), normalize);
      !e.empty())
    return "'" + path + "': " + e;
  return "";
}

std::string RecordedMeasurer::mismatch(
    const std::string &kernelName, const std::string &targetName,
    const std::map<std::string, int64_t> &kernelSizes) const {
  if (!kernel.empty() && kernel != kernelName)
    return "its measurements are of kernel '" + kernel + "', not '" +
           kernelName + "'";
  if (!target.empty() && target != targetName)
    return "its measurements are for " + target + ", not " + targetName;
  if (sizes && *sizes != kernelSizes) {
    std::string stated;
    for (const auto &[name, value] : *sizes)
      stated +=
          (stated.empty() ? "" : ",") + name + "=" + std::to_string(value);
    return "its measurements are at " + (stated.empty() ? "no sizes" : stated) +
           ", not these sizes";
  }
  return "";
}

size_t RecordedMeasurer::used() const {
  return llvm::count_if(recorded, [](const Recorded &r) { return r.used; });
}

std::optional<Measurement>
RecordedMeasurer::measure(const ScheduleAssignment &assignment,
                          std::string &why) {
  auto found = llvm::find_if(
      recorded, [&](const Recorded &r) { return r.assignment == assignment; });
  if (found == recorded.end()) {
    why = "the measurements hold no time for it";
    return std::nullopt;
  }
  found->used = true;
  return Measurement{medianOf(found->us), found->us.size()};
}
