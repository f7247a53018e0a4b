//===- ResourceBudget.cpp - Shared memory and registers of a program ------===//
#include "dialects/Tile/Utils/ResourceBudget.h"
#include "dialects/Tile/Utils/ContractionStream.h"
#include "dialects/Tile/Utils/SiblingContracts.h"
#include "dialects/Tile/Utils/WgmmaPlan.h"

using namespace mlir;
using namespace nautilus;

int64_t nautilus::contractSharedMemoryBytes(tile::ContractOp contract,
                                            tile::ScheduleAttr schedule) {
  ArrayRef<int64_t> tile = schedule.getTile();
  int64_t k = schedule.getMma().getTileK();
  int64_t bytes = contract.getOperandElementType().getIntOrFloatBitWidth() / 8;
  // (Sibling contractions' stages hold the lhs tile once, then each
  // sibling's rhs tile.)
  int64_t rhsTiles = tile::siblingContracts(contract).size();
  return schedule.getMma().getStages() *
         (tile[tile.size() - 2] * k + rhsTiles * k * tile.back()) * bytes;
}

int64_t nautilus::streamSharedMemoryBytes(tile::ProgramOp program) {
  tile::ScheduleAttr schedule = program.getSchedule();
  tile::MmaAttr mma = schedule.getMma();
  if (!mma || program.getBody().getOps<tile::OnlineReduceOp>().empty())
    return 0;
  // K's and V's stages; on wgmma, Q's region after them (read by every
  // block's Q K^T): FlashWgmmaPlan lays them out.
  FlashWgmmaPlan plan = planFlashWgmma(program);
  int64_t stages =
      mma.getInstr() == "wgmma" ? plan.regionsEnd() : 2 * plan.valueOffset();
  // Copied by TMA: a stage's mbarrier each ("full"), and with a producer
  // warpgroup its "empty" one.
  if (!flashTensorMaps(program).empty())
    stages += 8 * mma.getStages() * (mma.getProducers() ? 2 : 1);
  return stages;
}

int64_t nautilus::staticSharedBudget(tile::ProgramOp program) {
  tile::ScheduleAttr schedule = program.getSchedule();
  tile::MmaAttr mma = schedule.getMma();
  tile::ContractOp contract = findContract(program);
  if (int64_t stages = streamSharedMemoryBytes(program)) {
    int64_t limit =
        mma.getInstr() == "wgmma" ? kSm90SharedLimit : kSm80SharedLimit;
    return std::clamp<int64_t>((limit - stages) / 1024 * 1024, 0,
                               kStaticSharedLimit);
  }
  if (!mma || !contract)
    return kStaticSharedLimit;
  // Dynamic shared memory starts 1024-byte aligned after the static.
  bool wgmma = mma.getInstr() == "wgmma";
  int64_t stages = wgmma ? planWgmma(contract, schedule).sharedBytes
                         : contractSharedMemoryBytes(contract, schedule);
  int64_t limit = wgmma ? kSm90SharedLimit : kSm80SharedLimit;
  return std::clamp<int64_t>((limit - stages) / 1024 * 1024, 0,
                             kStaticSharedLimit);
}
