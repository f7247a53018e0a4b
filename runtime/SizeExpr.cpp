//===- SizeExpr.cpp - Integer expressions over a kernel's sizes -----------===//
#include "runtime/SizeExpr.h"

#include <cctype>

#include <algorithm>
#include <limits>

namespace nautilus::rt {

namespace {

struct Operation {
  const char *name;
  size_t arity;
};

constexpr Operation kOperations[] = {
    {"add", 2}, {"sub", 2}, {"mul", 2}, {"div", 2},    {"rem", 2},
    {"min", 2}, {"max", 2}, {"neg", 1}, {"eq", 2},     {"ne", 2},
    {"lt", 2},  {"le", 2},  {"gt", 2},  {"ge", 2},     {"and", 2},
    {"or", 2},  {"xor", 2}, {"not", 1}, {"select", 3}, {"floordiv", 2},
    {"ult", 2}, {"ule", 2}, {"ugt", 2}, {"uge", 2}};

std::string describe(const SizeExpr &e) {
  switch (e.kind) {
  case SizeExpr::Kind::Constant:
    return std::to_string(e.constant);
  case SizeExpr::Kind::Size:
    return e.name;
  case SizeExpr::Kind::Operation:
    break;
  }
  std::string text = "(" + e.name;
  for (const SizeExpr &o : e.operands)
    text += " " + describe(o);
  return text + ")";
}

/// `a op b` for the binary operations; false when it overflows or divides
/// by zero.
bool apply(const std::string &op, int64_t a, int64_t b, int64_t &out) {
  if (op == "add")
    return !__builtin_add_overflow(a, b, &out);
  if (op == "sub")
    return !__builtin_sub_overflow(a, b, &out);
  if (op == "mul")
    return !__builtin_mul_overflow(a, b, &out);
  if (op == "div" || op == "rem" || op == "floordiv") {
    if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1))
      return false;
    out = op == "rem" ? a % b : a / b;
    if (op == "floordiv" && a % b != 0 && ((a < 0) != (b < 0)))
      --out;
    return true;
  }
  if (op == "and" || op == "or" || op == "xor") {
    out = op == "and" ? (a & b) : op == "or" ? (a | b) : (a ^ b);
    return true;
  }
  if (op[0] == 'u') { // ult, ule, ugt, uge
    auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    bool holds = op == "ult"   ? ua < ub
                 : op == "ule" ? ua <= ub
                 : op == "ugt" ? ua > ub
                               : ua >= ub;
    out = holds ? 1 : 0;
    return true;
  }
  if (op == "min" || op == "max") {
    out = op == "min" ? std::min(a, b) : std::max(a, b);
    return true;
  }
  bool result = op == "eq"   ? a == b
                : op == "ne" ? a != b
                : op == "lt" ? a < b
                : op == "le" ? a <= b
                : op == "gt" ? a > b
                             : a >= b; // ge
  out = result ? 1 : 0;
  return true;
}

} // namespace

bool isSizeOperation(const std::string &name, size_t arity) {
  for (const Operation &op : kOperations)
    if (name == op.name)
      return arity == op.arity;
  return false;
}

std::string evaluate(const SizeExpr &e,
                     const std::map<std::string, int64_t> &sizes,
                     int64_t &value) {
  switch (e.kind) {
  case SizeExpr::Kind::Constant:
    value = e.constant;
    return "";
  case SizeExpr::Kind::Size: {
    auto it = sizes.find(e.name);
    if (it == sizes.end())
      return "size '" + e.name + "' is not known";
    value = it->second;
    return "";
  }
  case SizeExpr::Kind::Operation:
    break;
  }
  if (!isSizeOperation(e.name, e.operands.size()))
    return "unknown operation '" + e.name + "' with " +
           std::to_string(e.operands.size()) + " operands";
  std::vector<int64_t> args(e.operands.size());
  for (size_t i = 0; i < args.size(); ++i)
    if (std::string error = evaluate(e.operands[i], sizes, args[i]);
        !error.empty())
      return error;
  if (e.name == "neg")
    return args[0] == std::numeric_limits<int64_t>::min()
               ? "overflow in " + describe(e)
               : (value = -args[0], "");
  if (e.name == "not")
    return value = args[0] == 0 ? 1 : 0, "";
  if (e.name == "select")
    return value = args[0] != 0 ? args[1] : args[2], "";
  if (!apply(e.name, args[0], args[1], value))
    return (e.name == "div" || e.name == "rem" || e.name == "floordiv") &&
                   args[1] == 0
               ? "division by zero in " + describe(e)
               : "overflow in " + describe(e);
  return "";
}

/// Whether `text` names `name` as a whole identifier.
static bool namesSize(const std::string &text, const std::string &name) {
  auto identifier = [](char c) {
    return std::isalnum((unsigned char)c) || c == '_';
  };
  for (size_t at = text.find(name); at != std::string::npos;
       at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    if ((at == 0 || !identifier(text[at - 1])) &&
        (end == text.size() || !identifier(text[end])))
      return true;
  }
  return false;
}

std::string requirementFailure(const std::string &text,
                               const std::map<std::string, int64_t> &sizes) {
  std::string values;
  for (const auto &[name, value] : sizes)
    if (namesSize(text, name))
      values +=
          (values.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  return "requirement '" + text + "' does not hold" +
         (values.empty() ? "" : " (" + values + ")");
}

std::string checkRequirements(const std::vector<Requirement> &requirements,
                              const std::map<std::string, int64_t> &sizes) {
  for (const Requirement &r : requirements) {
    int64_t holds = 0;
    if (std::string error = evaluate(r.condition, sizes, holds); !error.empty())
      return "requirement '" + r.text + "' cannot be checked: " + error;
    if (holds)
      continue;
    return requirementFailure(r.text, sizes);
  }
  return "";
}

} // namespace nautilus::rt
