//===- SampleShapes.cpp - Programs of unbound sizes ----------------------===//
#include "autoscheduler/SampleShapes.h"

#include <algorithm>
#include <cmath>

using namespace nautilus;
using namespace nautilus::autosched;

size_t nautilus::autosched::sampleShapesOf(size_t sizes) {
  size_t shapes = 1;
  for (size_t i = 0; i < sizes; ++i)
    shapes *= kUnboundSizeSamples.size();
  return shapes;
}

int64_t nautilus::autosched::sampleExtentOf(size_t shape, size_t size,
                                            size_t sizes) {
  size_t digit = shape;
  for (size_t later = size + 1; later < sizes; ++later)
    digit /= kUnboundSizeSamples.size();
  return kUnboundSizeSamples[digit % kUnboundSizeSamples.size()];
}

SampleRegrets
nautilus::autosched::regretsOver(const std::vector<double> &times,
                                 const std::vector<double> &bestUs) {
  SampleRegrets regrets;
  if (times.empty())
    return regrets;
  double logSum = 0;
  regrets.worst = 0;
  for (size_t s = 0; s < times.size(); ++s) {
    double regret =
        s < bestUs.size() && bestUs[s] > 0 ? times[s] / bestUs[s] : 1;
    logSum += std::log(regret);
    if (regret > regrets.worst) {
      regrets.worst = regret;
      regrets.worstSample = s;
    }
  }
  regrets.mean = std::exp(logSum / double(times.size()));
  return regrets;
}

bool nautilus::autosched::ranksBefore(const SampleRegrets &a,
                                      const SampleRegrets &b) {
  if (a.mean != b.mean)
    return a.mean < b.mean;
  return a.worst < b.worst;
}

bool nautilus::autosched::isPowerOfTwoTile(const std::vector<int64_t> &tile) {
  return std::all_of(tile.begin(), tile.end(),
                     [](int64_t t) { return t > 0 && (t & (t - 1)) == 0; });
}

std::string nautilus::autosched::sampleExtentsText() {
  std::string text;
  for (size_t i = 0; i < kUnboundSizeSamples.size(); ++i)
    text += (i == 0                                ? ""
             : i + 1 == kUnboundSizeSamples.size() ? " and "
                                                   : ", ") +
            std::to_string(kUnboundSizeSamples[i]);
  return text;
}

std::string
nautilus::autosched::sampleShapeText(const std::vector<std::string> &unbound,
                                     size_t shape) {
  std::string text;
  for (size_t i = 0; i < unbound.size(); ++i)
    text += (i ? ", " : "") + unbound[i] + "=" +
            std::to_string(sampleExtentOf(shape, i, unbound.size()));
  return text;
}
