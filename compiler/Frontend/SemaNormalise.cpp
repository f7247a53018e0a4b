//===- SemaNormalise.cpp - At most one reduction per definition -----------===//
//
// After checking, each tensor definition keeps at most one reduction, at
// the top of its expression tree modulo an elementwise epilogue: a
// reduction nested inside another, or a second reduction in the same
// definition, is hoisted into a fresh intermediate definition.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/KernelChecker.h"

#include "llvm/ADT/STLExtras.h"
#include <set>

using namespace nautilus::frontend;
using namespace nautilus::frontend::detail;

std::string KernelChecker::freshName(const std::string &base,
                                     ReductionKind kind) {
  while (true) {
    std::string name = base + "_" + reductionKindName(kind) +
                       std::to_string(hoisted++);
    if (!out.tensors.count(name) && !sizeNames.count(name) &&
        !out.scalarInputs.count(name) && !out.scalarDefs.count(name))
      return name;
  }
}

static unsigned countTopLevelReduces(const Expr &e) {
  if (e.kind == Expr::Kind::Reduce)
    return 1;
  unsigned n = 0;
  for (const ExprPtr &op : e.operands)
    n += countTopLevelReduces(*op);
  return n;
}

static void collectIndexVars(const Expr &e, std::set<std::string> &vars) {
  if (e.kind == Expr::Kind::Name && e.nameKind == NameKind::IndexVar)
    vars.insert(e.name);
  for (const ExprPtr &op : e.operands)
    collectIndexVars(*op, vars);
}

void KernelChecker::hoistNested(Expr &e, std::vector<std::string> &enclosing,
                                bool hoistHere, const Statement &stmt,
                                StatementInfo &info,
                                std::vector<Statement> &outStmts,
                                std::vector<StatementInfo> &outInfos) {
  // The statement's extents follow the reductions in scope: two that bind
  // one name may give it different extents.
  if (e.kind == Expr::Kind::Reduce)
    for (auto [v, dim] : llvm::zip_equal(e.boundIndices, e.boundExtents))
      info.extents[v] = dim;
  if (e.kind == Expr::Kind::Reduce && hoistHere) {
    // Its free index variables, in scope order, index the new definition.
    std::set<std::string> used;
    collectIndexVars(*e.operands[0], used);
    Statement def;
    def.kind = Statement::Kind::TensorDef;
    def.loc = e.loc;
    def.nameLoc = e.loc;
    def.name = freshName(stmt.name, e.reduction);
    StatementInfo defInfo;
    defInfo.valueType = e.type;
    // The enclosing definition's innermost index stays innermost (its
    // output, and usually its operands, are contiguous along it): the
    // enclosing reductions' indices go before it, so that a sum nested in
    // a sum over a small index (a mixture of experts' j) does not take
    // that index as its innermost dimension.
    std::vector<std::string> order(enclosing);
    if (!stmt.lhsIndices.empty()) {
      auto inner = llvm::find(order, stmt.lhsIndices.back());
      if (inner != order.end()) {
        std::string name = *inner;
        order.erase(inner);
        order.push_back(name);
      }
    }
    for (const std::string &v : order) {
      if (!used.count(v) || llvm::is_contained(e.boundIndices, v))
        continue;
      def.lhsIndices.push_back(v);
      def.lhsIndexLocs.push_back(e.loc);
    }
    for (const auto &[v, dim] : info.extents)
      if (used.count(v))
        defInfo.extents[v] = dim;

    auto access = std::make_unique<Expr>(Expr::Kind::Access, e.loc);
    access->name = def.name;
    access->nameKind = NameKind::Tensor;
    access->type = e.type;
    TensorInfo t;
    t.name = def.name;
    t.type = e.type;
    for (const std::string &v : def.lhsIndices) {
      auto index = std::make_unique<Expr>(Expr::Kind::Name, e.loc);
      index->name = v;
      index->nameKind = NameKind::IndexVar;
      index->type = ScalarType::I64;
      access->operands.push_back(std::move(index));
      t.dims.push_back(info.extents.at(v));
    }
    // Move the reduction into the new definition; the access takes its place.
    def.value = std::make_unique<Expr>(std::move(e));
    e = std::move(*access);
    out.tensors[def.name] = t;
    normaliseStatement(std::move(def), std::move(defInfo), outStmts, outInfos);
    return;
  }
  if (e.kind == Expr::Kind::Reduce) {
    // The one reduction kept here: hoist whatever is nested in its body.
    for (const std::string &v : e.boundIndices)
      enclosing.push_back(v);
    hoistNested(*e.operands[0], enclosing, /*hoistHere=*/true, stmt, info,
                outStmts, outInfos);
    enclosing.resize(enclosing.size() - e.boundIndices.size());
    return;
  }
  for (ExprPtr &op : e.operands)
    hoistNested(*op, enclosing, hoistHere, stmt, info, outStmts, outInfos);
}

void KernelChecker::normaliseStatement(Statement stmt, StatementInfo info,
                                       std::vector<Statement> &outStmts,
                                       std::vector<StatementInfo> &outInfos) {
  if (stmt.kind == Statement::Kind::TensorDef) {
    bool keepOne = countTopLevelReduces(*stmt.value) == 1;
    std::vector<std::string> enclosing = stmt.lhsIndices;
    hoistNested(*stmt.value, enclosing, /*hoistHere=*/!keepOne, stmt, info,
                outStmts, outInfos);
  }
  auto it = out.tensors.find(stmt.name);
  if (stmt.kind == Statement::Kind::TensorDef && it != out.tensors.end())
    it->second.definedBy = outStmts.size();
  else if (stmt.kind == Statement::Kind::ScalarDef)
    out.scalarDefs[stmt.name] = outStmts.size();
  outStmts.push_back(std::move(stmt));
  outInfos.push_back(std::move(info));
}

void KernelChecker::normalise() {
  std::vector<Statement> stmts;
  std::vector<StatementInfo> infos;
  for (unsigned i = 0; i < kernel.statements.size(); ++i)
    normaliseStatement(std::move(kernel.statements[i]),
                       std::move(out.statements[i]), stmts, infos);
  kernel.statements = std::move(stmts);
  out.statements = std::move(infos);
}
